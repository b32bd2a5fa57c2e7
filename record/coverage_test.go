package record

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kubewalk/kubewalk/source"
)

// tinyMain is a program built with coverage counters on tinyWork and
// kubewalk's hook in its main package, as Build builds the release's
// commands: it calls Work three times as it starts, then writes
// "started", and calls Work twice more on each SIGUSR2, writing "worked"
// when it has.
const tinyMain = `package main

import (
	"os"
	"os/signal"
	"syscall"

	"k8s.io/kubernetes/pkg/tiny"
)

func main() {
	for i := 0; i < 3; i++ {
		tiny.Work()
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGUSR2)
	os.WriteFile("started", nil, 0o644)
	for range sig {
		tiny.Work()
		tiny.Work()
		os.WriteFile("worked", nil, 0o644)
	}
}
`

const tinyWork = `package tiny

var total int

func Work() {
	total++
}
`

// buildTiny builds tinyMain as Build builds a program with coverage: its
// main package, with the hook, in kubewalk's helper module, and what it
// calls in the module k8s.io/kubernetes (so that its file is the tree's
// pkg/tiny/work.go), both counted.
func buildTiny(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	src := t.TempDir()
	for name, data := range map[string]string{
		"go.work":                      "go 1.22\n\nuse (\n\t./helper\n\t./kubernetes\n)\n",
		"helper/go.mod":                "module " + helperModule + "\n\ngo 1.22\n",
		"helper/tiny/main.go":          tinyMain,
		"helper/tiny/" + coverHookFile: string(helperSource(coverHook)),
		"kubernetes/go.mod":            "module k8s.io/kubernetes\n\ngo 1.22\n",
		"kubernetes/pkg/tiny/work.go":  tinyWork,
	} {
		if err := writeFile(filepath.Join(src, filepath.FromSlash(name)), []byte(data)); err != nil {
			t.Fatal(err)
		}
	}
	bin := filepath.Join(t.TempDir(), "kube-scheduler")
	cmd := exec.Command("go", "build", "-trimpath", "-cover", "-covermode=atomic", "-coverpkg=k8s.io/kubernetes/pkg/...,"+helperModule+"/...", "-o", bin, helperModule+"/tiny")
	cmd.Dir = filepath.Join(src, "helper")
	cmd.Env = append(os.Environ(), "GOWORK="+filepath.Join(src, "go.work"), "GOFLAGS=-mod=readonly")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// TestCoveragePhases runs a program built with counters through two
// phases, as Run does, and reads back what ran in each: the counters are
// written on demand and cleared, so the second phase counts only what ran
// after the first ended.
func TestCoveragePhases(t *testing.T) {
	bin := buildTiny(t)
	tmp := isolatedTemp(t)
	dir := filepath.Join(tmp, "run")
	for _, d := range []string{"logs", "home", "tmp"} {
		os.MkdirAll(filepath.Join(dir, d), 0o755)
	}
	ctx := context.Background()
	r := &run{dir: dir, grace: time.Second, cover: newCoverRun(ctx, filepath.Join(dir, "cover"))}
	r.cover.start = time.Now()
	defer r.cover.stop()
	defer r.stopAll()
	p, err := r.start("kube-scheduler", bin)
	if err != nil {
		t.Fatal(err)
	}
	// Run signals programs once they are ready, as here.
	waitFile := func(name string) {
		t.Helper()
		err := r.waitFor(ctx, p, name, 10*time.Second, func(context.Context) (bool, error) {
			_, err := os.Stat(filepath.Join(dir, name))
			return err == nil, nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	waitFile("started")
	if err := r.phase(ctx, "one"); err != nil {
		t.Fatal(err)
	}
	p.cmd.Process.Signal(syscall.SIGUSR2)
	waitFile("worked")
	if err := r.phase(ctx, "two"); err != nil {
		t.Fatal(err)
	}
	if err := r.phase(ctx, "three"); err != nil {
		t.Fatal(err)
	}
	r.stopAll()
	rec := &Recording{}
	if err := r.collectCoverage(rec); err != nil {
		t.Fatal(err)
	}
	c := rec.Coverage
	if len(c.Files) != 1 || c.Files[0].Path != "pkg/tiny/work.go" {
		t.Fatalf("files = %+v, want pkg/tiny/work.go alone", c.Files)
	}
	if len(c.Programs) != 1 || c.Programs[0].Name != "kube-scheduler" {
		t.Fatalf("programs = %+v", c.Programs)
	}
	workLine := lineOf(t, tinyWork, "total++")
	blocks := c.Files[0].Decode()
	count := func(phase string) int64 {
		for _, h := range c.Hits {
			if h.Phase != phase {
				continue
			}
			bs, counts := h.Decode()
			for i, b := range bs {
				if blocks[b].StartLine <= workLine && workLine <= blocks[b].EndLine {
					return counts[i]
				}
			}
		}
		return 0
	}
	got := []int64{count("one"), count("two"), count("three")}
	if diff := cmp.Diff([]int64{3, 2, 0}, got); diff != "" {
		t.Errorf("work ran per phase (-want +got):\n%s", diff)
	}
	var names []string
	for _, ph := range c.Phases {
		names = append(names, ph.Name)
		if ph.End < ph.Start {
			t.Errorf("phase %s ends before it starts: %+v", ph.Name, ph)
		}
	}
	if diff := cmp.Diff([]string{"one", "two", "three"}, names); diff != "" {
		t.Errorf("phases (-want +got):\n%s", diff)
	}
	if len(c.Hits) != 2 {
		t.Errorf("hits = %+v, want the two phases in which something ran", c.Hits)
	}

	// What Run read of the snapshots is what go tool covdata textfmt
	// shows of them.
	cc := newCoverCounts()
	for i, name := range names {
		snap := filepath.Join(dir, "cover", "kube-scheduler", strconv.Itoa(i+1))
		out := filepath.Join(t.TempDir(), "counters.txt")
		if b, err := exec.Command("go", "tool", "covdata", "textfmt", "-i="+snap, "-o="+out).CombinedOutput(); err != nil {
			t.Fatalf("covdata: %v\n%s", err, b)
		}
		text, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if err := cc.add(name, "kube-scheduler", bytes.NewReader(text)); err != nil {
			t.Fatal(err)
		}
	}
	if diff := cmp.Diff(cc.coverage(c.Phases, Programs), c); diff != "" {
		t.Errorf("covdata textfmt (-) and kubewalk (+) read the snapshots differently:\n%s", diff)
	}

	// A file cut short, at any length, is an error, not a panic.
	snap := filepath.Join(dir, "cover", "kube-scheduler", "1")
	metas, counters, err := covFiles(snap)
	if err != nil || len(metas) != 1 || len(counters) != 1 {
		t.Fatalf("snapshot files: %v %v %v", metas, counters, err)
	}
	for _, f := range metas {
		data, _ := os.ReadFile(f)
		if _, err := parseCovMeta(data); err != nil {
			t.Fatal(err)
		}
		for n := range len(data) {
			if _, err := parseCovMeta(data[:n]); err == nil {
				t.Errorf("meta-data cut to %d of %d bytes read", n, len(data))
			}
		}
	}
	data, _ := os.ReadFile(counters[0])
	none := func(string) error { return nil }
	each := func(uint32, uint32, []uint32) error { return nil }
	if _, err := parseCovCounters(data, none, each); err != nil {
		t.Fatal(err)
	}
	for n := range len(data) {
		if _, err := parseCovCounters(data[:n], none, each); err == nil {
			t.Errorf("counters cut to %d of %d bytes read", n, len(data))
		}
	}
}

func lineOf(t *testing.T, src, s string) int {
	t.Helper()
	i := strings.Index(src, s)
	if i < 0 {
		t.Fatalf("%q not in the source", s)
	}
	return strings.Count(src[:i], "\n") + 1
}

func TestCoverCountsAggregate(t *testing.T) {
	cc := newCoverCounts()
	// Two programs count the same client-go file; only the apiserver's
	// own file ran in startup. Other modules' files are not the tree's.
	in := map[[2]string]string{
		{"startup", "kube-apiserver"}: `mode: atomic
k8s.io/apiserver/pkg/server/a.go:10.2,12.3 2 5
k8s.io/apiserver/pkg/server/a.go:3.1,4.2 1 0
k8s.io/client-go/tools/cache/b.go:7.1,8.1 1 0
github.com/other/x.go:1.1,2.1 1 9
`,
		{"apply/kubectl", "kubectl"}: `mode: atomic
k8s.io/client-go/tools/cache/b.go:7.1,8.1 1 1
k8s.io/kubernetes/cmd/kubectl/kubectl.go:20.1,21.1 1 1
`,
		{"apply/kubectl", "kube-apiserver"}: `mode: atomic
k8s.io/apiserver/pkg/server/a.go:10.2,12.3 2 0
k8s.io/apiserver/pkg/server/a.go:3.1,4.2 1 0
k8s.io/client-go/tools/cache/b.go:7.1,8.1 1 0
k8s.io/apiserver/pkg/server/never.go:1.1,2.1 1 0
k8s.io/kubernetes/pkg/apis/core/v1/zz_generated.conversion.go:5.1,9.2 3 40
k8s.io/cri-api/pkg/apis/runtime/v1/api.pb.go:5.1,9.2 3 40
`,
	}
	for k, v := range in {
		if err := cc.add(k[0], k[1], strings.NewReader(v)); err != nil {
			t.Fatal(err)
		}
	}
	phases := []Phase{{Name: "startup"}, {Name: "apply/kubectl"}}
	got := cc.coverage(phases, Programs)
	want := &Coverage{
		Mode: "atomic", Note: phaseNote, Phases: phases,
		Programs: []CoverProgram{{Name: "kube-apiserver", Files: []int{0, 1, 2}}, {Name: "kubectl", Files: []int{2, 3}}},
		Files: []CoverFile{
			{Path: "staging/src/k8s.io/apiserver/pkg/server/a.go", Blocks: []int{3, 1, 1, 7, 2, 2}},
			{Path: "staging/src/k8s.io/apiserver/pkg/server/never.go", Blocks: []int{}},
			{Path: "staging/src/k8s.io/client-go/tools/cache/b.go", Blocks: []int{7, 1, 1}},
			{Path: "cmd/kubectl/kubectl.go", Blocks: []int{20, 1, 1}},
		},
		Hits: []Hits{
			{Phase: "startup", Program: "kube-apiserver", Counts: []int64{1, 5}},
			{Phase: "apply/kubectl", Program: "kubectl", Counts: []int64{2, 1, 3, 1}},
		},
	}
	// Files are in path order: cmd/ before staging/.
	want.Files = append(want.Files[3:], want.Files[:3]...)
	want.Programs = []CoverProgram{{Name: "kube-apiserver", Files: []int{1, 2, 3}}, {Name: "kubectl", Files: []int{0, 3}}}
	want.Hits = []Hits{
		{Phase: "startup", Program: "kube-apiserver", Counts: []int64{2, 5}},
		{Phase: "apply/kubectl", Program: "kubectl", Counts: []int64{0, 1, 3, 1}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	first, total := got.BlockIndex()
	if diff := cmp.Diff([]int{0, 1, 3, 3}, first); diff != "" || total != 4 {
		t.Errorf("BlockIndex = %v, %d; want [0 1 3 3], 4", first, total)
	}

	// The recording round-trips, its coverage a line per entry.
	rec := &Recording{Format: Format, Tag: "v1.37.2", Scenario: "deployment", Coverage: got}
	data, err := rec.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "\n      {\"path\":\"cmd/kubectl/kubectl.go\",\"blocks\":[20,1,1]},\n") {
		t.Errorf("a file is not one line:\n%s", data)
	}
	back, err := Parse("r.json", data)
	if err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	if diff := cmp.Diff(got, back.Coverage); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
}

func TestParseTextfmtLineRejects(t *testing.T) {
	for _, s := range []string{"a.go:1.2,3.4 5", "a.go 1.2,3.4 5 6", "a.go:1.2-3.4 5 6", "a.go:1,3.4 5 6", "a.go:1.2,3.4 x 6"} {
		if _, _, _, err := parseTextfmtLine(s); err == nil {
			t.Errorf("%q read as a coverage line", s)
		}
	}
}

// CoverPackages counts the analyzer's roots that lie in the tree's
// Kubernetes modules, k8s.io/api's and other modules' left out, and
// without roots every package of those modules.
func TestCoverPackages(t *testing.T) {
	base := t.TempDir()
	for name, data := range map[string]string{
		"go.work":           "go 1.26.0\n\nuse (\n\t./kubernetes\n\t./kubernetes/staging/src/k8s.io/api\n\t./kubernetes/staging/src/k8s.io/client-go\n)\n",
		"kubernetes/go.mod": "module k8s.io/kubernetes\n",
		"kubernetes/staging/src/k8s.io/api/go.mod":       "module k8s.io/api\n",
		"kubernetes/staging/src/k8s.io/client-go/go.mod": "module k8s.io/client-go\n",
	} {
		if err := writeFile(filepath.Join(base, filepath.FromSlash(name)), []byte(data)); err != nil {
			t.Fatal(err)
		}
	}
	tree := &source.Tree{Dir: filepath.Join(base, "kubernetes"), Tag: "v1.37.2", Env: []string{"GOWORK=" + filepath.Join(base, "go.work")}}
	for _, tc := range []struct {
		roots []string
		want  []string
	}{
		{nil, []string{"k8s.io/client-go/...", "k8s.io/kubernetes/cmd/...", "k8s.io/kubernetes/pkg/...", "k8s.io/kubernetes/plugin/...", helperModule + "/..."}},
		{
			[]string{"./pkg/controller/...", "k8s.io/client-go/tools/cache", "k8s.io/api/core/v1", "github.com/x/y", "k8s.io/client-gox/z", "k8s.io/kubernetes/pkg/controller/...", "./cmd/kube-proxy/app"},
			[]string{"k8s.io/client-go/tools/cache", "k8s.io/kubernetes/cmd/kube-proxy/app", "k8s.io/kubernetes/pkg/controller/...", helperModule + "/..."},
		},
	} {
		got, err := CoverPackages(tree, tc.roots)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("CoverPackages(%q) (-want +got):\n%s", tc.roots, diff)
		}
	}
	if _, err := CoverPackages(tree, []string{"k8s.io/api/core/v1"}); err == nil {
		t.Error("roots in no counted module gave patterns")
	}
}
