package explain

import (
	"fmt"
	"slices"

	"github.com/kubewalk/kubewalk/analyzer/fact"
)

// hop is a write earlier in a run, as the trace from it reads: who wrote
// which resource, and how.
type hop struct {
	verb, resource, summary string
	comp                    string
	// callers are the functions the write is attributed to.
	callers []string
}

// narrow chooses among a component's write sites of the same verb and
// resource by the chain that led to the write: the last earlier write of
// a resource the component watches (prev) sets off the component's
// handler for it, the handler feeds its queue, and the queue's worker
// calls the sync function; the write sites that sync reaches are kept.
// ex.Rule says what decided, also when the chain keeps every site (then
// the recording cannot tell them apart).
func (x *Explainer) narrow(ex *Explanation, comp Component, a *AuditRecord, hops []hop) {
	var wrote []int
	for i, c := range ex.Code {
		if c.Role == "wrote" {
			wrote = append(wrote, i)
		}
	}
	if len(wrote) < 2 || len(comp.Dirs) == 0 {
		return
	}
	if x.sameFunc(ex, comp, a, hops) {
		return
	}
	// The last earlier write that sets off one of the component's
	// handlers; a few hundred back at most (a run's start-up writes
	// hundreds of objects no controller of the scenario watches).
	var prev *hop
	var h, sync string
	for i := len(hops) - 1; i >= 0 && i >= len(hops)-maxHops; i-- {
		if h, sync = x.hopSync(comp, &hops[i]); sync != "" {
			prev = &hops[i]
			break
		}
	}
	if prev == nil {
		return
	}
	reached := x.reachFrom(sync)
	var keep []Code
	for _, c := range ex.Code {
		if c.Role != "wrote" || reached[c.Symbol] {
			keep = append(keep, c)
		}
	}
	how := fmt.Sprintf("after %s (%s), %s's handler %s feeds %s", prev.summary, prev.comp, comp.Name, fact.ReadableSymbol(h), fact.ReadableSymbol(sync))
	n := len(keep) - (len(ex.Code) - len(wrote))
	switch {
	case n == 0:
		ex.Rule = how + ", which reaches none of the " + fmt.Sprint(len(wrote)) + " write sites: all are kept"
	case n == len(wrote):
		ex.Rule = how + fmt.Sprintf(", which reaches all %d write sites: the recording does not say which of them wrote", n)
	default:
		ex.Rule = how + fmt.Sprintf(", which reaches %d of the %d write sites: the others are left out", n, len(wrote))
		ex.Code = keep
	}
}

const maxHops = 300

// sameFunc keeps the write sites in the function that made the
// component's previous write, when some are and some are not: a sync
// that creates a ReplicaSet and then updates the Deployment's status
// makes both writes in one pass. It reports whether it decided.
//
// Only the write right before this one counts (Events' writes aside,
// which the broadcaster makes), and only when it is the component's and
// of another verb or resource: with anything written in between, or the
// same write again, this one may come from a later pass.
func (x *Explainer) sameFunc(ex *Explanation, comp Component, a *AuditRecord, hops []hop) bool {
	var prev *hop
	for i := len(hops) - 1; i >= 0; i-- {
		if hops[i].resource != "events" {
			prev = &hops[i]
			break
		}
	}
	if prev == nil || prev.comp != comp.Name || len(prev.callers) == 0 || prev.verb == a.Verb && prev.resource == a.Resource {
		return false
	}
	var keep []Code
	n, all := 0, 0
	for _, c := range ex.Code {
		if c.Role != "wrote" {
			keep = append(keep, c)
			continue
		}
		all++
		if slices.Contains(prev.callers, c.Symbol) {
			keep = append(keep, c)
			n++
		}
	}
	if n == 0 || n == all {
		return false
	}
	ex.Code = keep
	ex.Rule = fmt.Sprintf("%s's write before it, %s, was made by %s, which makes %d of the %d write sites of this one: the others are left out",
		comp.Name, prev.summary, fact.ReadableSymbol(prev.callers[0]), n, all)
	return true
}

// hopSync returns the handler of comp that a write like prev sets off and
// the sync function its queue feeds, "" when the facts show none.
func (x *Explainer) hopSync(comp Component, prev *hop) (handler, sync string) {
	for _, h := range x.facts.Handlers {
		if h.Informer.Resource != prev.resource || !inDirs(h.At.Path, comp.Dirs) {
			continue
		}
		hd := h.Update
		switch prev.verb {
		case "create":
			hd = h.Add
		case "delete", "deletecollection":
			hd = h.Delete
		}
		if hd == nil {
			continue
		}
		// The handler's calls (a func literal calling
		// dc.updateReplicaSet) reach an enqueuer of a wired queue.
		from := x.reachFrom(first(hd.Symbol, hd.Form))
		for _, c := range hd.Calls {
			for s := range x.reachFrom(c) {
				from[s] = true
			}
		}
		for _, w := range x.facts.Wirings {
			if w.Queue == "" || w.Worker == nil || !inDirs(w.At.Path, comp.Dirs) {
				continue
			}
			if slices.ContainsFunc(w.Enqueuers, func(e fact.FuncRef) bool { return from[e.Symbol] }) {
				name := first(hd.Symbol, hd.Form)
				if len(hd.Calls) > 0 { // a func literal: name what it calls
					name = hd.Calls[0]
				}
				return name, w.Sync.Symbol
			}
		}
	}
	return "", ""
}

// indexCalls builds the forward call graph and the call sites of each
// function, once.
func (x *Explainer) indexCalls() {
	x.calleesOnce.Do(func() {
		x.callees = map[string][]string{}
		x.sites = map[string][]fact.Location{}
		for _, c := range x.facts.Calls {
			x.callees[c.From] = append(x.callees[c.From], c.To)
			x.sites[c.To] = append(x.sites[c.To], c.At)
		}
	})
}

// reachFrom returns the functions sym calls, directly or through others,
// sym included, breadth first up to a bound (the forward counterpart of
// reach).
func (x *Explainer) reachFrom(sym string) map[string]bool {
	x.indexCalls()
	const maxDepth, maxSeen = 8, 5000
	seen := map[string]bool{sym: true}
	frontier := []string{sym}
	for d := 0; d < maxDepth && len(frontier) > 0 && len(seen) < maxSeen; d++ {
		var next []string
		for _, f := range frontier {
			for _, c := range x.callees[f] {
				if !seen[c] {
					seen[c] = true
					next = append(next, c)
				}
			}
		}
		frontier = next
	}
	return seen
}

// callerSites are where to look for the steps that explain the
// functions that made the writes in ex.Code, when no step cites a
// write's own line, a level of calls each: the step that cites the
// calling function or a call of it, else its callers', up to
// maxCallerLevels calls away (the binder's Bind is called by the
// framework, which the scheduler's binding cycle calls). The first level
// with a step gives the steps (withSteps).
func (x *Explainer) callerSites(ex *Explanation) [][]fact.Location {
	var level []string
	for _, c := range ex.Code {
		if c.Role == "wrote" && !slices.Contains(level, c.Symbol) {
			level = append(level, c.Symbol)
		}
	}
	x.indexCalls()
	seen := map[string]bool{}
	var levels [][]fact.Location
	for d := 0; d < maxCallerLevels && len(level) > 0; d++ {
		var sites []fact.Location
		var next []string
		for _, sym := range level {
			seen[sym] = true
			if d == 0 {
				for _, w := range x.facts.Writes {
					if w.Caller.Symbol == sym {
						sites = append(sites, w.Caller.Decl)
						break
					}
				}
			}
			sites = append(sites, x.sites[sym]...)
			for _, c := range x.callersOf(sym) {
				if !seen[c] {
					seen[c] = true
					next = append(next, c)
				}
			}
		}
		levels = append(levels, sites)
		level = next
	}
	return levels
}

const maxCallerLevels = 2

// callersOf are the functions that call sym.
func (x *Explainer) callersOf(sym string) []string {
	x.reach(sym) // builds x.callers
	return x.callers[sym]
}
