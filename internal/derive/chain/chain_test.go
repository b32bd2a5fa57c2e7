package chain

import (
	"slices"
	"testing"

	"github.com/kubewalk/kubewalk/analyzer/fact"
)

// chainOrder is funcs (named, in citation order) in the order of
// Keys.
func chainOrder(f *fact.Facts, names ...string) []string {
	var funcs []fact.Symbol
	for _, n := range names {
		funcs = append(funcs, fact.Symbol{Name: n, Kind: "func"})
	}
	keys := Keys(f, funcs)
	out := slices.Clone(names)
	slices.SortFunc(out, func(x, y string) int { return keys[x].Compare(keys[y]) })
	return out
}

// TestKeys: roles come from the facts; a function without one
// before writing takes the place below its nearest cited caller with
// one (its anchor), through other cited functions; the rest keep their
// citation order after all of them.
func TestKeys(t *testing.T) {
	ref := func(s string) fact.FuncRef { return fact.FuncRef{Symbol: s} }
	f := &fact.Facts{
		Handlers: []fact.HandlerRegistration{{Add: &fact.Handler{Form: "func literal", Calls: []string{"onAdd"}}}},
		Wirings:  []fact.Wiring{{Sync: ref("sync"), Enqueuers: []fact.FuncRef{ref("enqueue")}, Worker: &fact.FuncRef{Symbol: "worker"}}},
		Writes:   []fact.Write{{Caller: ref("create")}, {Caller: ref("sync")}},
		Calls: []fact.Call{
			{From: "sync", To: "helper"}, {From: "helper", To: "inner"}, {From: "create", To: "inner"},
			{From: "worker", To: "inner"}, {From: "lonely", To: "lonely"},
		},
	}
	// inner is called by helper (sync's, two below sync), by create (a
	// write, no anchor) and by the worker (one below): the worker is
	// nearest. sync also writes: it is the sync handler.
	got := chainOrder(f, "lonely", "inner", "create", "helper", "sync", "worker", "enqueue", "onAdd", "other")
	if want := []string{"onAdd", "enqueue", "worker", "inner", "sync", "helper", "create", "lonely", "other"}; !slices.Equal(got, want) {
		t.Errorf("chain order %q, want %q", got, want)
	}
}

// TestKeysControllers: two controllers' functions stay apart, in
// the order the walkthrough first cites each package; a write in a
// helper package goes with the controller whose sync calls it; a sync
// handler that requeues, and a handler that enqueues, keep their roles;
// a field that holds the enqueuer and no worker calls is no sync.
func TestKeysControllers(t *testing.T) {
	ref := func(s string) fact.FuncRef { return fact.FuncRef{Symbol: s} }
	f := &fact.Facts{
		Handlers: []fact.HandlerRegistration{{Add: &fact.Handler{FuncRef: ref("k8s.io/a.C.handler")}}, {Add: &fact.Handler{FuncRef: ref("k8s.io/b.R.addR")}}},
		Wirings: []fact.Wiring{
			{Type: "k8s.io/a.C", Field: "syncHandler", Sync: ref("k8s.io/a.C.sync"), Worker: &fact.FuncRef{Symbol: "k8s.io/a.C.worker"}, Enqueuers: []fact.FuncRef{ref("k8s.io/a.C.enqueue")}},
			{Type: "k8s.io/a.C", Field: "enqueueC", Sync: ref("k8s.io/a.C.enqueue"), Enqueuers: []fact.FuncRef{ref("k8s.io/a.C.enqueue")}},
			{Type: "k8s.io/b.R", Field: "syncHandler", Sync: ref("k8s.io/b.R.syncR"), Worker: &fact.FuncRef{Symbol: "k8s.io/b.R.work"}, Enqueuers: []fact.FuncRef{ref("k8s.io/b.R.syncR"), ref("k8s.io/b.R.addR")}},
		},
		Writes: []fact.Write{{Caller: ref("k8s.io/c.createPods")}},
		Calls:  []fact.Call{{From: "k8s.io/b.R.syncR", To: "k8s.io/b.R.manage"}, {From: "k8s.io/b.R.manage", To: "k8s.io/c.createPods"}},
	}
	got := chainOrder(f, "k8s.io/a.C.enqueue", "k8s.io/b.R.addR", "k8s.io/a.C.sync", "k8s.io/b.R.syncR", "k8s.io/c.createPods", "k8s.io/b.R.manage", "k8s.io/a.C.handler")
	want := []string{"k8s.io/a.C.handler", "k8s.io/a.C.enqueue", "k8s.io/a.C.sync", "k8s.io/b.R.addR", "k8s.io/b.R.syncR", "k8s.io/b.R.manage", "k8s.io/c.createPods"}
	if !slices.Equal(got, want) {
		t.Errorf("chain order\n\t%q\nwant\n\t%q", got, want)
	}
}
