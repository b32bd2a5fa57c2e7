package walkthrough

// Ordinary fenced code blocks (YAML manifests, shell sessions, JSON, Go
// examples). This package keeps their text and language, and renders them
// as <pre class="code block"><code>…</code></pre>; what goes inside is
// Links.HighlightCode's, so the site highlights them with the same
// highlighter and CSS classes as its source pages (one stylesheet, light
// and dark, covers both) while walkthrough depends on no HTML renderer.
// Without HighlightCode, the text is escaped, not highlighted.
//
// Not goldmark-highlighting: that extension's newest release (2023) pins
// chroma v2.2 and reads attributes from the info string ({hl_lines=…
// style=… linenos=…}) — more surface to audit against hostile input for
// nothing a walkthrough needs.

import (
	"bytes"
	"html"
	"html/template"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/util"
)

// codeBlocks is the goldmark extension for fenced code, rendered with
// links' highlighter (none when parsing only).
type codeBlocks struct{ links *Links }

func (e codeBlocks) Extend(m goldmark.Markdown) {
	if e.links == nil {
		return
	}
	// Priority above goldmark's own HTML renderer (1000 and lower win
	// later registration): registered after it, so this one is used.
	m.Renderer().AddOptions(renderer.WithNodeRenderers(util.Prioritized(codeRenderer{e.links.HighlightCode}, 100)))
}

type codeRenderer struct {
	highlight func(lang string, code []byte) template.HTML
}

func (r codeRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindFencedCodeBlock, r.renderCodeBlock)
}

// codeText returns a fenced block's language word and text, without its
// final newline.
func codeText(n *ast.FencedCodeBlock, source []byte) (lang string, code []byte) {
	var b bytes.Buffer
	for i := 0; i < n.Lines().Len(); i++ {
		seg := n.Lines().At(i)
		b.Write(seg.Value(source))
	}
	return string(n.Language(source)), bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// renderCodeBlock writes a fenced block as highlight makes it, or its
// text escaped without a highlighter and for excerpt and facts blocks
// (which Load makes segments of their own, so that only one nested in
// another block, a list item, say, is rendered here).
func (r codeRenderer) renderCodeBlock(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkSkipChildren, nil
	}
	n := node.(*ast.FencedCodeBlock)
	w.WriteString(`<pre class="code block"><code>`)
	lang, code := codeText(n, source)
	if r.highlight != nil && lang != "excerpt" && lang != "facts" {
		// Links.HighlightCode's promise: every byte of the text escaped.
		w.WriteString(string(r.highlight(lang, code)))
	} else {
		w.WriteString(html.EscapeString(string(code)))
	}
	w.WriteString("</code></pre>\n")
	return ast.WalkSkipChildren, nil
}
