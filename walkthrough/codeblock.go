package walkthrough

// Ordinary fenced code blocks (YAML manifests, shell sessions, JSON, Go
// examples) highlighted with chroma, as CSS classes so the site's light and
// dark stylesheets decide the colours.
//
// Written here rather than taken from goldmark-highlighting: that
// extension's newest release (2023) pins chroma v2.2 and reads attributes
// from the info string ({hl_lines=… style=… linenos=…}) — more surface to
// audit against hostile input for nothing a walkthrough needs. This is the
// forty lines we use.

import (
	"bytes"

	"github.com/alecthomas/chroma/v2"
	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/alecthomas/chroma/v2/styles"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/util"
)

// codeBlocks is the goldmark extension for highlighted fenced code.
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

// chromaHTML writes <pre class="chroma"><code><span class="line">… with
// chroma's short class names (the site writes the matching CSS with
// chromahtml.WithClasses(true) and no prefix).
var chromaHTML = chromahtml.New(chromahtml.WithClasses(true))

func renderCodeBlock(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkSkipChildren, nil
	}
	n := node.(*ast.FencedCodeBlock)
	var code bytes.Buffer
	for i := 0; i < n.Lines().Len(); i++ {
		seg := n.Lines().At(i)
		code.Write(seg.Value(source))
	}
	lang := string(n.Language(source))
	if lexer := lexers.Get(lang); lang != "" && lexer != nil {
		it, err := chroma.Coalesce(lexer).Tokenise(nil, code.String())
		if err == nil {
			var out bytes.Buffer
			// chroma escapes every token; its class names are fixed strings.
			if err := chromaHTML.Format(&out, styles.Fallback, it); err == nil {
				w.Write(out.Bytes())
				return ast.WalkSkipChildren, nil
			}
		}
	}
	w.WriteString(`<pre class="chroma"><code>`)
	w.Write(util.EscapeHTML(code.Bytes()))
	w.WriteString("</code></pre>\n")
	return ast.WalkSkipChildren, nil
}
