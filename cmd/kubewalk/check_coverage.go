package main

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/cmd/kubewalk/internal/pipeline"
	"github.com/kubewalk/kubewalk/internal/derive/coverage"
	"github.com/kubewalk/kubewalk/walkthrough"
)

// coverageWarnings prints a warning for each reference of the English
// walkthroughs whose code the release's recordings counted and which ran
// in none of them: a function never entered, or an excerpt none of whose
// matched lines ran. A reference its author marked as not meant to run
// ({notrun="…"}, an excerpt's notrun:) is listed as intended instead,
// with the reason, when it indeed did not run; when it ran, or no
// recording counts its code, the mark draws the warning. Warnings do not
// fail check. It returns how many warnings it printed.
func coverageWarnings(w io.Writer, rel *pipeline.Release, sets []pipeline.WalkSet, tag string) (int, error) {
	idx, _ := coverageIndexes(rel.Recordings, "")
	if len(idx) == 0 {
		return 0, nil
	}
	docs, err := pipeline.Docs(rel, sets, "en")
	if err != nil {
		return 0, err
	}
	return refCoverage(w, docs, idx, tag), nil
}

// refCoverage prints coverageWarnings' lines for docs' references and
// returns how many were warnings.
func refCoverage(w io.Writer, docs []*walkthrough.Doc, idx []*coverage.Index, tag string) int {
	var scenarios []string
	for _, x := range idx {
		scenarios = append(scenarios, x.Scenario)
	}
	recorded := strings.Join(scenarios, ", ")
	n := 0
	seen := map[string]bool{}
	for _, d := range docs {
		for _, st := range d.Steps {
			for _, r := range st.Refs {
				key := fmt.Sprintf("%s:%d:%s", r.File, r.Line, r.Text)
				if seen[key] {
					continue
				}
				seen[key] = true
				counted, ranIn := runs(r.Resolved, idx)
				at := fmt.Sprintf("%s:%d: [%s]", filepath.Join("walkthroughs", r.File), r.Line, tag)
				switch {
				case r.NotRun == "" && counted && len(ranIn) == 0:
					fmt.Fprintf(w, "%s warning: %s ran in no recorded scenario (%s)\n", at, r.Text, recorded)
				case r.NotRun == "":
					continue
				case len(ranIn) > 0:
					fmt.Fprintf(w, "%s warning: %s is marked as not meant to run (%q) but ran in %s: the mark is stale; remove it or mark what does not run\n", at, r.Text, r.NotRun, strings.Join(ranIn, ", "))
				case !counted:
					fmt.Fprintf(w, "%s warning: %s is marked as not meant to run (%q) but no recorded scenario (%s) counts its code: the mark says nothing; remove it\n", at, r.Text, r.NotRun, recorded)
				default:
					fmt.Fprintf(w, "%s intended: %s ran in no recorded scenario (%s), as marked: %s\n", at, r.Text, recorded, r.NotRun)
					continue
				}
				n++
			}
		}
	}
	return n
}

// runs reports whether one of the recordings counted a resolved
// reference's code and the scenarios in which it ran: its matched lines,
// or for a whole function its entry. Code other than a function's is
// never counted.
func runs(res fact.Resolved, idx []*coverage.Index) (counted bool, ranIn []string) {
	s := res.Symbol
	if s.Kind != "func" && s.Kind != "method" {
		return false, nil
	}
	for _, x := range idx {
		if !x.Counted(s.Body.Path) {
			continue
		}
		counted = true
		if ranOnce(res, x) {
			ranIn = append(ranIn, x.Scenario)
		}
	}
	return counted, ranIn
}

// ranOnce reports whether the reference's code ran in x's scenario.
func ranOnce(res fact.Resolved, x *coverage.Index) bool {
	s := res.Symbol
	if len(res.Matched) == 0 {
		fns := coverage.Functions([]fact.Symbol{s}, []*coverage.Index{x}, coverage.Filter{})
		return len(fns) == 1 && fns[0].Total() > 0
	}
	lines, _ := x.Lines(s.Body.Path, coverage.Filter{})
	for _, l := range lines {
		if l.Count > 0 && slices.Contains(res.Matched, l.Line) {
			return true
		}
	}
	return false
}
