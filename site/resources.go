package site

import (
	"fmt"
	"html/template"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/kubewalk/kubewalk/analyzer/fact"
)

type resourceView struct {
	ID, Title string
	Trace     string // its trace page, "" when it has none
	// Handlers are the informer handlers watching it, as links to their
	// rows on the handlers page; Watchers its raw list-watches.
	Handlers []handlerRef
	Watchers *factsView
	Writers  *factsView
}

func (b *builder) resourcesPage() ([]byte, error) {
	v := b.views(resourcesPage)
	rf := b.resourceFacts()
	body := struct {
		Graph, Focus any
		// Picks are what the whole graph can be focused on (site.js):
		// the resources, then the components, by label.
		Picks     []string
		Resources []resourceView
	}{}
	traces := b.resourceTraces(resourcesPage)
	ids := handlerIDs(b.in.Facts.Handlers)
	for _, k := range rf.keys {
		watchers := &factsView{}
		for _, lw := range rf.raw[k] {
			watchers.ListWatches = append(watchers.ListWatches, v.listWatchRow(lw))
		}
		body.Resources = append(body.Resources, resourceView{ID: anchorID("res-", k), Title: k, Trace: traces[k],
			Handlers: b.handlerRefs(resourcesPage, b.in.Facts.Handlers, ids, rf.watch[k]),
			Watchers: watchers, Writers: v.facts(nil, nil, rf.write[k])})
	}
	svg, err := b.resourceGraphSVG(rf)
	if err != nil {
		return nil, err
	}
	if svg != "" {
		body.Graph = svg
		focus, err := b.focusGraphSVG(rf)
		if err != nil {
			return nil, err
		}
		if focus != "" {
			body.Focus = focus
		}
		for _, k := range rf.keys {
			body.Picks = append(body.Picks, b.graphLabel(k))
		}
	}
	return b.exec("resources", b.pageData(resourcesPage, b.t("resources.title"), "resources", body))
}

// resourceFacts are the facts by resource (fact.Resource.Label): its
// informer handlers, raw list-watches and writes.
type resourceFacts struct {
	// watch are the informer handlers' registrations, by their indexes
	// in the facts' handlers.
	watch map[string][]int
	raw   map[string][]fact.ListWatch
	write map[string][]fact.Write
	keys  []string // every resource, sorted
}

func (b *builder) resourceFacts() resourceFacts {
	rf := resourceFacts{
		watch: map[string][]int{},
		raw:   map[string][]fact.ListWatch{},
		write: map[string][]fact.Write{},
	}
	all := map[string]bool{}
	for i, h := range b.in.Facts.Handlers {
		k := h.Informer.Label()
		rf.watch[k] = append(rf.watch[k], i)
		all[k] = true
	}
	for _, w := range b.in.Facts.Writes {
		k := w.Resource.Label()
		rf.write[k] = append(rf.write[k], w)
		all[k] = true
	}
	// Raw list-watches watch too: the kubelet's pods, through a reflector.
	for _, lw := range b.in.Facts.ListWatches {
		if !lw.Raw() || lw.Resource.Resource == "" {
			continue
		}
		k := lw.Resource.Label()
		rf.raw[k] = append(rf.raw[k], lw)
		all[k] = true
	}
	rf.keys = slices.Sorted(maps.Keys(all))
	return rf
}

// resourceGraphSVG is the resources page's graph of b's release, "" for
// none: its own layout in a one-release site; in a site of several, the
// one the stage drew on the layout of all the releases' graphs
// (Prepared.ResourceGraphs).
func (b *builder) resourceGraphSVG(rf resourceFacts) (template.HTML, error) {
	if b.set == nil {
		nodes, edges := b.resourceGraph(rf)
		if len(nodes) == 0 {
			return "", nil
		}
		return graphSVG(nodes, edges)
	}
	l := slices.Index(b.rel.langs, b)
	if l >= len(b.set.graphs) || b.set.graphs[l] == nil {
		return "", fmt.Errorf("site: %s: the releases' resource graphs were not drawn (Prepared.SetResourceGraphs)", b.in.Tag)
	}
	return b.set.graphs[l][b.self], nil
}

// resourceGraph returns the resource graph: a node per resource, in
// order, then per component, and an edge per component, resource and
// direction.
func (b *builder) resourceGraph(rf resourceFacts) ([]graphNode, []graphEdge) {
	var nodes []graphNode
	comps := map[string]bool{}
	watches := map[[2]string]bool{}
	writes := map[[2]string][]string{} // component, resource → verbs
	for _, k := range rf.keys {
		nodes = append(nodes, b.resourceNode(k, "#"+anchorID("res-", k)))
		for _, i := range rf.watch[k] {
			h := b.in.Facts.Handlers[i]
			comps[h.Component] = true
			watches[[2]string{h.Component, k}] = true
		}
		for _, lw := range rf.raw[k] {
			comps[lw.Component] = true
			watches[[2]string{lw.Component, k}] = true
		}
		for _, w := range rf.write[k] {
			c := fact.Component(fact.SymbolPackage(w.Caller.Symbol))
			comps[c] = true
			verb := w.Verb
			if w.Subresource != "" {
				verb += " " + w.Subresource
			}
			pair := [2]string{c, k}
			if !slices.Contains(writes[pair], verb) {
				writes[pair] = append(writes[pair], verb)
			}
		}
	}
	// One edge per component, resource and direction, its tooltip naming
	// the component by its whole path (its box shows the path below its
	// program's directory); a write's lists its verbs.
	var edges []graphEdge
	for pair := range watches {
		edges = append(edges, graphEdge{From: "c:" + pair[0], To: "r:" + pair[1], Kind: "watches",
			Label: pair[0] + " watches " + b.graphLabel(pair[1])})
	}
	for pair, verbs := range writes {
		sort.Strings(verbs)
		edges = append(edges, graphEdge{From: "c:" + pair[0], To: "r:" + pair[1], Kind: "writes",
			Label: pair[0] + " writes " + b.graphLabel(pair[1]) + " (" + strings.Join(verbs, ", ") + ")"})
	}
	sort.Slice(edges, func(i, j int) bool {
		a, c := edges[i], edges[j]
		if a.From != c.From {
			return a.From < c.From
		}
		if a.To != c.To {
			return a.To < c.To
		}
		return a.Kind < c.Kind
	})
	return append(nodes, b.componentNodes(rf, comps)...), edges
}

// componentNodes returns the graph's nodes of comps, sorted. A component
// links to its handlers; one with none (it only writes, or watches
// through a reflector) links to the first resource it writes or watches.
func (b *builder) componentNodes(rf resourceFacts, comps map[string]bool) []graphNode {
	watchers := map[string]bool{}
	for _, h := range b.in.Facts.Handlers {
		watchers[h.Component] = true
	}
	firstRes := map[string]string{}
	for _, k := range rf.keys {
		var cs []string
		for _, w := range rf.write[k] {
			cs = append(cs, fact.Component(fact.SymbolPackage(w.Caller.Symbol)))
		}
		for _, lw := range rf.raw[k] {
			cs = append(cs, lw.Component)
		}
		for _, c := range cs {
			if firstRes[c] == "" {
				firstRes[c] = k
			}
		}
	}
	var nodes []graphNode
	for _, c := range slices.Sorted(maps.Keys(comps)) {
		href := b.link(resourcesPage, handlersPage, anchorID("c-", c))
		if !watchers[c] {
			href = "#" + anchorID("res-", firstRes[c])
		}
		nodes = append(nodes, componentNode(c, href))
	}
	return nodes
}
