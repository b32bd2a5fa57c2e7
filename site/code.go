package site

import (
	"html/template"
	"path"
	"strings"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/internal/render/codehtml"
	"github.com/kubewalk/kubewalk/internal/render/diagram"
)

// This file is the one seam between site and the code and diagram
// renderers (internal/render/codehtml, internal/render/diagram). What they return is
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

// HighlightCode is walkthrough.Options.HighlightCode for the site: a
// walkthrough's fenced code block (YAML, shell, JSON, Go …) highlighted by
// language as source pages are, so one stylesheet covers both.
func HighlightCode(lang string, code []byte) template.HTML {
	var b strings.Builder
	for i, l := range codehtml.Lang(lang, code) {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(string(l))
	}
	// Safe: codehtml escapes every token and writes only its own markup.
	return template.HTML(b.String())
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
