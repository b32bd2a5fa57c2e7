package main

import (
	"strings"
	"testing"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/internal/derive/coverage"
	"github.com/kubewalk/kubewalk/record"
	"github.com/kubewalk/kubewalk/walkthrough"
)

// syncRecording is a deployment recording of pkg/a: sync.go's sync
// (lines 10-16) ran its first block only; the error path on line 14 did
// not run. idle.go was counted and nothing of it ran.
func syncRecording() *record.Recording {
	return &record.Recording{Scenario: "deployment", Coverage: &record.Coverage{
		Phases: []record.Phase{{Name: "apply/kubectl"}},
		Files: []record.CoverFile{
			{Path: "pkg/a/idle.go", Blocks: []int{}},
			{Path: "pkg/a/sync.go", Blocks: []int{10, 3, 3, 3, 2, 1, 7, 1, 1}},
		},
		Hits: []record.Hits{{Phase: "apply/kubectl", Program: "kube-controller-manager", Counts: []int64{0, 4}}},
	}}
}

func TestRuns(t *testing.T) {
	idx := []*coverage.Index{coverage.New(syncRecording())}
	fn := func(path string, from, to int) fact.Symbol {
		return fact.Symbol{Kind: "method", Decl: fact.Location{Path: path, StartLine: from, EndLine: to}, Body: fact.Location{Path: path, StartLine: from, EndLine: to}}
	}
	for _, tc := range []struct {
		name string
		res  fact.Resolved
		want bool
	}{
		{"entered function", fact.Resolved{Symbol: fn("pkg/a/sync.go", 10, 16)}, false},
		{"its error path", fact.Resolved{Symbol: fn("pkg/a/sync.go", 10, 16), Matched: []int{14}}, true},
		{"a matched line that ran", fact.Resolved{Symbol: fn("pkg/a/sync.go", 10, 16), Matched: []int{12, 14}}, false},
		{"function never entered", fact.Resolved{Symbol: fn("pkg/a/sync.go", 20, 21)}, true},
		{"file of which nothing ran", fact.Resolved{Symbol: fn("pkg/a/idle.go", 3, 5)}, true},
		{"file not counted", fact.Resolved{Symbol: fn("staging/src/k8s.io/api/core/v1/types.go", 3, 5)}, false},
		{"a type", fact.Resolved{Symbol: fact.Symbol{Kind: "type", Decl: fact.Location{Path: "pkg/a/sync.go", StartLine: 30, EndLine: 31}}}, false},
	} {
		counted, ranIn := runs(tc.res, idx)
		if got := counted && len(ranIn) == 0; got != tc.want {
			t.Errorf("%s: counted %v and ran in %q: never ran %v, want %v", tc.name, counted, ranIn, got, tc.want)
		}
	}
}

// TestRefCoverage: check warns of a reference that ran in no recorded
// scenario unless it is marked as not meant to run; then it lists it as
// intended, with the reason, and warns instead when the marked code did
// run or no recording counts it.
func TestRefCoverage(t *testing.T) {
	idx := []*coverage.Index{coverage.New(syncRecording())}
	fn := func(from, to int) fact.Symbol {
		loc := fact.Location{Path: "pkg/a/sync.go", StartLine: from, EndLine: to}
		return fact.Symbol{Kind: "method", Decl: loc, Body: loc}
	}
	ref := func(line int, text string, res fact.Resolved, notRun string) walkthrough.Ref {
		return walkthrough.Ref{File: "w.md", Line: line, Text: text, Resolved: res, NotRun: notRun}
	}
	uncounted := fact.Symbol{Kind: "func", Body: fact.Location{Path: "staging/x.go", StartLine: 1, EndLine: 2}}
	docs := []*walkthrough.Doc{{Steps: []walkthrough.Step{{Refs: []walkthrough.Ref{
		ref(1, "errorPath", fact.Resolved{Symbol: fn(10, 16), Matched: []int{14}}, ""),
		ref(2, "errorPath", fact.Resolved{Symbol: fn(10, 16), Matched: []int{14}}, "only a failed sync takes it"),
		ref(3, "sync", fact.Resolved{Symbol: fn(10, 16)}, "said wrongly"),
		ref(4, "helper", fact.Resolved{Symbol: uncounted}, "not counted"),
		ref(5, "sync", fact.Resolved{Symbol: fn(10, 16)}, ""),
	}}}}}
	var out strings.Builder
	n := refCoverage(&out, docs, idx, "v1.31.0")
	want := []string{
		"walkthroughs/w.md:1: [v1.31.0] warning: errorPath ran in no recorded scenario (deployment)",
		"walkthroughs/w.md:2: [v1.31.0] intended: errorPath ran in no recorded scenario (deployment), as marked: only a failed sync takes it",
		`walkthroughs/w.md:3: [v1.31.0] warning: sync is marked as not meant to run ("said wrongly") but ran in deployment: the mark is stale; remove it or mark what does not run`,
		`walkthroughs/w.md:4: [v1.31.0] warning: helper is marked as not meant to run ("not counted") but no recorded scenario (deployment) counts its code: the mark says nothing; remove it`,
	}
	if got := strings.TrimSuffix(out.String(), "\n"); got != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", got, strings.Join(want, "\n"))
	}
	if n != 3 {
		t.Errorf("%d warnings, want 3", n)
	}
}
