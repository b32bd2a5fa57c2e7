package walkthrough

// Inline symbol references: Markdown links whose destination names a Go
// symbol. A parser.ASTTransformer turns them into refLink nodes at parse
// time; Load resolves each node and a Renderer writes the link its Links
// give with a GitHub permalink beside it.

import (
	"net/url"
	"regexp"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"github.com/kubewalk/kubewalk/analyzer/fact"
)

// KindRefLink is the node kind of an inline symbol reference.
var KindRefLink = ast.NewNodeKind("RefLink")

// refLink is a link to a Go symbol. Its children are the link text.
type refLink struct {
	ast.BaseInline
	// dest is the destination as written (after Markdown unescaping).
	dest []byte
	// title is the link title as written, nil if none.
	title []byte
	// ref is the parsed reference; err is set instead when it did not parse.
	ref fact.Ref
	err error
	// resolved is set by Load.
	resolved *fact.Resolved
	// mark is the {notrun=…} written right after the link, nil if none
	// (notrun.go).
	mark *refMark
}

func (n *refLink) Kind() ast.NodeKind { return KindRefLink }

func (n *refLink) Dump(source []byte, level int) {
	ast.DumpHelper(n, source, level, map[string]string{"Dest": string(n.dest)}, nil)
}

// refLinks is the goldmark extension for inline references, rendered
// with links (none when parsing only).
type refLinks struct{ links *Links }

func (e refLinks) Extend(m goldmark.Markdown) {
	m.Parser().AddOptions(
		parser.WithInlineParsers(util.Prioritized(refMarkParser{}, 100)),
		parser.WithASTTransformers(util.Prioritized(refTransformer{}, 100)),
	)
	if e.links != nil {
		m.Renderer().AddOptions(renderer.WithNodeRenderers(util.Prioritized(refRenderer{e.links}, 100)))
	}
}

type refTransformer struct{}

func (refTransformer) Transform(doc *ast.Document, _ text.Reader, pc parser.Context) {
	var links []*ast.Link
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if l, ok := n.(*ast.Link); ok && entering && isRefDest(string(l.Destination)) {
			links = append(links, l)
		}
		return ast.WalkContinue, nil
	})
	for _, l := range links {
		r := &refLink{dest: l.Destination, title: l.Title}
		r.ref, r.err = refOfDest(string(l.Destination))
		for c := l.FirstChild(); c != nil; {
			next := c.NextSibling()
			r.AppendChild(r, c)
			c = next
		}
		l.Parent().ReplaceChild(l.Parent(), l, r)
	}
	takeMarks(doc, pc)
}

// isRefDest reports whether a link destination is a symbol reference: a
// "go:" reference, or a pkg.go.dev URL with a fragment (a package link
// without a fragment stays an ordinary link).
func isRefDest(dest string) bool {
	if strings.HasPrefix(dest, "go:") {
		return true
	}
	_, ok := pkgGoDevName(dest)
	return ok
}

var goIdent = regexp.MustCompile(`^[\pL_][\pL\pN_]*(\.[\pL_][\pL\pN_]*)?$`)

// pkgGoDevName turns https://pkg.go.dev/<importpath>[@version][/more]#Name
// (or #Type.Method) into "importpath.Name". pkg.go.dev puts the version
// after the module path ("k8s.io/client-go@v0.31.0/tools/cache"); the
// version is dropped: the tag being built decides.
func pkgGoDevName(dest string) (string, bool) {
	u, err := url.Parse(dest)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host != "pkg.go.dev" {
		return "", false
	}
	if !goIdent.MatchString(u.Fragment) {
		return "", false
	}
	var segs []string
	for _, s := range strings.Split(strings.Trim(u.Path, "/"), "/") {
		if at := strings.Index(s, "@"); at >= 0 {
			s = s[:at]
		}
		if s != "" {
			segs = append(segs, s)
		}
	}
	if len(segs) == 0 {
		return "", false
	}
	return strings.Join(segs, "/") + "." + u.Fragment, true
}

// refOfDest parses a reference destination.
func refOfDest(dest string) (fact.Ref, error) {
	if s, ok := strings.CutPrefix(dest, "go:"); ok {
		return fact.ParseRef(s)
	}
	name, _ := pkgGoDevName(dest)
	return fact.ParseRef(name)
}

// refPos returns the source offset of a link's text, for its line and
// column: the first text segment under it, minus one for the "[".
func refPos(n ast.Node, source []byte) int {
	off := -1
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if t, ok := c.(*ast.Text); ok && entering {
			off = t.Segment.Start
			return ast.WalkStop, nil
		}
		if cs, ok := c.(*ast.CodeSpan); ok && entering && cs.FirstChild() != nil {
			if t, ok := cs.FirstChild().(*ast.Text); ok {
				off = t.Segment.Start
				for off > 0 && source[off-1] == '`' {
					off--
				}
				return ast.WalkStop, nil
			}
		}
		return ast.WalkContinue, nil
	})
	if off > 0 && source[off-1] == '[' {
		off--
	}
	return off
}

type refRenderer struct{ links *Links }

func (r refRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(KindRefLink, r.renderRefLink)
}

// renderRefLink writes
//
//	<a class="symref" href="SITE" title="path:from-to">text</a><a class="symref-gh" href="PERMALINK" title="GitHub" aria-label="GitHub">↗</a>
//
// or what Links.RefTarget gives, with its Mark as both links' data-l.
// An unresolved node (Parse without Load) renders as the link it was.
func (r refRenderer) renderRefLink(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	n := node.(*refLink)
	var t RefTarget
	switch {
	case n.resolved == nil:
		t.Href = string(n.dest)
	case r.links.RefTarget != nil:
		t = r.links.RefTarget(*n.resolved)
	default:
		t.Href, t.Permalink, t.Title = linkTargets(r.links, *n.resolved)
		if t.Permalink == t.Href {
			t.Permalink = ""
		}
	}
	title := []byte(t.Title)
	if n.title != nil {
		title = n.title
	}
	if entering {
		w.WriteString(`<a class="symref" href="`)
		writeURL(w, t.Href)
		w.WriteString(`"`)
		if len(title) > 0 {
			w.WriteString(` title="`)
			// As goldmark writes link titles: backslash escapes and
			// entities resolved, then escaped.
			html.DefaultWriter.Write(w, title)
			w.WriteString(`"`)
		}
		writeMark(w, t.Mark)
		w.WriteString(`>`)
		return ast.WalkContinue, nil
	}
	w.WriteString(`</a>`)
	if t.Permalink != "" {
		w.WriteString(`<a class="symref-gh" href="`)
		writeURL(w, t.Permalink)
		w.WriteString(`"`)
		writeMark(w, t.Mark)
		w.WriteString(` title="GitHub" aria-label="GitHub">↗</a>`)
	}
	return ast.WalkContinue, nil
}

// writeMark writes a link's data-l, RefTarget.Mark, when it has one.
func writeMark(w util.BufWriter, mark string) {
	if mark != "" {
		w.WriteString(` data-l="`)
		w.Write(util.EscapeHTML([]byte(mark)))
		w.WriteString(`"`)
	}
}

// writeURL writes an escaped href, empty for a dangerous scheme exactly as
// goldmark does for ordinary links: SymbolURL and Permalink are the
// renderer's own, but an unresolved destination comes straight from the Markdown.
func writeURL(w util.BufWriter, s string) {
	u := util.URLEscape([]byte(s), true)
	if !html.IsDangerousURL(u) {
		w.Write(util.EscapeHTML(u))
	}
}

// linkTargets is a resolved reference's href, permalink and file:lines
// label.
func linkTargets(opts *Links, r fact.Resolved) (href, perma, where string) {
	loc := r.Symbol.Decl
	from, to := loc.StartLine, loc.EndLine
	if len(r.Matched) > 0 {
		from, to = r.Matched[0], r.Matched[len(r.Matched)-1]
	}
	if opts.Permalink != nil {
		perma = opts.Permalink(loc.Path, from, to)
	} else {
		perma = pkgGoDevURL(r.Symbol.Name)
	}
	if opts.SymbolURL != nil {
		href = opts.SymbolURL(r)
	} else {
		href = perma
	}
	where = loc.Path + ":" + itoa(from)
	if to != from {
		where += "-" + itoa(to)
	}
	return href, perma, where
}

// pkgGoDevURL is the fallback link for a symbol when the caller gives no
// Permalink: its documentation.
func pkgGoDevURL(name string) string {
	pkg, member, ok := fact.SplitSymbol(name)
	if !ok {
		return "https://pkg.go.dev/" + name
	}
	return "https://pkg.go.dev/" + pkg + "#" + member
}
