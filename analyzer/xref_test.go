package analyzer

import (
	"github.com/kubewalk/kubewalk/analyzer/fact"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestXrefs(t *testing.T) {
	res := fixtureResult(t)
	if len(res.Xrefs) != 1 || res.Xrefs[0].Path != "ctrl/ctrl.go" {
		t.Fatalf("xrefs of %d files, want ctrl/ctrl.go only", len(res.Xrefs))
	}
	src, err := os.ReadFile(filepath.Join("testdata", "resolve", "ctrl", "ctrl.go"))
	if err != nil {
		t.Fatal(err)
	}
	// at finds the ident whose text is name on the first line containing line.
	x := res.Xrefs[0]
	at := func(line, name string) *fact.Ident {
		i := strings.Index(string(src), line)
		if i < 0 {
			t.Fatalf("no line %q", line)
		}
		j := strings.Index(line, name)
		for k := range x.Idents {
			if x.Idents[k].Off == i+j {
				return &x.Idents[k]
			}
		}
		return nil
	}
	tests := []struct {
		line, name string
		want       fact.Ident
	}{
		{"ctl.syncHandler = ctl.syncThing", "syncThing", fact.Ident{Len: 9, Kind: "method", Target: fact.Location{Path: "ctrl/ctrl.go", StartLine: 27, EndLine: 27}}},
		{"ctl.syncHandler = ctl.syncThing", "syncHandler", fact.Ident{Len: 11, Kind: "field", Target: fact.Location{Path: "ctrl/ctrl.go", StartLine: 14, EndLine: 14}}},
		{"ctl.syncHandler = ctl.syncThing", "ctl", fact.Ident{Len: 3, Kind: "var", Target: fact.Location{Path: "ctrl/ctrl.go", StartLine: 20, EndLine: 20}}},
		{"func NewController(c *lib.Client)", "NewController", fact.Ident{Len: 13, Kind: "func", Def: true, Target: fact.Location{Path: "ctrl/ctrl.go", StartLine: 19, EndLine: 19}}},
		{"func NewController(c *lib.Client)", "lib", fact.Ident{Len: 3, Kind: "pkg", Target: fact.Location{Path: "ctrl/ctrl.go", StartLine: 8, EndLine: 8}}},
		{"func NewController(c *lib.Client)", "Client", fact.Ident{Len: 6, Kind: "type", Target: fact.Location{Path: "lib/lib.go", StartLine: 9, EndLine: 9}}},
		{`return fmt.Errorf("empty key")`, "Errorf", fact.Ident{Len: 6, Kind: "func"}}, // outside the tree
		{"if key == \"\"", "key", fact.Ident{Len: 3, Kind: "var", Target: fact.Location{Path: "ctrl/ctrl.go", StartLine: 27, EndLine: 27}}},
		{"func (l *List[T]) Len() int { return len(l.items) }", "len", fact.Ident{Len: 3, Kind: "builtin"}},
		{"func (l *List[T]) Len() int", "int", fact.Ident{Len: 3, Kind: "builtin"}},
		{"ReasonFailed  = \"Failed\"", "ReasonFailed", fact.Ident{Len: 12, Kind: "const", Def: true, Target: fact.Location{Path: "ctrl/ctrl.go", StartLine: 39, EndLine: 39}}},
	}
	for _, tt := range tests {
		got := at(tt.line, tt.name)
		if got == nil {
			t.Errorf("%s in %q: no ident", tt.name, tt.line)
			continue
		}
		want := tt.want
		want.Off = got.Off
		if *got != want {
			t.Errorf("%s in %q = %+v, want %+v", tt.name, tt.line, *got, want)
		}
	}
	for i := 1; i < len(x.Idents); i++ {
		if x.Idents[i].Off <= x.Idents[i-1].Off {
			t.Fatalf("idents not sorted by offset at %d", i)
		}
	}
}
