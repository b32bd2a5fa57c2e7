package main

import (
	"testing"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/internal/derive/coverage"
	"github.com/kubewalk/kubewalk/record"
)

func TestNeverRan(t *testing.T) {
	// sync.go: sync's body (lines 10-16) ran its first block only; the
	// error path on line 14 did not run.
	rec := &record.Recording{Scenario: "deployment", Coverage: &record.Coverage{
		Phases: []record.Phase{{Name: "apply/kubectl"}},
		Files: []record.CoverFile{
			{Path: "pkg/a/idle.go", Blocks: []int{}},
			{Path: "pkg/a/sync.go", Blocks: []int{10, 3, 3, 3, 2, 1, 7, 1, 1}},
		},
		Hits: []record.Hits{{Phase: "apply/kubectl", Program: "kube-controller-manager", Counts: []int64{0, 4}}},
	}}
	idx := []*coverage.Index{coverage.New(rec)}
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
		if got := neverRan(tc.res, idx); got != tc.want {
			t.Errorf("%s: neverRan = %v, want %v", tc.name, got, tc.want)
		}
	}
}
