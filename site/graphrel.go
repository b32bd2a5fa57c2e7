package site

import (
	"html/template"
	"sync"

	"github.com/kubewalk/kubewalk/internal/render/diagram"
)

// releaseGraphs are a multi-release site's resource graphs, per
// language: every release's drawn on the layout of all of them
// (diagram.Graphs), so that the resources page the releases share holds
// what their graphs share once (package pageshare), where each release's own
// layout would differ in every coordinate.
type releaseGraphs struct {
	mu     sync.Mutex
	byLang map[string]func() ([]template.HTML, error)
}

// resourceGraphSVG is the resources page's graph of b's release, "" for
// none: its own layout in a one-release site, the releases' shared one
// in a multi-release site.
func (b *builder) resourceGraphSVG(rf resourceFacts) (template.HTML, error) {
	if b.set == nil {
		nodes, edges := b.resourceGraph(rf)
		if len(nodes) == 0 {
			return "", nil
		}
		return graphSVG(nodes, edges)
	}
	gs, err := b.set.resourceGraphs(b.in.Lang)
	if err != nil {
		return "", err
	}
	return gs[b.self], nil
}

// resourceGraphs returns the releases' graphs in language lang, drawn
// once per language, on first use.
func (set *releaseSet) resourceGraphs(lang string) ([]template.HTML, error) {
	set.graphs.mu.Lock()
	if set.graphs.byLang == nil {
		set.graphs.byLang = map[string]func() ([]template.HTML, error){}
	}
	f := set.graphs.byLang[lang]
	if f == nil {
		f = sync.OnceValues(func() ([]template.HTML, error) { return set.drawGraphs(lang) })
		set.graphs.byLang[lang] = f
	}
	set.graphs.mu.Unlock()
	return f()
}

func (set *releaseSet) drawGraphs(lang string) ([]template.HTML, error) {
	out := make([]template.HTML, len(set.rels))
	var ds []diagram.Drawing
	var which []int
	for i, r := range set.rels {
		for _, b := range langsOf(r.b) {
			if b.in.Lang != lang {
				continue
			}
			if nodes, edges := b.resourceGraph(b.resourceFacts()); len(nodes) > 0 {
				ds = append(ds, diagram.Drawing{Nodes: nodes, Edges: edges})
				which = append(which, i)
			}
		}
	}
	if len(ds) == 0 {
		return out, nil
	}
	svgs, err := diagram.Graphs(ds)
	if err != nil {
		return nil, err
	}
	for k, i := range which {
		// Safe: diagram escapes every label and checks every href.
		out[i] = template.HTML(svgs[k])
	}
	return out, nil
}
