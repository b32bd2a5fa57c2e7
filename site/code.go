package site

import (
	"html/template"
	"path"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/internal/codehtml"
	"github.com/kubewalk/kubewalk/internal/diagram"
)

// This file is the one seam between site and the code and diagram
// renderers (internal/codehtml, internal/diagram). What they return is
// HTML or SVG they generated themselves, escaping every piece of source
// text and label and dropping unsafe hrefs (codehtml.SafeHref); that is why
// it may be used as template.HTML — here and in codeTable, nowhere else.

type seqMsg = diagram.Message
type graphNode = diagram.Node
type graphEdge = diagram.Edge

type exLine = codehtml.ExcerptLine

// highlight returns one balanced HTML fragment per line of src: Go through
// go/scanner with identifiers classed and linked by idents (nil idents —
// a file outside the analysed roots — still gets lexical highlighting),
// anything else through chroma by file name.
func highlight(name string, src []byte, idents []fact.Ident, link func(fact.Location) string) []codehtml.Line {
	if path.Ext(name) == ".go" {
		return codehtml.Go(src, idents, codehtml.Options{Link: link})
	}
	return codehtml.Text(name, src)
}

func excerpt(lines []codehtml.Line, from, to int, hl []int, context int) []exLine {
	return codehtml.Excerpt(lines, from, to, hl, context)
}

func codeCSS() string { return codehtml.CSS() }

func sequenceSVG(participants []string, msgs []seqMsg) (template.HTML, error) {
	svg, err := diagram.Sequence(participants, msgs)
	if err != nil {
		return "", err
	}
	// Safe: diagram escapes every label and checks every href (svg.go).
	return template.HTML(svg), nil
}

func graphSVG(nodes []graphNode, edges []graphEdge) (template.HTML, error) {
	svg, err := diagram.Graph(nodes, edges)
	if err != nil {
		return "", err
	}
	// Safe: diagram escapes every label and checks every href (svg.go).
	return template.HTML(svg), nil
}
