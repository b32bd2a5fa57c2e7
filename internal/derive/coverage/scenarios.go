package coverage

import (
	"cmp"
	"slices"
	"sync"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/record"
)

// Scenarios is the coverage of several recorded runs, one per scenario,
// as a site shows it: a source page's counts per line in each scenario,
// a walkthrough's badges (how often the code a step cites ran in the
// scenario the walkthroughs follow, or in which others it did), a step's
// Observed panel (the cited functions that ran in its phases, per
// program) and a controller page's table (its functions that ran, per
// scenario). What is said here in numbers and names the site puts in
// words and links.
type Scenarios struct {
	// Names are the scenarios, the one the walkthroughs follow first
	// (NewScenarios); Index and Recs are each one's index and recording,
	// in the same order.
	Names []string
	Index []*Index
	Recs  []*record.Recording

	// lines keeps Lines' answers: a site asks for the same file's
	// counts for its source page and for every badge and step that cites
	// it, from several pages at once.
	linesMu sync.Mutex
	lines   map[scenarioFile][]int64
}

// scenarioFile names a file of one scenario (Scenarios.Lines).
type scenarioFile struct {
	i    int
	path string
}

// NewScenarios returns the coverage of the recordings that have any,
// first's scenario first (the one the walkthroughs follow), the others
// in the order given; nil when none has.
func NewScenarios(recs []*record.Recording, first string) *Scenarios {
	var with []*record.Recording
	for _, r := range recs {
		if r.Coverage != nil && len(r.Coverage.Files) > 0 {
			with = append(with, r)
		}
	}
	if len(with) == 0 {
		return nil
	}
	rank := func(r *record.Recording) int {
		if r.Scenario == first {
			return 0
		}
		return 1
	}
	slices.SortStableFunc(with, func(x, y *record.Recording) int { return cmp.Compare(rank(x), rank(y)) })
	s := &Scenarios{}
	for _, r := range with {
		s.Names = append(s.Names, r.Scenario)
		s.Index = append(s.Index, New(r))
		s.Recs = append(s.Recs, r)
	}
	return s
}

// Lines returns scenario i's count of each line of path, line 1 first,
// up to its last counted line: -1 for a line no block covers (a comment,
// a declaration). nil when the scenario lists no block of the file. The
// slice is shared by every caller: it is not to be changed.
func (s *Scenarios) Lines(i int, path string) []int64 {
	k := scenarioFile{i, path}
	s.linesMu.Lock()
	defer s.linesMu.Unlock()
	if lc, ok := s.lines[k]; ok {
		return lc
	}
	lc := s.countLines(i, path)
	if s.lines == nil {
		s.lines = map[scenarioFile][]int64{}
	}
	s.lines[k] = lc
	return lc
}

// countLines is Lines, counted.
func (s *Scenarios) countLines(i int, path string) []int64 {
	ls, _ := s.Index[i].Lines(path, Filter{})
	if len(ls) == 0 {
		return nil
	}
	lc := make([]int64, ls[len(ls)-1].Line)
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

// Counting names the scenarios whose recording counted the file at
// path, whether or not anything of it ran.
func (s *Scenarios) Counting(path string) []string {
	var in []string
	for i, name := range s.Names {
		if s.Index[i].Counted(path) {
			in = append(in, name)
		}
	}
	return in
}

// Ran is how often the code at locs ran in each scenario: the count of
// its busiest counted line, 0 where its file was counted and nothing of
// it ran, -1 where no line of it is counted.
func (s *Scenarios) Ran(locs ...fact.Location) []int64 {
	out := make([]int64, len(s.Names))
	for i := range s.Names {
		out[i] = -1
		for _, loc := range locs {
			lc := s.Lines(i, loc.Path)
			for l := loc.StartLine; l <= loc.EndLine; l++ {
				if l >= 1 && l <= len(lc) {
					out[i] = max(out[i], lc[l-1])
				}
			}
			if out[i] < 0 && lc == nil && s.Index[i].Counted(loc.Path) {
				out[i] = 0 // the file was counted and no block of it ran
			}
		}
	}
	return out
}

// Badge is what a walkthrough's badge says of the code at some
// locations: how often it ran in the first scenario, or, when it did
// not, the other scenarios in which it did.
type Badge struct {
	// Count is how often it ran in the first scenario, 0 for not.
	Count int64
	// RunsIn names the other scenarios in which it ran, when Count is 0.
	RunsIn []string
}

// Badge returns the badge of the code at locs, false when the first
// scenario did not count it (nothing to say).
func (s *Scenarios) Badge(locs []fact.Location) (Badge, bool) {
	ran := s.Ran(locs...)
	if ran[0] < 0 {
		return Badge{}, false
	}
	bd := Badge{Count: ran[0]}
	if bd.Count == 0 {
		for i, n := range ran[1:] {
			if n > 0 {
				bd.RunsIn = append(bd.RunsIn, s.Names[i+1])
			}
		}
	}
	return bd, true
}
