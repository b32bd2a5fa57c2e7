package walkthrough

// Ordinary fenced code blocks (YAML manifests, shell sessions, JSON, Go
// examples) highlighted by internal/codehtml — the same highlighter and the
// same CSS classes as the site's source pages, so one stylesheet (light and
// dark) covers both. codehtml uses chroma for everything but Go.
//
// Not goldmark-highlighting: that extension's newest release (2023) pins
// chroma v2.2 and reads attributes from the info string ({hl_lines=…
// style=… linenos=…}) — more surface to audit against hostile input for
// nothing a walkthrough needs.

import (
	"bytes"

	"github.com/kubewalk/kubewalk/internal/codehtml"
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
	// codehtml escapes every token and writes only its own class names;
	// an unknown language comes back as escaped plain text.
	lines := codehtml.Lang(string(n.Language(source)), bytes.TrimSuffix(code.Bytes(), []byte("\n")))
	w.WriteString(`<pre class="code block"><code>`)
	for i, l := range lines {
		if i > 0 {
			w.WriteByte('\n')
		}
		w.WriteString(string(l))
	}
	w.WriteString("</code></pre>\n")
	return ast.WalkSkipChildren, nil
}
