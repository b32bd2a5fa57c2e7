// Package prosehtml makes HTML of walkthroughs' Markdown
// (walkthrough.Markdown) with the link rules of the pages that show it:
// goldmark's HTML renderer, raw HTML off, with renderers of its own for
// the nodes package walkthrough adds — inline symbol references, links
// between walkthroughs — and for fenced code, which it hands to the
// page's highlighter.
//
// Fenced code is not goldmark-highlighting's: that extension's newest
// release (2023) pins chroma v2.2 and reads attributes from the info
// string ({hl_lines=… style=… linenos=…}) — more surface to audit against
// hostile input for nothing a walkthrough needs. The site highlights it
// as its source pages, with one stylesheet (Links.HighlightCode).
package prosehtml

import (
	"bytes"
	"html"
	"html/template"
	"strconv"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer"
	ghtml "github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/util"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/walkthrough"
)

// Links are where a rendered walkthrough's links go: the rules of the
// site (or other document) that shows it.
type Links struct {
	// SymbolURL is the href of an inline reference, relative to the page
	// the walkthrough is shown on. nil: the permalink.
	SymbolURL func(r fact.Resolved) string
	// Permalink is the GitHub URL of lines from..to of a file at the tag.
	// nil: inline references link to the symbol's pkg.go.dev page.
	Permalink func(path string, from, to int) string
	// WalkthroughURL is the href of a link to another walkthrough
	// ("informers.md#step-1-…" in the Markdown), relative to the page
	// the walkthrough is shown on, anchor "" for the walkthrough itself.
	// nil: the link stays as written, which is right on GitHub.
	WalkthroughURL func(id, anchor string) string
	// HighlightCode returns the HTML of a fenced code block's text (lang is
	// the info string's first word, "" for none; code has no final
	// newline): what goes inside <pre class="code block"><code>, lines
	// separated by "\n". It is used as it is, so it must escape every byte
	// of code. nil: the text escaped, not highlighted.
	HighlightCode func(lang string, code []byte) template.HTML
	// RefTarget, when set, gives an inline reference's links and title
	// whole, in place of SymbolURL, Permalink and the "path:from-to"
	// title they make, for a page that prints lines its own way; the
	// permalink is written whenever it is not "".
	RefTarget func(r fact.Resolved) RefTarget
}

// RefTarget is an inline reference as Links.RefTarget renders it.
type RefTarget struct {
	Href, Title, Permalink string
	// Mark, when not "", is written as both links' data-l: the lines as
	// the page's script renumbers them.
	Mark string
}

// Renderer makes HTML of walkthroughs' Markdown with one set of Links.
// It is safe for concurrent use.
type Renderer struct{ r renderer.Renderer }

// NewRenderer returns the Renderer of links: goldmark's, with the
// renderers of the extensions walkthroughs are parsed with (tables,
// strikethrough) and this package's, which take precedence over
// goldmark's own (priority 100 against its 1000).
func NewRenderer(links Links) *Renderer {
	// Raw HTML stays off: no html.WithUnsafe(), so inline and block HTML
	// render as "<!-- raw HTML omitted -->" and dangerous link schemes
	// (javascript:, vbscript:, file:, data: other than images) get an
	// empty href.
	m := goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough))
	m.Renderer().AddOptions(renderer.WithNodeRenderers(util.Prioritized(nodeRenderer{&links}, 100)))
	return &Renderer{r: m.Renderer()}
}

// HTML renders m: goldmark with raw HTML off, so it holds only markup
// goldmark itself generated and escaped text. Inline references are
// <a class="symref" href=SymbolURL title="path:L-L"> followed by
// <a class="symref-gh" href=Permalink>↗</a>; other fenced code is
// <pre class="code block"><code> around what Links.HighlightCode made of
// it (escaped text without one).
func (r *Renderer) HTML(m *walkthrough.Markdown) (template.HTML, error) {
	var buf bytes.Buffer
	for _, n := range m.Blocks {
		if err := r.r.Render(&buf, m.Source, n); err != nil {
			return "", err
		}
	}
	// Safe: goldmark output with raw HTML off; the reference, link and
	// code block renderers escape everything they write.
	return template.HTML(buf.String()), nil
}

// nodeRenderer renders the nodes whose HTML the Links decide.
type nodeRenderer struct{ links *Links }

func (r nodeRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(walkthrough.KindRefLink, r.renderRefLink)
	reg.Register(walkthrough.KindWalkLink, r.renderWalkLink)
	reg.Register(ast.KindFencedCodeBlock, r.renderCodeBlock)
}

// renderRefLink writes
//
//	<a class="symref" href="SITE" title="path:from-to">text</a><a class="symref-gh" href="PERMALINK" title="GitHub" aria-label="GitHub">↗</a>
//
// or what Links.RefTarget gives, with its Mark as both links' data-l.
// An unresolved node (walkthrough.Parse without Load) renders as the
// link it was.
func (r nodeRenderer) renderRefLink(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	n, _ := walkthrough.RefNodeOf(node)
	var t RefTarget
	switch {
	case n.Resolved == nil:
		t.Href = n.Dest
	case r.links.RefTarget != nil:
		t = r.links.RefTarget(*n.Resolved)
	default:
		t.Href, t.Permalink, t.Title = linkTargets(r.links, *n.Resolved)
		if t.Permalink == t.Href {
			t.Permalink = ""
		}
	}
	title := []byte(t.Title)
	if n.Title != nil {
		title = n.Title
	}
	if entering {
		w.WriteString(`<a class="symref" href="`)
		writeURL(w, t.Href)
		w.WriteString(`"`)
		if len(title) > 0 {
			w.WriteString(` title="`)
			// As goldmark writes link titles: backslash escapes and
			// entities resolved, then escaped.
			ghtml.DefaultWriter.Write(w, title)
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
	if !ghtml.IsDangerousURL(u) {
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
	where = loc.Path + ":" + strconv.Itoa(from)
	if to != from {
		where += "-" + strconv.Itoa(to)
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

// renderWalkLink writes the link as goldmark writes a link, to
// Links.WalkthroughURL's href for the walkthrough and step, or without
// one to "<id>.md#anchor" (a translation's "<id>.ko.md" is its
// original's page on GitHub too).
func (r nodeRenderer) renderWalkLink(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		w.WriteString("</a>")
		return ast.WalkContinue, nil
	}
	n, _ := walkthrough.WalkNodeOf(node)
	dest := n.ID + ".md"
	if n.Anchor != "" {
		dest += "#" + n.Anchor
	}
	if r.links.WalkthroughURL != nil {
		dest = r.links.WalkthroughURL(n.ID, n.Anchor)
	}
	w.WriteString(`<a href="`)
	writeURL(w, dest)
	w.WriteString(`"`)
	if n.Title != nil {
		w.WriteString(` title="`)
		ghtml.DefaultWriter.Write(w, n.Title)
		w.WriteString(`"`)
	}
	w.WriteString(">")
	return ast.WalkContinue, nil
}

// renderCodeBlock writes a fenced block as Links.HighlightCode makes it,
// or its text escaped without a highlighter and for excerpt and facts
// blocks (which walkthrough.Load makes segments of their own, so that
// only one nested in another block, a list item, say, is rendered here).
func (r nodeRenderer) renderCodeBlock(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkSkipChildren, nil
	}
	w.WriteString(`<pre class="code block"><code>`)
	lang, code := walkthrough.CodeText(node.(*ast.FencedCodeBlock), source)
	if r.links.HighlightCode != nil && lang != "excerpt" && lang != "facts" {
		// Links.HighlightCode's promise: every byte of the text escaped.
		w.WriteString(string(r.links.HighlightCode(lang, code)))
	} else {
		w.WriteString(html.EscapeString(string(code)))
	}
	w.WriteString("</code></pre>\n")
	return ast.WalkSkipChildren, nil
}
