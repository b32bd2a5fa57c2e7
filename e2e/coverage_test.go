//go:build e2e

package e2e

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/internal/derive/coverage"
	"github.com/kubewalk/kubewalk/record"
	"github.com/kubewalk/kubewalk/source"
	"github.com/kubewalk/kubewalk/walkthroughs"
)

// chainStep is a function of the chain the walkthroughs tell, and the
// program it runs in.
type chainStep struct{ symbol, program string }

// coveredChain is the chain from the Deployment to the container, in
// the order its functions first do their work.
var coveredChain = []chainStep{
	{"k8s.io/kubernetes/pkg/controller/deployment.DeploymentController.addDeployment", "kube-controller-manager"},
	{"k8s.io/kubernetes/pkg/controller/deployment.DeploymentController.syncDeployment", "kube-controller-manager"},
	{"k8s.io/kubernetes/pkg/controller/deployment.DeploymentController.getNewReplicaSet", "kube-controller-manager"},
	{"k8s.io/kubernetes/pkg/controller/replicaset.ReplicaSetController.syncReplicaSet", "kube-controller-manager"},
	{"k8s.io/kubernetes/pkg/scheduler.Scheduler.ScheduleOne", "kube-scheduler"},
	{"k8s.io/kubernetes/pkg/scheduler/framework/plugins/defaultbinder.DefaultBinder.Bind", "kube-scheduler"},
	{"k8s.io/kubernetes/pkg/kubelet/images.imageManager.EnsureImageExists", "kubelet"},
}

const rollbackFunc = "k8s.io/kubernetes/pkg/controller/deployment.DeploymentController.rollback"

// TestE2ECoverage records the deployment and rollout scenarios at the
// default release with coverage counters and holds what ran to the chain:
// each function of it entered in a phase of the apply, no earlier than the
// one before it, rollback never; getNewReplicaSet's branches per
// scenario; and what only a rolling update runs.
func TestE2ECoverage(t *testing.T) {
	tag := source.DefaultTag
	idx := map[string]*coverage.Index{}
	for _, sc := range []string{"deployment", "rollout"} {
		var r recorded
		kubewalkJSON(t, &r, "record", "--source", "goproxy", "--tag", tag, "--scenario", sc, "-o", "json")
		if r.Coverage == nil {
			t.Fatalf("%s: the recording carries no coverage", sc)
		}
		t.Logf("%s: %d phases, %d files counted, %d hits entries", sc, len(r.Coverage.Phases), len(r.Coverage.Files), len(r.Coverage.Hits))
		idx[sc] = coverage.New(r.Recording)
	}
	names := []string{rollbackFunc}
	for _, s := range coveredChain {
		names = append(names, s.symbol)
	}
	var fns []coverage.Function
	kubewalkJSON(t, &fns, append([]string{"list", "coverage", "--source", "goproxy", "--tag", tag, "-o", "json"}, names...)...)
	byName := map[string]coverage.Function{}
	for _, fn := range fns {
		byName[fn.Symbol] = fn
	}
	for _, sc := range []string{"deployment", "rollout"} {
		phases := idx[sc].Phases()
		// firstApply is the first phase of the apply in which fn was
		// entered in program; -1 for none.
		firstApply := func(fn coverage.Function, program string) int {
			first := -1
			for _, r := range fn.Runs {
				if r.Scenario != sc || r.Program != program || !strings.HasPrefix(r.Phase, "apply/") {
					continue
				}
				if i := slices.Index(phases, r.Phase); first < 0 || i < first {
					first = i
				}
			}
			return first
		}
		prev, prevName := 0, ""
		for _, s := range coveredChain {
			fn, ok := byName[s.symbol]
			if !ok {
				t.Errorf("%s: %s is not among the counted functions", sc, s.symbol)
				continue
			}
			i := firstApply(fn, s.program)
			if i < 0 {
				t.Errorf("%s: %s was not entered in %s during the apply; runs: %+v", sc, s.symbol, s.program, fn.Runs)
				continue
			}
			t.Logf("%s: %s first entered in %s", sc, s.symbol, phases[i])
			if i < prev {
				t.Errorf("%s: %s first entered in %s, before %s (%s)", sc, s.symbol, phases[i], prevName, phases[prev])
			}
			prev, prevName = i, s.symbol
		}
		if fn, ok := byName[rollbackFunc]; !ok {
			t.Errorf("rollback is not among the counted functions")
		} else if n := fn.Total(); n != 0 {
			t.Errorf("%s: rollback entered %d times: %+v", sc, n, fn.Runs)
		}
	}

	// getNewReplicaSet, line by line. Its existing-ReplicaSet branch runs
	// in both scenarios: every sync after the ReplicaSet exists goes
	// through it. During set-image its create call runs again, making the
	// new template's ReplicaSet.
	gnr := byName[coveredChain[2].symbol]
	src := treeLines(t, tag, gnr.Path)
	lineOf := func(text string) int {
		for l := gnr.Start; l <= gnr.End && l <= len(src); l++ {
			if strings.Contains(src[l-1], text) {
				return l
			}
		}
		t.Fatalf("%q not in getNewReplicaSet (%s:%d-%d)", text, gnr.Path, gnr.Start, gnr.End)
		return 0
	}
	count := func(sc, phase string, line int) int64 {
		lines, _ := idx[sc].Lines(gnr.Path, coverage.Filter{Phase: phase})
		for _, l := range lines {
			if l.Line == line {
				return l.Count
			}
		}
		return 0
	}
	existing, create := lineOf("rsCopy := existingNewRS.DeepCopy()"), lineOf(").Create(ctx, &newRS")
	for _, c := range []struct {
		scenario, phase string
		line            int
	}{
		{"deployment", "apply", existing}, {"deployment", "apply", create},
		{"rollout", "set-image", existing}, {"rollout", "set-image", create},
	} {
		n := count(c.scenario, c.phase, c.line)
		t.Logf("%s, %s: getNewReplicaSet line %d ran %d times: %s", c.scenario, c.phase, c.line, n, strings.TrimSpace(src[c.line-1]))
		if n == 0 {
			t.Errorf("%s, %s: getNewReplicaSet line %d did not run: %s", c.scenario, c.phase, c.line, strings.TrimSpace(src[c.line-1]))
		}
	}
	// What only a rolling update does: scale the old ReplicaSet down and
	// the new one up.
	for _, name := range []string{
		"k8s.io/kubernetes/pkg/controller/deployment.DeploymentController.scaleDownOldReplicaSetsForRollingUpdate",
		"k8s.io/kubernetes/pkg/controller/deployment.DeploymentController.scaleReplicaSet",
	} {
		var fs []coverage.Function
		kubewalkJSON(t, &fs, "list", "coverage", "--source", "goproxy", "--tag", tag, "-o", "json", name)
		var dep, roll int64
		for _, f := range fs {
			if f.Symbol != name {
				continue
			}
			for _, r := range f.Runs {
				switch {
				case r.Scenario == "deployment":
					dep += r.Count
				case r.Scenario == "rollout" && strings.HasPrefix(r.Phase, "set-image/"):
					roll += r.Count
				}
			}
		}
		if dep != 0 || roll == 0 {
			t.Errorf("%s: entered %d times in the deployment scenario and %d in the rollout's set-image, want 0 and some", name, dep, roll)
		}
	}

	// The kept recordings, made on another day, entered each function of
	// the chain in the same steps. Phases may differ by a poll between
	// two runs; steps do not.
	for _, sc := range []string{"deployment", "rollout"} {
		kept, err := record.Find(t.TempDir(), walkthroughs.Recordings, tag, sc)
		if err != nil {
			t.Fatal(err)
		}
		if kept == nil || kept.Coverage == nil {
			t.Logf("%s: no kept recording with coverage to compare with", sc)
			continue
		}
		for _, s := range coveredChain {
			fn := byName[s.symbol]
			// Blocks lie inside bodies only, so the declaration's lines
			// find the same entry block as the body's.
			decl := fact.Location{Path: fn.Path, StartLine: fn.Start, EndLine: fn.End}
			sym := []fact.Symbol{{Name: fn.Symbol, Kind: "method", Decl: decl, Body: decl}}
			steps := func(x *coverage.Index) []string {
				var out []string
				for _, f := range coverage.Functions(sym, []*coverage.Index{x}, coverage.Filter{Program: s.program}) {
					for _, r := range f.Runs {
						// The start-up and the quiet end are no steps:
						// what a controller resyncs in them varies.
						step, _, ok := strings.Cut(r.Phase, "/")
						if ok && !slices.Contains(out, step) {
							out = append(out, step)
						}
					}
				}
				slices.Sort(out)
				return out
			}
			if k, n := steps(coverage.New(kept)), steps(idx[sc]); !slices.Equal(k, n) {
				t.Errorf("%s: %s entered in steps %v, the kept recording in %v", sc, s.symbol, n, k)
			}
		}
	}
}

// treeLines returns the lines of a file of the release's tree.
func treeLines(t *testing.T, tag, path string) []string {
	t.Helper()
	out, _ := kubewalk(t, "fetch", "--source", "goproxy", "--tag", tag, "-o", "dir")
	data, err := os.ReadFile(filepath.Join(strings.TrimSpace(out), filepath.FromSlash(path)))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(string(data), "\n")
}
