package site

import (
	"strings"

	"github.com/kubewalk/kubewalk/internal/derive/coverage"
	"github.com/kubewalk/kubewalk/site/internal/covdata"
)

// A recording made with coverage counters (record.Coverage) says which
// blocks of the tree's code ran in each phase of the scenario and how
// often. The site shows it three ways: source pages mark each counted
// line in the gutter with how often it ran in a scenario (the reader
// picks which; site.js draws the marks from the counts the page
// carries, so a reader without script sees the code unmarked), each
// walkthrough excerpt and cited symbol carries how often its code ran,
// and each step's Observed panel lists the cited functions that ran in
// the phase the step's requests fell in.
//
// A line's count is the largest count of the blocks that cover it,
// summed over the scenario's phases and programs: a line where one
// block ends and the next begins ran as often as the busier one. A
// line no block covers is not counted (a comment, a declaration, a file
// the programs were not built to count).

// covScenarios is the recordings' coverage, made once per build by
// internal/derive/coverage (coverage.NewScenarios: the scenarios that
// have it, the deployment scenario first), which counts lines and
// functions for the site as for `kubewalk list coverage`.
type covScenarios = coverage.Scenarios

// lineCounts are a file's line counts (package covdata).
type lineCounts = covdata.Counts

// coverage returns the build's covScenarios, nil without a recording
// that has coverage; the same across the builds of a Cache's release.
func (b *builder) coverage() *covScenarios { return b.rel.coverage() }

// sourceCov is what a source page shows of the coverage: every
// scenario's counts as run-length data, which site.js marks the lines
// with.
type sourceCov struct {
	// runs is the <pre>'s data-cov: the default scenario's counts, then
	// every other's as its differences from them:
	// "deployment=RUNS|scale~DIFF|rollout~DIFF" (covdata.Runs, covdata.Diff).
	runs string
}

// sourceCoverage returns file f's coverage for its source page, nil when
// no scenario counted a line of it. A site of several releases shows
// none: its source pages are shared by releases whose runs differ.
func (b *builder) sourceCoverage(f string) *sourceCov {
	c := b.coverage()
	if c == nil || b.set != nil {
		return nil
	}
	if b.reuse == nil {
		return fileCoverage(c, f)
	}
	return b.reuse.sourceCovs.Keep(f, struct{}{}, func() *sourceCov { return fileCoverage(c, f) })
}

// fileCoverage is sourceCoverage's value, computed from the recordings'
// coverage c.
func fileCoverage(c *covScenarios, f string) *sourceCov {
	var def lineCounts
	var runs []string
	any := false
	for i, name := range c.Names {
		lc := lineCounts(c.Lines(i, f))
		any = any || lc != nil
		if i == 0 {
			def = lc
			runs = append(runs, name+"="+covdata.Runs(lc))
			continue
		}
		runs = append(runs, name+"~"+covdata.Diff(def, lc))
	}
	if !any {
		return nil
	}
	return &sourceCov{runs: strings.Join(runs, "|")}
}

// covHeadView is the source header's scenario choice: the scenarios
// with coverage, the first shown by the markup.
type covHeadView struct {
	Scenarios []string
	// NoneRan names the scenarios that counted the file when nothing of
	// it ran in any of them.
	NoneRan string
}

// size is the bytes codeTable adds for sc.
func (sc *sourceCov) size() int {
	if sc == nil {
		return 0
	}
	return len(` data-cov=""`) + len(sc.runs)
}

// covHead returns the source header's part of file f's coverage: the
// scenario choice when sc marks lines; when none of f ran though a
// scenario counted it, the scenarios that did (the recording lists such
// a file without its blocks, so no line can be marked); else nil.
func (b *builder) covHead(f string, sc *sourceCov) *covHeadView {
	c := b.coverage()
	switch {
	case sc != nil:
		return &covHeadView{Scenarios: c.Names}
	case c == nil || b.set != nil:
		return nil
	}
	in := c.Counting(f)
	if len(in) == 0 {
		return nil
	}
	return &covHeadView{NoneRan: strings.Join(in, ", ")}
}
