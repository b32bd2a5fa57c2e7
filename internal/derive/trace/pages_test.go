package trace

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kubewalk/kubewalk/analyzer/fact"
)

// TestOwners: a package is the first controller's that lists it; a
// subpackage its nearest listed parent's.
func TestOwners(t *testing.T) {
	views := []*ControllerView{
		{Controller: fact.Controller{Name: "deployment", Packages: []string{"pkg/controller/deployment", "pkg/controller/util"}}},
		{Controller: fact.Controller{Name: "replicaset", Packages: []string{"pkg/controller/replicaset", "pkg/controller/util"}}},
	}
	owners := Owners(views)
	for dir, want := range map[string]string{
		"pkg/controller/util":                 "deployment",
		"pkg/controller/replicaset":           "replicaset",
		"pkg/controller/deployment/util/more": "deployment",
		"pkg/controller":                      "",
		"pkg/scheduler":                       "",
	} {
		if got := Owner(owners, dir); got != want {
			t.Errorf("owner of %s: %q, want %q", dir, got, want)
		}
	}
}

// TestShown: the page's code in its order: registrations with their
// handlers, syncs with the first site of each write, events.
func TestShown(t *testing.T) {
	at := func(l int) fact.Location { return fact.Location{Path: "c.go", StartLine: l, EndLine: l} }
	v := &ControllerView{
		Watches: []Watch{{Registration: fact.HandlerRegistration{
			At: at(1), Add: &fact.Handler{FuncRef: fact.FuncRef{Decl: at(2)}}, Delete: &fact.Handler{FuncRef: fact.FuncRef{Decl: at(3)}},
		}}},
		Syncs: []*Watcher{{
			Sync: &Step{Decl: at(10)},
			Writes: []*WriteHop{
				{Sites: []WriteSite{{Write: fact.Write{At: at(11)}}, {Write: fact.Write{At: at(12)}}}},
				{}, // no site
			},
			Other: []WriteSummary{{First: WriteSite{Write: fact.Write{At: at(13)}}}},
		}},
		Events: []fact.Event{{At: at(20)}},
	}
	want := []fact.Location{at(1), at(2), at(3), at(10), at(11), at(13), at(20)}
	if diff := cmp.Diff(want, v.Shown()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
