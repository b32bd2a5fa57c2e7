package site

import (
	"slices"
	"strconv"
	"strings"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/internal/derive/coverage"
	"github.com/kubewalk/kubewalk/record"
	"github.com/kubewalk/kubewalk/site/internal/covdata"
)

// A recording made with coverage counters (record.Coverage) says which
// blocks of the tree's code ran in each phase of the scenario and how
// often. The site shows it three ways: source pages mark each counted
// line in the gutter with how often it ran in a scenario (the reader
// picks which; the default one is in the markup, so the marks show
// without script), each walkthrough excerpt and cited symbol carries
// how often its code ran, and each step's Observed panel lists the
// cited functions that ran in the phase the step's requests fell in.
//
// A line's count is the largest count of the blocks that cover it,
// summed over the scenario's phases and programs: a line where one
// block ends and the next begins ran as often as the busier one. A
// line no block covers is not counted (a comment, a declaration, a file
// the programs were not built to count).

// covScenarios is the recordings' coverage, made once per build: the
// scenarios that have it, the deployment scenario first, each indexed by
// internal/derive/coverage, which counts lines and functions for the
// site as for `kubewalk list coverage`.
type covScenarios struct {
	names []string
	idx   []*coverage.Index
	recs  []*record.Recording
}

// lineCounts are a file's line counts (package covdata).
type lineCounts = covdata.Counts

// coverage returns the build's covScenarios, nil without a recording
// that has coverage.
func (b *builder) coverage() *covScenarios {
	if b.langs != nil && b != b.langs[0] {
		return b.langs[0].coverage()
	}
	b.covOnce.Do(func() {
		var recs []*record.Recording
		for _, r := range b.in.Recordings {
			if r.Coverage != nil && len(r.Coverage.Files) > 0 {
				recs = append(recs, r)
			}
		}
		// The scenario the walkthroughs follow first; the rest as given.
		slices.SortStableFunc(recs, func(x, y *record.Recording) int {
			return boolRank(y.Scenario == panelScenario) - boolRank(x.Scenario == panelScenario)
		})
		if len(recs) == 0 {
			return
		}
		c := &covScenarios{}
		for _, r := range recs {
			c.names = append(c.names, r.Scenario)
			c.idx = append(c.idx, coverage.New(r))
			c.recs = append(c.recs, r)
		}
		b.cov = c
	})
	return b.cov
}

func boolRank(v bool) int {
	if v {
		return 1
	}
	return 0
}

// lines returns scenario i's line counts of path, nil when it lists no
// block of the file.
func (c *covScenarios) lines(i int, path string) lineCounts {
	ls, _ := c.idx[i].Lines(path, coverage.Filter{})
	if len(ls) == 0 {
		return nil
	}
	lc := make(lineCounts, ls[len(ls)-1].Line)
	for k := range lc {
		lc[k] = -1
	}
	for _, l := range ls {
		if l.Line >= 1 {
			lc[l.Line-1] = l.Count
		}
	}
	return lc
}

// sourceCov is what a source page shows of the coverage: the default
// scenario's lines that ran, in the markup, and every scenario's counts
// as run-length data for site.js.
type sourceCov struct {
	lines lineCounts
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
	var sc sourceCov
	var runs []string
	any := false
	for i, name := range c.names {
		lc := c.lines(i, f)
		any = any || lc != nil
		if i == 0 {
			sc.lines = lc
			runs = append(runs, name+"="+covdata.Runs(lc))
			continue
		}
		runs = append(runs, name+"~"+covdata.Diff(sc.lines, lc))
	}
	if !any {
		return nil
	}
	sc.runs = strings.Join(runs, "|")
	return &sc
}

// covHeadView is the source header's scenario choice: the scenarios
// with coverage, the first shown by the markup.
type covHeadView struct {
	Scenarios []string
	// NoneRan names the scenarios that counted the file when nothing of
	// it ran in any of them.
	NoneRan string
}

// ran is how often the code at loc ran in each scenario with coverage:
// the count of its busiest counted line in loc, 0 where its file was
// counted and nothing of it ran, -1 where no line of it is counted.
func (c *covScenarios) ran(loc fact.Location) []int64 {
	out := make([]int64, len(c.names))
	for i := range c.names {
		out[i] = -1
		lc := c.lines(i, loc.Path)
		for l := loc.StartLine; l <= loc.EndLine; l++ {
			out[i] = max(out[i], lc.At(l))
		}
		if out[i] < 0 && lc == nil && c.idx[i].Counted(loc.Path) {
			out[i] = 0 // the file was counted and no block of it ran
		}
	}
	return out
}

// line returns line l's count in the default scenario, -1 when it is not
// counted or sc is nil.
func (sc *sourceCov) line(l int) int64 {
	if sc == nil {
		return -1
	}
	return sc.lines.At(l)
}

// size is the bytes codeTable adds for sc.
func (sc *sourceCov) size() int {
	if sc == nil {
		return 0
	}
	n := len(` data-cov=""`) + len(sc.runs)
	for _, c := range sc.lines {
		if c > 0 {
			n += len(` data-n=`) + len(strconv.FormatInt(c, 10))
		}
	}
	return n
}

// covHead returns the source header's part of file f's coverage: the
// scenario choice when sc marks lines; when none of f ran though a
// scenario counted it, the scenarios that did (the recording lists such
// a file without its blocks, so no line can be marked); else nil.
func (b *builder) covHead(f string, sc *sourceCov) *covHeadView {
	c := b.coverage()
	switch {
	case sc != nil:
		return &covHeadView{Scenarios: c.names}
	case c == nil || b.set != nil:
		return nil
	}
	var in []string
	for i, name := range c.names {
		if c.idx[i].Counted(f) {
			in = append(in, name)
		}
	}
	if len(in) == 0 {
		return nil
	}
	return &covHeadView{NoneRan: strings.Join(in, ", ")}
}
