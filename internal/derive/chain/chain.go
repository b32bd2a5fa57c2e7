// Package chain orders the functions a walkthrough cites as a
// controller's chain runs them: the informer's event handler, the
// function that adds to the work queue, the worker, the sync handler,
// the functions that write to the API. The site's Observed panel lists
// the code that ran in a step's phases in this order.
//
// The facts give those roles (handlers, wirings, writes). A function they
// give none of the first four is placed by its anchor: the nearest cited
// function that calls it, directly or through other cited functions (the
// facts' call graph), and has one; it comes after its anchor
// (rolloutRolling, which syncDeployment calls, after syncDeployment). A
// controller's functions stay together: each function belongs to its
// anchor's package (its own without an anchor), and the packages come in
// the order the walkthrough first cites them. A function the facts tell
// nothing of comes last in its package. Within a place, the
// walkthrough's citation order decides, so the order is the same on
// every build.
//
//	keys := chain.Keys(facts, cited) // cited: in citation order
//	slices.SortFunc(names, func(x, y string) int { return keys[x].Compare(keys[y]) })
package chain

import (
	"cmp"
	"slices"

	"github.com/kubewalk/kubewalk/analyzer/fact"
)

// Chain roles, in chain order.
const (
	roleHandler = iota // an event handler, or what a func literal handler calls
	roleEnqueue        // adds to a wired work queue
	roleWorker         // the loop that takes keys off the queue
	roleSync           // the sync handler the worker calls
	roleWrite          // makes an API write
	roleNone           // the facts give no role, and it has no anchor
)

// rolePrecedence decides between the roles of a function that has
// several: a handler or sync handler that also adds to the queue (a
// requeue) is a handler or a sync handler; one that writes, too.
var rolePrecedence = []int{roleHandler, roleSync, roleWorker, roleEnqueue, roleWrite, roleNone}

// Key is a cited function's place: its chain (the first citation
// of its package), its role (or its anchor's), how many calls below its
// anchor it is (0 for a function with a role of its own), and its
// citation.
type Key struct {
	chain, role, depth, cite int
}

// Compare orders k before o when k's function comes first in the chain:
// by chain, role, depth below the anchor, citation.
func (k Key) Compare(o Key) int {
	return cmp.Or(cmp.Compare(k.chain, o.chain), cmp.Compare(k.role, o.role), cmp.Compare(k.depth, o.depth), cmp.Compare(k.cite, o.cite))
}

// Keys returns the place of each of funcs (a walkthrough's cited
// functions, in citation order) by name, from the roles facts f gives
// them (nil: none). Its length is the roles' tables (handlers, queues,
// workers, syncs, writes) read one after the other into the same keys,
// then the anchors found for the rest.
func Keys(f *fact.Facts, funcs []fact.Symbol) map[string]Key {
	cite := make(map[string]int, len(funcs))
	for i, s := range funcs {
		if _, ok := cite[s.Name]; !ok {
			cite[s.Name] = i
		}
	}
	roles := map[string]int{}
	callers := map[string][]string{}
	if f != nil {
		give := func(sym string, role int) {
			if _, ok := cite[sym]; !ok {
				return
			}
			if old, ok := roles[sym]; !ok || slices.Index(rolePrecedence, role) < slices.Index(rolePrecedence, old) {
				roles[sym] = role
			}
		}
		for _, h := range f.Handlers {
			for _, hd := range []*fact.Handler{h.Add, h.Update, h.Delete, h.Filter} {
				if hd == nil {
					continue
				}
				give(hd.Symbol, roleHandler)
				for _, c := range hd.Calls {
					give(c, roleHandler)
				}
			}
		}
		for _, w := range f.Wirings {
			for _, e := range w.Enqueuers {
				give(e.Symbol, roleEnqueue)
			}
			if w.Worker != nil {
				give(w.Worker.Symbol, roleWorker)
			}
			// A field no worker calls that holds one of the queue's
			// enqueuers is no sync handler: the deployment controller's
			// enqueueDeployment holds its enqueue.
			if w.Worker != nil || !slices.ContainsFunc(w.Enqueuers, func(e fact.FuncRef) bool { return e.Symbol == w.Sync.Symbol }) {
				give(w.Sync.Symbol, roleSync)
			}
		}
		for _, w := range f.Writes {
			give(w.Caller.Symbol, roleWrite)
		}
		for _, c := range f.Calls {
			_, to := cite[c.To]
			_, from := cite[c.From]
			if to && from && c.From != c.To && !slices.Contains(callers[c.To], c.From) {
				callers[c.To] = append(callers[c.To], c.From)
			}
		}
		for _, cs := range callers {
			slices.SortFunc(cs, func(x, y string) int { return cmp.Compare(cite[x], cite[y]) })
		}
	}
	keys := make(map[string]Key, len(cite))
	chains := map[string]int{} // package → its first citation
	group := map[string]string{}
	for _, s := range funcs {
		if _, done := keys[s.Name]; done {
			continue
		}
		k := Key{role: roleNone, cite: cite[s.Name]}
		a, depth := anchor(s.Name, roles, callers, cite)
		own, hasRole := roles[s.Name]
		switch {
		case hasRole:
			k.role = own
		case a != "":
			k.role, k.depth = roles[a], depth
		}
		g := s.Name
		if a != "" {
			g = a
		}
		pkg, _, _ := fact.SplitSymbol(g)
		group[s.Name] = pkg
		if _, ok := chains[pkg]; !ok {
			chains[pkg] = k.cite
		}
		keys[s.Name] = k
	}
	for name, k := range keys {
		k.chain = chains[group[name]]
		keys[name] = k
	}
	return keys
}

// anchor returns the nearest function to name, itself included, that
// has a role before writing (handler, enqueue, worker, sync), going up
// the calls between cited functions one level at a time, and how many
// calls below it name is; "" when none has. At one level the earliest
// role wins, then the earliest citation.
func anchor(name string, roles map[string]int, callers map[string][]string, cite map[string]int) (string, int) {
	seen := map[string]bool{name: true}
	level := []string{name}
	for depth := 0; len(level) > 0; depth++ {
		best := ""
		for _, c := range level {
			r, ok := roles[c]
			if !ok || r == roleWrite {
				continue
			}
			if best == "" || cmp.Or(cmp.Compare(r, roles[best]), cmp.Compare(cite[c], cite[best])) < 0 {
				best = c
			}
		}
		if best != "" {
			return best, depth
		}
		var next []string
		for _, c := range level {
			for _, from := range callers[c] {
				if !seen[from] {
					seen[from] = true
					next = append(next, from)
				}
			}
		}
		level = next
	}
	return "", 0
}
