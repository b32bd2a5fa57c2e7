package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/internal/app/pipeline"
	"github.com/kubewalk/kubewalk/internal/derive/coverage"
)

// coverageWarnings prints a warning for each reference of the English
// walkthroughs whose code the release's recordings counted and which ran
// in none of them: a function never entered, or an excerpt none of whose
// matched lines ran. Warnings do not fail check; an error path a
// walkthrough explains on purpose is expected to draw one. It returns how
// many it printed.
func coverageWarnings(w io.Writer, rel *pipeline.Release, sets []pipeline.WalkSet, tag string) (int, error) {
	idx, _ := coverageIndexes(rel.Recordings, "")
	if len(idx) == 0 {
		return 0, nil
	}
	docs, err := pipeline.Docs(rel, sets, "en")
	if err != nil {
		return 0, err
	}
	var scenarios []string
	for _, x := range idx {
		scenarios = append(scenarios, x.Scenario)
	}
	n := 0
	seen := map[string]bool{}
	for _, d := range docs {
		for _, st := range d.Steps {
			for _, r := range st.Refs {
				key := fmt.Sprintf("%s:%d:%s", r.File, r.Line, r.Text)
				if seen[key] || !neverRan(r.Resolved, idx) {
					continue
				}
				seen[key] = true
				fmt.Fprintf(w, "%s:%d: [%s] warning: %s ran in no recorded scenario (%s)\n", filepath.Join("walkthroughs", r.File), r.Line, tag, r.Text, strings.Join(scenarios, ", "))
				n++
			}
		}
	}
	return n, nil
}

// neverRan reports whether a resolved reference's code was counted in
// one of the recordings and ran in none: its matched lines, or for a
// whole function its entry.
func neverRan(res fact.Resolved, idx []*coverage.Index) bool {
	s := res.Symbol
	if s.Kind != "func" && s.Kind != "method" {
		return false
	}
	counted := false
	for _, x := range idx {
		if !x.Counted(s.Body.Path) {
			continue
		}
		counted = true
		if len(res.Matched) == 0 {
			if fns := coverage.Functions([]fact.Symbol{s}, []*coverage.Index{x}, coverage.Filter{}); len(fns) == 1 && fns[0].Total() > 0 {
				return false
			}
			continue
		}
		lines, _ := x.Lines(s.Body.Path, coverage.Filter{})
		for _, l := range lines {
			for _, m := range res.Matched {
				if l.Line == m && l.Count > 0 {
					return false
				}
			}
		}
	}
	return counted
}
