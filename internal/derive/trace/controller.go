package trace

import (
	"sort"
	"strings"

	"github.com/kubewalk/kubewalk/analyzer/fact"
)

// ControllerView is one controller of kube-controller-manager as the facts
// show it, for a page of its own: what it watches, its queues and sync
// functions, the writes of each sync path, who watches what it creates,
// and the events its packages record. It is derived with the same rules
// as a trace (see the package doc), from the controller's start function
// instead of from a resource.
type ControllerView struct {
	Controller fact.Controller `json:"controller"`
	// Watches are the handler registrations the start function, or the
	// Run method of a type it constructs, reaches within controllerReach
	// calls, in the facts' order, each with its queue path and sync function.
	Watches []Watch `json:"watches"`
	// Syncs are the sync functions of the watches (or, with no watch, of
	// the constructed types), each searched for writes once. A followed
	// write's Next lists the watchers of what it creates, not expanded.
	Syncs []*Watcher `json:"syncs"`
	// Events are the events recorded in the controller's packages.
	Events []fact.Event `json:"events"`
	// Notes say what could not be connected, for the page to show.
	Notes []Note `json:"notes,omitempty"`
}

// Watch is one informer handler registration of a controller.
type Watch struct {
	Registration fact.HandlerRegistration `json:"registration"`
	// Queue is the path from the handler to the enqueuer; QueueField the
	// work queue field; Sync the function the worker calls.
	Queue       []Step `json:"queue,omitempty"`
	QueueField  string `json:"queueField,omitempty"`
	Sync        *Step  `json:"sync,omitempty"`
	Unconnected []Note `json:"unconnected,omitempty"`
	// Status is "secondary" when the sync works on another resource than
	// this watch's (the watch only enqueues owners or dependents), with
	// Reason; "" otherwise.
	Status string `json:"status,omitempty"`
	Reason Note   `json:"reason,omitzero"`
}

// controllerReach bounds the call search from a start function to the
// registrations: start → constructor → the helper registering handlers
// (newGraphBuilder, the node lifecycle's informer set-up) is at most 5.
const controllerReach = 6

// Controllers derives a view of every controller in the facts, in the
// facts' order. One tracer serves all of them.
func Controllers(in Input, opts Options) []*ControllerView {
	opts.Depth = 1 // the next hop's watchers are named, not followed
	if opts.MaxCallDepth <= 0 {
		opts.MaxCallDepth = DefaultMaxCallDepth
	}
	if opts.PathsPerWrite <= 0 {
		opts.PathsPerWrite = DefaultPathsPerWrite
	}
	t := newTracer(in, opts)
	var out []*ControllerView
	for _, c := range in.Facts.Controllers {
		out = append(out, t.controller(c))
	}
	return out
}

func (t *tracer) controller(c fact.Controller) *ControllerView {
	v := &ControllerView{Controller: c, Watches: []Watch{}, Syncs: []*Watcher{}, Events: []fact.Event{}}
	dirs := append([]string(nil), c.Packages...)
	inPkgs := func(p string) bool {
		for _, d := range dirs {
			if within(dirOf(p), d) {
				return true
			}
		}
		return false
	}
	// Registrations made when the controller runs rather than when it is
	// built (the garbage collector's monitors, the quota monitor) are
	// reached from the constructed types' Run methods.
	// So are those of the func literals inside the start function (the
	// loop it hands the manager runs the garbage collector's Sync).
	entries := []string{c.Start.Symbol}
	for fn := range t.out {
		if strings.HasPrefix(fn, c.Start.Symbol+"$") {
			entries = append(entries, fn)
		}
	}
	for _, ty := range c.Types {
		entries = append(entries, ty+".Run")
	}
	if c.Run != nil {
		entries = append(entries, c.Run.Symbol)
	}
	reached := t.staticReach(entries, controllerReach)
	var ws []*Watcher
	for i := range t.in.Facts.Handlers {
		h := &t.in.Facts.Handlers[i]
		if !reached[h.Caller.Symbol] {
			continue
		}
		w := t.informerWatcher(h, "add")
		ws = append(ws, w)
		v.Watches = append(v.Watches, Watch{Registration: *h, Queue: w.Queue, QueueField: w.QueueField, Sync: w.Sync, Unconnected: w.Unconnected, Status: w.Status, Reason: w.Reason})
	}
	seen := map[string]bool{}
	for i, w := range ws {
		if w.entry == "" || seen[w.entry] {
			continue
		}
		seen[w.entry] = true
		v.Syncs = append(v.Syncs, t.expandSync(w.Component, w.entry, w.Sync, v.Watches[i].Registration.Informer))
	}
	t.syncFromTypes(v)
	// Events of the controller's packages and of those whose handlers it
	// registers (the replication manager runs the replicaset code).
	for _, w := range v.Watches {
		if d := dirOf(w.Registration.At.Path); !inPkgs(w.Registration.At.Path) {
			dirs = append(dirs, d)
		}
	}
	for _, e := range t.in.Facts.Events {
		if inPkgs(e.At.Path) {
			v.Events = append(v.Events, e)
		}
	}
	if len(c.Packages) == 0 {
		v.Notes = append(v.Notes, note("no-constructor", fact.ShortSymbol(c.Start.Symbol)))
	} else if !t.anyComponentIn(c.Packages) {
		v.Notes = append(v.Notes, note("outside", strings.Join(c.Packages, ", ")))
	} else if len(v.Watches) == 0 {
		v.Notes = append(v.Notes, note("no-registration", fact.ShortSymbol(c.Start.Symbol), controllerReach, strings.Join(c.Packages, ", ")))
	}
	return v
}

// expandSync searches one sync function's writes; res is the resource
// the watch that led to it watches.
func (t *tracer) expandSync(component, entry string, sync *Step, res fact.Resource) *Watcher {
	sw := &Watcher{Component: component, Name: ComponentName(component), Via: "informer", Sync: sync, Status: "expanded", entry: entry}
	if sw.Sync == nil {
		s := t.step(entry, t.decl(entry), "")
		s.At = s.Decl
		sw.Sync = &s
	}
	t.expand(sw, res, 0, []string{component})
	return sw
}

// syncFromTypes adds the sync entry of each type the constructors return
// that no watch led to (the garbage collector's watches lead to its graph
// builder, its writes are the collector's): the type's sync wiring, else
// the sync method its Run loop reaches, else Run.
func (t *tracer) syncFromTypes(v *ControllerView) {
	types := append([]string(nil), v.Controller.Types...)
	sort.Strings(types)
	have := map[string]bool{} // types and entries already searched
	for _, s := range v.Syncs {
		have[recvType(s.entry)] = true
		have[s.entry] = true
	}
	for _, ty := range types {
		if have[ty] {
			continue
		}
		comp := fact.SymbolDir(ty)
		if wiring := bestWiring(t.wirings[ty]); wiring != nil {
			if have[wiring.Sync.Symbol] {
				continue
			}
			s := t.step(wiring.Sync.Symbol, wiring.Sync.Decl, "")
			s.At = wiring.At
			sw := t.expandSync(comp, wiring.Sync.Symbol, &s, fact.Resource{})
			sw.QueueField = wiring.Queue
			v.Syncs = append(v.Syncs, sw)
			continue
		}
		w := &Watcher{Component: comp}
		if entry := t.syncByName(w, []string{ty}); entry != "" && !have[entry] {
			sw := t.expandSync(comp, entry, w.Sync, fact.Resource{})
			sw.Unconnected = append(w.Unconnected, sw.Unconnected...)
			v.Syncs = append(v.Syncs, sw)
		}
	}
	if len(v.Syncs) == 0 && len(types) > 0 {
		v.Notes = append(v.Notes, note("no-sync-wiring", strings.Join(shortAll(types), ", ")))
	}
}

func shortAll(syms []string) []string {
	out := make([]string, len(syms))
	for i, s := range syms {
		out[i] = fact.ShortSymbol(s)
	}
	return out
}

// SyncedKinds returns the resources the controllers' sync functions work
// on: those of watches that reach a sync function and are not secondary,
// sorted by resource then group, each once.
func SyncedKinds(views []*ControllerView) []fact.Resource {
	seen := map[string]fact.Resource{}
	for _, v := range views {
		for _, w := range v.Watches {
			r := w.Registration.Informer
			if w.Sync != nil && w.Status != "secondary" && r.Resource != "" {
				seen[r.Group+"/"+r.Resource] = r
			}
		}
	}
	return sortedResources(seen)
}

// staticReach returns the functions reached from entries within max call
// edges, not through interface edges: a constructor reaches its
// registrations through static calls, and an interface edge out of an
// informer's AddEventHandler reaches every wrapper implementing it.
func (t *tracer) staticReach(entries []string, max int) map[string]bool {
	seen := map[string]bool{}
	for _, e := range entries {
		seen[e] = true
	}
	frontier := entries
	for d := 0; d < max && len(frontier) > 0; d++ {
		var next []string
		for _, fn := range frontier {
			for _, c := range t.out[fn] {
				if c.Kind != "interface" && !seen[c.To] {
					seen[c.To] = true
					next = append(next, c.To)
				}
			}
		}
		frontier = next
	}
	return seen
}

// anyComponentIn reports whether any directory of dirs, or below them,
// registers handlers or wires a sync function.
func (t *tracer) anyComponentIn(dirs []string) bool {
	for d := range t.componentDirs {
		for _, x := range dirs {
			if within(d, x) {
				return true
			}
		}
	}
	return false
}
