package site

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/walkthrough"
)

// withGates adds to the fixture three gates and what they guard:
// ImageVolume the line of rolloutRolling the rollout step's excerpt
// marks, NotShown lines that excerpt shows but does not mark, and
// SidecarContainers (when off) the body of Scheduler.bind, which the
// first step cites by a reference that is not an excerpt.
func withGates(in *Input) {
	const syncPath, schPath = "pkg/controller/deployment/sync.go", "pkg/scheduler/schedule_one.go"
	loc := func(p string, from, to int) fact.Location {
		return fact.Location{Path: p, StartLine: from, EndLine: to}
	}
	on, off := true, false
	f := *in.Facts
	f.Gates = []fact.Gate{
		{Name: "ImageVolume", Stage: fact.StageAlpha, Since: "1.31", Decl: loc("pkg/features/kube_features.go", 10, 12)},
		{Name: "NotShown", Stage: fact.StageBeta, Default: true},
		{Name: "SidecarContainers", Stage: fact.StageGA, Default: true, LockToDefault: true,
			Stages: []fact.GateStage{{Stage: fact.StageAlpha, Version: "1.28", Default: &off}, {Stage: fact.StageBeta, Version: "1.29", Default: &off},
				{Stage: fact.StageBeta, Version: "1.30", Default: &on}, {Stage: fact.StageGA, Version: "1.31", Default: &on}}},
	}
	rolloutRolling := fact.FuncRef{Symbol: "k8s.io/kubernetes/pkg/controller/deployment.DeploymentController.rolloutRolling", Decl: loc(syncPath, 5, 18)}
	f.GateChecks = []fact.GateCheck{
		{Gate: "ImageVolume", Caller: rolloutRolling, At: loc(syncPath, 6, 6), Guarded: loc(syncPath, 7, 7), Kind: "if", WhenEnabled: true},
		{Gate: "NotShown", Caller: rolloutRolling, At: loc(syncPath, 11, 11), Guarded: loc(syncPath, 12, 16), Kind: "rest", WhenEnabled: true},
		{Gate: "SidecarContainers", At: loc(schPath, 8, 8), Guarded: loc(schPath, 9, 9), Kind: "if"},
	}
	in.Facts = &f
	var bind fact.Symbol
	for _, s := range in.Symbols {
		if strings.HasSuffix(s.Name, "Scheduler.bind") {
			bind = s
		}
	}
	for _, d := range in.Docs {
		if d.ID == "deployment" && d.Lang == "en" {
			d.Steps[0].Refs = append(d.Steps[0].Refs, walkthrough.Ref{Text: bind.Name, Ref: fact.Ref{Alternates: []string{bind.Name}}, Resolved: fact.Resolved{Symbol: bind}})
		}
	}
}

// stepHTML is the section of step id on a walkthrough page.
func stepHTML(t *testing.T, page, id string) string {
	t.Helper()
	_, after, ok := strings.Cut(page, `<section class="step`)
	for ok {
		var sec string
		sec, after, ok = strings.Cut(after, `<section class="step`)
		if strings.Contains(sec, `id="`+id+`"`) {
			return sec
		}
	}
	t.Fatalf("no step %s", id)
	return ""
}

// TestGateBadges: an excerpt is badged with the gates guarding the lines
// it marks (not those it only shows), a step with the gates guarding what
// its other references cite, each with the gate's stage and default and
// a link to its row on the gates page; code no gate guards has none.
func TestGateBadges(t *testing.T) {
	out, _ := buildFixture(t, withGates)
	files := readTree(t, out)
	page := files["walkthroughs/deployment.html"]

	rollout := stepHTML(t, page, "step-2-rollout")
	wantBadge := `<a class="badge gate gate-alpha" href="../gates.html#g-ImageVolume" title="Some or all of this code runs only when the feature gate ImageVolume is on">ImageVolume · alpha · off by default</a>`
	if !strings.Contains(rollout, wantBadge) {
		t.Errorf("rollout step: no badge %s in:\n%s", wantBadge, rollout)
	}
	if strings.Contains(page, "NotShown") {
		t.Error("a gate guarding lines the excerpt shows but does not mark is badged")
	}
	first := stepHTML(t, page, "step-1-informer")
	wantStep := `<p class="gates"><a class="badge gate gate-ga" href="../gates.html#g-SidecarContainers" title="Some or all of this code runs only when the feature gate SidecarContainers is off">when off: SidecarContainers · GA · on by default (locked)</a>`
	if !strings.Contains(first, wantStep) {
		t.Errorf("informer step: no step badge %s in:\n%s", wantStep, first)
	}
	if sch := stepHTML(t, page, "step-3-schedule"); strings.Contains(sch, "badge gate") {
		t.Errorf("scheduling step: badged, though no gate guards ScheduleOne:\n%s", sch)
	}

	gates := files["gates.html"]
	for _, want := range []string{
		`<tr id="g-ImageVolume">`,
		`<span class="badge gate gate-alpha">alpha</span> <span class="meta">since 1.31</span>`,
		`alpha 1.28 → beta 1.29 (off) → beta 1.30 (on) → GA 1.31`,
		`on <span class="meta">(locked)</span>`,
		`href="src/pkg/controller/deployment/sync.go.html#L7">sync.go:7</a>`,
		`after an early return`,
		// The steps badged with the gate, linked.
		`<tr id="g-ImageVolume">
<td><b>ImageVolume</b><br><a class="loc" data-g="pkg/features/kube_features.go#L10-L12" title="pkg/features/kube_features.go:10-12">kube_features.go:10</a><br><span class="meta">Badged in:</span><br><a class="steplink" href="walkthroughs/deployment.html#step-2-rollout">`,
	} {
		if !strings.Contains(gates, want) {
			t.Errorf("gates.html lacks %s", want)
		}
	}
	if n := strings.Count(files["index.html"], `href="gates.html"`); n != 2 {
		t.Errorf("the home page links gates.html %d times, want 2 (navigation and indexes)", n)
	}
}

// TestNoGateBadges: without gate facts no page has a gate badge, and the
// gates page says there are none.
func TestNoGateBadges(t *testing.T) {
	out, _ := buildFixture(t, nil)
	files := readTree(t, out)
	for p, s := range files {
		if strings.Contains(s, "badge gate") {
			t.Errorf("%s has a gate badge", p)
		}
	}
	if !strings.Contains(files["gates.html"], "No feature gates found.") {
		t.Error("gates.html does not say there are no gates")
	}
}

// TestGatesPageCache: a rebuild through a Cache renders the gates page
// again when the title of a step badged with a gate changes, since the
// page links the step by its title.
func TestGatesPageCache(t *testing.T) {
	in, opts := fixture(t)
	withGates(&in)
	opts.Out = filepath.Join(t.TempDir(), "public")
	opts.Cache = NewCache()
	if _, err := Build(context.Background(), in, opts); err != nil {
		t.Fatal(err)
	}
	for _, d := range in.Docs {
		if d.ID == "deployment" && d.Lang == "en" {
			d.Steps[1].Title = "The rollout, retitled"
		}
	}
	if _, err := Build(context.Background(), in, opts); err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(filepath.Join(opts.Out, "gates.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), "The rollout, retitled") {
		t.Error("gates.html still names the step by its old title")
	}
}
