package fact

import (
	"slices"
	"testing"
)

// TestLocations: every place a fact names is visited — a registration's
// call, its caller and each handler, an event's and a write's call and
// caller, a wiring's assignment, sync, enqueuers and worker — and a
// handler or worker that is not there is skipped.
func TestLocations(t *testing.T) {
	at := func(p string) Location { return Location{Path: p, StartLine: 1, EndLine: 1} }
	fn := func(p string) FuncRef { return FuncRef{Decl: at(p)} }
	hs := []HandlerRegistration{{At: at("h/at.go"), Caller: fn("h/caller.go"), Add: &Handler{FuncRef: fn("h/add.go")}, Delete: &Handler{FuncRef: fn("h/delete.go")}}}
	es := []Event{{At: at("e/at.go"), Caller: fn("e/caller.go")}}
	ws := []Write{{At: at("w/at.go"), Caller: fn("w/caller.go")}}
	worker := fn("x/worker.go")
	wis := []Wiring{{At: at("x/at.go"), Sync: fn("x/sync.go"), Enqueuers: []FuncRef{fn("x/enqueue.go")}, Worker: &worker}, {At: at("y/at.go"), Sync: fn("y/sync.go")}}
	var got []string
	Locations(hs, es, ws, wis, func(l Location) { got = append(got, l.Path) })
	want := []string{"h/at.go", "h/caller.go", "h/add.go", "h/delete.go", "e/at.go", "e/caller.go", "w/at.go", "w/caller.go",
		"x/at.go", "x/sync.go", "x/enqueue.go", "x/worker.go", "y/at.go", "y/sync.go"}
	if !slices.Equal(got, want) {
		t.Errorf("visited\n%q\nwant\n%q", got, want)
	}
}
