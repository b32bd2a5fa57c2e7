package diagram

import (
	"bytes"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/graph"
	"gonum.org/v1/gonum/graph/iterator"
	"gonum.org/v1/gonum/graph/layout"
	"gonum.org/v1/gonum/graph/simple"
)

// controllerGraph is a hand-made approximation of what the analyzer finds
// for a few components of v1.36: enough nodes and edges to judge a layout.
func controllerGraph() ([]Node, []Edge) {
	uses := []struct {
		comp            string
		watches, writes []string
	}{
		{"deployment controller", []string{"Deployments", "ReplicaSets", "Pods"}, []string{"ReplicaSets", "Deployments", "Events"}},
		{"replicaset controller", []string{"ReplicaSets", "Pods"}, []string{"Pods", "ReplicaSets", "Events"}},
		{"statefulset controller", []string{"StatefulSets", "Pods", "PersistentVolumeClaims", "ControllerRevisions"}, []string{"Pods", "PersistentVolumeClaims", "ControllerRevisions", "StatefulSets"}},
		{"daemonset controller", []string{"DaemonSets", "Nodes", "Pods", "ControllerRevisions"}, []string{"Pods", "DaemonSets", "ControllerRevisions"}},
		{"job controller", []string{"Jobs", "Pods"}, []string{"Pods", "Jobs"}},
		{"cronjob controller", []string{"CronJobs", "Jobs"}, []string{"Jobs", "CronJobs"}},
		{"endpointslice controller", []string{"Services", "Pods", "Nodes", "EndpointSlices"}, []string{"EndpointSlices"}},
		{"node lifecycle controller", []string{"Nodes", "Pods", "Leases", "DaemonSets"}, []string{"Nodes", "Pods"}},
		{"namespace controller", []string{"Namespaces"}, []string{"Namespaces"}},
		{"serviceaccount controller", []string{"Namespaces", "ServiceAccounts"}, []string{"ServiceAccounts"}},
		{"persistentvolume binder", []string{"PersistentVolumes", "PersistentVolumeClaims", "StorageClasses"}, []string{"PersistentVolumes", "PersistentVolumeClaims"}},
		{"kube-scheduler", []string{"Pods", "Nodes", "PersistentVolumeClaims", "PersistentVolumes", "StorageClasses", "CSINodes"}, []string{"Pods", "Events"}},
		{"kubelet", []string{"Pods", "Nodes", "Services", "ConfigMaps", "Secrets"}, []string{"Pods", "Nodes", "Leases", "Events"}},
	}
	var nodes []Node
	var edges []Edge
	seen := map[string]bool{}
	for _, u := range uses {
		id := "c/" + u.comp
		nodes = append(nodes, Node{ID: id, Label: u.comp, Kind: "component", Href: "components/" + strings.ReplaceAll(u.comp, " ", "-") + ".html"})
		for _, kr := range []struct {
			kind string
			rs   []string
		}{{"watches", u.watches}, {"writes", u.writes}} {
			kind := kr.kind
			for _, r := range kr.rs {
				if !seen[r] {
					seen[r] = true
					nodes = append(nodes, Node{ID: "r/" + r, Label: r, Kind: "resource", Href: "resources/" + strings.ToLower(r) + ".html"})
				}
				edges = append(edges, Edge{From: id, To: "r/" + r, Kind: kind})
			}
		}
	}
	return nodes, edges
}

func TestGraphGolden(t *testing.T) {
	nodes, edges := controllerGraph()
	got, err := Graph(nodes, edges)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "graph.svg", got)
	if len(got) > 64<<10 {
		t.Errorf("graph is %d bytes, want under 64 KB", len(got))
	}
	golden(t, "graph_force.svg", forceGraph(nodes, edges))
}

func TestGraphDeterministic(t *testing.T) {
	nodes, edges := controllerGraph()
	a, err := Graph(nodes, edges)
	if err != nil {
		t.Fatal(err)
	}
	// Input order must not matter.
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 5; i++ {
		n, e := slices.Clone(nodes), slices.Clone(edges)
		r.Shuffle(len(n), func(i, j int) { n[i], n[j] = n[j], n[i] })
		r.Shuffle(len(e), func(i, j int) { e[i], e[j] = e[j], e[i] })
		b, err := Graph(n, e)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a, b) {
			t.Fatalf("run %d: output depends on input order", i)
		}
	}
}

func TestGraphOrderReducesCrossings(t *testing.T) {
	nodes, edges := controllerGraph()
	slices.SortFunc(nodes, func(a, b Node) int { return strings.Compare(a.ID, b.ID) })
	index := map[string]int{}
	for i, n := range nodes {
		index[n.ID] = i
	}
	byName := ranks(nodes, make([]float64, len(nodes)))
	naive := crossings(nodes, edges, index, byName)
	got := crossings(nodes, edges, index, order(nodes, edges, index))
	t.Logf("crossings: %d ordered by name, %d laid out", naive, got)
	if got >= naive {
		t.Errorf("layout has %d crossings, no better than alphabetical order (%d)", got, naive)
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
		{"disconnected", []Node{{ID: "a"}, {ID: "b", Kind: "resource"}, {ID: "c"}, {ID: "d", Kind: "resource"}, {ID: "e"}}, []Edge{{From: "a", To: "b"}, {From: "c", To: "d"}}},
		{"same column and self", []Node{{ID: "a"}, {ID: "b"}, {ID: "r", Kind: "resource"}, {ID: "s", Kind: "resource"}}, []Edge{{From: "a", To: "b"}, {From: "r", To: "s"}, {From: "a", To: "a"}, {From: "r", To: "a", Kind: "writes"}}},
	} {
		svg, err := Graph(tc.nodes, tc.edges)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		checkSVG(t, svg)
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

// forceGraph draws the same boxes placed by gonum's EadesR2 force-directed
// layout, for the comparison the package doc refers to. Nodes are added in
// ID order and the layout seeded, so the file is stable.
func forceGraph(nodes []Node, edges []Edge) []byte {
	nodes = slices.Clone(nodes)
	slices.SortFunc(nodes, func(a, b Node) int { return strings.Compare(a.ID, b.ID) })
	index := map[string]int{}
	g := simple.NewUndirectedGraph()
	for i, n := range nodes {
		index[n.ID] = i
		g.AddNode(simple.Node(i))
	}
	for _, e := range edges {
		f, t := index[e.From], index[e.To]
		if f != t && !g.HasEdgeBetween(int64(f), int64(t)) {
			g.SetEdge(simple.Edge{F: simple.Node(f), T: simple.Node(t)})
		}
	}
	eades := layout.EadesR2{Repulsion: 1, Rate: 0.05, Updates: 60, Theta: 0.2, Src: rand.NewPCG(1, 1)}
	opt := layout.NewOptimizerR2(orderedGraph{g}, eades.Update)
	for opt.Update() {
	}
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for i := range nodes {
		p := opt.Coord2(int64(i))
		minX, maxX = math.Min(minX, p.X), math.Max(maxX, p.X)
		minY, maxY = math.Min(minY, p.Y), math.Max(maxY, p.Y)
	}
	const W, H = 900, 700
	xy := func(i int) (int, int) {
		p := opt.Coord2(int64(i))
		return 100 + int((p.X-minX)/(maxX-minX)*(W-200)), 30 + int((p.Y-minY)/(maxY-minY)*(H-60))
	}
	var w svgWriter
	w.header(W, H, "force layout")
	for _, e := range edges {
		x1, y1 := xy(index[e.From])
		x2, y2 := xy(index[e.To])
		dash := ""
		if e.Kind != "writes" {
			dash = ` stroke-dasharray="5 3"`
		}
		w.s(`<line stroke-opacity="0.6"`+dash).attrN("x1", x1).attrN("y1", y1).attrN("x2", x2).attrN("y2", y2).s("/>\n")
	}
	for i, n := range nodes {
		x, y := xy(i)
		bw := textWidth(n.Label) + 2*boxPadX
		w.s(`<rect fill="white" stroke-opacity="0.6"`).attrN("x", x-bw/2).attrN("y", y-boxH/2).attrN("width", bw).attrN("height", boxH).s("/>")
		w.s(`<text stroke="none" text-anchor="middle"`).attrN("x", x).attrN("y", y+4).s(">").text(n.Label).s("</text>\n")
	}
	w.s("</svg>\n")
	return w.Bytes()
}

// orderedGraph makes gonum iterate nodes in ID order: simple graphs keep
// nodes in maps, and EadesR2 seeds positions and sums forces in iteration
// order.
type orderedGraph struct{ *simple.UndirectedGraph }

func sortedNodes(it graph.Nodes) graph.Nodes {
	ns := graph.NodesOf(it)
	slices.SortFunc(ns, func(a, b graph.Node) int { return int(a.ID() - b.ID()) })
	return iterator.NewOrderedNodes(ns)
}

func (g orderedGraph) Nodes() graph.Nodes        { return sortedNodes(g.UndirectedGraph.Nodes()) }
func (g orderedGraph) From(id int64) graph.Nodes { return sortedNodes(g.UndirectedGraph.From(id)) }
