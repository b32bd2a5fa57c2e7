package analyzer

// Tests of the discovery passes on testdata/kubelike, a small tree in
// Kubernetes' layout (k8s.io/kubernetes at the root, fake client-go, api and
// apimachinery as staging modules, all through go.work, offline).
//
// Expectations sit beside the code, x/tools style: a comment
//
//	// want handler "AddEventHandler apps/v1 Deployment deployments add=…"
//
// on the line where a fact starts says that a fact of that kind starts on
// that line and that its one-line rendering (see render*) contains the
// quoted text; several wants may share a line. For handlers, writes,
// events and wirings every fact must be wanted, so a missed or an extra
// fact fails. Call edges are only checked where wanted. The whole facts are
// also compared with testdata/kubelike.golden.json; run
// `go test ./analyzer -run TestPassesGolden -update` to rewrite it.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/internal/testsupport/testfs"

	"github.com/google/go-cmp/cmp"
)

var kubelike struct {
	once  sync.Once
	facts *fact.Facts
	prog  *Program
	err   error
}

// kubelikeDir is where testdata/kubelike is expanded (its staging modules
// are an archive) for this test binary; TestMain removes it.
var kubelikeDir string

// kubelikeTree expands testdata/kubelike into a temporary directory, once.
func kubelikeTree() (string, error) {
	if kubelikeDir == "" {
		dir, err := os.MkdirTemp("", "kubelike-")
		if err != nil {
			return "", err
		}
		if err := testfs.CopyTree("testdata/kubelike", dir); err != nil {
			return "", err
		}
		kubelikeDir = dir
	}
	return kubelikeDir, nil
}

func TestMain(m *testing.M) {
	code := m.Run()
	if kubelikeDir != "" {
		os.RemoveAll(kubelikeDir)
	}
	os.Exit(code)
}

// kubelikeFacts loads testdata/kubelike and runs Passes once per test binary.
func kubelikeFacts(t *testing.T) (*fact.Facts, *Program) {
	t.Helper()
	kubelike.once.Do(func() {
		dir, err := kubelikeTree()
		if err != nil {
			kubelike.err = err
			return
		}
		cfg := Config{
			Dir:   dir,
			Env:   []string{"GOWORK=" + filepath.Join(dir, "go.work"), "GOFLAGS=-mod=readonly", "GOPROXY=off"},
			Roots: []string{"./pkg/..."},
		}
		prog, err := Load(context.Background(), cfg)
		if err != nil {
			kubelike.err = err
			return
		}
		facts := &fact.Facts{Schema: fact.SchemaVersion}
		if err := RunPasses(context.Background(), prog, facts, Passes, nil); err != nil {
			kubelike.err = err
			return
		}
		kubelike.facts, kubelike.prog = facts, prog
	})
	if kubelike.err != nil {
		t.Fatal(kubelike.err)
	}
	return kubelike.facts, kubelike.prog
}

func renderHandler(h *fact.Handler) string {
	if h == nil {
		return "-"
	}
	s := fact.ShortSymbol(h.Symbol)
	if h.Form != "method value" {
		s += "(" + h.Form + ")"
	}
	if len(h.Calls) > 0 {
		var cs []string
		for _, c := range h.Calls {
			cs = append(cs, fact.ShortSymbol(c))
		}
		s += "[" + strings.Join(cs, ",") + "]"
	}
	return s
}

func renderResource(r fact.Resource) string {
	return fmt.Sprintf("%s/%s %s %s", r.Group, r.Version, r.Kind, r.Resource)
}

func renderRegistration(r fact.HandlerRegistration) string {
	res := renderResource(r.Informer)
	if r.InformerDynamic {
		res = "/ <dynamic>"
	}
	s := fmt.Sprintf("%s %s add=%s update=%s delete=%s", r.Method, res,
		renderHandler(r.Add), renderHandler(r.Update), renderHandler(r.Delete))
	if r.Filter != nil {
		s += " filter=" + renderHandler(r.Filter)
	}
	if r.Resync != "" {
		s += " resync=" + r.Resync
	}
	return s + " caller=" + fact.ShortSymbol(r.Caller.Symbol)
}

func renderWrite(w fact.Write) string {
	res := w.Resource.Resource
	if w.Subresource != "" {
		res += "/" + w.Subresource
	}
	s := fmt.Sprintf("%s %s apiVerb=%s group=%s version=%s kind=%s via=%s caller=%s",
		res, w.Verb, w.APIVerb, w.Resource.Group, w.Resource.Version, w.Resource.Kind, w.Via, fact.ShortSymbol(w.Caller.Symbol))
	if w.ResourceDynamic {
		s += " dynamic"
	}
	return s
}

func renderEvent(e fact.Event) string {
	s := fmt.Sprintf("%s.%s %s %q reasonExpr=%s message=%q", e.Recorder, e.Method, e.Type, e.Reason, e.ReasonExpr, e.Message)
	if e.Action != "" {
		s += " action=" + e.Action
	}
	if e.Via != "" {
		s += " via=" + fact.ShortSymbol(e.Via)
	}
	if e.FuncValue != nil {
		s += fmt.Sprintf(" funcValue=%s:%d", e.FuncValue.Path, e.FuncValue.StartLine)
	}
	if len(e.Dynamic) > 0 {
		s += fmt.Sprintf(" dynamic=%s types=%q reasons=%q messages=%q", strings.Join(e.Dynamic, ","), e.TypeValues, e.ReasonValues, e.MessageValues)
	}
	for _, f := range []struct{ name, field string }{{"typeField", e.TypeField}, {"reasonField", e.ReasonField}, {"messageField", e.MessageField}} {
		if f.field != "" {
			s += " " + f.name + "=" + f.field
		}
	}
	if e.Forwards {
		s += " forwards"
	}
	return s + " caller=" + fact.ShortSymbol(e.Caller.Symbol)
}

func renderWiring(w fact.Wiring) string {
	s := fmt.Sprintf("%s.%s = %s", fact.ShortSymbol(w.Type), w.Field, fact.ShortSymbol(w.Sync.Symbol))
	if w.Queue != "" {
		var es []string
		for _, e := range w.Enqueuers {
			es = append(es, fact.ShortSymbol(e.Symbol))
		}
		s += " queue=" + w.Queue + " enqueuers=" + strings.Join(es, ",")
	}
	if w.Worker != nil {
		s += " worker=" + fact.ShortSymbol(w.Worker.Symbol)
	}
	return s
}

func renderListWatch(lw fact.ListWatch) string {
	var cs []string
	for _, c := range lw.Consumers {
		s := c.Kind + ":" + fact.ShortSymbol(c.Caller.Symbol) + ":" + renderResource(c.Resource)
		if c.Push != nil {
			s += ":push=" + fact.ShortSymbol(c.Push.Symbol)
		}
		cs = append(cs, s)
	}
	return fmt.Sprintf("%s %s fields=%s consumers=%s caller=%s", lw.Func, renderResource(lw.Resource),
		strings.Join(lw.Fields, ","), strings.Join(cs, ";"), fact.ShortSymbol(lw.Caller.Symbol))
}

func renderInformerRequest(r fact.InformerRequest) string {
	res := renderResource(r.Resource)
	if r.ResourceDynamic {
		res = "dynamic"
	}
	s := fmt.Sprintf("%s %s factory=%s expr=%s caller=%s", r.Method, res, r.Factory, r.Expr, fact.ShortSymbol(r.Caller.Symbol))
	if r.FieldSelector != "" {
		s += " fields=" + strings.Join(r.Fields, ",")
	}
	if r.Namespace != "" {
		s += " namespace=" + r.Namespace
	}
	return s
}

func renderCall(c fact.Call) string {
	return fmt.Sprintf("%s %s -> %s", c.Kind, fact.ShortSymbol(c.From), fact.ShortSymbol(c.To))
}

type gotFact struct {
	kind, text string
	matched    bool
}

var wantRE = regexp.MustCompile(`// want (\w+) "((?:[^"\\]|\\.)*)"`)

// TestPasses checks every "// want" comment of the fixture against the facts.
func TestPasses(t *testing.T) {
	facts, prog := kubelikeFacts(t)
	got := factsByLine(facts)
	nwant := 0
	err := filepath.WalkDir(filepath.Join(prog.Dir, "pkg"), func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := prog.RelPath(path)
		nwant += checkWants(t, rel, string(src), got)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if nwant == 0 {
		t.Fatal("no // want comments found in the fixture")
	}
	var keys []string
	for k := range got {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		for _, g := range got[k] {
			if !g.matched && g.kind != "call" && strings.HasPrefix(k, "pkg/") {
				t.Errorf("%s: unexpected %s: %s", k, g.kind, g.text)
			}
		}
	}
}

// factsByLine renders every fact, keyed by "path:line" of where it starts.
func factsByLine(facts *fact.Facts) map[string][]*gotFact {
	got := map[string][]*gotFact{}
	add := func(kind string, at fact.Location, text string) {
		k := at.Path + ":" + strconv.Itoa(at.StartLine)
		got[k] = append(got[k], &gotFact{kind: kind, text: text})
	}
	for _, h := range facts.Handlers {
		add("handler", h.At, renderRegistration(h))
	}
	for _, w := range facts.Writes {
		add("write", w.At, renderWrite(w))
	}
	for _, e := range facts.Events {
		add("event", e.At, renderEvent(e))
	}
	for _, w := range facts.Wirings {
		add("wiring", w.At, renderWiring(w))
	}
	for _, c := range facts.Calls {
		add("call", c.At, renderCall(c))
	}
	for _, lw := range facts.ListWatches {
		add("listwatch", lw.At, renderListWatch(lw))
	}
	for _, r := range facts.InformerRequests {
		add("informer", r.At, renderInformerRequest(r))
	}
	for _, g := range facts.Gates {
		add("gate", g.Spec, renderGate(g))
	}
	for _, c := range facts.GateChecks {
		add("gatecheck", c.At, renderGateCheck(c))
	}
	return got
}

// checkWants matches each "// want" comment of the file rel, whose text
// is src, to an unmatched fact of its line in got, marking it matched,
// and returns how many comments it read.
func checkWants(t *testing.T, rel, src string, got map[string][]*gotFact) int {
	t.Helper()
	nwant := 0
	for i, line := range strings.Split(src, "\n") {
		for _, m := range wantRE.FindAllStringSubmatch(line, -1) {
			nwant++
			kind, text := m[1], strings.ReplaceAll(m[2], `\"`, `"`)
			k := rel + ":" + strconv.Itoa(i+1)
			found := false
			for _, g := range got[k] {
				if g.kind == kind && !g.matched && strings.Contains(g.text, text) {
					g.matched, found = true, true
					break
				}
			}
			if !found {
				var here []string
				for _, g := range got[k] {
					if g.kind == kind {
						here = append(here, "\n\t\t"+g.text)
					}
				}
				t.Errorf("%s: no %s matching %q; got:%s", k, kind, text, strings.Join(here, ""))
			}
		}
	}
	return nwant
}

// TestPassesGolden compares all facts with the golden file.
func TestPassesGolden(t *testing.T) {
	facts, _ := kubelikeFacts(t)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(facts); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "kubelike.golden.json")
	if *update { // the -update flag of resolve_test.go
		if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	var w, g fact.Facts
	if err := json.Unmarshal(want, &w); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(buf.Bytes(), &g); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(w, g); diff != "" {
		t.Errorf("facts differ from %s (-want +got):\n%s", golden, diff)
	}
}

// TestPassesDeterministic runs the passes twice on one program; the
// second run builds its own index.
func TestPassesDeterministic(t *testing.T) {
	facts, prog := kubelikeFacts(t)
	again := &fact.Facts{Schema: fact.SchemaVersion}
	if err := RunPasses(context.Background(), prog, again, Passes, nil); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(facts, again); diff != "" {
		t.Errorf("second run differs (-first +second):\n%s", diff)
	}
}

// client-go's informer machinery is no registration of its own: with
// tools/cache among the roots (a walkthrough about informers references
// it), AddEventHandler forwarding its handler parameter to
// AddEventHandlerWithOptions, or NewInformer to the informer it makes,
// must not appear as handlers, and the controllers' registrations must
// stay as they are.
func TestHandlersSkipInformerMachinery(t *testing.T) {
	want, prog := kubelikeFacts(t)
	dir := prog.Dir
	prog, err := Load(context.Background(), Config{
		Dir:   dir,
		Env:   []string{"GOWORK=" + filepath.Join(dir, "go.work"), "GOFLAGS=-mod=readonly", "GOPROXY=off"},
		Roots: []string{"./pkg/...", cachePkg},
	})
	if err != nil {
		t.Fatal(err)
	}
	var got fact.Facts
	if err := RunPasses(context.Background(), prog, &got, []*Pass{HandlersPass}, nil); err != nil {
		t.Fatal(err)
	}
	for _, h := range got.Handlers {
		if h.Component == cachePkg {
			t.Errorf("registration inside %s: %s at %s:%d", cachePkg, h.Caller.Symbol, h.At.Path, h.At.StartLine)
		}
	}
	if len(got.Handlers) != len(want.Handlers) {
		t.Errorf("%d registrations with tools/cache among the roots, want the %d of ./pkg/... alone", len(got.Handlers), len(want.Handlers))
	}
}

// TestInterfaceCallBesideItsDeclaration: a call of an interface method
// that more than maxImpls types implement resolves to the implementations
// declared in the interface's package alone.
func TestInterfaceCallBesideItsDeclaration(t *testing.T) {
	facts, _ := kubelikeFacts(t)
	var to []string
	for _, c := range facts.Calls {
		if c.From == "k8s.io/kubernetes/pkg/kubelet/nodelease.start" {
			to = append(to, c.Kind+" "+c.To)
		}
	}
	if want := []string{"interface k8s.io/kubernetes/pkg/kubelet/nodelease.controller.Run"}; !slices.Equal(to, want) {
		t.Errorf("start calls %q, want %q", to, want)
	}
}
