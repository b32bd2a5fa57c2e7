package reldiff

// The fixture: testdata/common.txtar (a k8s.io/kubernetes module and a fake
// client-go) plus testdata/a.txtar or testdata/b.txtar (the demo controller
// at two "tags") are unpacked into two trees and analysed offline; the
// references come from testdata/walkthroughs/demo.md through
// walkthrough.Refs, exactly as `kubewalk diff` reads them.

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/txtar"

	"github.com/kubewalk/kubewalk/analyzer"
	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/walkthrough"
)

var fixture struct {
	once sync.Once
	a, b Release
	err  error
}

// releases analyses the two fixture trees once per test binary.
func releases(t *testing.T) (Release, Release) {
	t.Helper()
	a, b, err := fixtureReleases()
	if err != nil {
		t.Fatal(err)
	}
	return a, b
}

// fixtureReleases is releases for an Example, which has no t.
func fixtureReleases() (Release, Release, error) {
	fixture.once.Do(func() {
		root, err := os.MkdirTemp("", "reldiff-fixture-")
		if err != nil {
			fixture.err = err
			return
		}
		// Not t.TempDir: the trees outlive the first test.
		for _, tag := range []string{"a", "b"} {
			dir := filepath.Join(root, tag)
			for _, ar := range []string{"common.txtar", tag + ".txtar"} {
				if err := unpack(filepath.Join("testdata", ar), dir); err != nil {
					fixture.err = err
					return
				}
			}
			res, err := analyzer.Analyze(context.Background(), analyzer.Config{
				Dir:         dir,
				Env:         []string{"GOWORK=" + filepath.Join(dir, "go.work"), "GOFLAGS=-mod=readonly", "GOPROXY=off"},
				Roots:       []string{"./pkg/..."},
				Tag:         "v1.0." + map[string]string{"a": "0", "b": "1"}[tag],
				MemoryLimit: -1,
			})
			if err != nil {
				fixture.err = err
				return
			}
			if tag == "a" {
				fixture.a = Release{Result: res}
			} else {
				fixture.b = Release{Result: res}
			}
		}
	})
	return fixture.a, fixture.b, fixture.err
}

func TestMain(m *testing.M) {
	code := m.Run()
	if fixture.a.Result != nil {
		os.RemoveAll(filepath.Dir(fixture.a.Result.Dir()))
	}
	os.Exit(code)
}

func unpack(archive, dir string) error {
	ar, err := txtar.ParseFile(archive)
	if err != nil {
		return err
	}
	for _, f := range ar.Files {
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

func demoRefs(t *testing.T) []walkthrough.RefUse {
	t.Helper()
	refs, err := walkthrough.Refs(os.DirFS("testdata/walkthroughs"), ".")
	if err != nil {
		t.Fatal(err)
	}
	return refs
}

func TestCompareRefs(t *testing.T) {
	a, b := releases(t)
	rep := Compare(a, b, demoRefs(t))

	type row struct {
		Line   int
		Status Status
		From   string // symbol@alternate or ""
		To     string
	}
	name := func(s Side) string {
		if s.Symbol == "" {
			return ""
		}
		return strings.TrimPrefix(s.Symbol, "k8s.io/kubernetes/pkg/controller/demo.") + "@" + string(rune('0'+s.Alternate))
	}
	var got []row
	for _, rc := range rep.Refs {
		if rc.File != "demo.md" {
			t.Errorf("File = %q, want demo.md", rc.File)
		}
		got = append(got, row{rc.Line, rc.Status, name(rc.From), name(rc.To)})
	}
	want := []row{
		// NewController gains a registration in B, which pushes Stable
		// down: same text, other lines.
		{9, Changed, "NewController@0", "NewController@0"},
		{10, Moved, "Controller.Stable@0", "Controller.Stable@0"},
		{14, Moved, "Mover@0", "Mover@0"},
		{15, Changed, "Changer@0", "Changer@0"},
		{19, Renamed, "Controller.ScheduleOne@1", "Controller.scheduleOnePod@0"},
		{20, Gone, "Doomed@0", ""},
		{21, New, "", "Fresh@0"},
		{26, PatternLost, "Patterned@0", "Patterned@0"},
		{30, Unresolved, "", ""},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("references (-want +got):\n%s", diff)
	}

	wantCounts := map[Status]int{Unresolved: 1, Gone: 1, PatternLost: 1, New: 1, Renamed: 1, Changed: 2, Moved: 2, Unchanged: 0}
	if diff := cmp.Diff(wantCounts, rep.Summary.Refs); diff != "" {
		t.Errorf("summary (-want +got):\n%s", diff)
	}
}

func TestChangedDiff(t *testing.T) {
	a, b := releases(t)
	ref, err := fact.ParseRef("k8s.io/kubernetes/pkg/controller/demo.Changer")
	if err != nil {
		t.Fatal(err)
	}
	rc := CompareRef(a, b, ref)
	if rc.Status != Changed {
		t.Fatalf("Status = %s, want changed", rc.Status)
	}
	// Changer is at lines 32-36 of demo.go in both; the hunk headers use
	// the file's lines, not the declaration's.
	want := `--- v1.0.0/pkg/controller/demo/demo.go (demo.Changer)
+++ v1.0.1/pkg/controller/demo/demo.go (demo.Changer)
@@ -32,5 +32,5 @@
 // Changer changes its body in B.
 func Changer(x int) int {
-	y := x * 2
+	y := x * 3
 	return y + 1
 }
`
	if diff := cmp.Diff(want, rc.Diff); diff != "" {
		t.Errorf("Diff (-want +got):\n%s", diff)
	}
}

func TestMovedHasNoDiff(t *testing.T) {
	a, b := releases(t)
	ref, _ := fact.ParseRef("k8s.io/kubernetes/pkg/controller/demo.Mover")
	rc := CompareRef(a, b, ref)
	if rc.Status != Moved || rc.Diff != "" {
		t.Fatalf("got %s with diff %q, want moved without diff", rc.Status, rc.Diff)
	}
	if rc.From.Decl.Path != "pkg/controller/demo/demo.go" || rc.To.Decl.Path != "pkg/controller/demo/mover.go" {
		t.Errorf("moved from %v to %v", rc.From.Decl, rc.To.Decl)
	}
}

func TestPatternLost(t *testing.T) {
	a, b := releases(t)
	ref, _ := fact.ParseRef("k8s.io/kubernetes/pkg/controller/demo.Patterned /hello old/")
	rc := CompareRef(a, b, ref)
	if rc.Status != PatternLost {
		t.Fatalf("Status = %s, want pattern-lost", rc.Status)
	}
	if len(rc.From.Matched) != 1 || rc.To.Matched != nil || !strings.Contains(rc.To.Error, fact.ErrNoMatch.Error()) {
		t.Errorf("From %+v, To %+v", rc.From, rc.To)
	}
	if !strings.Contains(rc.Diff, "+\tprintln(\"hello new\")") {
		t.Errorf("Diff lacks the new line:\n%s", rc.Diff)
	}
}

func TestCompareFacts(t *testing.T) {
	a, b := releases(t)
	var got []string
	for _, f := range CompareFacts(a.Result.Facts(), b.Result.Facts()) {
		got = append(got, string(f.Kind)+" "+string(f.Change)+": "+f.Label)
	}
	// The Scheduled event moved from ScheduleOne to scheduleOnePod: its
	// caller is part of its identity.
	want := []string{
		"event added: record Scheduled demo.Controller.scheduleOnePod",
		"event removed: record FailedSync demo.Controller.Sync",
		"event removed: record Scheduled demo.Controller.ScheduleOne",
		"handler added: pkg/controller/demo (pods) AddEventHandler delete=demo.Controller.deletePod",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("fact changes (-want +got):\n%s", diff)
	}
}

func TestStableJSON(t *testing.T) {
	a, b := releases(t)
	refs := demoRefs(t)
	var out [2][]byte
	for i := range out {
		rep := Compare(a, b, refs)
		var err error
		if out[i], err = json.MarshalIndent(rep, "", "  "); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(out[0], out[1]) {
		t.Error("two runs differ")
	}
	for _, s := range []string{`"status": "renamed"`, `"refs": {`, `"pattern-lost": 1`, `"handlers": {`} {
		if !bytes.Contains(out[0], []byte(s)) {
			t.Errorf("JSON lacks %s", s)
		}
	}
	if bytes.Contains(out[0], []byte(a.Result.Dir())) {
		t.Error("JSON holds an absolute path")
	}
}

func TestWriteText(t *testing.T) {
	a, b := releases(t)
	rep := Compare(a, b, demoRefs(t))
	var buf bytes.Buffer
	if err := WriteText(&buf, rep); err != nil {
		t.Fatal(err)
	}
	text := buf.String()
	t.Log("\n" + text)
	for _, s := range []string{
		"kubewalk diff v1.0.0 → v1.0.1\n",
		"references: 1 unresolved, 1 gone, 1 pattern-lost, 1 new, 1 renamed, 2 changed, 2 moved\n",
		"facts: handlers +1 -0, events +1 -2, writes +0 -0\n",
		"\n== demo.md\n",
		"demo.md:19:1: renamed: go:k8s.io/kubernetes/pkg/controller/demo.Controller.scheduleOnePod | .Controller.ScheduleOne\n",
		"    v1.0.0: demo.Controller.ScheduleOne at pkg/controller/demo/demo.go:38-41 (alternate 2)\n",
		"demo.md:14:1: moved: go:k8s.io/kubernetes/pkg/controller/demo.Mover\n    pkg/controller/demo/demo.go:27-30 → pkg/controller/demo/mover.go:3-6\n",
		"    -\ty := x * 2\n",
		"== handlers added (locations at v1.0.1)\npkg/controller/demo/demo.go:19: ",
		"== events removed (locations at v1.0.0)\npkg/controller/demo/demo.go:48: record FailedSync demo.Controller.Sync\n",
	} {
		if !strings.Contains(text, s) {
			t.Errorf("text lacks %q", s)
		}
	}
	if strings.Contains(text, "Stable") && !strings.Contains(text, "moved: go:k8s.io/kubernetes/pkg/controller/demo.Controller.Stable") {
		t.Error("Stable listed other than as moved")
	}
}
