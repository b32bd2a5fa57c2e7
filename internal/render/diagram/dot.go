package diagram

import (
	"bytes"
	"context"
	"embed"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/goccy/go-graphviz"
	"github.com/goccy/go-graphviz/cgraph"

	"github.com/kubewalk/kubewalk/internal/render/codehtml"
	"github.com/kubewalk/kubewalk/internal/render/wasmcache"
)

// Graphviz runs as WebAssembly inside this process: go-graphviz embeds
// Graphviz 12 compiled to wasm and runs it with wazero (pure Go, no cgo,
// nothing to install, no network). Its package init compiles the module
// for every process that links this package, whatever the command: most
// of a second and a few megabytes written to wazero's compilation cache
// the first time, then a fraction of that each start (bench/README.md).
// Every Graphviz context shares that one instance.
//
// go-graphviz puts that cache in $TMPDIR/go-graphviz, a name anyone could
// create first in a shared /tmp and fill with code for wazero to map
// executable. wasmcache, initialised before go-graphviz, points TMPDIR at
// a directory of the user's own for that init; Go initialises this
// package after go-graphviz, since it imports it, so here the caller's
// TMPDIR is given back, before main and every package that imports this
// one.
func init() {
	wasmcache.Restore()
}

var (
	// gvMu serialises layouts: the shared wasm instance is one C heap
	// with one thread, not safe for concurrent calls, and the site renders
	// pages concurrently (one resources page per release).
	gvMu sync.Mutex
	// noFiles is an empty file system: Graphviz reads files only for the
	// image, shapefile and fontpath attributes, which Graph never sets;
	// mounting nothing makes sure no caller text could name a file either.
	noFiles embed.FS
)

// Attributes given to Graphviz: their defaults, declared once per graph.
// Sizes are in Graphviz's units — points for fonts, inches for the rest —
// and one point becomes one px in the SVG, so fontsize matches the 13 px
// the site's CSS gives diagram text.
var (
	graphAttrs = [][2]string{
		{"rankdir", "LR"},
		{"bgcolor", "transparent"},
		{"fontname", "DejaVu Sans"},
		{"fontsize", strconv.Itoa(fontSize)},
		{"nodesep", "0.06"},
		{"ranksep", "1.1"},
		// rank=same for the resources' subgraph works across clusters.
		{"newrank", "true"},
		{"rank", ""},
		// Edges first, so that boxes (and their links) sit on top.
		{"outputorder", "edgesfirst"},
		// Cluster attributes: declared on the root, set per cluster.
		{"id", ""},
		{"label", ""},
		{"style", ""},
		{"color", "#00000059"},
	}
	// DejaVu Sans is one of the fonts whose metrics Graphviz carries (a
	// name it does not know is measured as Times, far narrower); it is
	// also the face textWidth assumes and the widest common sans-serif,
	// so a box sized for it fits the label in the reader's font.
	nodeAttrs = [][2]string{
		{"shape", "box"},
		{"style", "filled"},
		{"fillcolor", "#00000012"},
		{"color", "#00000099"},
		{"fontname", "DejaVu Sans"},
		{"fontsize", strconv.Itoa(fontSize)},
		{"height", "0.26"},
		{"width", "0.3"},
		{"margin", "0.1,0.02"},
		{"id", ""},
		{"label", ""},
		{"href", ""},
	}
	edgeAttrs = [][2]string{
		{"color", "#000000b3"},
		{"arrowsize", "0.6"},
		{"dir", "forward"},
		{"style", ""},
		{"constraint", "true"},
		{"id", ""},
	}
)

// labelPadX is the space, px, between a label and its box's sides.
const labelPadX = 8

// layout runs dot over m and returns Graphviz's SVG.
func layout(m *model) ([]byte, error) {
	gvMu.Lock()
	defer gvMu.Unlock()
	graphviz.SetFileSystem(noFiles)
	ctx := context.Background()
	gv, err := graphviz.New(ctx)
	if err != nil {
		return nil, fmt.Errorf("diagram: graphviz: %w", err)
	}
	defer gv.Close()
	g, err := gv.Graph(graphviz.WithName("G"))
	if err != nil {
		return nil, fmt.Errorf("diagram: graphviz: %w", err)
	}
	defer g.Close()
	if err := build(g, m); err != nil {
		return nil, fmt.Errorf("diagram: graphviz: %w", err)
	}
	var buf bytes.Buffer
	if err := gv.Render(ctx, g, graphviz.SVG, &buf); err != nil {
		return nil, fmt.Errorf("diagram: graphviz: %w", err)
	}
	return buf.Bytes(), nil
}

// setter is what cgraph's graphs, nodes and edges have in common.
type setter interface {
	Set(name, value string) error
}

func set(o setter, kv ...string) error {
	for i := 0; i+1 < len(kv); i += 2 {
		if err := o.Set(kv[i], kv[i+1]); err != nil {
			return fmt.Errorf("set %s: %w", kv[i], err)
		}
	}
	return nil
}

// build creates m's clusters, nodes and edges in g, in m's order. Node,
// edge and cluster names are made up ("n3", "e7", "cluster2") and so are
// the ids clean finds them by: no caller text is a name.
func build(g *cgraph.Graph, m *model) error {
	for _, d := range []struct {
		kind  cgraph.ObjectTag
		attrs [][2]string
	}{{cgraph.GRAPH, graphAttrs}, {cgraph.NODE, nodeAttrs}, {cgraph.EDGE, edgeAttrs}} {
		for _, a := range d.attrs {
			if _, err := g.Attr(int(d.kind), a[0], a[1]); err != nil {
				return fmt.Errorf("declare %s: %w", a[0], err)
			}
		}
	}
	subs := make([]*cgraph.Graph, len(m.clusters))
	for c, f := range m.clusters {
		sub, err := g.CreateSubGraphByName("cluster" + strconv.Itoa(c))
		if err != nil {
			return err
		}
		if err := set(sub, "id", "k"+strconv.Itoa(c), "label", gvText(f.label), "style", "rounded"); err != nil {
			return err
		}
		subs[c] = sub
	}
	gn, err := buildNodes(g, subs, m)
	if err != nil {
		return err
	}
	return buildEdges(g, gn, m)
}

// buildNodes creates m's nodes, each in its cluster's subgraph, and
// returns them in m's order.
func buildNodes(g *cgraph.Graph, subs []*cgraph.Graph, m *model) ([]*cgraph.Node, error) {
	// The resources share a rank, so that a part of the graph that
	// touches only the right-hand components is not ranked on its own
	// and drawn shifted one column left.
	mid, err := g.CreateSubGraphByName("resources")
	if err != nil {
		return nil, err
	}
	if err := set(mid, "rank", "same"); err != nil {
		return nil, err
	}
	gn := make([]*cgraph.Node, len(m.nodes))
	for i, n := range m.nodes {
		parent := g
		if c := m.cluster[i]; c >= 0 {
			parent = subs[c]
		}
		name := "n" + strconv.Itoa(i)
		node, err := parent.CreateNodeByName(name)
		if err != nil {
			return nil, err
		}
		// The box is at least as wide as textWidth's estimate, which
		// knows wide (Hangul, CJK) characters that Graphviz's tables
		// measure as Latin ones.
		w := float64(textWidth(m.labels[i])+2*labelPadX) / 72
		kv := []string{"id", name, "label", gvText(m.labels[i]), "width", strconv.FormatFloat(w, 'f', 3, 64)}
		if isResource(n) {
			kv = append(kv, "style", "rounded,filled")
		}
		if codehtml.SafeHref(n.Href) {
			kv = append(kv, "href", gvText(n.Href))
		}
		if err := set(node, kv...); err != nil {
			return nil, err
		}
		if isResource(n) {
			if _, err := mid.CreateNodeByName(name); err != nil {
				return nil, err
			}
		}
		gn[i] = node
	}
	return gn, nil
}

// buildEdges creates m's lines between the nodes gn.
func buildEdges(g *cgraph.Graph, gn []*cgraph.Node, m *model) error {
	for i, l := range m.lines {
		name := "e" + strconv.Itoa(i)
		e, err := g.CreateEdgeByName(name, gn[l.tail], gn[l.head])
		if err != nil {
			return err
		}
		dir := "forward"
		switch {
		case l.tailArrow && l.headArrow:
			dir = "both"
		case l.tailArrow:
			dir = "back"
		case !l.headArrow:
			dir = "none"
		}
		kv := []string{"id", name, "dir", dir}
		if l.dashed {
			kv = append(kv, "style", "dashed", "color", "#00000080")
		}
		if !l.constraint {
			kv = append(kv, "constraint", "false")
		}
		if err := set(e, kv...); err != nil {
			return err
		}
	}
	return nil
}

// gvText is s as a Graphviz string attribute that Graphviz reads back as
// s: a backslash starts an escape (\N is the node's name, \n a line
// break) and a label's &…; entities are decoded, so both are escaped.
// Graphviz uses the value only to size and place boxes: the text in the
// output is written by clean from the caller's string.
func gvText(s string) string {
	return strings.NewReplacer(`\`, `\\`, "&", "&amp;").Replace(s)
}
