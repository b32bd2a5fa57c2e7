package site

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/kubewalk/kubewalk/analyzer/fact"
)

// groupView is a group of facts on an index page (handlers, events).
type groupView struct {
	ID, Title string
	Sub       string
	Facts     *factsView
}

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
		k := fact.ShortSymbol(h.Caller.Symbol) + "_" + h.Informer.Label()
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
		out = append(out, handlerRef{Href: b.link(page, handlersPage, ids[i]), Component: h.Component,
			Caller: fact.ShortSymbol(h.Caller.Symbol), On: strings.Join(on, " · ")})
	}
	return out
}
