package coverage

import (
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/record"
)

// sync.go, as the fixture counts it:
//
//	10 func (dc *DeploymentController) getNewReplicaSet(...) {
//	11 	existing := FindNewReplicaSet(...)   // block 0: 10.60,12.20
//	12 	if existing != nil {
//	13 		return existing                  // block 1: 12.20,14.3
//	14 	}
//	15 	return create()                      // block 2: 15.2,15.17
//	16 }
//	20 func (dc *DeploymentController) rollback() {
//	21 	undo()                               // block 3: 20.40,21.9
//	22 }
func fixture(scenario string, existing int64) *record.Recording {
	hits := []record.Hits{
		{Phase: "apply/replicaset", Program: "kube-controller-manager", Counts: []int64{0, 1, 2, 1}},
	}
	if existing > 0 {
		hits = append(hits, record.Hits{Phase: "set-image/kubectl", Program: "kube-controller-manager", Counts: []int64{0, existing, 1, existing}})
	}
	return &record.Recording{
		Tag: "v1.37.2", Scenario: scenario,
		Coverage: &record.Coverage{
			Mode:   "atomic",
			Phases: []record.Phase{{Name: "startup"}, {Name: "apply/kubectl"}, {Name: "apply/replicaset"}, {Name: "set-image/kubectl"}},
			Programs: []record.CoverProgram{
				{Name: "kube-controller-manager", Files: []int{0, 1}},
			},
			Files: []record.CoverFile{
				{Path: "pkg/controller/deployment/idle.go", Blocks: []int{}},
				// Lines as differences: start less the previous start,
				// end less start, statements.
				{Path: "pkg/controller/deployment/sync.go", Blocks: []int{
					10, 2, 2,
					2, 2, 1,
					3, 0, 1,
					5, 1, 1,
				}},
			},
			Hits: hits,
		},
	}
}

var symbols = []fact.Symbol{
	{Name: "k8s.io/kubernetes/pkg/controller/deployment.DeploymentController.getNewReplicaSet", Kind: "method",
		Decl: fact.Location{Path: "pkg/controller/deployment/sync.go", StartLine: 9, EndLine: 16},
		Body: fact.Location{Path: "pkg/controller/deployment/sync.go", StartLine: 10, EndLine: 16}},
	{Name: "k8s.io/kubernetes/pkg/controller/deployment.DeploymentController.rollback", Kind: "method",
		Decl: fact.Location{Path: "pkg/controller/deployment/sync.go", StartLine: 20, EndLine: 22},
		Body: fact.Location{Path: "pkg/controller/deployment/sync.go", StartLine: 20, EndLine: 22}},
	{Name: "k8s.io/kubernetes/pkg/controller/deployment.idle", Kind: "func",
		Decl: fact.Location{Path: "pkg/controller/deployment/idle.go", StartLine: 3, EndLine: 5},
		Body: fact.Location{Path: "pkg/controller/deployment/idle.go", StartLine: 3, EndLine: 5}},
	{Name: "k8s.io/api/apps/v1.Deployment.String", Kind: "method",
		Decl: fact.Location{Path: "staging/src/k8s.io/api/apps/v1/generated.pb.go", StartLine: 3, EndLine: 5},
		Body: fact.Location{Path: "staging/src/k8s.io/api/apps/v1/generated.pb.go", StartLine: 3, EndLine: 5}},
	{Name: "k8s.io/kubernetes/pkg/controller/deployment.maxRevision", Kind: "var",
		Decl: fact.Location{Path: "pkg/controller/deployment/sync.go", StartLine: 30, EndLine: 30}},
}

func TestFunctions(t *testing.T) {
	idx := []*Index{New(fixture("deployment", 0)), New(fixture("rollout", 2)), New(&record.Recording{Scenario: "scale"})}
	got := Functions(symbols, idx, Filter{})
	const gnr = "k8s.io/kubernetes/pkg/controller/deployment.DeploymentController.getNewReplicaSet"
	kcm := "kube-controller-manager"
	want := []Function{
		{Symbol: gnr, Path: "pkg/controller/deployment/sync.go", Start: 9, End: 16, Counted: []string{"deployment", "rollout"}, Runs: []Run{
			{"deployment", Hit{"apply/replicaset", kcm, 1}},
			{"rollout", Hit{"apply/replicaset", kcm, 1}},
			{"rollout", Hit{"set-image/kubectl", kcm, 2}},
		}},
		{Symbol: "k8s.io/kubernetes/pkg/controller/deployment.DeploymentController.rollback", Path: "pkg/controller/deployment/sync.go", Start: 20, End: 22, Counted: []string{"deployment", "rollout"}, Runs: []Run{}},
		{Symbol: "k8s.io/kubernetes/pkg/controller/deployment.idle", Path: "pkg/controller/deployment/idle.go", Start: 3, End: 5, Counted: []string{"deployment", "rollout"}, Runs: []Run{}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	// A step's name picks its phases; a program picks its own.
	got = Functions(symbols[:1], idx, Filter{Phase: "set-image"})
	if len(got) != 1 || got[0].Total() != 2 {
		t.Errorf("set-image: %+v, want 2 entries in the rollout", got)
	}
	if got = Functions(symbols[:1], idx, Filter{Program: "kube-scheduler"}); got[0].Total() != 0 {
		t.Errorf("kube-scheduler: %+v, want none", got)
	}
}

func TestLines(t *testing.T) {
	x := New(fixture("rollout", 2))
	lines, counted := x.Lines("pkg/controller/deployment/sync.go", Filter{})
	// Line 12 ends block 0 (run 3 times) and starts block 1 (2 times):
	// the largest count is the line's.
	want := []Line{{10, 3}, {11, 3}, {12, 3}, {13, 2}, {14, 2}, {15, 1}, {20, 0}, {21, 0}}
	if diff := cmp.Diff(want, lines); diff != "" || !counted {
		t.Errorf("counted %v (-want +got):\n%s", counted, diff)
	}
	if lines, counted := x.Lines("pkg/controller/deployment/idle.go", Filter{}); len(lines) != 0 || !counted {
		t.Errorf("idle.go: %v %v, want counted with nothing run", lines, counted)
	}
	if _, counted := x.Lines("staging/src/k8s.io/api/apps/v1/generated.pb.go", Filter{}); counted {
		t.Error("a file the recording does not hold is counted")
	}
	if New(&record.Recording{}) != nil {
		t.Error("an index of a recording without coverage")
	}
}

// TestConcurrentLookups: the site renders pages in parallel over one
// Index; its blocks are decoded lazily, and that must not race (a build
// crashed with "concurrent map read and map write"). Run with -race, or
// the runtime's own check of map writes, it fails without the lock.
func TestConcurrentLookups(t *testing.T) {
	x := New(fixture("rollout", 2))
	want, _ := x.Lines("pkg/controller/deployment/sync.go", Filter{})
	x = New(fixture("rollout", 2))
	var wg sync.WaitGroup
	got := make([][]Line, 16)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i], _ = x.Lines("pkg/controller/deployment/sync.go", Filter{})
		}()
	}
	wg.Wait()
	for i, g := range got {
		if diff := cmp.Diff(want, g); diff != "" {
			t.Errorf("lookup %d (-want +got):\n%s", i, diff)
		}
	}
}
