package analyzer

import (
	"context"
	"github.com/kubewalk/kubewalk/analyzer/fact"
	"go/token"
	"runtime"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/go/packages"
)

// A required pass runs once per RunPasses, before the passes that require
// it, and they see its result and no other.
func TestRunPassesRequires(t *testing.T) {
	var order []string
	base := &Pass{Name: "base", Run: func(*PassRun) (any, error) {
		order = append(order, "base")
		return 42, nil
	}}
	other := &Pass{Name: "other", Run: func(*PassRun) (any, error) {
		order = append(order, "other")
		return "other", nil
	}}
	user := func(name string) *Pass {
		return &Pass{Name: name, Requires: []*Pass{base}, Run: func(run *PassRun) (any, error) {
			if run.ResultOf[base] != 42 || len(run.ResultOf) != 1 {
				t.Errorf("%s sees %v, want base's 42 alone", name, run.ResultOf)
			}
			order = append(order, name)
			return nil, nil
		}}
	}
	prog := &Program{Fset: token.NewFileSet(), Packages: map[string]*packages.Package{}}
	if err := RunPasses(context.Background(), prog, &fact.Facts{}, []*Pass{other, user("a"), user("b")}, nil); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(order, " "); got != "other base a b" {
		t.Errorf("ran %s, want other base a b", got)
	}

	loop := &Pass{Name: "loop"}
	loop.Requires = []*Pass{loop}
	if err := RunPasses(context.Background(), prog, &fact.Facts{}, []*Pass{loop}, nil); err == nil || !strings.Contains(err.Error(), "requires itself") {
		t.Errorf("a pass requiring itself: %v", err)
	}
}

// Nothing keeps a program reachable once its passes have run: the index
// the passes share is a result of the call, not package state.
func TestRunPassesKeepsNoProgram(t *testing.T) {
	collected := make(chan struct{})
	func() {
		prog := &Program{Fset: token.NewFileSet(), Packages: map[string]*packages.Package{}}
		runtime.AddCleanup(prog, func(struct{}) { close(collected) }, struct{}{})
		if err := RunPasses(context.Background(), prog, &fact.Facts{}, Passes, nil); err != nil {
			t.Fatal(err)
		}
	}()
	deadline := time.After(10 * time.Second)
	for {
		runtime.GC()
		select {
		case <-collected:
			return
		case <-deadline:
			t.Fatal("the program is still reachable after RunPasses returned")
		case <-time.After(50 * time.Millisecond):
		}
	}
}
