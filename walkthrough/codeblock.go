package walkthrough

// Ordinary fenced code blocks (YAML manifests, shell sessions, JSON, Go
// examples). This package keeps their text and language, and renders them
// as <pre class="code block"><code>…</code></pre>; what goes inside is
// Options.HighlightCode's, so the site highlights them with the same
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

// codeBlocks is the goldmark extension for fenced code.
type codeBlocks struct{}

func (codeBlocks) Extend(m goldmark.Markdown) {
	// Priority above goldmark's own HTML renderer (1000 and lower win
	// later registration): registered after it, so this one is used.
	m.Renderer().AddOptions(renderer.WithNodeRenderers(util.Prioritized(codeRenderer{}, 100)))
}

type codeRenderer struct{}

func (codeRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindFencedCodeBlock, renderCodeBlock)
}

// codeHTML names the attribute through which build hands a block's
// highlighted HTML to renderCodeBlock: the one goldmark renderer serves
// every build, so what a build's Options decide travels in the AST, as
// refLink's hrefs do.
const codeHTML = "kubewalk-code-html"

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

// highlightCode runs highlight over every fenced code block under n that
// is rendered as code (excerpt and facts blocks are not), keeping the
// result on the node for renderCodeBlock.
func highlightCode(n ast.Node, source []byte, highlight func(lang string, code []byte) template.HTML) {
	if highlight == nil {
		return
	}
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		fc, ok := c.(*ast.FencedCodeBlock)
		if !ok || !entering {
			return ast.WalkContinue, nil
		}
		if lang, code := codeText(fc, source); lang != "excerpt" && lang != "facts" {
			fc.SetAttributeString(codeHTML, highlight(lang, code))
		}
		return ast.WalkSkipChildren, nil
	})
}

func renderCodeBlock(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkSkipChildren, nil
	}
	n := node.(*ast.FencedCodeBlock)
	w.WriteString(`<pre class="code block"><code>`)
	if h, ok := n.AttributeString(codeHTML); ok {
		// Options.HighlightCode's promise: every byte of the text escaped.
		w.WriteString(string(h.(template.HTML)))
	} else {
		_, code := codeText(n, source)
		w.WriteString(html.EscapeString(string(code)))
	}
	w.WriteString("</code></pre>\n")
	return ast.WalkSkipChildren, nil
}
