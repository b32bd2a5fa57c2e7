package diagram

import (
	"regexp"
	"strings"
	"testing"
)

func TestShortNumbers(t *testing.T) {
	for in, want := range map[string]string{
		"M870.44,-1100C870.44,-1100 1051.55,-1100": "M870.4,-1100C870.4,-1100 1051.6,-1100",
		"0.349020":    ".35",
		"-0.04,0.06":  "0,.1",
		"-0.26 12.04": "-.3 12",
		"7":           "7",
	} {
		scale := 10.0
		if in == "0.349020" {
			scale = 100
		}
		if got := shortNumbers(in, scale); got != want {
			t.Errorf("shortNumbers(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestRoundedBox(t *testing.T) {
	// Graphviz's rounded boxes: a cluster's path starts after the
	// bottom-left corner, a node's after the top-right one.
	for d, want := range map[string][5]float64{
		"M870.44,-1100C870.44,-1100 1051.55,-1100 1051.55,-1100 1057.55,-1100 1063.55,-1106 1063.55,-1112 1063.55,-1112 1063.55,-1146 1063.55,-1146 1063.55,-1152 1057.55,-1158 1051.55,-1158 1051.55,-1158 870.44,-1158 870.44,-1158 864.44,-1158 858.44,-1152 858.44,-1146 858.44,-1146 858.44,-1112 858.44,-1112 858.44,-1106 864.44,-1100 870.44,-1100":              {858.44, -1158, 205.11, 58, 12},
		"M648.3,-1207.4C648.3,-1207.4 470.7,-1207.4 470.7,-1207.4 467.6,-1207.4 464.5,-1204.2 464.5,-1201.1 464.5,-1201.1 464.5,-1194.9 464.5,-1194.9 464.5,-1191.8 467.6,-1188.6 470.7,-1188.6 470.7,-1188.6 648.3,-1188.6 648.3,-1188.6 651.4,-1188.6 654.5,-1191.8 654.5,-1194.9 654.5,-1194.9 654.5,-1201.1 654.5,-1201.1 654.5,-1204.2 651.4,-1207.4 648.3,-1207.4": {464.5, -1207.4, 190, 18.8, 6.2},
	} {
		got, ok := roundedBox(d)
		if !ok {
			t.Errorf("roundedBox(%.30s…): not a box", d)
			continue
		}
		for i := range got {
			if e := got[i] - want[i]; e > 0.01 || e < -0.01 {
				t.Errorf("roundedBox(%.30s…) = %v, want %v", d, got, want)
				break
			}
		}
	}
	// An edge's curve is not a box.
	if _, ok := roundedBox("M206.5,-461.7C290.7,-461.3 452.8,-460.5 523.8,-460.2"); ok {
		t.Error("an edge read as a box")
	}
}

// Graphs draws each graph on the union's layout: what two graphs share
// is the same bytes in both, what one lacks is not drawn, and a node's
// link and a line's tooltip are each graph's own.
func TestGraphs(t *testing.T) {
	res := func(id string) Node { return Node{ID: id, Kind: "resource", Href: "#res-" + id} }
	comp := func(id, href string) Node { return Node{ID: id, Kind: "component", Cluster: "kcm", Href: href} }
	old := Drawing{
		Nodes: []Node{res("pods"), res("jobs"), comp("job", "")},
		Edges: []Edge{{From: "job", To: "pods", Kind: "watches"}, {From: "job", To: "jobs", Kind: "watches"}},
	}
	cur := Drawing{
		Nodes: []Node{res("pods"), res("cronjobs"), comp("job", "h.html#job")},
		Edges: []Edge{{From: "job", To: "pods", Kind: "writes", Label: "job writes pods (create)"}, {From: "job", To: "pods", Kind: "watches"}},
	}
	svgs, err := Graphs([]Drawing{old, cur})
	if err != nil {
		t.Fatal(err)
	}
	o, c := string(svgs[0]), string(svgs[1])
	for _, tc := range []struct {
		svg, has, lacks string
	}{
		{o, ">jobs</text>", ">cronjobs</text>"},
		{c, ">cronjobs</text>", ">jobs</text>"},
		{o, "<title>job watches pods</title>", "job writes pods (create)"},
		{c, "job writes pods (create)", "<title>job watches pods</title>"},
		{c, `<a href="h.html#job">`, ""},
		{o, "", `href="h.html#job"`},
	} {
		if tc.has != "" && !strings.Contains(tc.svg, tc.has) || tc.lacks != "" && strings.Contains(tc.svg, tc.lacks) {
			t.Errorf("drawing should have %q and lack %q:\n%s", tc.has, tc.lacks, tc.svg)
		}
	}
	// pods's box is the same bytes in both, at the union's place.
	box := regexp.MustCompile(`<g data-node="[0-9]+" data-kind="resource"><a href="#res-pods">.*</g>`)
	if b := box.FindString(o); b == "" || b != box.FindString(c) {
		t.Errorf("pods's box differs:\n%s\n%s", b, box.FindString(c))
	}
	for _, svg := range svgs {
		checkSVG(t, svg)
	}
	// A graph without nodes gets no drawing and changes no other's.
	with, err := Graphs([]Drawing{old, {}, cur})
	if err != nil {
		t.Fatal(err)
	}
	if with[1] != nil || string(with[0]) != o || string(with[2]) != c {
		t.Errorf("an empty graph among others: got a drawing of %d bytes for it, or the others changed", len(with[1]))
	}
	if none, err := Graphs([]Drawing{{}, {}}); err != nil || len(none) != 2 || none[0] != nil || none[1] != nil {
		t.Errorf("graphs without nodes: %v, %v", none, err)
	}
}
