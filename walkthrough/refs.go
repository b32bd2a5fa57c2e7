package walkthrough

// Inline symbol references: Markdown links whose destination names a Go
// symbol. A parser.ASTTransformer turns them into refLink nodes at parse
// time and Load resolves each; whoever renders the Markdown reads the
// node through RefNodeOf.

import (
	"net/url"
	"regexp"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
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

// refLinks is the goldmark extension that parses inline references.
type refLinks struct{}

func (refLinks) Extend(m goldmark.Markdown) {
	m.Parser().AddOptions(
		parser.WithInlineParsers(util.Prioritized(refMarkParser{}, 100)),
		parser.WithASTTransformers(util.Prioritized(refTransformer{}, 100)),
	)
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
