package walkthrough

import (
	"bytes"
	"html/template"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/util"

	"github.com/kubewalk/kubewalk/analyzer/fact"
)

// Markdown is a run of a walkthrough's Markdown blocks, parsed and with
// its references resolved: plain data, which a Renderer makes HTML of
// with the link rules of whoever shows it. Blocks are goldmark nodes
// over Source: an inline symbol reference is a node of kind KindRefLink
// carrying what it resolved to, a link to another walkthrough one of
// kind KindWalkLink naming it, fenced code an *ast.FencedCodeBlock with
// its language and text. The nodes are shared by every reader of the
// Doc: they are read, never changed.
type Markdown struct {
	Source []byte     `json:"-"`
	Blocks []ast.Node `json:"-"`
}

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

// NewRenderer returns the Renderer of links.
func NewRenderer(links Links) *Renderer {
	return &Renderer{r: newMarkdown(&links).Renderer()}
}

// HTML renders m: goldmark with raw HTML off, so it holds only markup
// goldmark itself generated and escaped text. Inline references are
// <a class="symref" href=SymbolURL title="path:L-L"> followed by
// <a class="symref-gh" href=Permalink>↗</a>; other fenced code is
// <pre class="code block"><code> around what Links.HighlightCode made of
// it (escaped text without one).
func (r *Renderer) HTML(m *Markdown) (template.HTML, error) {
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

// Text is m's text without markup: its words as a reader sees them, a
// block's on a line of its own (a code block's lines as written). Raw
// HTML, which no page shows, is left out.
func (m *Markdown) Text() string {
	var sb strings.Builder
	newline := func() {
		if sb.Len() > 0 && !strings.HasSuffix(sb.String(), "\n") {
			sb.WriteByte('\n')
		}
	}
	for _, n := range m.Blocks {
		_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
			if !entering {
				return ast.WalkContinue, nil
			}
			switch c := c.(type) {
			case *ast.Text:
				v := c.Segment.Value(m.Source)
				if c.Parent().Kind() != ast.KindCodeSpan {
					// As a reader sees it: backslash escapes and entities
					// resolved, as goldmark's HTML writer resolves them.
					v = util.ResolveEntityNames(util.ResolveNumericReferences(util.UnescapePunctuations(v)))
				}
				sb.Write(v)
				if c.SoftLineBreak() || c.HardLineBreak() {
					sb.WriteByte('\n')
				}
			case *ast.String:
				sb.Write(c.Value)
			case *ast.AutoLink:
				sb.Write(c.Label(m.Source))
			case *ast.RawHTML, *ast.HTMLBlock:
				return ast.WalkSkipChildren, nil
			case *ast.FencedCodeBlock, *ast.CodeBlock:
				newline()
				lines := c.Lines()
				for i := 0; i < lines.Len(); i++ {
					seg := lines.At(i)
					sb.Write(seg.Value(m.Source))
				}
				return ast.WalkSkipChildren, nil
			default:
				if c.Type() == ast.TypeBlock {
					newline()
				}
			}
			return ast.WalkContinue, nil
		})
	}
	return strings.TrimSpace(sb.String())
}
