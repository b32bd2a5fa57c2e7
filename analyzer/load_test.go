package analyzer

import (
	"context"
	"fmt"
	"github.com/kubewalk/kubewalk/analyzer/fact"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// fixtureConfig is the Config of the testdata/resolve module: root ./ctrl,
// in-tree dependencies lib and yaml.v3. The go command runs offline.
func fixtureConfig(t testing.TB) Config {
	dir, err := filepath.Abs("testdata/resolve")
	if err != nil {
		t.Fatal(err)
	}
	return Config{
		Dir:   dir,
		Env:   []string{"GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off"},
		Roots: []string{"./ctrl"},
		Tag:   "v0.0.1",
		Logf:  t.Logf,
	}
}

var fixture struct {
	once sync.Once
	res  *Result
	err  error
}

// fixtureResult analyzes testdata/resolve once per test binary.
func fixtureResult(t *testing.T) *Result {
	t.Helper()
	fixture.once.Do(func() {
		cfg := fixtureConfig(t)
		cfg.Logf = nil
		fixture.res, fixture.err = Analyze(context.Background(), cfg)
	})
	if fixture.err != nil {
		t.Fatal(fixture.err)
	}
	return fixture.res
}

func TestLoad(t *testing.T) {
	cfg := fixtureConfig(t)
	var logs []string
	cfg.Logf = func(f string, a ...any) { logs = append(logs, f); t.Logf(f, a...) }
	prog, syms, st, err := load(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if st.TypeErrors != 0 {
		t.Errorf("%d errors loading the fixture, want 0", st.TypeErrors)
	}
	if len(prog.Roots) != 1 || prog.Roots[0].PkgPath != "example.com/tree/ctrl" {
		t.Fatalf("roots = %v, want [example.com/tree/ctrl]", prog.Roots)
	}
	root := prog.Roots[0]
	if root.TypesInfo == nil || len(root.Syntax) != 1 || root.Syntax[0].Comments == nil {
		t.Errorf("root package lacks syntax, comments or types.Info")
	}
	for _, path := range []string{"example.com/tree/lib", "example.com/tree/yaml.v3", "fmt", "strings"} {
		p := prog.Packages[path]
		if p == nil || p.Types == nil || !p.Types.Complete() {
			t.Errorf("dependency %s not loaded with complete types", path)
			continue
		}
		if p.Syntax != nil || p.TypesInfo != nil {
			t.Errorf("dependency %s keeps syntax or types.Info", path)
		}
	}
	// ctrl's import of lib resolves to the same *types.Package.
	if got := root.Imports["example.com/tree/lib"]; got != prog.Packages["example.com/tree/lib"] {
		t.Errorf("root's import of lib is not the loaded lib")
	}
	if len(syms) == 0 || prog.symbols == nil {
		t.Fatal("no symbols")
	}
	if _, ok := prog.Symbol("example.com/tree/lib.ThingClient.Create"); !ok {
		t.Error("Program.Symbol misses a dependency's method")
	}
	obj := prog.Packages["example.com/tree/lib"].Types.Scope().Lookup("Client")
	if got, want := prog.DeclLoc(obj), (fact.Location{Path: "lib/lib.go", StartLine: 8, EndLine: 9}); got != want {
		t.Errorf("DeclLoc(lib.Client) = %+v, want %+v", got, want)
	}
}

func TestLoadError(t *testing.T) {
	cfg := fixtureConfig(t)
	cfg.Roots = []string{"./nosuchpkg"}
	cfg.Logf = nil
	if _, err := Load(context.Background(), cfg); err == nil {
		t.Fatal("Load of a missing package succeeded")
	}
}

// A root that does not exist (a walkthrough's alternate naming a package
// of another release) is logged and dropped, not an error.
func TestLoadMissingRoot(t *testing.T) {
	cfg := fixtureConfig(t)
	cfg.Roots = []string{"./ctrl", "example.com/tree/gone", "./nosuchdir"}
	var logs []string
	cfg.Logf = func(f string, a ...any) { logs = append(logs, fmt.Sprintf(f, a...)) }
	prog, _, st, err := load(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(prog.Roots) != 1 || st.MissingRoots != 2 || st.TypeErrors != 0 {
		t.Errorf("%d roots, %d missing, %d errors; want 1, 2, 0", len(prog.Roots), st.MissingRoots, st.TypeErrors)
	}
	if got := strings.Join(logs, "\n"); !strings.Contains(got, "root example.com/tree/gone not loaded") {
		t.Errorf("missing root not logged:\n%s", got)
	}
}

func TestSymbols(t *testing.T) {
	res := fixtureResult(t)
	want := []fact.Symbol{
		{Name: "example.com/tree/ctrl.Controller", Kind: "type", Decl: fact.Location{Path: "ctrl/ctrl.go", StartLine: 12, EndLine: 16}},
		{Name: "example.com/tree/ctrl.Controller.syncThing", Kind: "method", Decl: fact.Location{Path: "ctrl/ctrl.go", StartLine: 25, EndLine: 34}, Body: fact.Location{Path: "ctrl/ctrl.go", StartLine: 27, EndLine: 34}},
		{Name: "example.com/tree/ctrl.List", Kind: "type", Decl: fact.Location{Path: "ctrl/ctrl.go", StartLine: 44, EndLine: 45}},
		{Name: "example.com/tree/ctrl.List.Len", Kind: "method", Decl: fact.Location{Path: "ctrl/ctrl.go", StartLine: 47, EndLine: 48}, Body: fact.Location{Path: "ctrl/ctrl.go", StartLine: 48, EndLine: 48}},
		{Name: "example.com/tree/ctrl.NewController", Kind: "func", Decl: fact.Location{Path: "ctrl/ctrl.go", StartLine: 18, EndLine: 23}, Body: fact.Location{Path: "ctrl/ctrl.go", StartLine: 19, EndLine: 23}},
		{Name: "example.com/tree/ctrl.ReasonCreated", Kind: "const", Decl: fact.Location{Path: "ctrl/ctrl.go", StartLine: 37, EndLine: 38}},
		{Name: "example.com/tree/ctrl.ReasonFailed", Kind: "const", Decl: fact.Location{Path: "ctrl/ctrl.go", StartLine: 39, EndLine: 39}},
		{Name: "example.com/tree/ctrl.defaultKey", Kind: "var", Decl: fact.Location{Path: "ctrl/ctrl.go", StartLine: 42, EndLine: 42}},
		{Name: "example.com/tree/ctrl.otherKey", Kind: "var", Decl: fact.Location{Path: "ctrl/ctrl.go", StartLine: 42, EndLine: 42}},
		{Name: "example.com/tree/lib.Client", Kind: "type", Decl: fact.Location{Path: "lib/lib.go", StartLine: 8, EndLine: 9}},
		{Name: "example.com/tree/lib.Client.Things", Kind: "method", Decl: fact.Location{Path: "lib/lib.go", StartLine: 11, EndLine: 12}, Body: fact.Location{Path: "lib/lib.go", StartLine: 12, EndLine: 12}},
		{Name: "example.com/tree/lib.ThingClient", Kind: "type", Decl: fact.Location{Path: "lib/lib.go", StartLine: 14, EndLine: 15}},
		{Name: "example.com/tree/lib.ThingClient.Create", Kind: "method", Decl: fact.Location{Path: "lib/lib.go", StartLine: 17, EndLine: 20}, Body: fact.Location{Path: "lib/lib.go", StartLine: 18, EndLine: 20}},
		{Name: "example.com/tree/lib.helper", Kind: "func", Decl: fact.Location{Path: "lib/lib.go", StartLine: 22, EndLine: 24}, Body: fact.Location{Path: "lib/lib.go", StartLine: 22, EndLine: 24}},
		{Name: "example.com/tree/yaml.v3.Marshal", Kind: "func", Decl: fact.Location{Path: "yaml.v3/yaml.go", StartLine: 4, EndLine: 5}, Body: fact.Location{Path: "yaml.v3/yaml.go", StartLine: 5, EndLine: 5}},
	}
	if len(res.Symbols) != len(want) {
		t.Errorf("%d symbols, want %d", len(res.Symbols), len(want))
	}
	for i := range min(len(want), len(res.Symbols)) {
		if res.Symbols[i] != want[i] {
			t.Errorf("symbol %d:\n got %+v\nwant %+v", i, res.Symbols[i], want[i])
		}
	}
}
