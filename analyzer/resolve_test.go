package analyzer

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files")

func TestParseRef(t *testing.T) {
	tests := []struct {
		in   string
		want Ref
	}{
		{"k8s.io/kubernetes/pkg/controller/deployment.DeploymentController.getNewReplicaSet",
			Ref{Alternates: []string{"k8s.io/kubernetes/pkg/controller/deployment.DeploymentController.getNewReplicaSet"}}},
		{"  fmt.Println  ", Ref{Alternates: []string{"fmt.Println"}}},
		{"k8s.io/kubernetes/pkg/scheduler.Scheduler.ScheduleOne | .Scheduler.scheduleOne",
			Ref{Alternates: []string{"k8s.io/kubernetes/pkg/scheduler.Scheduler.ScheduleOne", "k8s.io/kubernetes/pkg/scheduler.Scheduler.scheduleOne"}}},
		{"a/b.X|.Y|c/d.Z", Ref{Alternates: []string{"a/b.X", "a/b.Y", "c/d.Z"}}},
		{`k8s.io/kubernetes/pkg/controller/deployment.DeploymentController.getNewReplicaSet /ReplicaSets\(.*\)\.Create/`,
			Ref{Alternates: []string{"k8s.io/kubernetes/pkg/controller/deployment.DeploymentController.getNewReplicaSet"}, Lines: `ReplicaSets\(.*\)\.Create`}},
		{"a/b.X | .Y /a / b/", Ref{Alternates: []string{"a/b.X", "a/b.Y"}, Lines: "a / b"}},
		// A "|" inside the regexp separates no alternates.
		{"k8s.io/x/p.T.M | .T.m /a|b c/", Ref{Alternates: []string{"k8s.io/x/p.T.M", "k8s.io/x/p.T.m"}, Lines: "a|b c"}},
		// Syntactic split: Resolve corrects the relative alternate.
		{"gopkg.in/yaml.v3.Marshal | .Unmarshal", Ref{Alternates: []string{"gopkg.in/yaml.v3.Marshal", "gopkg.in/yaml.Unmarshal"}}},
	}
	for _, tt := range tests {
		got, err := ParseRef(tt.in)
		if err != nil {
			t.Errorf("ParseRef(%q): %v", tt.in, err)
			continue
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ParseRef(%q) = %#v, want %#v", tt.in, got, tt.want)
		}
	}
	bad := []string{
		"", "   ", "fmt", "k8s.io/kubernetes/pkg/controller", ".Relative.First", "a/b.X | ", "a/b.X || a/b.Y",
		"a/b.X /unterminated", "a/b.X /(/", "a/b.X //", "a/b.1X", "a/b.X.Y-Z", "a/b.X extra", "/re/",
	}
	for _, in := range bad {
		if ref, err := ParseRef(in); err == nil {
			t.Errorf("ParseRef(%q) = %#v, want an error", in, ref)
		}
	}
}

// FuzzParseRef checks that ParseRef never panics, and that what it accepts
// survives a round trip through Ref.String.
func FuzzParseRef(f *testing.F) {
	for _, s := range []string{
		"k8s.io/kubernetes/pkg/scheduler.Scheduler.ScheduleOne | .Scheduler.scheduleOne",
		`k8s.io/kubernetes/pkg/controller/deployment.DeploymentController.getNewReplicaSet /ReplicaSets\(.*\)\.Create/`,
		"gopkg.in/yaml.v3.Marshal",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ref, err := ParseRef(s)
		if err != nil {
			return
		}
		if len(ref.Alternates) == 0 {
			t.Fatalf("ParseRef(%q) accepted a reference without names", s)
		}
		again, err := ParseRef(ref.String())
		if err != nil {
			t.Fatalf("ParseRef(%q) = %q, which does not parse: %v", s, ref.String(), err)
		}
		if !reflect.DeepEqual(ref, again) {
			t.Fatalf("round trip of %q: %#v != %#v", s, ref, again)
		}
	})
}

func TestResolve(t *testing.T) {
	res := fixtureResult(t)
	tests := []struct {
		ref     string
		name    string
		alt     int
		matched []int
	}{
		{"example.com/tree/ctrl.Controller.syncThing", "example.com/tree/ctrl.Controller.syncThing", 0, nil},
		// The first alternate is gone (renamed), the second exists.
		{"example.com/tree/ctrl.Controller.SyncThing | example.com/tree/ctrl.Controller.syncThing", "example.com/tree/ctrl.Controller.syncThing", 1, nil},
		{"example.com/tree/ctrl.Controller.sync | .Controller.syncThing", "example.com/tree/ctrl.Controller.syncThing", 1, nil},
		{`example.com/tree/ctrl.Controller.syncThing /Things\(.*\)\.Create/`, "example.com/tree/ctrl.Controller.syncThing", 0, []int{31}},
		{`example.com/tree/ctrl.Controller.syncThing /return/`, "example.com/tree/ctrl.Controller.syncThing", 0, []int{29, 33}},
		// The doc comment is part of the declaration.
		{`example.com/tree/ctrl.Controller.syncThing /sync handler/`, "example.com/tree/ctrl.Controller.syncThing", 0, []int{26}},
		{"example.com/tree/lib.ThingClient.Create", "example.com/tree/lib.ThingClient.Create", 0, nil},
		{"example.com/tree/ctrl.List.Len", "example.com/tree/ctrl.List.Len", 0, nil},
		// A dotted last path element; the relative alternate is fixed up.
		{"example.com/tree/yaml.v3.Unmarshal | .Marshal", "example.com/tree/yaml.v3.Marshal", 1, nil},
		{"example.com/tree/ctrl.ReasonFailed", "example.com/tree/ctrl.ReasonFailed", 0, nil},
	}
	for _, tt := range tests {
		ref, err := ParseRef(tt.ref)
		if err != nil {
			t.Fatal(err)
		}
		got, err := res.Resolve(ref)
		if err != nil {
			t.Errorf("Resolve(%s): %v", tt.ref, err)
			continue
		}
		if got.Symbol.Name != tt.name || got.Alternate != tt.alt || !reflect.DeepEqual(got.Matched, tt.matched) {
			t.Errorf("Resolve(%s) = %s alt %d lines %v, want %s alt %d lines %v",
				tt.ref, got.Symbol.Name, got.Alternate, got.Matched, tt.name, tt.alt, tt.matched)
		}
	}
}

func TestResolveNoMatch(t *testing.T) {
	res := fixtureResult(t)
	ref, _ := ParseRef("example.com/tree/ctrl.Controller.syncThing /Delete/")
	_, err := res.Resolve(ref)
	if !errors.Is(err, ErrNoMatch) {
		t.Fatalf("Resolve(%s) = %v, want ErrNoMatch", ref, err)
	}
	if !strings.Contains(err.Error(), "ctrl/ctrl.go:25-34") {
		t.Errorf("error %q does not name the declaration's lines", err)
	}
}

// TestResolveNotFound compares not-found errors with testdata/resolve/notfound.golden.
func TestResolveNotFound(t *testing.T) {
	res := fixtureResult(t)
	var b strings.Builder
	for _, s := range []string{
		"example.com/tree/ctrl.Controller.syncThings",
		"example.com/tree/ctrl.Controler.syncThing",
		"example.com/tree/ctrl.NewControler | .Controller.sync",
		"example.com/tree/ctrl.Create",
		"example.com/tree/nosuch.Create",
		"example.com/tree/lib.ThingClient.Delete",
	} {
		ref, err := ParseRef(s)
		if err != nil {
			t.Fatal(err)
		}
		_, err = res.Resolve(ref)
		var nf *NotFoundError
		if !errors.As(err, &nf) {
			t.Errorf("Resolve(%s) = %v, want a *NotFoundError", s, err)
			continue
		}
		b.WriteString(nf.Error() + "\n")
	}
	golden := filepath.Join("testdata", "resolve", "notfound.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got := b.String(); got != string(want) {
		t.Errorf("not-found errors differ from %s (-want +got):\n-%s\n+%s", golden, want, got)
	}
}

func TestLookup(t *testing.T) {
	res := fixtureResult(t)
	if _, ok := res.Lookup("example.com/tree/ctrl.Controller"); !ok {
		t.Error("Lookup(Controller) failed")
	}
	for _, name := range []string{"", "example.com/tree/ctrl", "example.com/tree/ctrl.Nope"} {
		if s, ok := res.Lookup(name); ok {
			t.Errorf("Lookup(%q) = %+v", name, s)
		}
	}
}
