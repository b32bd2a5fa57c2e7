package analyzer

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/kubewalk/kubewalk/analyzer/fact"
)

var update = flag.Bool("update", false, "rewrite golden files")

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
		ref, err := fact.ParseRef(tt.ref)
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
	ref, _ := fact.ParseRef("example.com/tree/ctrl.Controller.syncThing /Delete/")
	_, err := res.Resolve(ref)
	if !errors.Is(err, fact.ErrNoMatch) {
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
		ref, err := fact.ParseRef(s)
		if err != nil {
			t.Fatal(err)
		}
		_, err = res.Resolve(ref)
		var nf *fact.NotFoundError
		if !errors.As(err, &nf) {
			t.Errorf("Resolve(%s) = %v, want a *fact.NotFoundError", s, err)
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
