package diagram

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/kubewalk/kubewalk/internal/render/codehtml"
)

// clean rewrites Graphviz's SVG for m as this package's diagrams are
// written: one <svg> drawn in currentColor with a role and a label; the
// groups of the graph, its clusters, nodes and edges; their paths,
// polygons and ellipses; <a href> around a linked node; text. Everything
// else goes: the XML declaration, doctype and comments, Graphviz's ids
// and classes (two diagrams on a page must not clash), its <title>s (the
// made-up names) and its fonts (the page's CSS sets them).
//
// Caller text is never copied from Graphviz's output: a node's or
// cluster's text, an edge's tooltip and a node's href are written from
// m, found by the id build gave the object, and escaped by svgWriter. So
// what a label shows does not depend on how Graphviz escapes (it leaves
// "&lt;" in a label as is, which a browser would show as "<"), and no
// label can become markup. An element or colour Graphviz was not expected
// to write is an error, not passed through.
//
// With a view (Graphs), only what the view draws is written, with its
// links and tooltips.
func clean(raw []byte, m *model, v *view) ([]byte, error) {
	c := cleaner{m: m, v: v}
	d := xml.NewDecoder(bytes.NewReader(raw))
	d.Strict = true
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("diagram: reading Graphviz's SVG: %w", err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			if c.skip > 0 {
				c.skip++
				continue
			}
			if err := c.start(tok); err != nil {
				return nil, fmt.Errorf("diagram: reading Graphviz's SVG: %w", err)
			}
		case xml.EndElement:
			if c.skip > 0 {
				c.skip--
				continue
			}
			c.end()
		}
		// Character data is Graphviz's copy of caller text, and comments,
		// processing instructions and the doctype are not wanted: all are
		// dropped.
	}
	if len(c.stack) != 0 || c.w.Len() == 0 {
		return nil, fmt.Errorf("diagram: reading Graphviz's SVG: truncated")
	}
	return c.w.Bytes(), nil
}

type cleaner struct {
	m *model
	v *view // nil: everything, as m has it
	w svgWriter
	// stack holds, for each open element, the tag written for it ("" for
	// none) and the object it belongs to.
	stack []open
	// skip counts the open elements of a subtree being dropped.
	skip int
}

type open struct {
	tag string
	obj object
}

// object is a cluster, node or edge of m: kind 'k', 'n' or 'e' and index.
type object struct {
	kind byte
	i    int
}

func (c *cleaner) cur() object {
	if len(c.stack) == 0 {
		return object{}
	}
	return c.stack[len(c.stack)-1].obj
}

func (c *cleaner) push(tag string, obj object) { c.stack = append(c.stack, open{tag, obj}) }

func (c *cleaner) end() {
	top := c.stack[len(c.stack)-1]
	c.stack = c.stack[:len(c.stack)-1]
	if top.tag != "" {
		c.w.s("</" + top.tag + ">")
		if top.tag != "a" {
			c.w.s("\n")
		}
	}
}

func attr(e xml.StartElement, name string) string {
	for _, a := range e.Attr {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

func (c *cleaner) start(e xml.StartElement) error {
	obj := c.cur()
	switch e.Name.Local {
	case "svg":
		if len(c.stack) != 0 {
			return fmt.Errorf("nested <svg>")
		}
		return c.header(e)
	case "g":
		return c.group(e, obj)
	case "a":
		// A node's link: Graphviz wraps the node's shapes in it when the
		// node has an href, which build sets only for safe ones; the
		// caller's href is written, checked again.
		if obj.kind == 'n' && codehtml.SafeHref(c.href(obj.i)) {
			c.w.s("<a").attr("href", c.href(obj.i)).s(">")
			c.push("a", obj)
			return nil
		}
		c.push("", obj)
	case "title":
		c.skip = 1
	case "path", "polygon", "polyline", "ellipse":
		return c.shape(e)
	case "text":
		return c.text(e, obj)
	default:
		return fmt.Errorf("unexpected <%s>", e.Name.Local)
	}
	return nil
}

// header writes the root element with Graphviz's size, rounded up to
// whole px (one point is one px: see dot.go).
func (c *cleaner) header(e xml.StartElement) error {
	vb := strings.Fields(attr(e, "viewBox"))
	if len(vb) != 4 {
		return fmt.Errorf("viewBox %q", attr(e, "viewBox"))
	}
	var size [2]int
	for i, s := range vb[2:] {
		f, err := strconv.ParseFloat(s, 64)
		if err != nil || f < 0 || f > 1e6 {
			return fmt.Errorf("viewBox %q", attr(e, "viewBox"))
		}
		size[i] = int(math.Ceil(f))
	}
	c.w.header(size[0], size[1], "Resource graph: components, the resources they watch and write")
	c.push("svg", object{})
	return nil
}

// group writes a <g> for the graph (with Graphviz's transform), a
// cluster, a node or an edge (with the edge's tooltip), and nothing for
// the group Graphviz puts around a link.
func (c *cleaner) group(e xml.StartElement, obj object) error {
	id, class := attr(e, "id"), attr(e, "class")
	switch class {
	case "graph":
		t := attr(e, "transform")
		if strings.Trim(t, "0123456789.-, ()scalerotatnsl") != "" {
			return fmt.Errorf("transform %q", t)
		}
		c.w.s("<g").attr("transform", t).s(">\n")
		c.push("g", object{})
		return nil
	case "cluster", "node", "edge":
		o, err := c.object(id)
		if err != nil {
			return err
		}
		if !c.shown(o) {
			c.skip = 1
			return nil
		}
		// A node says its index and kind (data-node, data-kind), a line
		// the indexes of its ends (data-ends), so that a script can
		// focus the drawing on a node and its neighbours (site.js)
		// without reading labels back.
		switch o.kind {
		case 'n':
			c.w.s(`<g data-node="`).s(strconv.Itoa(o.i)).s(`" data-kind="`).s(nodeKind(c.m.nodes[o.i].Kind)).s(`">`)
		case 'e':
			l := c.m.lines[o.i]
			c.w.s(`<g data-ends="`).s(strconv.Itoa(l.tail)).s(" ").s(strconv.Itoa(l.head)).s(`">`)
		default:
			c.w.s("<g>")
		}
		if o.kind == 'e' {
			title := c.m.lines[o.i].title
			if c.v != nil {
				title = c.v.lines[o.i]
			}
			c.w.s("<title>").text(title).s("</title>")
		}
		c.push("g", o)
		return nil
	case "":
		if strings.HasPrefix(id, "a_") {
			c.push("", obj)
			return nil
		}
	}
	return fmt.Errorf("unexpected <g id=%q class=%q>", id, class)
}

// nodeKind is a node's Kind as an attribute value: "resource" or
// "component", anything else "other".
func nodeKind(k string) string {
	if k == "resource" || k == "component" {
		return k
	}
	return "other"
}

// shown reports whether the view draws o.
func (c *cleaner) shown(o object) bool {
	if c.v == nil {
		return true
	}
	switch o.kind {
	case 'k':
		return c.v.clusters[o.i]
	case 'n':
		return c.v.nodes[o.i]
	}
	return c.v.lines[o.i] != ""
}

// href is node i's link.
func (c *cleaner) href(i int) string {
	if c.v != nil {
		return c.v.hrefs[i]
	}
	return c.m.nodes[i].Href
}

// object finds the cluster, node or edge build gave the id ("k2", "n3",
// "e7").
func (c *cleaner) object(id string) (object, error) {
	if len(id) < 2 {
		return object{}, fmt.Errorf("unknown id %q", id)
	}
	i, err := strconv.Atoi(id[1:])
	n := map[byte]int{'k': len(c.m.clusters), 'n': len(c.m.nodes), 'e': len(c.m.lines)}[id[0]]
	if err != nil || i < 0 || i >= n {
		return object{}, fmt.Errorf("unknown id %q", id)
	}
	return object{id[0], i}, nil
}

// shapeAttrs are the attributes kept on paths, polygons and ellipses.
var shapeAttrs = []string{"fill", "fill-opacity", "stroke", "stroke-opacity", "stroke-width", "stroke-dasharray", "d", "points", "cx", "cy", "rx", "ry"}

func (c *cleaner) shape(e xml.StartElement) error {
	tag := e.Name.Local
	box, isBox := roundedBox(attr(e, "d"))
	if tag == "path" && isBox {
		tag = "rect"
	}
	c.w.s("<" + tag)
	for _, name := range shapeAttrs {
		v := attr(e, name)
		if v == "" {
			continue
		}
		if name == "d" && tag == "rect" {
			for i, k := range []string{"x", "y", "width", "height", "rx"} {
				c.w.attr(k, shortNumbers(strconv.FormatFloat(box[i], 'f', -1, 64), 10))
			}
			continue
		}
		switch name {
		case "fill", "stroke":
			switch v {
			case "#000000", "black":
				continue // currentColor, the root's, inherited
			case "none":
			default:
				return fmt.Errorf("colour %q", v)
			}
		case "fill-opacity", "stroke-opacity":
			v = shortNumbers(v, 100)
		case "d", "points", "cx", "cy", "rx", "ry":
			v = shortNumbers(v, 10)
		}
		c.w.attr(name, v)
	}
	c.w.s("/>")
	c.skip = 1 // shapes have no content; this also balances the end tag
	return nil
}

// text writes the label of the cluster or node it belongs to at
// Graphviz's position. Labels are one line (oneLine), so each has one
// <text>.
func (c *cleaner) text(e xml.StartElement, obj object) error {
	var s string
	switch obj.kind {
	case 'k':
		s = c.m.clusters[obj.i].label
	case 'n':
		s = c.m.labels[obj.i]
	default:
		return fmt.Errorf("text outside a node or cluster")
	}
	c.w.s("<text")
	for _, name := range []string{"text-anchor", "x", "y"} {
		if v := attr(e, name); v != "" {
			if name != "text-anchor" {
				v = shortNumbers(v, 10)
			}
			c.w.attr(name, v)
		}
	}
	c.w.s(` stroke="none">`).text(s).s("</text>")
	c.skip = 1
	return nil
}

// decimal matches a number with a fraction in Graphviz's attributes.
var decimal = regexp.MustCompile(`-?[0-9]*\.[0-9]+`)

// shortNumbers rounds the fractions of the numbers in s to 1/scale
// (coordinates to a tenth of a px, opacities to a hundredth) and writes
// them without a trailing or leading zero: Graphviz writes two to six
// decimals, most of a graph's bytes.
func shortNumbers(s string, scale float64) string {
	return decimal.ReplaceAllStringFunc(s, func(n string) string {
		f, err := strconv.ParseFloat(n, 64)
		if err != nil {
			return n
		}
		out := strconv.FormatFloat(math.Round(f*scale)/scale, 'f', -1, 64)
		switch {
		case out == "-0":
			return "0"
		case strings.HasPrefix(out, "0."):
			return out[1:]
		case strings.HasPrefix(out, "-0."):
			return "-" + out[2:]
		}
		return out
	})
}

// pathNumber matches a number of a path's data.
var pathNumber = regexp.MustCompile(`-?[0-9]*\.?[0-9]+`)

// roundedBox reads Graphviz's path of a rounded box (a cluster's or a
// node's: a move and eight cubic curves, four straight along the sides,
// four round the corners, every point on the box's edge) as x, y,
// width, height and corner radius: as a <rect> it is a fifth of the
// bytes.
func roundedBox(d string) ([5]float64, bool) {
	var box [5]float64
	if !strings.HasPrefix(d, "M") || strings.Count(d, "C") != 1 || strings.Trim(d, "MC0123456789.,- ") != "" {
		return box, false
	}
	ns := pathNumber.FindAllString(d, -1)
	if len(ns) != 50 {
		return box, false
	}
	xs, ys := make([]float64, 25), make([]float64, 25)
	for i, n := range ns {
		f, err := strconv.ParseFloat(n, 64)
		if err != nil {
			return box, false
		}
		if i%2 == 0 {
			xs[i/2] = f
		} else {
			ys[i/2] = f
		}
	}
	x0, x1, y0, y1 := slices.Min(xs), slices.Max(xs), slices.Min(ys), slices.Max(ys)
	on := func(a, b float64) bool { return math.Abs(a-b) < 0.01 }
	for i := range xs {
		if !on(xs[i], x0) && !on(xs[i], x1) && !on(ys[i], y0) && !on(ys[i], y1) {
			return box, false
		}
	}
	// The radius: how far from a side the corners' curves start, the
	// farthest point from it in its half of the box.
	radius := func(vs []float64, lo, size float64) float64 {
		r := 0.0
		for _, v := range vs {
			if d := v - lo; d < size/2 && d > r {
				r = d
			}
		}
		return r
	}
	r := radius(xs, x0, x1-x0)
	if !on(xs[0], xs[24]) || !on(ys[0], ys[24]) || r <= 0 || math.Abs(r-radius(ys, y0, y1-y0)) > 0.2 {
		return box, false
	}
	return [5]float64{x0, y0, x1 - x0, y1 - y0, r}, true
}
