package diagram

import (
	"bytes"
	"encoding/xml"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/kubewalk/kubewalk/internal/render/codehtml"
)

const hostile = `</text><script>alert(1)</script> "quoted" 'single' & <b>bold</b> ]]> <!-- x`

// checkSVG parses svg as XML and fails on any element or attribute a
// diagram does not write, on event handlers and on unsafe hrefs.
func checkSVG(t *testing.T, svg []byte) {
	t.Helper()
	elems := map[string]bool{"svg": true, "g": true, "a": true, "rect": true, "line": true, "path": true, "polygon": true, "ellipse": true, "text": true, "title": true}
	attrs := map[string]bool{"xmlns": true, "viewBox": true, "width": true, "height": true, "role": true, "aria-label": true,
		"font-family": true, "font-size": true, "font-weight": true, "fill": true, "stroke": true, "href": true,
		"x": true, "y": true, "x1": true, "y1": true, "x2": true, "y2": true, "rx": true, "ry": true, "cx": true, "cy": true,
		"d": true, "points": true, "transform": true, "text-anchor": true,
		"fill-opacity": true, "stroke-opacity": true, "stroke-dasharray": true, "stroke-width": true,
		"data-node": true, "data-kind": true, "data-ends": true}
	d := xml.NewDecoder(bytes.NewReader(svg))
	d.Strict = true
	depth := 0
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v\n%s", err, svg)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			depth++
			if !elems[tok.Name.Local] {
				t.Errorf("element <%s>", tok.Name.Local)
			}
			for _, a := range tok.Attr {
				if !attrs[a.Name.Local] || a.Name.Space != "" && a.Name.Local != "xmlns" {
					t.Errorf("attribute %s:%s=%q on <%s>", a.Name.Space, a.Name.Local, a.Value, tok.Name.Local)
				}
				if a.Name.Local == "href" && !codehtml.SafeHref(a.Value) {
					t.Errorf("unsafe href %q", a.Value)
				}
				if strings.HasPrefix(a.Name.Local, "data-") && strings.Trim(a.Value, "0123456789 ") != "" && a.Value != "resource" && a.Value != "component" && a.Value != "other" {
					t.Errorf("%s=%q: want indexes or a kind", a.Name.Local, a.Value)
				}
				if (a.Name.Local == "fill" || a.Name.Local == "stroke") && a.Value != "currentColor" && a.Value != "none" && a.Value != "transparent" {
					t.Errorf("colour %s=%q: diagrams draw in currentColor", a.Name.Local, a.Value)
				}
			}
		case xml.EndElement:
			depth--
		case xml.Comment, xml.ProcInst, xml.Directive:
			t.Errorf("markup %T in output", tok)
		}
	}
	if depth != 0 {
		t.Errorf("unbalanced elements")
	}
	if bytes.Contains(svg, []byte("<script")) {
		t.Errorf("script tag in output")
	}
}

func TestSequenceHostile(t *testing.T) {
	svg, err := Sequence([]string{hostile, "b"}, []Message{
		{From: hostile, To: "b", Label: hostile, Href: "javascript:alert(2)"},
		{From: "b", To: "b", Label: hostile, Href: `#x"><script>alert(3)</script>`},
		{From: "b", To: hostile, Label: "\x00\x01\ufffe", Href: "#ok"},
	})
	if err != nil {
		t.Fatal(err)
	}
	checkSVG(t, svg)
	if strings.Contains(string(svg), "javascript:") {
		t.Error("javascript: href written")
	}
}

// graphHostile are labels Graphviz would read as more than text: its
// escapes (\N is the node's name, \G the graph's, \n a line break),
// entities it decodes and leaves as they are, control characters, a lone
// backslash at the end, markup, and Hangul it measures too narrow.
var graphHostile = []string{
	hostile,
	`\N \G \E \T \H \L \n \l \r \\ end\`,
	"&lt;script&gt; &amp; &#60;b&#62; &nbsp; &unknown;",
	"tab\tnew\nline\x00nul\x1besc\u2028sep\ufffe",
	"파드를 노드에 바인딩하는 스케줄러의 아주 긴 이름",
	`" onmouseover="alert(1)`,
	"]]><![CDATA[x]]>",
}

func TestGraphHostile(t *testing.T) {
	nodes := []Node{{ID: "r", Label: hostile + hostile + hostile, Kind: "resource", Href: `r.html"onmouseover="alert(2)`}}
	edges := []Edge{}
	for i, s := range graphHostile {
		id := "c" + strconv.Itoa(i)
		nodes = append(nodes, Node{ID: id, Label: s, Cluster: s, Href: []string{"javascript:alert(1)", "#" + s, "x.html#ok"}[i%3]})
		edges = append(edges, Edge{From: id, To: "r", Kind: "writes", Label: s}, Edge{From: id, To: "r", Kind: "watches"})
	}
	svg, err := Graph(nodes, edges)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(svg), "javascript:") {
		t.Error("javascript: href written")
	}
	// Each label reads back, as XML text, exactly as given (less what XML
	// cannot hold, made spaces by oneLine): not decoded, not expanded.
	d := read(t, svg)
	for _, n := range nodes {
		want := oneLine(n.Label)
		b := d.boxOf(n)
		if b == nil {
			t.Errorf("no box reads %q and links to %q", want, n.Href)
			continue
		}
		if n.Cluster != "" && d.frames[oneLine(n.Cluster)] == (rect{}) {
			t.Errorf("no frame reads %q", oneLine(n.Cluster))
		}
		if w := b.rect.x1 - b.rect.x0; w < float64(textWidth(want)) {
			t.Errorf("box of %q is %.0f px wide, its label %d px", want, w, textWidth(want))
		}
	}
	for i, s := range graphHostile {
		found := false
		for _, l := range d.lines {
			found = found || strings.Contains(l.title, oneLine(s))
		}
		if !found {
			t.Errorf("no line's tooltip reads label %d, %q", i, oneLine(s))
		}
	}
}
