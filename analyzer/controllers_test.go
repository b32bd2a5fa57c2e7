package analyzer

// Tests of ControllersPass and PluginsPass on testdata/controllers: a
// controller list in each shape kube-controller-manager has had, and a
// scheduler registry whose plugins implement a known set of methods.

import (
	"context"
	"fmt"
	"go/ast"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kubewalk/kubewalk/analyzer/fact"
)

func controllersFixture(t *testing.T) (*fact.Facts, *Program) {
	t.Helper()
	cfg := Config{
		Dir:   "testdata/controllers",
		Env:   []string{"GOWORK=off", "GOFLAGS=-mod=mod", "GOPROXY=off"},
		Roots: []string{"./cmd/...", "./pkg/..."},
	}
	prog, err := Load(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	facts := &fact.Facts{Schema: fact.SchemaVersion}
	if err := RunPasses(context.Background(), prog, facts, []*Pass{ControllersPass, PluginsPass}, nil); err != nil {
		t.Fatal(err)
	}
	return facts, prog
}

func renderController(c fact.Controller) string {
	var ctors []string
	for _, x := range c.Constructors {
		ctors = append(ctors, fact.ShortSymbol(x.Symbol))
	}
	var flags []string
	for _, f := range []struct {
		on   bool
		name string
	}{{c.DisabledByDefault, "off"}, {c.Cloud, "cloud"}, {c.Special, "special"}} {
		if f.on {
			flags = append(flags, f.name)
		}
	}
	desc := "-"
	if c.Descriptor != nil {
		desc = fact.ShortSymbol(c.Descriptor.Symbol)
	}
	run := "-"
	if c.Run != nil {
		run = fact.ShortSymbol(c.Run.Symbol)
	}
	return fmt.Sprintf("%s %s aliases=%v desc=%s start=%s flags=%v gates=%v when=%v ctors=%v types=%v pkgs=%v run=%s",
		c.Manager, c.Name, c.Aliases, desc, fact.ShortSymbol(c.Start.Symbol), flags, c.FeatureGates,
		c.DisabledWhen, ctors, shortSyms(c.Types), c.Packages, run)
}

func shortSyms(s []string) []string {
	out := make([]string, len(s))
	for i, x := range s {
		out[i] = fact.ShortSymbol(x)
	}
	return out
}

func TestControllersPass(t *testing.T) {
	facts, _ := controllersFixture(t)
	var got []string
	for _, c := range facts.Controllers {
		got = append(got, renderController(c))
	}
	m, l := "cmd/kube-controller-manager/app", "cmd/legacy-manager/app"
	want := []string{
		m + " bar-controller aliases=[] desc=app.newBarDescriptor start=app.newBarController flags=[off] gates=[FooGate BarGate] when=[] ctors=[bar.NewBarAlpha bar.NewBarBeta bar.NewTyped] types=[bar.Bar] pkgs=[pkg/controller/bar] run=-",
		m + " cloud-controller aliases=[] desc=app.newCloudDescriptor start=app.newCloudController flags=[cloud] gates=[] when=[] ctors=[bar.NewBarAlpha] types=[bar.Bar] pkgs=[pkg/controller/bar] run=app.cloudLoop.Run",
		m + " foo-controller aliases=[foo legacy-foo] desc=app.newFooDescriptor start=app.newFooController flags=[] gates=[] when=[!ctx.Enabled] ctors=[foo.NewController] types=[foo.Controller] pkgs=[pkg/controller/foo] run=-",
		m + " special-controller aliases=[] desc=app.newSpecialDescriptor start=app.newSpecialDescriptor$1 flags=[special] gates=[] when=[] ctors=[foo.NewController] types=[foo.Controller] pkgs=[pkg/controller/foo] run=-",
		l + " foo aliases=[] desc=- start=app.startFoo flags=[] gates=[] when=[] ctors=[foo.NewController] types=[foo.Controller] pkgs=[pkg/controller/foo] run=-",
		l + " gated aliases=[] desc=- start=app.startFoo flags=[] gates=[BarGate] when=[] ctors=[foo.NewController] types=[foo.Controller] pkgs=[pkg/controller/foo] run=-",
		l + " service aliases=[] desc=- start=app.startFoo flags=[cloud] gates=[] when=[] ctors=[foo.NewController] types=[foo.Controller] pkgs=[pkg/controller/foo] run=-",
		l + " tokencleaner aliases=[] desc=- start=app.startFoo flags=[off] gates=[] when=[] ctors=[foo.NewController] types=[foo.Controller] pkgs=[pkg/controller/foo] run=-",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("controllers (-want +got):\n%s", diff)
	}
}

// TestPluginsPassMatchesMethods checks each plugin's extension points
// against the methods its type declares in the fixture's source: a point
// is listed exactly when the type has every method its interface asks for.
func TestPluginsPassMatchesMethods(t *testing.T) {
	facts, prog := controllersFixture(t)
	got := map[string]string{}
	for _, p := range facts.SchedulerPlugins {
		var eps []string
		for _, e := range p.ExtensionPoints {
			var ms []string
			for _, m := range e.Methods {
				ms = append(ms, funcNameOf(m.Symbol))
			}
			eps = append(eps, e.Name+"("+strings.Join(ms, ",")+")")
		}
		got[p.Name] = fact.ShortSymbol(p.Type) + " " + strings.Join(eps, " ")
	}
	want := map[string]string{
		"Alpha":  "alpha.Alpha EnqueueExtensions(EventsToRegister) PreFilter(PreFilter,PreFilterExtensions) PreFilterExtensions(AddPod,RemovePod) Filter(Filter) Score(Score,ScoreExtensions) NormalizeScore(NormalizeScore)",
		"Beta":   "beta.Beta PreEnqueue(PreEnqueue) Bind(Bind)",
		"Sorter": "sorter.Sorter QueueSort(Less)",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("extension points (-want +got):\n%s", diff)
	}
	// The same from the source: the methods each type declares, mapped
	// to the interfaces whose methods they complete.
	declared := declaredMethods(prog)
	ifaces := map[string][]string{
		"PreEnqueue": {"PreEnqueue"}, "QueueSort": {"Less"}, "EnqueueExtensions": {"EventsToRegister"},
		"PreFilterExtensions": {"AddPod", "RemovePod"}, "PreFilter": {"PreFilter", "PreFilterExtensions"},
		"Filter": {"Filter"}, "NormalizeScore": {"NormalizeScore"}, "Score": {"Score", "ScoreExtensions"}, "Bind": {"Bind"},
	}
	for _, p := range facts.SchedulerPlugins {
		var fromSource, fromFacts []string
		for point, ms := range ifaces {
			all := true
			for _, m := range ms {
				all = all && declared[fact.ShortSymbol(p.Type)+"."+m]
			}
			if all {
				fromSource = append(fromSource, point)
			}
		}
		for _, e := range p.ExtensionPoints {
			fromFacts = append(fromFacts, e.Name)
		}
		sort.Strings(fromSource)
		sort.Strings(fromFacts)
		if diff := cmp.Diff(fromSource, fromFacts); diff != "" {
			t.Errorf("%s: extension points against declared methods (-source +facts):\n%s", p.Name, diff)
		}
	}
}

func TestPluginEvents(t *testing.T) {
	facts, _ := controllersFixture(t)
	var got []string
	for _, p := range facts.SchedulerPlugins {
		for _, e := range p.Events {
			hint := "-"
			if e.Hint != nil {
				hint = funcNameOf(e.Hint.Symbol)
			}
			got = append(got, fmt.Sprintf("%s %s %s %s %s:%d", p.Name, e.Resource, e.ActionType, hint, e.At.Path, e.At.StartLine))
		}
	}
	a := "pkg/scheduler/framework/plugins/alpha/alpha.go"
	want := []string{
		"Alpha Pod Delete afterPodDeleted " + a + ":28",
		"Alpha Node Add|UpdateNodeLabel afterNodeChange " + a + ":30",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
}

func funcNameOf(sym string) string { return sym[strings.LastIndexAny(sym, ".")+1:] }

// declaredMethods returns "pkg.Type.Method" for every method declared in
// the fixture's root packages.
func declaredMethods(prog *Program) map[string]bool {
	out := map[string]bool{}
	for _, pkg := range prog.Roots {
		for _, f := range pkg.Syntax {
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Recv == nil {
					continue
				}
				rt := fd.Recv.List[0].Type
				if st, ok := rt.(*ast.StarExpr); ok {
					rt = st.X
				}
				out[pkg.Name+"."+rt.(*ast.Ident).Name+"."+fd.Name.Name] = true
			}
		}
	}
	return out
}
