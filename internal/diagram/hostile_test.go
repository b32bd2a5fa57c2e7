package diagram

import (
	"bytes"
	"encoding/xml"
	"io"
	"strings"
	"testing"

	"github.com/kubewalk/kubewalk/internal/codehtml"
)

const hostile = `</text><script>alert(1)</script> "quoted" 'single' & <b>bold</b> ]]> <!-- x`

// checkSVG parses svg as XML and fails on any element or attribute a
// diagram does not write, on event handlers and on unsafe hrefs.
func checkSVG(t *testing.T, svg []byte) {
	t.Helper()
	elems := map[string]bool{"svg": true, "g": true, "a": true, "rect": true, "line": true, "path": true, "text": true, "title": true}
	attrs := map[string]bool{"xmlns": true, "viewBox": true, "width": true, "height": true, "role": true, "aria-label": true,
		"font-family": true, "font-size": true, "font-weight": true, "fill": true, "stroke": true, "href": true,
		"x": true, "y": true, "x1": true, "y1": true, "x2": true, "y2": true, "rx": true, "d": true, "text-anchor": true,
		"fill-opacity": true, "stroke-opacity": true, "stroke-dasharray": true, "stroke-width": true}
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

func TestGraphHostile(t *testing.T) {
	svg, err := Graph([]Node{
		{ID: hostile, Label: hostile, Kind: "component", Href: "javascript:alert(1)"},
		{ID: "r", Label: hostile + hostile + hostile, Kind: "resource", Href: `r.html"onmouseover="alert(2)`},
	}, []Edge{{From: hostile, To: "r", Kind: "writes", Label: hostile}})
	if err != nil {
		t.Fatal(err)
	}
	checkSVG(t, svg)
	if strings.Contains(string(svg), "javascript:") {
		t.Error("javascript: href written")
	}
}
