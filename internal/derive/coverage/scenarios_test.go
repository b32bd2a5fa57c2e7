package coverage

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/record"
)

const (
	syncGo = "pkg/controller/deployment/sync.go"
	idleGo = "pkg/controller/deployment/idle.go"
	pbGo   = "staging/src/k8s.io/api/apps/v1/generated.pb.go"
)

// scenarios is the fixture's deployment run (block 0, lines 10-12, and
// block 2, line 15, entered once in apply/replicaset) and rollout run
// (the same, then blocks 0 and 1 twice in set-image/kubectl), given
// rollout first, with a run without coverage between them.
func scenarios(t *testing.T) *Scenarios {
	t.Helper()
	s := NewScenarios([]*record.Recording{fixture("rollout", 2), {Scenario: "scale"}, fixture("deployment", 0)}, "deployment")
	if s == nil {
		t.Fatal("no scenarios")
	}
	return s
}

// TestNewScenarios: the runs with coverage, the one asked for first, the
// others as given; none without coverage.
func TestNewScenarios(t *testing.T) {
	s := scenarios(t)
	if want := []string{"deployment", "rollout"}; !slices.Equal(s.Names, want) || len(s.Index) != 2 || s.Recs[1].Scenario != "rollout" {
		t.Errorf("scenarios %q (%d indexes), want %q", s.Names, len(s.Index), want)
	}
	if s := NewScenarios([]*record.Recording{{Scenario: "scale"}}, "scale"); s != nil {
		t.Errorf("scenarios of runs without coverage: %q", s.Names)
	}
}

// TestScenarioLines: a count per line from line 1, -1 for a line no
// block covers; nil for a file with no block listed.
func TestScenarioLines(t *testing.T) {
	s := scenarios(t)
	lc := s.Lines(0, syncGo)
	if len(lc) != 21 {
		t.Fatalf("%d lines, want 21 (to the last counted)", len(lc))
	}
	for l, want := range map[int]int64{1: -1, 10: 1, 12: 1, 13: 0, 15: 1, 16: -1, 21: 0} {
		if lc[l-1] != want {
			t.Errorf("line %d: %d, want %d", l, lc[l-1], want)
		}
	}
	if lc := s.Lines(1, syncGo); lc[12-1] != 3 {
		t.Errorf("rollout line 12: %d, want 3 (block 0, 1+2)", lc[12-1])
	}
	if lc := s.Lines(0, idleGo); lc != nil {
		t.Errorf("idle.go: %v, want nil (counted, no block listed)", lc)
	}
	if got := s.Counting(idleGo); !slices.Equal(got, []string{"deployment", "rollout"}) {
		t.Errorf("counting idle.go: %q", got)
	}
	if got := s.Counting(pbGo); got != nil {
		t.Errorf("counting a file no program counts: %q", got)
	}
}

// TestScenarioRan: the busiest line per scenario over every location;
// 0 for a counted file of which nothing ran; -1 for code not counted.
func TestScenarioRan(t *testing.T) {
	s := scenarios(t)
	loc := func(path string, from, to int) fact.Location {
		return fact.Location{Path: path, StartLine: from, EndLine: to}
	}
	for _, c := range []struct {
		name string
		locs []fact.Location
		want []int64
	}{
		{"block 1", []fact.Location{loc(syncGo, 13, 14)}, []int64{0, 2}},
		{"blocks 0 and 2", []fact.Location{loc(syncGo, 13, 14), loc(syncGo, 15, 15), loc(syncGo, 11, 11)}, []int64{1, 3}},
		{"no block", []fact.Location{loc(syncGo, 16, 19)}, []int64{-1, -1}},
		{"idle", []fact.Location{loc(idleGo, 3, 5)}, []int64{0, 0}},
		{"not counted", []fact.Location{loc(pbGo, 3, 5)}, []int64{-1, -1}},
	} {
		if got := s.Ran(c.locs...); !slices.Equal(got, c.want) {
			t.Errorf("%s: ran %v, want %v", c.name, got, c.want)
		}
	}
	// A badge: the count in the first scenario, else where it ran.
	for _, c := range []struct {
		name string
		loc  fact.Location
		want Badge
		ok   bool
	}{
		{"ran", loc(syncGo, 15, 15), Badge{Count: 1}, true},
		{"ran elsewhere", loc(syncGo, 13, 13), Badge{RunsIn: []string{"rollout"}}, true},
		{"ran nowhere", loc(syncGo, 20, 21), Badge{}, true},
		{"not counted", loc(pbGo, 3, 3), Badge{}, false},
	} {
		got, ok := s.Badge([]fact.Location{c.loc})
		if diff := cmp.Diff(c.want, got); diff != "" || ok != c.ok {
			t.Errorf("%s: badge ok %v (-want +got):\n%s", c.name, ok, diff)
		}
	}
}

// TestPhaseCode: the phases moments fell in and those code ran in, in
// the run's order; per program, the functions that ran in the phases
// asked for, ordered by the order given, the programs by their first
// function.
func TestPhaseCode(t *testing.T) {
	rec := fixture("deployment", 0)
	cov := rec.Coverage
	cov.Phases = []record.Phase{{Name: "startup", Start: 0, End: 10}, {Name: "apply/kubectl", Start: 10, End: 20}, {Name: "apply/replicaset", Start: 20, End: 30}}
	cov.Programs = append(cov.Programs, record.CoverProgram{Name: "kube-apiserver", Files: []int{1}})
	// The API server enters getNewReplicaSet (block 0) 5 times and
	// rollback (block 3) twice in apply/kubectl.
	cov.Hits = append(cov.Hits, record.Hits{Phase: "apply/kubectl", Program: "kube-apiserver", Counts: []int64{0, 5, 3, 2}})
	s := NewScenarios([]*record.Recording{rec}, "deployment")

	if got, want := s.PhasesAt([]int64{25, 5, 29, 30}), []string{"startup", "apply/replicaset"}; !slices.Equal(got, want) {
		t.Errorf("phases at: %q, want %q", got, want)
	}
	if got, want := s.PhasesRan(symbols[1:2]), []string{"apply/kubectl"}; !slices.Equal(got, want) {
		t.Errorf("phases rollback ran in: %q, want %q", got, want)
	}

	// The reverse of the names: rollback before getNewReplicaSet.
	reverse := func(x, y string) int { return strings.Compare(y, x) }
	got := s.PhaseCode(symbols, []string{"apply/kubectl", "apply/replicaset"}, reverse)
	var names []string
	for _, p := range got {
		var fns []string
		for _, fn := range p.Funcs {
			fns = append(fns, fact.ShortSymbol(fn.Symbol)+"="+strconv.FormatInt(fn.N, 10))
		}
		names = append(names, p.Name+": "+strings.Join(fns, " "))
	}
	want := []string{
		"kube-apiserver: deployment.DeploymentController.rollback=2 deployment.DeploymentController.getNewReplicaSet=5",
		"kube-controller-manager: deployment.DeploymentController.getNewReplicaSet=1",
	}
	if !slices.Equal(names, want) {
		t.Errorf("phase code:\n%q\nwant\n%q", names, want)
	}
	if got := s.PhaseCode(symbols, []string{"startup"}, reverse); got != nil {
		t.Errorf("code of a phase nothing ran in: %+v", got)
	}
	if got := s.RanIn(symbols[1:2]); !slices.Equal(got, []string{"deployment"}) {
		t.Errorf("rollback ran in %q", got)
	}
}

// TestTable: the functions that ran in a scenario, in source order, with
// a count per scenario in which one ran; those that ran in none counted.
func TestTable(t *testing.T) {
	s := NewScenarios([]*record.Recording{fixture("deployment", 0), fixture("rollout", 2), fixture("scale", 0)}, "deployment")
	// No function of the scale run ran: its column goes.
	s.Recs[2].Coverage.Hits = nil
	s.Index[2] = New(s.Recs[2])
	got := s.Table(symbols)
	want := &Table{
		Scenarios: []string{"deployment", "rollout"},
		Rows:      []Row{{Function: Functions(symbols[:1], s.Index, Filter{})[0], Counts: []int64{1, 3}}},
		NotRan:    2, // rollback, idle
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if got := s.Table(symbols[3:]); got != nil {
		t.Errorf("table of code no scenario counts: %+v", got)
	}
}
