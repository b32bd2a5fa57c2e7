package site

import (
	"cmp"

	"github.com/kubewalk/kubewalk/analyzer/fact"
)

// The Observed panel lists the code that ran in a step's phases in the
// order of a controller's chain: the informer's event handler, the
// function that adds to the work queue, the worker, the sync handler,
// the functions that write to the API. The facts give those roles
// (handlers, wirings, writes); a function they give none takes its place
// after the cited function that calls it, as the facts' call graph says
// (rolloutRolling, called by syncDeployment, comes after it). A function
// neither tells of comes last. Within a place, the walkthrough's
// citation order decides, so the order is the same on every build.

// Chain roles, in chain order.
const (
	roleHandler = iota // an event handler, or what a func literal handler calls
	roleEnqueue        // adds to a wired work queue
	roleWorker         // the loop that takes keys off the queue
	roleSync           // the sync handler the worker calls
	roleWrite          // makes an API write
	roleNone           // the facts give no role, and no cited caller has one
)

// chainKey is a cited function's place in the chain: its role (or its
// cited caller's), how many calls below a function with that role it is
// (0 for a function with the role itself), and its citation index.
type chainKey struct {
	role, depth, cite int
}

func (k chainKey) compare(o chainKey) int {
	return cmp.Or(cmp.Compare(k.role, o.role), cmp.Compare(k.depth, o.depth), cmp.Compare(k.cite, o.cite))
}

// chainKeys returns the chain place of each of funcs (a walkthrough's
// cited functions, in citation order) by name.
func chainKeys(f *fact.Facts, funcs []fact.Symbol) map[string]chainKey {
	keys := make(map[string]chainKey, len(funcs))
	for i, s := range funcs {
		keys[s.Name] = chainKey{role: roleNone, cite: i}
	}
	if f == nil {
		return keys
	}
	give := func(sym string, role int) {
		if k, ok := keys[sym]; ok && role < k.role {
			k.role = role
			keys[sym] = k
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
		give(w.Sync.Symbol, roleSync)
	}
	for _, w := range f.Writes {
		give(w.Caller.Symbol, roleWrite)
	}
	// Calls between cited functions, for those without a role: each
	// takes the place below its nearest cited caller that has one,
	// through other cited functions, the earliest role winning.
	callers := map[string][]string{}
	for _, c := range f.Calls {
		if _, ok := keys[c.To]; ok && c.From != c.To {
			if _, ok := keys[c.From]; ok {
				callers[c.To] = append(callers[c.To], c.From)
			}
		}
	}
	fixed := map[string]bool{}
	for name, k := range keys {
		fixed[name] = k.role != roleNone
	}
	// Each pass places a function one call further from a function with
	// a role of its own; the least (role, depth) over every path wins,
	// whichever order the passes visit them in.
	for range funcs {
		changed := false
		for _, s := range funcs {
			if fixed[s.Name] {
				continue
			}
			k := keys[s.Name]
			for _, from := range callers[s.Name] {
				c := keys[from]
				if c.role != roleNone && (c.role < k.role || c.role == k.role && c.depth+1 < k.depth) {
					k.role, k.depth = c.role, c.depth+1
					changed = true
				}
			}
			keys[s.Name] = k
		}
		if !changed {
			break
		}
	}
	return keys
}
