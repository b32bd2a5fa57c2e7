package diagram

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/gonum/graph"
	"gonum.org/v1/gonum/graph/path"
	"gonum.org/v1/gonum/graph/simple"
	"gonum.org/v1/gonum/graph/topo"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/mds"
)

// Graph geometry, px.
const (
	graphTitleH = 40  // legend and column headings
	boxH        = 22  // node box height
	rowH        = 30  // distance between node centres in the taller column
	boxPadX     = 10  // text padding in a box
	boxMaxW     = 300 // longer labels are cut with an ellipsis
	gutter      = 260 // between the columns, where the edges run
	pairOffset  = 3   // vertical offset of a writes/watches pair sharing two nodes
)

// handGraph is the hand-written layout Graph replaced, kept for one
// commit so that BenchmarkGraphReal can time both on the same input in
// the same run: components in the left column, resources in the right,
// an edge for each watch or write.
//
// # Layout
//
// The graph is bipartite (components watch and write resources), so it is
// drawn as two columns and the only question is the order within each:
// the one that makes fewest crossings. That order comes from gonum in two
// steps: path.FloydWarshall gives the graph distance between every pair of
// nodes of a connected component (topo.ConnectedComponents) and
// mds.TorgersonScaling embeds those distances on a line, so that nodes
// close in the graph are close on the line — the same computation as
// layout.IsomapR2, in one dimension instead of two. A few barycentre
// sweeps (the ordering step of Sugiyama-style layered drawing, a dozen
// lines here) then settle local crossings; the order with the fewest
// crossings seen is kept. Connected components are stacked, largest first.
//
// gonum's force-directed layout (layout.EadesR2) was tried first and
// rejected: with labelled boxes its output has overlapping boxes and long
// edges crossing the whole picture, and no two columns to read down.
// testdata/graph_force.svg (made by the test from the same input as
// testdata/graph.svg) shows it. go-graphviz, d2 and autog, which do layered
// layout properly, are not available from this module proxy.
//
// Everything is deterministic: inputs are sorted, the only numeric step
// (the eigendecomposition) sees its matrix in a fixed order, and its sign
// is normalised.
func handGraph(nodes []Node, edges []Edge) ([]byte, error) {
	if len(nodes) == 0 {
		return nil, ErrEmpty
	}
	nodes = slices.Clone(nodes)
	slices.SortFunc(nodes, func(a, b Node) int { return strings.Compare(a.ID, b.ID) })
	index := make(map[string]int, len(nodes))
	for i, n := range nodes {
		if i > 0 && nodes[i-1].ID == n.ID {
			return nil, fmt.Errorf("diagram: node %q listed twice", n.ID)
		}
		index[n.ID] = i
	}
	edges = slices.Clone(edges)
	slices.SortFunc(edges, func(a, b Edge) int {
		return cmp.Or(strings.Compare(a.From, b.From), strings.Compare(a.To, b.To),
			strings.Compare(a.kind(), b.kind()), strings.Compare(a.Label, b.Label), strings.Compare(a.Kind, b.Kind))
	})
	edges = slices.Compact(edges)
	for _, e := range edges {
		if _, ok := index[e.From]; !ok {
			return nil, fmt.Errorf("diagram: edge %s %s %s: no node %q", e.From, e.Kind, e.To, e.From)
		}
		if _, ok := index[e.To]; !ok {
			return nil, fmt.Errorf("diagram: edge %s %s %s: no node %q", e.From, e.Kind, e.To, e.To)
		}
	}

	pos := order(nodes, edges, index)
	return drawGraph(nodes, edges, index, pos), nil
}

// right reports whether n goes in the right (resource) column.
func right(n Node) bool { return n.Kind == "resource" }

// order returns a position for each node (index into nodes): 0, 1, … down
// its column.
func order(nodes []Node, edges []Edge, index map[string]int) []float64 {
	g := simple.NewUndirectedGraph()
	for i := range nodes {
		g.AddNode(simple.Node(i))
	}
	for _, e := range edges {
		f, t := index[e.From], index[e.To]
		if f != t && !g.HasEdgeBetween(int64(f), int64(t)) {
			g.SetEdge(simple.Edge{F: simple.Node(f), T: simple.Node(t)})
		}
	}
	comps := topo.ConnectedComponents(g)
	ids := make([][]int, len(comps))
	for i, c := range comps {
		for _, n := range c {
			ids[i] = append(ids[i], int(n.ID()))
		}
		slices.Sort(ids[i])
	}
	slices.SortFunc(ids, func(a, b []int) int { return cmp.Or(len(b)-len(a), a[0]-b[0]) })

	// key orders nodes: component number, then the embedding.
	key := make([]float64, len(nodes))
	for ci, c := range ids {
		x := embedLine(g, c)
		for i, id := range c {
			key[id] = float64(ci)*1e6 + x[i]
		}
	}
	pos := ranks(nodes, key)

	// Barycentre sweeps: move each node to the mean position of its
	// neighbours in the other column, alternating columns.
	adj := make([][]int, len(nodes))
	for _, e := range edges {
		f, t := index[e.From], index[e.To]
		if right(nodes[f]) != right(nodes[t]) {
			adj[f] = append(adj[f], t)
			adj[t] = append(adj[t], f)
		}
	}
	best, bestX := slices.Clone(pos), crossings(nodes, edges, index, pos)
	for sweep := 0; sweep < 8 && bestX > 0; sweep++ {
		side := sweep%2 == 0 // resources first: components came from the embedding
		for i, n := range nodes {
			if right(n) != side || len(adj[i]) == 0 {
				key[i] = pos[i]
				continue
			}
			sum := 0.0
			for _, j := range adj[i] {
				sum += pos[j]
			}
			// Neighbours all lie in the node's connected component,
			// whose nodes are contiguous in each column, so components
			// stay apart.
			key[i] = sum / float64(len(adj[i]))
		}
		pos = ranks(nodes, key)
		if x := crossings(nodes, edges, index, pos); x < bestX {
			best, bestX = slices.Clone(pos), x
		}
	}
	return best
}

// embedLine places the nodes of one connected component on a line by
// classical multidimensional scaling of their graph distances.
func embedLine(g graph.Graph, c []int) []float64 {
	x := make([]float64, len(c))
	if len(c) < 3 {
		for i := range x {
			x[i] = float64(i)
		}
		return x
	}
	sub := simple.NewUndirectedGraph()
	for _, id := range c {
		sub.AddNode(simple.Node(id))
	}
	for _, u := range c {
		for _, v := range c {
			if u < v && g.HasEdgeBetween(int64(u), int64(v)) {
				sub.SetEdge(simple.Edge{F: simple.Node(u), T: simple.Node(v)})
			}
		}
	}
	paths, ok := path.FloydWarshall(sub)
	if !ok {
		return fallback(x)
	}
	dist := mat.NewSymDense(len(c), nil)
	for i, u := range c {
		for j, v := range c {
			dist.SetSym(i, j, paths.Weight(int64(u), int64(v)))
		}
	}
	var coords mat.Dense
	if k, _ := mds.TorgersonScaling(&coords, nil, dist); k < 1 {
		return fallback(x)
	}
	for i := range x {
		// Rounding makes ties between symmetric nodes exact, so that
		// they break by ID rather than by floating-point noise.
		x[i] = math.Round(coords.At(i, 0)*1e6) / 1e6
	}
	// An eigenvector's sign is arbitrary: fix it by the first node.
	if x[0] > 0 {
		for i := range x {
			x[i] = -x[i]
		}
	}
	return x
}

func fallback(x []float64) []float64 {
	for i := range x {
		x[i] = float64(i)
	}
	return x
}

// ranks turns sort keys into positions 0, 1, … per column, ties broken by
// the current order of nodes (by ID).
func ranks(nodes []Node, key []float64) []float64 {
	pos := make([]float64, len(nodes))
	for _, side := range []bool{false, true} {
		var col []int
		for i, n := range nodes {
			if right(n) == side {
				col = append(col, i)
			}
		}
		slices.SortStableFunc(col, func(a, b int) int { return cmp.Compare(key[a], key[b]) })
		for r, i := range col {
			pos[i] = float64(r)
		}
	}
	return pos
}

// crossings counts pairs of edges between the columns that cross.
func crossings(nodes []Node, edges []Edge, index map[string]int, pos []float64) int {
	type seg struct{ l, r float64 }
	var segs []seg
	for _, e := range edges {
		f, t := index[e.From], index[e.To]
		if right(nodes[f]) == right(nodes[t]) {
			continue
		}
		if right(nodes[f]) {
			f, t = t, f
		}
		segs = append(segs, seg{pos[f], pos[t]})
	}
	n := 0
	for i, a := range segs {
		for _, b := range segs[i+1:] {
			if (a.l-b.l)*(a.r-b.r) < 0 {
				n++
			}
		}
	}
	return n
}

func drawGraph(nodes []Node, edges []Edge, index map[string]int, pos []float64) []byte {
	var colW [2]int   // box width per column (0 left, 1 right)
	var count [2]int  // nodes per column
	var loops [2]bool // same-column edges, drawn as arcs outside the column
	col := func(i int) int {
		if right(nodes[i]) {
			return 1
		}
		return 0
	}
	labels := make([]string, len(nodes))
	for i, n := range nodes {
		c := col(i)
		count[c]++
		labels[i] = truncate(cmp.Or(n.Label, n.ID), boxMaxW-2*boxPadX)
		colW[c] = max(colW[c], textWidth(labels[i])+2*boxPadX, 80)
	}
	for _, e := range edges {
		f, t := index[e.From], index[e.To]
		if f != t && col(f) == col(t) {
			loops[col(f)] = true
		}
	}
	const loopW = 36
	x0 := margin
	if loops[0] {
		x0 += loopW
	}
	colX := [2]int{x0, x0 + colW[0] + gutter}
	width := colX[1] + colW[1] + margin
	if loops[1] {
		width += loopW
	}
	rows := max(count[0], count[1])
	top := margin + graphTitleH
	height := top + rows*rowH + margin
	cy := func(i int) int { // centre y of node i
		return top + int(math.Round((pos[i]+0.5)*float64(rows*rowH)/float64(count[col(i)])))
	}

	// Pairs of nodes joined by more than one kind of edge get their edges
	// offset so both stay visible.
	type pair struct{ a, b int }
	kinds := map[pair][]string{}
	for _, e := range edges {
		f, t := index[e.From], index[e.To]
		p := pair{min(f, t), max(f, t)}
		if !slices.Contains(kinds[p], e.kind()) {
			kinds[p] = append(kinds[p], e.kind())
		}
	}

	var w svgWriter
	w.header(width, height, "Resource graph: components, the resources they watch and write")
	// Column headings and legend.
	w.s(`<g stroke="none" font-weight="bold">` + "\n")
	if count[0] > 0 {
		w.textLines(colX[0]+colW[0]/2, margin+14, "middle", []string{"Components"})
	}
	if count[1] > 0 {
		w.textLines(colX[1]+colW[1]/2, margin+14, "middle", []string{"Resources"})
	}
	w.s("</g>\n")
	lx := colX[0] + colW[0] + gutter/2 - 70
	w.s(`<path fill="none" stroke-width="1.5" stroke-opacity="0.8"`).attr("d", fmt.Sprintf("M%d %dh28", lx, margin+10)).s("/>\n")
	w.s(`<text stroke="none"`).attrN("x", lx+32).attrN("y", margin+14).s(">writes</text>\n")
	w.s(`<path fill="none" stroke-opacity="0.5" stroke-dasharray="5 3"`).attr("d", fmt.Sprintf("M%d %dh28", lx+80, margin+10)).s("/>\n")
	w.s(`<text stroke="none"`).attrN("x", lx+112).attrN("y", margin+14).s(">watches</text>\n")

	// Edges under the boxes.
	for _, e := range edges {
		f, t := index[e.From], index[e.To]
		if f == t {
			continue
		}
		y1, y2 := cy(f), cy(t)
		if ks := kinds[pair{min(f, t), max(f, t)}]; len(ks) > 1 {
			off := (2*slices.Index(ks, e.kind()) - (len(ks) - 1)) * pairOffset
			y1 += off
			y2 += off
		}
		if e.kind() == "writes" {
			w.s(`<g stroke-width="1.5" stroke-opacity="0.8" fill-opacity="0.8">`)
		} else {
			w.s(`<g stroke-opacity="0.5" stroke-dasharray="5 3" fill-opacity="0.5">`)
		}
		title := e.Label
		if title == "" || title == e.kind() {
			title = cmp.Or(nodes[f].Label, nodes[f].ID) + " " + cmp.Or(e.kind(), "—") + " " + cmp.Or(nodes[t].Label, nodes[t].ID)
		}
		w.s("<title>").text(title).s("</title>")
		var d string
		if c := col(f); c == col(t) {
			// Same column: an arc outside it, arrow pointing inward.
			x := colX[c]
			out := -loopW + 6
			dir := 1
			if c == 1 {
				x, out, dir = colX[1]+colW[1], loopW-6, -1
			}
			d = fmt.Sprintf("M%d %dC%d %d %d %d %d %d", x, y1, x+out, y1, x+out, y2, x-dir*arrowHead, y2)
			w.s(`<path fill="none"`).attr("d", d).s("/>")
			arrow(&w, x, y2, dir)
		} else {
			// Between the columns: a horizontal-ended cubic, arrow at To.
			xl, xr := colX[0]+colW[0], colX[1]
			yl, yr := y1, y2
			if c == 1 {
				yl, yr = y2, y1
			}
			if col(t) == 1 {
				d = fmt.Sprintf("M%d %dC%d %d %d %d %d %d", xl, yl, (xl+xr)/2, yl, (xl+xr)/2, yr, xr-arrowHead, yr)
				w.s(`<path fill="none"`).attr("d", d).s("/>")
				arrow(&w, xr, yr, 1)
			} else {
				d = fmt.Sprintf("M%d %dC%d %d %d %d %d %d", xr, yr, (xl+xr)/2, yr, (xl+xr)/2, yl, xl+arrowHead, yl)
				w.s(`<path fill="none"`).attr("d", d).s("/>")
				arrow(&w, xl, yl, -1)
			}
		}
		w.s("</g>\n")
	}

	// Boxes: components square-cornered, resources rounded.
	for i, n := range nodes {
		c := col(i)
		x, y := colX[c], cy(i)-boxH/2
		linked := w.openLink(n.Href)
		w.s("<g>")
		if labels[i] != cmp.Or(n.Label, n.ID) {
			w.s("<title>").text(cmp.Or(n.Label, n.ID)).s("</title>")
		}
		rx := 3
		if c == 1 {
			rx = boxH / 2
		}
		// Edges end at the box sides, so the box needs no opaque fill
		// (which would need a colour of its own in light and dark).
		w.s(`<rect fill-opacity="0.07" stroke-opacity="0.6"`).attrN("rx", rx).attrN("x", x).attrN("y", y).attrN("width", colW[c]).attrN("height", boxH).s("/>")
		w.s(`<text stroke="none" text-anchor="middle"`).attrN("x", x+colW[c]/2).attrN("y", y+boxH/2+4).s(">").text(labels[i]).s("</text>")
		w.s("</g>")
		if linked {
			w.s("</a>")
		}
		w.s("\n")
	}
	w.s("</svg>\n")
	return w.Bytes()
}

// truncate cuts s to at most max px, ending in an ellipsis when cut.
func truncate(s string, max int) string {
	if textWidth(s) <= max {
		return s
	}
	limit := max - textWidth("…")
	w := 0
	for i, r := range s {
		w += (runeWidth(r)*fontSize + 2047) / 2048
		if w > limit {
			return s[:i] + "…"
		}
	}
	return s
}
