package site

import (
	"slices"
	"strconv"
	"strings"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/record"
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
// scenarios that have it, the deployment scenario first, and per
// scenario each counted file's line counts.
type covScenarios struct {
	names []string
	// lines[i][path] are scenario i's line counts of path (lineCounts).
	lines []map[string]lineCounts
	// recs[i] is scenario i's recording.
	recs []*record.Recording
}

// lineCounts holds a file's lines from line 1: -1 for a line no block
// covers, else how often it ran (0: counted, did not run). It ends at
// the last counted line.
type lineCounts []int64

// at returns line l's count, -1 past the end.
func (lc lineCounts) at(l int) int64 {
	if l < 1 || l > len(lc) {
		return -1
	}
	return lc[l-1]
}

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
			c.recs = append(c.recs, r)
			c.lines = append(c.lines, linesRan(r.Coverage, nil))
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

// linesRan returns the line counts of every file of cov whose blocks it
// lists, counting the hits of the phases keep accepts (nil: all). A file
// listed without blocks (none ran) has no entry.
func linesRan(cov *record.Coverage, keep func(phase string) bool) map[string]lineCounts {
	first, total := cov.BlockIndex()
	hits := make([]int64, total)
	for _, h := range cov.Hits {
		if keep != nil && !keep(h.Phase) {
			continue
		}
		for i := 0; i+1 < len(h.Counts); i += 2 {
			if k := h.Counts[i]; k >= 0 && k < int64(total) {
				hits[k] += h.Counts[i+1]
			}
		}
	}
	out := map[string]lineCounts{}
	for fi, f := range cov.Files {
		n := f.NumBlocks()
		if n == 0 {
			continue
		}
		last := 0
		for i := range n {
			last = max(last, f.Block(i).EndLine)
		}
		lc := make(lineCounts, last)
		for i := range lc {
			lc[i] = -1
		}
		for i := range n {
			bl := f.Block(i)
			h := hits[first[fi]+i]
			for l := max(bl.StartLine, 1); l <= bl.EndLine; l++ {
				lc[l-1] = max(lc[l-1], h)
			}
		}
		out[f.Path] = lc
	}
	return out
}

// sourceCov is what a source page shows of the coverage: the default
// scenario's line counts, in the markup, and the other scenarios' as
// run-length data for site.js.
type sourceCov struct {
	lines lineCounts
	// other is the <pre>'s data-cov: "scale=RUNS|rollout=RUNS" (covRuns).
	other string
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
	var other []string
	any := false
	for i, name := range c.names {
		lc := c.lines[i][f]
		any = any || lc != nil
		if i == 0 {
			sc.lines = lc
			continue
		}
		other = append(other, name+"="+covRuns(lc))
	}
	if !any {
		return nil
	}
	sc.other = strings.Join(other, "|")
	return &sc
}

// covRuns encodes line counts as runs from line 1, space-separated: "N"
// is N lines not counted, "N.C" N counted lines that each ran C times
// (C 0: did not run). Trailing uncounted lines are left out.
func covRuns(lc lineCounts) string {
	var sb strings.Builder
	for i := 0; i < len(lc); {
		j := i
		for j < len(lc) && lc[j] == lc[i] {
			j++
		}
		if sb.Len() > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(strconv.Itoa(j - i))
		if lc[i] >= 0 {
			sb.WriteByte('.')
			sb.WriteString(strconv.FormatInt(lc[i], 10))
		}
		i = j
	}
	return sb.String()
}

// covHeadView is the source header's scenario choice: the scenarios
// with coverage, the first shown by the markup.
type covHeadView struct {
	Scenarios []string
}

// funcRan is how often the code at loc ran in each scenario with
// coverage: the count of its busiest counted line in from..to, -1 where
// no line of it is counted.
func (c *covScenarios) ran(loc fact.Location) []int64 {
	out := make([]int64, len(c.names))
	for i := range c.names {
		out[i] = -1
		lc := c.lines[i][loc.Path]
		for l := loc.StartLine; l <= loc.EndLine; l++ {
			out[i] = max(out[i], lc.at(l))
		}
		if out[i] < 0 && lc == nil && c.counted(i, loc.Path) {
			out[i] = 0 // the file was counted and no block of it ran
		}
	}
	return out
}

// counted reports whether scenario i's programs counted file path.
func (c *covScenarios) counted(i int, path string) bool {
	cov := c.recs[i].Coverage
	k, ok := slices.BinarySearchFunc(cov.Files, path, func(f record.CoverFile, p string) int { return strings.Compare(f.Path, p) })
	return ok && k >= 0
}

// line returns line l's count in the default scenario, -1 when it is not
// counted or sc is nil.
func (sc *sourceCov) line(l int) int64 {
	if sc == nil {
		return -1
	}
	return sc.lines.at(l)
}

// size is the bytes codeTable adds for sc.
func (sc *sourceCov) size() int {
	if sc == nil {
		return 0
	}
	n := len(` data-cov=""`) + len(sc.other)
	for _, c := range sc.lines {
		if c >= 0 {
			n += len(` data-n=`) + len(strconv.FormatInt(c, 10))
		}
	}
	return n
}

// head returns the source header's scenario choice for sc, nil for none.
func (sc *sourceCov) head(b *builder) *covHeadView {
	if sc == nil {
		return nil
	}
	return &covHeadView{Scenarios: b.coverage().names}
}
