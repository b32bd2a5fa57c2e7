package diagram

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// Node is a box of a resource graph.
type Node struct {
	// ID identifies the node in edges. Nodes reach Graphviz in ID order,
	// so the drawing does not depend on the order of the slice.
	ID string
	// Label is the text in the box, drawn whole: the box grows to fit it.
	// "" draws the ID.
	Label string
	// Kind is "resource" (the middle column, rounded) or "component" (a
	// column either side, square); any other kind is drawn as a
	// component.
	Kind string
	// Cluster is the label of the frame the node is drawn in: nodes with
	// the same Cluster share one (a program's components, say). "" for
	// none. A cluster of components stays on one side of the resources.
	Cluster string
	// Href is where the box links; "" (or an unsafe URL) for no link.
	Href string
}

// Edge joins two nodes.
type Edge struct {
	From, To string
	// Label is the edge's tooltip; "" or a bare "writes"/"watches" gives
	// "<from label> <kind> <to label>".
	Label string
	// Kind is "writes" or "watches"; other kinds are drawn like watches.
	// When Kind is "", a Label of "writes" or "watches" stands for it.
	Kind string
}

// kind is e's style: Kind, or Label when Kind is empty.
func (e Edge) kind() string {
	if e.Kind == "" && (e.Label == "writes" || e.Label == "watches") {
		return e.Label
	}
	return e.Kind
}

// Graph draws a resource graph: resources in a middle column, the
// components that watch and write them in columns either side, one line
// per component and resource.
//
// # Drawing
//
// A line between a component and a resource has an arrowhead at the
// resource when the component writes it, and one at the component when
// the component watches it (events flow to the watcher): a component that
// does both gets one line with two heads, and a line with only a watch is
// dashed. Whichever of From and To the caller puts the component in, the
// heads mean that. Any other edge (component to component, resource to
// resource, a node to itself) is drawn from From to To, dashed unless it
// writes, and does not move the columns. A legend above the drawing says
// so.
//
// # Layout
//
// Graphviz's dot lays the graph out (see layout): it ranks the columns
// left to right, orders each column to cut crossings, keeps each cluster's
// nodes together in a frame and routes the lines around the boxes. Graph
// only decides which side of the resources each group of components goes:
// clusters largest first, each to the side with fewer components so far
// (ties to the left), so that the two sides are about as tall. The graph
// is bipartite, so every line spans one rank and none has to cross a
// column — which is why the components are split rather than put in one
// column (a release's dozens of components make one far taller than a
// screen) or in several (lines crossing a column go between its boxes and
// make it taller still).
//
// Labels are never cut: a box is at least as wide as textWidth's estimate
// of its label, which errs wide, and Graphviz widens it further where its
// own estimate is wider.
//
// # Output
//
// The SVG is Graphviz's, rewritten (see clean): only the elements and
// attributes a diagram uses are kept, colours become currentColor, and
// every piece of caller text — labels, tooltips, hrefs — is written from
// the caller's own value, escaped, never copied from Graphviz's output.
// The same input gives the same bytes: nodes and edges are sorted before
// Graphviz sees them, and dot is deterministic for a given input.
func Graph(nodes []Node, edges []Edge) ([]byte, error) {
	m, err := newModel(nodes, edges)
	if err != nil {
		return nil, err
	}
	raw, err := layout(m)
	if err != nil {
		return nil, err
	}
	return clean(raw, m, nil)
}

// Drawing is one graph of Graphs.
type Drawing struct {
	Nodes []Node
	Edges []Edge
}

// Graphs draws several graphs — a multi-release site's releases' resource
// graphs — on one layout, their union's: a node, frame or line that
// graphs share is drawn at the same place and in the same bytes in each,
// so the drawings differ only where the graphs do, and a page that
// shows them one at a time holds what they share once. A line is
// shared when its ends, arrowheads and dash are: a component that only
// watches a resource in one graph and also writes it in another gets two
// lines in the layout, one drawn in each. A node takes its label, kind
// and cluster from the first graph that has it (they name it; graphs
// that disagree get the first's box), its link and a line its tooltip
// from each graph's own. Each drawing is Graph's for its graph but for
// the places of things. A graph without nodes (a release with no
// resource graph) gets no drawing (nil), and takes no part in the layout.
//
// It is long because it is three steps over shared state (the union's
// nodes and lines by key, then one layout, then a drawing per graph), each
// reading the maps the step before filled.
func Graphs(ds []Drawing) ([][]byte, error) {
	var drawn []Drawing
	var which []int
	for i, d := range ds {
		if len(d.Nodes) > 0 {
			drawn, which = append(drawn, d), append(which, i)
		}
	}
	if len(drawn) < len(ds) {
		out := make([][]byte, len(ds))
		if len(drawn) > 0 {
			gs, err := Graphs(drawn)
			if err != nil {
				return nil, err
			}
			for k, i := range which {
				out[i] = gs[k]
			}
		}
		return out, nil
	}
	ms := make([]*model, len(ds))
	var union []Node
	seen := map[string]int{}
	for i, d := range ds {
		m, err := newModel(d.Nodes, d.Edges)
		if err != nil {
			return nil, err
		}
		ms[i] = m
		for _, n := range m.nodes {
			j, ok := seen[n.ID]
			if !ok {
				seen[n.ID] = len(union)
				union = append(union, n)
				continue
			}
			// Linked in the layout if in any graph: Graphviz wraps a
			// linked node's shapes in the <a> clean writes or not.
			if union[j].Href == "" {
				union[j].Href = n.Href
			}
		}
	}
	u, err := newModel(union, nil)
	if err != nil {
		return nil, err
	}
	index := make(map[string]int, len(u.nodes))
	for i, n := range u.nodes {
		index[n.ID] = i
	}
	// Each graph's lines on the union's columns, then the union's lines:
	// each distinct one once, in a fixed order.
	type lineKey struct {
		tail, head                               int
		tailArrow, headArrow, dashed, constraint bool
	}
	key := func(l line) lineKey {
		return lineKey{l.tail, l.head, l.tailArrow, l.headArrow, l.dashed, l.constraint}
	}
	own := make([][]line, len(ds))
	at := map[lineKey]int{}
	for i := range ms {
		own[i] = u.linesOf(sortedEdges(ds[i].Edges), index)
		for _, l := range own[i] {
			if _, ok := at[key(l)]; !ok {
				at[key(l)] = -1
				u.lines = append(u.lines, l)
			}
		}
	}
	slices.SortFunc(u.lines, func(a, b line) int {
		ka, kb := key(a), key(b)
		return cmp.Or(ka.tail-kb.tail, ka.head-kb.head, boolCmp(ka.tailArrow, kb.tailArrow),
			boolCmp(ka.headArrow, kb.headArrow), boolCmp(ka.dashed, kb.dashed), boolCmp(ka.constraint, kb.constraint))
	})
	for i, l := range u.lines {
		at[key(l)] = i
	}
	raw, err := layout(u)
	if err != nil {
		return nil, err
	}
	out := make([][]byte, len(ds))
	for i, m := range ms {
		v := &view{nodes: make([]bool, len(u.nodes)), hrefs: make([]string, len(u.nodes)),
			lines: make([]string, len(u.lines)), clusters: make([]bool, len(u.clusters))}
		for _, n := range m.nodes {
			j := index[n.ID]
			v.nodes[j], v.hrefs[j] = true, n.Href
			if c := u.cluster[j]; c >= 0 {
				v.clusters[c] = true
			}
		}
		for _, l := range own[i] {
			v.lines[at[key(l)]] = l.title
		}
		if out[i], err = clean(raw, u, v); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// view is what one graph of Graphs draws of the union's layout: its
// nodes (with its links), frames and lines (with its tooltips; "" for a
// line it lacks).
type view struct {
	nodes    []bool
	hrefs    []string
	clusters []bool
	lines    []string
}

func boolCmp(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// Columns, as Graphviz ranks them left to right.
const (
	leftSide = iota
	middle
	rightSide
)

// model is a graph ready for Graphviz: nodes sorted by ID, clusters, each
// node's column, and lines — the edges merged, one per component and
// resource.
type model struct {
	nodes    []Node
	labels   []string // what each node's box says, sanitised
	side     []int    // each node's column
	cluster  []int    // each node's cluster, -1 for none
	clusters []frame
	lines    []line
}

// frame is a cluster: its label and nodes.
type frame struct {
	label string
	nodes []int
}

// line is one line of the drawing, tail to head as Graphviz ranks it.
type line struct {
	tail, head int
	// tailArrow and headArrow put an arrowhead at that end.
	tailArrow, headArrow bool
	dashed               bool
	// constraint is false for lines that must not move the columns.
	constraint bool
	title      string
}

func newModel(nodes []Node, edges []Edge) (*model, error) {
	if len(nodes) == 0 {
		return nil, ErrEmpty
	}
	m := &model{nodes: slices.Clone(nodes)}
	slices.SortFunc(m.nodes, func(a, b Node) int { return strings.Compare(a.ID, b.ID) })
	index := make(map[string]int, len(m.nodes))
	for i, n := range m.nodes {
		if i > 0 && m.nodes[i-1].ID == n.ID {
			return nil, fmt.Errorf("diagram: node %q listed twice", n.ID)
		}
		index[n.ID] = i
		m.labels = append(m.labels, oneLine(cmp.Or(n.Label, n.ID)))
	}
	edges = sortedEdges(edges)
	for _, e := range edges {
		for _, id := range []string{e.From, e.To} {
			if _, ok := index[id]; !ok {
				return nil, fmt.Errorf("diagram: edge %s %s %s: no node %q", e.From, e.Kind, e.To, id)
			}
		}
	}
	m.group()
	m.lines = m.linesOf(edges, index)
	return m, nil
}

// sortedEdges is edges sorted, each once.
func sortedEdges(edges []Edge) []Edge {
	edges = slices.Clone(edges)
	slices.SortFunc(edges, func(a, b Edge) int {
		return cmp.Or(strings.Compare(a.From, b.From), strings.Compare(a.To, b.To),
			strings.Compare(a.kind(), b.kind()), strings.Compare(a.Label, b.Label), strings.Compare(a.Kind, b.Kind))
	})
	return slices.Compact(edges)
}

func isResource(n Node) bool { return n.Kind == "resource" }

// group makes the clusters, in label order, and puts each group of
// components — a cluster, or one component outside any — on the side with
// fewer components so far, largest group first.
func (m *model) group() {
	m.cluster = make([]int, len(m.nodes))
	byLabel := map[string]int{}
	for i, n := range m.nodes {
		m.cluster[i] = -1
		if n.Cluster == "" {
			continue
		}
		c, ok := byLabel[n.Cluster]
		if !ok {
			c = len(m.clusters)
			byLabel[n.Cluster] = c
			m.clusters = append(m.clusters, frame{label: oneLine(n.Cluster)})
		}
		m.clusters[c].nodes = append(m.clusters[c].nodes, i)
	}
	// Clusters are numbered in label order, for Graphviz to meet them in
	// an order that does not depend on the input's.
	slices.SortFunc(m.clusters, func(a, b frame) int { return strings.Compare(a.label, b.label) })
	for c, f := range m.clusters {
		for _, i := range f.nodes {
			m.cluster[i] = c
		}
	}

	var groups [][]int // components, by cluster or alone; IDs ascending in each
	seen := map[int]bool{}
	m.side = make([]int, len(m.nodes))
	for i, n := range m.nodes {
		if isResource(n) {
			m.side[i] = middle
			continue
		}
		c := m.cluster[i]
		if c < 0 {
			groups = append(groups, []int{i})
			continue
		}
		if !seen[c] {
			seen[c] = true
			var g []int
			for _, j := range m.clusters[c].nodes {
				if !isResource(m.nodes[j]) {
					g = append(g, j)
				}
			}
			groups = append(groups, g)
		}
	}
	slices.SortStableFunc(groups, func(a, b []int) int { return cmp.Or(len(b)-len(a), a[0]-b[0]) })
	var count [2]int
	for _, g := range groups {
		s := 0
		if count[1] < count[0] {
			s = 1
		}
		count[s] += len(g)
		for _, i := range g {
			m.side[i] = []int{leftSide, rightSide}[s]
		}
	}
}

// linesOf turns edges (sorted, between m's nodes, index their indexes)
// into lines: one per component and resource, with the heads and
// tooltips of all the edges between them; other edges one each.
func (m *model) linesOf(edges []Edge, index map[string]int) []line {
	type pair struct{ comp, res int }
	at := map[pair]int{} // line index
	var lines []line
	for _, e := range edges {
		f, t := index[e.From], index[e.To]
		title := e.Label
		if title == "" || title == e.kind() {
			title = m.labels[f] + " " + cmp.Or(e.kind(), "—") + " " + m.labels[t]
		}
		title = oneLine(title)
		writes := e.kind() == "writes"
		if isResource(m.nodes[f]) == isResource(m.nodes[t]) {
			lines = append(lines, line{tail: f, head: t, headArrow: true, dashed: !writes, title: title})
			continue
		}
		p := pair{f, t}
		if isResource(m.nodes[f]) {
			p = pair{t, f}
		}
		li, ok := at[p]
		if !ok {
			li = len(lines)
			at[p] = li
			l := line{tail: p.comp, head: p.res, dashed: true, constraint: true}
			if m.side[p.comp] == rightSide {
				l.tail, l.head = p.res, p.comp
			}
			lines = append(lines, l)
		}
		l := &lines[li]
		// A write points at the resource, a watch at the component.
		atRes := writes
		if (l.head == p.res) == atRes {
			l.headArrow = true
		} else {
			l.tailArrow = true
		}
		if writes {
			l.dashed = false
		}
		if l.title == "" {
			l.title = title
		} else if !slices.Contains(strings.Split(l.title, "\n"), title) {
			l.title += "\n" + title
		}
	}
	return lines
}

// oneLine replaces line breaks, other control characters and characters
// XML cannot hold with spaces, so a label is one line of text whatever
// the caller passed.
func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if r < ' ' || r >= 0x7f && r < 0xa0 || r == 0xfffe || r == 0xffff {
			return ' '
		}
		return r
	}, strings.ToValidUTF8(s, "\uFFFD"))
}
