package diagram

import (
	"bytes"
	"cmp"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/kubewalk/kubewalk/internal/render/codehtml"
)

// controllerGraph is a hand-made approximation of what the analyzer finds
// for a few components of v1.36, framed by program as the site frames
// them: enough to judge a layout, small enough for a golden file.
func controllerGraph() ([]Node, []Edge) {
	uses := []struct {
		prog, comp      string
		watches, writes []string
	}{
		{"kube-controller-manager", "deployment", []string{"Deployments", "ReplicaSets", "Pods"}, []string{"ReplicaSets", "Deployments", "Events"}},
		{"kube-controller-manager", "replicaset", []string{"ReplicaSets", "Pods"}, []string{"Pods", "ReplicaSets", "Events"}},
		{"kube-controller-manager", "statefulset", []string{"StatefulSets", "Pods", "PersistentVolumeClaims", "ControllerRevisions"}, []string{"Pods", "PersistentVolumeClaims", "ControllerRevisions", "StatefulSets"}},
		{"kube-controller-manager", "daemon", []string{"DaemonSets", "Nodes", "Pods", "ControllerRevisions"}, []string{"Pods", "DaemonSets", "ControllerRevisions"}},
		{"kube-controller-manager", "job", []string{"Jobs", "Pods"}, []string{"Pods", "Jobs"}},
		{"kube-controller-manager", "cronjob", []string{"CronJobs", "Jobs"}, []string{"Jobs", "CronJobs"}},
		{"kube-controller-manager", "endpointslice", []string{"Services", "Pods", "Nodes", "EndpointSlices"}, []string{"EndpointSlices"}},
		{"kube-controller-manager", "nodelifecycle", []string{"Nodes", "Pods", "Leases", "DaemonSets"}, []string{"Nodes", "Pods"}},
		{"kube-controller-manager", "namespace", []string{"Namespaces"}, []string{"Namespaces"}},
		{"kube-controller-manager", "serviceaccount", []string{"Namespaces", "ServiceAccounts"}, []string{"ServiceAccounts"}},
		{"kube-controller-manager", "volume/persistentvolume", []string{"PersistentVolumes", "PersistentVolumeClaims", "StorageClasses"}, []string{"PersistentVolumes", "PersistentVolumeClaims"}},
		{"kube-scheduler", "scheduler", []string{"Pods", "Nodes", "PersistentVolumeClaims", "PersistentVolumes", "StorageClasses", "CSINodes"}, []string{"Pods", "Events"}},
		{"kubelet", "kubelet", []string{"Pods", "Nodes", "Services", "ConfigMaps", "Secrets"}, []string{"Pods", "Nodes", "Leases", "Events"}},
		{"kubelet", "status", nil, []string{"Pods"}},
		{"", "kubectl", nil, []string{"Deployments"}},
	}
	var nodes []Node
	var edges []Edge
	seen := map[string]bool{}
	for _, u := range uses {
		id := "c/" + u.comp
		nodes = append(nodes, Node{ID: id, Label: u.comp, Kind: "component", Cluster: u.prog, Href: "handlers.html#" + strings.ReplaceAll(u.comp, "/", "-")})
		for _, kr := range []struct {
			kind string
			rs   []string
		}{{"watches", u.watches}, {"writes", u.writes}} {
			for _, r := range kr.rs {
				if !seen[r] {
					seen[r] = true
					nodes = append(nodes, Node{ID: "r/" + r, Label: r, Kind: "resource", Href: "#res-" + strings.ToLower(r)})
				}
				edges = append(edges, Edge{From: id, To: "r/" + r, Kind: kr.kind})
			}
		}
	}
	return nodes, edges
}

// realGraph is the resource graph of v1.36.3 as the site passes it:
// testdata/resources-v1.36.3.json holds the nodes and edges of a
// kubewalk build of that release.
func realGraph(tb testing.TB) ([]Node, []Edge) {
	tb.Helper()
	b, err := os.ReadFile("testdata/resources-v1.36.3.json")
	if err != nil {
		tb.Fatal(err)
	}
	var g struct {
		Nodes []Node
		Edges []Edge
	}
	if err := json.Unmarshal(b, &g); err != nil {
		tb.Fatal(err)
	}
	return g.Nodes, g.Edges
}

// drawing is what a reader sees in a graph's SVG: boxes with their text
// and link, frames with their label, lines with their tooltip.
type drawing struct {
	width, height float64
	boxes         map[string]*box // by text and href: see boxOf
	frames        map[string]rect // by label
	lines         []drawnLine
}

type box struct {
	href string
	rect rect
	n    int // boxes with this text
}

type drawnLine struct {
	title      string
	dashed     bool
	ends       [2][2][2]float64 // the path's first and last points, each with the point before it
	arrowheads []rect
}

type rect struct{ x0, y0, x1, y1 float64 }

func (r rect) contains(o rect) bool {
	return r.x0 <= o.x0 && o.x1 <= r.x1 && r.y0 <= o.y0 && o.y1 <= r.y1
}

// dist is the distance from (x, y) to r, 0 inside.
func (r rect) dist(x, y float64) float64 {
	return math.Hypot(max(r.x0-x, 0, x-r.x1), max(r.y0-y, 0, y-r.y1))
}

var number = regexp.MustCompile(`-?[0-9]+(\.[0-9]+)?`)

// points reads the points of a path's d or a polygon's points: pairs of
// numbers, as Graphviz writes only absolute commands.
func points(s string) [][2]float64 {
	ns := number.FindAllString(s, -1)
	var ps [][2]float64
	for i := 0; i+1 < len(ns); i += 2 {
		x, _ := strconv.ParseFloat(ns[i], 64)
		y, _ := strconv.ParseFloat(ns[i+1], 64)
		ps = append(ps, [2]float64{x, y})
	}
	return ps
}

func bounds(s string) rect {
	r := rect{math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)}
	for _, p := range points(s) {
		r = rect{min(r.x0, p[0]), min(r.y0, p[1]), max(r.x1, p[0]), max(r.y1, p[1])}
	}
	return r
}

// read parses a graph's SVG, after checkSVG. A group with a <title> is a
// line (an unfilled path, a filled polygon per arrowhead); one with a
// text and only an unfilled path a cluster's frame; one with a text and a
// filled shape a box.
func read(t *testing.T, svg []byte) drawing {
	t.Helper()
	checkSVG(t, svg)
	r := svgReader{d: drawing{boxes: map[string]*box{}, frames: map[string]rect{}}}
	dec := xml.NewDecoder(bytes.NewReader(svg))
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			r.start(tok)
		case xml.CharData:
			if g := r.top(); g != nil && r.inText {
				g.text += string(tok)
			}
			if g := r.top(); g != nil && r.inTitle {
				g.title += string(tok)
			}
		case xml.EndElement:
			r.end(t, tok.Name.Local)
		}
	}
	return r.d
}

// svgGroup is what read gathers of one <g>.
type svgGroup struct {
	title, href, text string
	filled            []string
	outline           []string // d of unfilled paths
	dashed            bool
}

// svgReader is read's state: the drawing so far, the groups open.
type svgReader struct {
	d               drawing
	stack           []*svgGroup
	inText, inTitle bool
}

func (r *svgReader) top() *svgGroup {
	if len(r.stack) == 0 {
		return nil
	}
	return r.stack[len(r.stack)-1]
}

func (r *svgReader) start(tok xml.StartElement) {
	get := func(name string) string {
		for _, a := range tok.Attr {
			if a.Name.Local == name {
				return a.Value
			}
		}
		return ""
	}
	g := r.top()
	switch tok.Name.Local {
	case "svg":
		r.d.width, _ = strconv.ParseFloat(get("width"), 64)
		r.d.height, _ = strconv.ParseFloat(get("height"), 64)
	case "g":
		r.stack = append(r.stack, &svgGroup{})
	case "a":
		g.href = get("href")
	case "title":
		r.inTitle = true
	case "text":
		r.inText = true
	case "path", "polygon", "rect":
		shape := get("d") + get("points")
		if tok.Name.Local == "rect" { // its corners
			f := func(k string) float64 { v, _ := strconv.ParseFloat(get(k), 64); return v }
			shape = fmt.Sprint(f("x"), ",", f("y"), " ", f("x")+f("width"), ",", f("y")+f("height"))
		}
		if get("fill") == "none" {
			g.outline = append(g.outline, shape)
			g.dashed = get("stroke-dasharray") != ""
		} else {
			g.filled = append(g.filled, shape)
		}
	}
}

func (r *svgReader) end(t *testing.T, name string) {
	switch name {
	case "text":
		r.inText = false
	case "title":
		r.inTitle = false
	case "g":
		g := r.top()
		r.stack = r.stack[:len(r.stack)-1]
		r.d.add(t, g)
	}
}

// add puts what a group drew into d: a line, a frame or a box.
func (d *drawing) add(t *testing.T, g *svgGroup) {
	switch {
	case g.title != "":
		l := drawnLine{title: g.title, dashed: g.dashed}
		if len(g.outline) == 1 {
			ps := points(g.outline[0])
			l.ends = [2][2][2]float64{{ps[1], ps[0]}, {ps[len(ps)-2], ps[len(ps)-1]}}
		}
		for _, f := range g.filled {
			l.arrowheads = append(l.arrowheads, bounds(f))
		}
		d.lines = append(d.lines, l)
	case g.text != "" && len(g.filled) == 0 && len(g.outline) == 1:
		d.frames[g.text] = bounds(g.outline[0])
	case g.text != "" && len(g.filled) == 1:
		k := g.text + "\x00" + g.href
		b := d.boxes[k]
		if b == nil {
			b = &box{}
			d.boxes[k] = b
		}
		b.n++
		b.href, b.rect = g.href, bounds(g.filled[0])
	case g.text != "":
		t.Errorf("group with text %q and %d shapes", g.text, len(g.filled)+len(g.outline))
	}
}

// boxOf is n's box: the one with n's text and, if n's href is safe, its
// link (two components of different programs may both say "config").
func (d drawing) boxOf(n Node) *box {
	href := ""
	if codehtml.SafeHref(n.Href) {
		href = n.Href
	}
	return d.boxes[oneLine(cmp.Or(n.Label, n.ID))+"\x00"+href]
}

// reaches is the node a line's end runs into: the first box met going on
// from the end (past its arrowhead, if any) in the direction the curve
// arrives, from the control point before it. Boxes in a column are a few
// px apart, so the box nearest the end is not always the one it meets.
func (d drawing) reaches(nodes []Node, end [2][2]float64) Node {
	from, to := end[0], end[1]
	dx, dy := to[0]-from[0], to[1]-from[1]
	l := math.Hypot(dx, dy)
	if l == 0 {
		return Node{}
	}
	for k := 0.0; k <= 20; k += 0.25 {
		x, y := to[0]+dx/l*k, to[1]+dy/l*k
		for _, n := range nodes {
			if b := d.boxOf(n); b != nil && b.rect.dist(x, y) < 0.5 {
				return n
			}
		}
	}
	return Node{}
}

func TestGraphGolden(t *testing.T) {
	nodes, edges := controllerGraph()
	got, err := Graph(nodes, edges)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "graph.svg", got)
	checkDrawing(t, nodes, edges, got)
}

func TestGraphReal(t *testing.T) {
	nodes, edges := realGraph(t)
	svg, err := Graph(nodes, edges)
	if err != nil {
		t.Fatal(err)
	}
	d := checkDrawing(t, nodes, edges, svg)
	// The hand-made two-column layout drew this graph 2,100 px tall; the
	// guard is loose, to catch a layout that stacks everything again.
	t.Logf("%.0f × %.0f px, %d KB", d.width, d.height, len(svg)>>10)
	if d.height > 1600 || d.width > 1400 {
		t.Errorf("drawing is %.0f × %.0f px, want at most 1400 × 1600", d.width, d.height)
	}
	if len(svg) > 192<<10 {
		t.Errorf("graph is %d KB, want under 192 KB", len(svg)>>10)
	}
}

// checkDrawing checks what a reader relies on in the drawing of nodes and
// edges (all between a component and a resource): every node a box with
// its whole label, as wide as the label, and its link; every cluster a
// frame around exactly its nodes, all on one side of the resources; one
// line per component and resource, its tooltip naming both, dashed when
// the component only watches, with an arrowhead at the resource for a
// write and one at the component for a watch.
func checkDrawing(t *testing.T, nodes []Node, edges []Edge, svg []byte) drawing {
	t.Helper()
	d := read(t, svg)
	resX := checkBoxes(t, d, nodes)
	if t.Failed() {
		return d
	}
	checkClusters(t, d, nodes, resX)
	checkLines(t, d, nodes, edges)
	return d
}

// checkBoxes checks each node's box, and returns the left and right edges
// of the resources' boxes.
func checkBoxes(t *testing.T, d drawing, nodes []Node) (resX []float64) {
	t.Helper()
	for _, n := range nodes {
		b := d.boxOf(n)
		if b == nil || b.n != 1 {
			t.Errorf("node %q: want one box saying %q and linking to %q, got %v", n.ID, n.Label, n.Href, b)
			continue
		}
		if w := b.rect.x1 - b.rect.x0; w < float64(textWidth(n.Label)) {
			t.Errorf("node %q: box %.0f px wide for a %d px label", n.ID, w, textWidth(n.Label))
		}
		if isResource(n) {
			resX = append(resX, b.rect.x0, b.rect.x1)
		}
	}
	if len(d.boxes) != len(nodes) {
		t.Errorf("%d boxes for %d nodes", len(d.boxes), len(nodes))
	}
	return resX
}

// checkClusters: resources form the middle column; each cluster sits
// wholly on one side of it, inside its frame, and no other box is inside.
func checkClusters(t *testing.T, d drawing, nodes []Node, resX []float64) {
	t.Helper()
	lo, hi := slices.Min(resX), slices.Max(resX)
	side := func(n Node) int {
		r := d.boxOf(n).rect
		switch {
		case r.x1 < lo:
			return -1
		case r.x0 > hi:
			return 1
		}
		return 0
	}
	clusters := map[string][]Node{}
	for _, n := range nodes {
		if !isResource(n) && side(n) == 0 {
			t.Errorf("component %q is in the resources' column", n.ID)
		}
		if n.Cluster != "" {
			clusters[n.Cluster] = append(clusters[n.Cluster], n)
		}
	}
	for label, ns := range clusters {
		f, ok := d.frames[label]
		if !ok {
			t.Errorf("cluster %q has no frame", label)
			continue
		}
		for _, n := range ns {
			if side(n) != side(ns[0]) {
				t.Errorf("cluster %q is split: %q and %q on different sides", label, ns[0].ID, n.ID)
			}
		}
		for _, n := range nodes {
			if in, want := f.contains(d.boxOf(n).rect), n.Cluster == label; in != want {
				t.Errorf("cluster %q: node %q inside the frame = %v, want %v", label, n.ID, in, want)
			}
		}
	}
	if len(d.frames) != len(clusters) {
		t.Errorf("%d frames for %d clusters", len(d.frames), len(clusters))
	}
}

// checkLines: one line for what each component does to each resource,
// dashed for a watch only, with an arrowhead at the resource for a write
// and one at the component for a watch.
func checkLines(t *testing.T, d drawing, nodes []Node, edges []Edge) {
	t.Helper()
	byID := map[string]Node{}
	for _, n := range nodes {
		byID[n.ID] = n
	}
	type pair struct{ comp, res string }
	does := map[pair]map[string]bool{}
	for _, e := range edges {
		c, r := byID[e.From], byID[e.To]
		if isResource(c) {
			c, r = r, c
		}
		p := pair{c.ID, r.ID}
		if does[p] == nil {
			does[p] = map[string]bool{}
		}
		does[p][e.kind()] = true
	}
	if len(d.lines) != len(does) {
		t.Errorf("%d lines for %d component-resource pairs", len(d.lines), len(does))
	}
	for _, l := range d.lines {
		a, b := d.reaches(nodes, l.ends[0]), d.reaches(nodes, l.ends[1])
		c, r := a, b
		if isResource(c) {
			c, r = r, c
		}
		kinds := does[pair{c.ID, r.ID}]
		if kinds == nil || isResource(c) || !isResource(r) {
			t.Errorf("line %q joins %q and %q, which no edge joins", l.title, a.ID, b.ID)
			continue
		}
		delete(does, pair{c.ID, r.ID})
		if !strings.Contains(l.title, c.Label) || !strings.Contains(l.title, r.Label) {
			t.Errorf("line between %q and %q has tooltip %q", c.ID, r.ID, l.title)
		}
		if want := !kinds["writes"]; l.dashed != want {
			t.Errorf("%s–%s: dashed = %v, want %v (%v)", c.ID, r.ID, l.dashed, want, kinds)
		}
		atRes, atComp := 0, 0
		for _, h := range l.arrowheads {
			x, y := (h.x0+h.x1)/2, (h.y0+h.y1)/2
			if d.boxOf(r).rect.dist(x, y) < d.boxOf(c).rect.dist(x, y) {
				atRes++
			} else {
				atComp++
			}
		}
		wantRes, wantComp := 0, 0
		if kinds["writes"] {
			wantRes = 1
		}
		if len(kinds) > 1 || !kinds["writes"] {
			wantComp = 1
		}
		if atRes != wantRes || atComp != wantComp {
			t.Errorf("%s–%s (%v): %d arrowheads at the resource, %d at the component; want %d, %d", c.ID, r.ID, kinds, atRes, atComp, wantRes, wantComp)
		}
	}
	for p := range does {
		t.Errorf("no line between %q and %q", p.comp, p.res)
	}
}

func TestGraphDeterministic(t *testing.T) {
	nodes, edges := realGraph(t)
	a, err := Graph(nodes, edges)
	if err != nil {
		t.Fatal(err)
	}
	// Neither a second run nor the input's order changes a byte.
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 3 {
		n, e := slices.Clone(nodes), slices.Clone(edges)
		if i > 0 {
			r.Shuffle(len(n), func(i, j int) { n[i], n[j] = n[j], n[i] })
			r.Shuffle(len(e), func(i, j int) { e[i], e[j] = e[j], e[i] })
		}
		b, err := Graph(n, e)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a, b) {
			t.Fatalf("run %d: output differs", i)
		}
	}
}

// TestGraphConcurrent draws from several goroutines at once, as the
// site's render workers may: Graphviz's one instance must give each the
// same bytes as a lone call.
func TestGraphConcurrent(t *testing.T) {
	nodes, edges := controllerGraph()
	want, err := Graph(nodes, edges)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	got := make([][]byte, 4)
	errs := make([]error, 4)
	for i := range got {
		wg.Go(func() { got[i], errs[i] = Graph(nodes, edges) })
	}
	wg.Wait()
	for i := range got {
		if errs[i] != nil || !bytes.Equal(got[i], want) {
			t.Errorf("goroutine %d: err %v, same bytes %v", i, errs[i], bytes.Equal(got[i], want))
		}
	}
}

func TestGraphSmall(t *testing.T) {
	for _, tc := range []struct {
		name  string
		nodes []Node
		edges []Edge
	}{
		{"one node", []Node{{ID: "a", Kind: "resource"}}, nil},
		{"two nodes", []Node{{ID: "a"}, {ID: "b", Kind: "resource"}}, []Edge{{From: "a", To: "b", Kind: "writes"}}},
		{"kind in label", []Node{{ID: "a"}, {ID: "b", Kind: "resource"}}, []Edge{{From: "a", To: "b", Label: "writes"}, {From: "a", To: "b", Label: "watches"}}},
		{"path", []Node{{ID: "a"}, {ID: "b", Kind: "resource"}, {ID: "c"}}, []Edge{{From: "a", To: "b", Kind: "writes"}, {From: "c", To: "b", Kind: "watches"}}},
		{"resource to component", []Node{{ID: "a"}, {ID: "b", Kind: "resource"}}, []Edge{{From: "b", To: "a", Kind: "watches"}}},
		{"disconnected", []Node{{ID: "a"}, {ID: "b", Kind: "resource"}, {ID: "c"}, {ID: "d", Kind: "resource"}, {ID: "e"}}, []Edge{{From: "a", To: "b"}, {From: "c", To: "d"}}},
		{"same column and self", []Node{{ID: "a"}, {ID: "b"}, {ID: "r", Kind: "resource"}, {ID: "s", Kind: "resource"}}, []Edge{{From: "a", To: "b"}, {From: "r", To: "s"}, {From: "a", To: "a"}, {From: "r", To: "a", Kind: "writes"}}},
		{"clusters", []Node{{ID: "a", Cluster: "p"}, {ID: "b", Cluster: "p"}, {ID: "c", Cluster: "q"}, {ID: "r", Kind: "resource", Cluster: "api"}}, []Edge{{From: "a", To: "r"}, {From: "c", To: "r", Kind: "writes"}}},
	} {
		svg, err := Graph(tc.nodes, tc.edges)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		d := read(t, svg)
		for _, n := range tc.nodes {
			if b := d.boxOf(n); b == nil || b.n != 1 {
				t.Errorf("%s: node %q drawn %v", tc.name, n.ID, b)
			}
		}
	}
	if _, err := Graph(nil, nil); err != ErrEmpty {
		t.Errorf("empty graph: err = %v, want ErrEmpty", err)
	}
	if _, err := Graph([]Node{{ID: "a"}, {ID: "a"}}, nil); err == nil {
		t.Error("duplicate node: no error")
	}
	if _, err := Graph([]Node{{ID: "a"}}, []Edge{{From: "a", To: "zz"}}); err == nil || !strings.Contains(err.Error(), `"zz"`) {
		t.Errorf("dangling edge: err = %v", err)
	}
}

// BenchmarkGraphReal lays out and draws v1.36.3's resource graph. Timed
// alternately with the hand-written layout Graph replaced (MDS ordering
// and barycentre sweeps over gonum, two columns) in the same runs, on a
// 2-core machine shared with a Kubernetes build: dot 64-153 ms, the hand
// layout 14-32 ms, a ratio of 4.4-5.0 in every run. Once per resources
// page, that is a small part of a build.
func BenchmarkGraphReal(b *testing.B) {
	nodes, edges := realGraph(b)
	for b.Loop() {
		if _, err := Graph(nodes, edges); err != nil {
			b.Fatal(err)
		}
	}
}
