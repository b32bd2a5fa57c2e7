package coverage

import (
	"cmp"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/record"
)

// Filter picks the phases and programs whose counts are summed; empty
// fields pick all.
type Filter struct {
	// Phase is a phase's name ("apply/replicaset") or a step's
	// ("apply": every phase of that step).
	Phase string
	// Program is a program's name ("kube-controller-manager").
	Program string
}

func (f Filter) phase(name string) bool {
	return f.Phase == "" || name == f.Phase || strings.HasPrefix(name, f.Phase+"/")
}

func (f Filter) program(name string) bool { return f.Program == "" || name == f.Program }

// Index is the coverage of one recording, ready for look-ups. It is safe
// for concurrent use: the site renders pages in parallel over one Index.
type Index struct {
	// Scenario and Tag are the recording's.
	Scenario, Tag string
	cov           *record.Coverage
	files         map[string]int
	first         []int
	// blocks are each file's decoded blocks, filled as files are asked
	// for, under mu; hits are the Hits decoded.
	mu     sync.Mutex
	blocks map[int][]record.Block
	hits   []hits
}

type hits struct {
	phase, program string
	blocks         []int
	counts         []int64
}

// New indexes rec's coverage; nil when it has none.
func New(rec *record.Recording) *Index {
	if rec == nil || rec.Coverage == nil {
		return nil
	}
	x := &Index{Scenario: rec.Scenario, Tag: rec.Tag, cov: rec.Coverage, files: map[string]int{}, blocks: map[int][]record.Block{}}
	for i, f := range rec.Coverage.Files {
		x.files[f.Path] = i
	}
	x.first, _ = rec.Coverage.BlockIndex()
	for _, h := range rec.Coverage.Hits {
		b, c := h.Decode()
		x.hits = append(x.hits, hits{h.Phase, h.Program, b, c})
	}
	return x
}

// fileBlocks returns the decoded blocks of file fi.
func (x *Index) fileBlocks(fi int) []record.Block {
	x.mu.Lock()
	defer x.mu.Unlock()
	bs, ok := x.blocks[fi]
	if !ok {
		bs = x.cov.Files[fi].Decode()
		x.blocks[fi] = bs
	}
	return bs
}

// Phases returns the names of the recording's phases in order.
func (x *Index) Phases() []string {
	var out []string
	for _, p := range x.cov.Phases {
		out = append(out, p.Name)
	}
	return out
}

// Counted reports whether path is a file the recording counted.
func (x *Index) Counted(path string) bool {
	_, ok := x.files[path]
	return ok
}

// Hit is how many times a block, function or line ran in one phase of
// one program.
type Hit struct {
	Phase   string `json:"phase"`
	Program string `json:"program"`
	Count   int64  `json:"count"`
}

// blockHits returns the hits of block b (an index in the recording's
// numbering) in the phases and programs f picks, in the recording's order.
func (x *Index) blockHits(b int, f Filter) []Hit {
	var out []Hit
	for _, h := range x.hits {
		if !f.phase(h.phase) || !f.program(h.program) {
			continue
		}
		if i, ok := slices.BinarySearch(h.blocks, b); ok {
			out = append(out, Hit{Phase: h.phase, Program: h.program, Count: h.counts[i]})
		}
	}
	return out
}

// entryBlock returns the index of the first block inside body, or -1 when
// its file lists no block there.
func (x *Index) entryBlock(body fact.Location) int {
	fi, ok := x.files[body.Path]
	if !ok {
		return -1
	}
	bs := x.fileBlocks(fi)
	i := sort.Search(len(bs), func(i int) bool { return bs[i].StartLine >= body.StartLine })
	if i < len(bs) && bs[i].StartLine <= body.EndLine {
		return x.first[fi] + i
	}
	return -1
}

// Line is one line of a counted file that holds statements.
type Line struct {
	Line int `json:"line"`
	// Count is the largest count of the blocks covering the line, summed
	// over the phases and programs asked for; 0: it did not run.
	Count int64 `json:"count"`
}

// Lines returns the lines of path that hold statements, with their
// counts, in line order, and whether the file was counted at all. A
// counted file with no lines is one of which nothing ran.
func (x *Index) Lines(path string, f Filter) ([]Line, bool) {
	fi, ok := x.files[path]
	if !ok {
		return nil, false
	}
	counts := map[int]int64{}
	for i, b := range x.fileBlocks(fi) {
		var sum int64
		for _, h := range x.blockHits(x.first[fi]+i, f) {
			sum += h.Count
		}
		for l := b.StartLine; l <= b.EndLine; l++ {
			counts[l] = max(counts[l], sum)
		}
	}
	lines := make([]Line, 0, len(counts))
	for l, c := range counts {
		lines = append(lines, Line{Line: l, Count: c})
	}
	slices.SortFunc(lines, func(a, b Line) int { return cmp.Compare(a.Line, b.Line) })
	return lines, true
}

// Function is a function or method of the symbol index and what ran of
// it in the recordings.
type Function struct {
	// Symbol is go doc style, as fact.Symbol.Name.
	Symbol string `json:"symbol"`
	// Path, Start and End are its declaration's.
	Path  string `json:"path"`
	Start int    `json:"start"`
	End   int    `json:"end"`
	// Counted lists the scenarios whose recording counted its file.
	Counted []string `json:"counted"`
	// Runs are the hits of its entry block, per scenario (in the order
	// of the indexes given), phase and program; empty when it did not
	// run in any.
	Runs []Run `json:"runs"`
}

// Run is a Hit in a scenario.
type Run struct {
	Scenario string `json:"scenario"`
	Hit
}

// Total is how many times the function was entered, over all Runs.
func (fn Function) Total() int64 {
	var n int64
	for _, r := range fn.Runs {
		n += r.Count
	}
	return n
}

// Functions returns the functions and methods among symbols whose file
// one of the recordings counted, in symbol order, each with its runs in
// the phases and programs f picks. Nil indexes (recordings without
// coverage) are skipped.
func Functions(symbols []fact.Symbol, idx []*Index, f Filter) []Function {
	var out []Function
	for _, s := range symbols {
		if (s.Kind != "func" && s.Kind != "method") || s.Body.IsZero() {
			continue
		}
		fn := Function{Symbol: s.Name, Path: s.Decl.Path, Start: s.Decl.StartLine, End: s.Decl.EndLine, Counted: []string{}, Runs: []Run{}}
		for _, x := range idx {
			if x == nil || !x.Counted(s.Body.Path) {
				continue
			}
			fn.Counted = append(fn.Counted, x.Scenario)
			b := x.entryBlock(s.Body)
			if b < 0 {
				continue
			}
			for _, h := range x.blockHits(b, f) {
				fn.Runs = append(fn.Runs, Run{Scenario: x.Scenario, Hit: h})
			}
		}
		if len(fn.Counted) > 0 {
			out = append(out, fn)
		}
	}
	slices.SortStableFunc(out, func(a, b Function) int { return cmp.Compare(a.Symbol, b.Symbol) })
	return out
}
