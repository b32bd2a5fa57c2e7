package runlog

import (
	"net/url"

	"github.com/kubewalk/kubewalk/internal/derive/explain"
)

// Phase is a phase of the run and what the components wrote, reported
// and watched in it.
type Phase struct {
	// Name is the recording's phase's (record.Phase.Name), or, for a
	// recording without coverage, "startup", "actor" or "quiet".
	Name string
	// Actor, for an "actor" phase: the component whose requests and
	// events it holds.
	Actor string
	// From and To are its bounds in milliseconds from the apply: the
	// recording's phase's, else its first item's and its last's.
	From, To int64
	// Items are its audited writes and events, Watches its watches, in
	// time order; a scenario's item carries its step (Item.Doc).
	Items, Watches []Item
	// NWrites and NEvents count Items' writes and events.
	NWrites, NEvents int
}

// Phases files every audited write, watch and event of the run into its
// phases, the phases without any left out: the recording's coverage
// phases when it has them (by time), else phases derived from the audit
// log and events: the start-up (before kubectl's first write), kubectl's
// requests, then one phase per component of the scenario in the order it
// first acted (the hops of the chain), and last what the cluster did by
// itself meanwhile.
func (r *Run) Phases() []Phase {
	all := merged(r.At, func(a *explain.AttributedAudit) bool { return a.IsWrite() || a.Verb == "watch" })
	// The step each scenario item is attributed to first (New).
	for i := range all {
		if s := all[i].Explanation().Steps; len(s) > 0 && all[i].Scenario() {
			all[i].Doc, all[i].Step = s[0].Walkthrough, s[0].Step
		}
	}
	var phases []Phase
	var of func(it Item) int
	covered := r.Rec.Coverage != nil && len(r.Rec.Coverage.Phases) > 0
	if covered {
		for _, ph := range r.Rec.Coverage.Phases {
			phases = append(phases, Phase{Name: ph.Name, From: ph.Start, To: ph.End})
		}
		of = func(it Item) int {
			for i, ph := range phases {
				if it.At < ph.To || i == len(phases)-1 {
					return i
				}
			}
			return 0
		}
	} else {
		phases = []Phase{{Name: "startup"}}
		at := map[string]int{}
		for _, it := range all {
			if !it.Scenario() {
				continue
			}
			who := it.Actor()
			if _, ok := at[who]; !ok {
				at[who] = len(phases)
				phases = append(phases, Phase{Name: "actor", Actor: who})
			}
		}
		quiet := len(phases)
		phases = append(phases, Phase{Name: "quiet"})
		of = func(it Item) int {
			switch {
			case it.Scenario():
				return at[it.Actor()]
			case it.At < 0:
				return 0
			}
			return quiet
		}
	}
	for _, it := range all {
		ph := &phases[of(it)]
		if !covered {
			if len(ph.Items)+len(ph.Watches) == 0 {
				ph.From = it.At
			}
			ph.To = it.At
		}
		switch {
		case it.IsWatch():
			ph.Watches = append(ph.Watches, it)
		case it.Audit != nil:
			ph.NWrites++
			ph.Items = append(ph.Items, it)
		default:
			ph.NEvents++
			ph.Items = append(ph.Items, it)
		}
	}
	var out []Phase
	for _, ph := range phases {
		if len(ph.Items)+len(ph.Watches) > 0 {
			out = append(out, ph)
		}
	}
	return out
}

// WatchParams are the watch parameters a reader of the audit log meets,
// in the order a run page explains them.
var WatchParams = []string{"allowWatchBookmarks", "sendInitialEvents", "resourceVersionMatch", "resourceVersion", "timeoutSeconds", "timeout", "labelSelector", "fieldSelector"}

// Param is a watch parameter the run's watches use, and the client-go
// function explain says sets it in the first watch that carries it (a
// symbol's full name, "" when none).
type Param struct{ Name, SetBy string }

// Params are the watch parameters of WatchParams the run's watches use,
// in that order.
func (r *Run) Params() []Param {
	used := map[string]bool{}
	setBy := map[string]string{}
	for _, a := range r.At.Audit {
		if a.Verb != "watch" {
			continue
		}
		if u, err := url.Parse(a.RequestURI); err == nil {
			for k := range u.Query() {
				used[k] = true
			}
		}
		if w := a.Explanation.Watch; w != nil {
			for _, wp := range w.Params {
				if setBy[wp.Name] == "" {
					setBy[wp.Name] = wp.Symbol
				}
			}
		}
	}
	var out []Param
	for _, k := range WatchParams {
		if used[k] {
			out = append(out, Param{Name: k, SetBy: setBy[k]})
		}
	}
	return out
}
