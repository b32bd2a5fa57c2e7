package site

// TEMPORARY FALLBACK until internal/diagram.Graph lands: a minimal
// stand-in so package site compiles and its tests run. code.go switches to
// diagram.Graph and this file is deleted once it exists.

import (
	"bytes"
	"fmt"
	"html"
)

func fallbackGraph(nodes []graphNode, edges []graphEdge) []byte {
	const rowH = 26
	h := rowH*len(nodes) + 10
	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 480 %d" width="480" height="%d" class="graph" role="img">`, h, h)
	for i, n := range nodes {
		x := 10
		if n.Kind == "resource" {
			x = 260
		}
		fmt.Fprintf(&b, `<a href="%s"><text x="%d" y="%d" class="g-%s">%s</text></a>`, html.EscapeString(n.Href), x, rowH*i+20, html.EscapeString(n.Kind), html.EscapeString(n.Label))
	}
	_ = edges
	b.WriteString(`</svg>`)
	return b.Bytes()
}
