package site

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/kubewalk/kubewalk/analyzer/fact"
)

type groupView struct {
	ID, Title string
	Sub       string
	Facts     *factsView
}

// ---- handlers ----

func (b *builder) handlersPage() ([]byte, error) {
	v := b.views(handlersPage)
	hs := b.in.Facts.Handlers
	ids := handlerIDs(hs)
	byComp := map[string][]int{}
	handled := map[string]bool{}
	for i, h := range hs {
		byComp[h.Component] = append(byComp[h.Component], i)
		for _, f := range []*fact.Handler{h.Add, h.Update, h.Delete, h.Filter} {
			if f != nil && f.Symbol != "" {
				handled[f.Symbol] = true
			}
		}
	}
	body := struct {
		ByComponent []groupView
		ByResource  []handlerRefs
		Wirings     []wiringRow
	}{}
	for _, w := range b.in.Facts.Wirings {
		// A handler func set in client-go's cache handler structs is in
		// its registration's row above, with its informer.
		if handled[w.Sync.Symbol] && fact.SymbolPackage(w.Type) == cachePkg {
			continue
		}
		body.Wirings = append(body.Wirings, v.wiringRow(w))
	}
	for _, k := range slices.Sorted(maps.Keys(byComp)) {
		g := groupView{ID: anchorID("c-", k), Title: k, Facts: &factsView{}}
		for _, i := range byComp[k] {
			r := v.handlerRow(hs[i])
			r.ID = ids[i]
			g.Facts.Handlers = append(g.Facts.Handlers, r)
		}
		body.ByComponent = append(body.ByComponent, g)
	}
	byRes := b.resourceFacts().watch
	for _, k := range slices.Sorted(maps.Keys(byRes)) {
		body.ByResource = append(body.ByResource, handlerRefs{ID: anchorID("r-", k), Title: b.resourceTitle(k), Refs: b.handlerRefs(handlersPage, hs, ids, byRes[k])})
	}
	return b.exec("handlers", b.pageData(handlersPage, b.t("handlers.title"), "handlers", body))
}

// cachePkg is client-go's informer package, whose handler structs
// (ResourceEventHandlerFuncs, FilteringResourceEventHandler) hold the
// funcs a registration names.
const cachePkg = "k8s.io/client-go/tools/cache"

// handlerIDs returns the anchors of handler registrations' rows on the
// handlers page: by the function that registers and the informer's
// resource, the same in every release that has the registration (a
// second one of both is numbered).
func handlerIDs(hs []fact.HandlerRegistration) []string {
	ids := make([]string, len(hs))
	seen := map[string]int{}
	for i, h := range hs {
		k := fact.ShortSymbol(h.Caller.Symbol) + "_" + resourceLabel(h.Informer)
		seen[k]++
		if n := seen[k]; n > 1 {
			k += "_" + strconv.Itoa(n)
		}
		ids[i] = anchorID("h-", k)
	}
	return ids
}

// handlerRefs is a list of handler registrations, each a link to its row
// on the handlers page: the handlers page's by-resource lists and the
// resources page's watchers.
type handlerRefs struct {
	ID, Title string
	Refs      []handlerRef
}

type handlerRef struct {
	Href, Component, Caller string
	// On is what the registration handles: "Add · Update", translated.
	On string
}

// handlerRefs returns the links from page to the rows of hs[is] on the
// handlers page (ids from handlerIDs).
func (b *builder) handlerRefs(page string, hs []fact.HandlerRegistration, ids []string, is []int) []handlerRef {
	var out []handlerRef
	for _, i := range is {
		h := hs[i]
		var on []string
		for _, s := range []struct {
			h   *fact.Handler
			key string
		}{{h.Add, "handlers.add"}, {h.Update, "handlers.update"}, {h.Delete, "handlers.delete"}} {
			if s.h != nil {
				on = append(on, b.t(s.key))
			}
		}
		out = append(out, handlerRef{Href: relURL(page, handlersPage, ids[i]), Component: h.Component,
			Caller: fact.ShortSymbol(h.Caller.Symbol), On: strings.Join(on, " · ")})
	}
	return out
}

// ---- events ----

func eventKey(e fact.Event) string {
	if e.Reason != "" {
		return e.Reason
	}
	return e.ReasonExpr
}

func (b *builder) eventsPage() ([]byte, error) {
	v := b.views(eventsPage)
	by := map[string][]fact.Event{}
	for _, e := range b.in.Facts.Events {
		by[eventKey(e)] = append(by[eventKey(e)], e)
	}
	steps := b.citingSteps(eventsPage)
	var groups []groupView
	for _, k := range slices.Sorted(maps.Keys(by)) {
		g := groupView{ID: anchorID("e-", k), Title: k, Facts: v.facts(nil, by[k], nil)}
		for i, e := range by[k] {
			g.Facts.Events[i].Steps = steps(e.At)
		}
		if by[k][0].Reason == "" {
			g.Sub = b.t("events.nonconst")
		}
		groups = append(groups, g)
	}
	return b.exec("events", b.pageData(eventsPage, b.t("events.title"), "events", groups))
}

// eventsKey is the events page's key: its links depend on the files with
// a source page and on the steps citing each call site.
func (b *builder) eventsKey() pageKey {
	k := newKey("events")
	fk := b.filesKey()
	k.h.Write(fk[:])
	for _, d := range b.docs {
		k.str(d.ID)
		k.str(d.Title)
		for _, st := range d.Steps {
			k.str(st.ID)
			k.str(st.Title)
			for _, seg := range st.Segments {
				if seg.Facts != nil {
					for _, e := range seg.Facts.Events {
						k.str(fmt.Sprintf("%s:%d", e.At.Path, e.At.StartLine))
					}
				}
			}
		}
	}
	for _, p := range slices.Sorted(maps.Keys(b.cites)) {
		for _, c := range b.cites[p] {
			k.str(fmt.Sprintf("%s %s %d %d-%d", p, c.doc.ID, c.step, c.from, c.to))
		}
	}
	return k.sum()
}

// citingSteps returns a function listing the walkthrough steps that cite
// a call site, as links from page: steps whose excerpts or references
// cover its line, or whose facts blocks show it; in walkthrough and step
// order, each once.
func (b *builder) citingSteps(page string) func(at fact.Location) []stepLink {
	type stepAt struct{ doc, step int }
	inFacts := map[fact.Location][]stepAt{}
	for di, d := range b.docs {
		for si, st := range d.Steps {
			for _, seg := range st.Segments {
				if seg.Facts != nil {
					for _, e := range seg.Facts.Events {
						inFacts[e.At] = append(inFacts[e.At], stepAt{di, si})
					}
				}
			}
		}
	}
	docIndex := map[string]int{}
	for i, d := range b.docs {
		docIndex[d.ID] = i
	}
	return func(at fact.Location) []stepLink {
		seen := map[stepAt]bool{}
		var found []stepAt
		add := func(s stepAt) {
			if !seen[s] {
				seen[s] = true
				found = append(found, s)
			}
		}
		for _, c := range b.cites[at.Path] {
			if c.step >= 0 && c.from <= at.StartLine && at.StartLine <= c.to {
				add(stepAt{docIndex[c.doc.ID], c.step})
			}
		}
		for _, s := range inFacts[at] {
			add(s)
		}
		slices.SortFunc(found, func(a, c stepAt) int {
			if a.doc != c.doc {
				return a.doc - c.doc
			}
			return a.step - c.step
		})
		var out []stepLink
		for _, s := range found {
			d := b.docs[s.doc]
			out = append(out, stepLink{Title: d.Title + " › " + d.Steps[s.step].Title, Href: relURL(page, WalkthroughPage(d.ID), d.Steps[s.step].ID)})
		}
		return out
	}
}

// ---- resources ----

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

// resourceFacts are the facts by resource (resourceLabel): its
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
		k := resourceLabel(h.Informer)
		rf.watch[k] = append(rf.watch[k], i)
		all[k] = true
	}
	for _, w := range b.in.Facts.Writes {
		k := resourceLabel(w.Resource)
		rf.write[k] = append(rf.write[k], w)
		all[k] = true
	}
	// Raw list-watches watch too: the kubelet's pods, through a reflector.
	for _, lw := range b.in.Facts.ListWatches {
		if !lw.Raw() || lw.Resource.Resource == "" {
			continue
		}
		k := resourceLabel(lw.Resource)
		rf.raw[k] = append(rf.raw[k], lw)
		all[k] = true
	}
	rf.keys = slices.Sorted(maps.Keys(all))
	return rf
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
		href := relURL(resourcesPage, handlersPage, anchorID("c-", c))
		if !watchers[c] {
			href = "#" + anchorID("res-", firstRes[c])
		}
		nodes = append(nodes, componentNode(c, href))
	}
	return nodes
}
