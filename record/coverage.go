package record

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"path"
	"slices"
	"strconv"
	"strings"
)

// Coverage is the code that ran during a recorded run: per phase of the
// scenario and per program, how many times each block of the tree's Go
// files ran. Blocks are Go's coverage blocks (go build -cover): a run of
// statements without a branch, from a start line and column to an end
// line and column.
//
// Blocks are listed once, per file (Files); Hits then name blocks by
// their index in the recording's numbering: file 0's blocks first, in
// their order, then file 1's, and so on (BlockIndex). Blocks keep their
// lines, not their columns: the site marks lines, and a line's count is
// the largest of the blocks on it. A block is
//
//   - ran N×, in a phase and program, when Hits holds [block, N] for them;
//   - did not run there, when its file is in Files and the program counted
//     it (Programs lists the files each program counted) but Hits has no
//     pair for it;
//   - not instrumented, when its file is not in Files at all.
//
// To stay small (kept recordings ship with kubewalk and feed every
// default site; bench/README.md has their sizes): a file
// none of whose blocks ran in any phase or program is listed with its
// path and no blocks (its lines all "did not run", none singled out as a
// statement); numbers are stored as differences from the one before
// (CoverFile.Blocks, Hits.Counts); and generated files (zz_generated.*,
// *.pb.go), which the site shows as declarations only and which hold a
// third of the blocks, are left out: they read as not counted.
type Coverage struct {
	// Mode is the counter mode the programs were built with: "atomic".
	Mode string `json:"mode"`
	// Note says how exact the phase boundaries are.
	Note string `json:"note"`
	// Phases are the scenario's phases in order; each ends where the next
	// begins.
	Phases []Phase `json:"phases"`
	// Programs are the programs that ran, in Programs order, each with the
	// files (indexes into Files) it was built to count.
	Programs []CoverProgram `json:"programs"`
	// Files are the counted files in path order.
	Files []CoverFile `json:"files"`
	// Hits are the blocks that ran, per phase and program, in the order of
	// Phases and then of Programs; a phase in which a program ran nothing
	// counted (kubectl, in most) has no entry.
	Hits []Hits `json:"hits"`
}

// Phase is a stretch of the scenario between two observed moments.
type Phase struct {
	// Name is "startup" (from the first program's start until the
	// control plane is ready), then per step of the scenario
	// "<step>/<boundary>": the step ("apply", "scale-up", "set-image", …)
	// and what ends the phase: "kubectl" (the step's kubectl command
	// returned), "replicaset" (a ReplicaSet of the step's image and size
	// exists), "pods" (exactly that many pods of the image, none being
	// deleted), "bound" (each has a node), "running" (each is Running and
	// has a Started event) — or, for a step that deletes the scenario's
	// objects, "replicasets-gone" and "pods-gone", and for one whose pods
	// cannot be scheduled, "unschedulable" after "pods"; for steps that
	// wait for exits or failed pulls, as record's package doc lists them
	// ("job", "started", "completed", "backoff", "pull-backoff"); last
	// "quiet":
	// until no new event came for a moment, which ends the run.
	Name string `json:"name"`
	// Start and End are milliseconds from the scenario's first write by
	// kubectl, as every time of the Recording.
	Start int64 `json:"start"`
	End   int64 `json:"end"`
}

// CoverProgram is one program and the files it counted.
type CoverProgram struct {
	Name  string `json:"name"`
	Files []int  `json:"files"`
}

// CoverFile is a counted file of the tree and its blocks.
type CoverFile struct {
	// Path is repository-relative, as fact.Location's: staging modules
	// under staging/src/k8s.io/.
	Path string `json:"path"`
	// Blocks holds three numbers per block, in position order: its start
	// line less the previous block's start line (the first block's: its
	// start line), its end line less its start line, and its number of
	// statements. Empty when no block of the file ran. Decode reads it.
	Blocks []int `json:"blocks"`
}

// NumBlocks returns how many blocks f lists.
func (f CoverFile) NumBlocks() int { return len(f.Blocks) / 3 }

// Decode returns f's blocks in order.
func (f CoverFile) Decode() []Block {
	out := make([]Block, 0, f.NumBlocks())
	line := 0
	for i := 0; i+2 < len(f.Blocks); i += 3 {
		line += f.Blocks[i]
		out = append(out, Block{StartLine: line, EndLine: line + f.Blocks[i+1], Stmts: f.Blocks[i+2]})
	}
	return out
}

// Block is a coverage block: statements from StartLine to EndLine.
type Block struct {
	StartLine, EndLine, Stmts int
}

// Hits are the blocks that ran in one phase and program.
type Hits struct {
	Phase   string `json:"phase"`
	Program string `json:"program"`
	// Counts holds pairs: a block index (BlockIndex) less the previous
	// pair's (the first pair's: the index itself), then how many times it
	// ran (≥ 1), in block order. Decode reads it.
	Counts []int64 `json:"counts"`
}

// Decode returns the blocks that ran, by index, and their counts.
func (h Hits) Decode() (blocks []int, counts []int64) {
	b := 0
	for i := 0; i+1 < len(h.Counts); i += 2 {
		b += int(h.Counts[i])
		blocks = append(blocks, b)
		counts = append(counts, h.Counts[i+1])
	}
	return blocks, counts
}

// BlockIndex returns the index of the first block of each file in the
// recording's numbering, and the total number of blocks.
func (c *Coverage) BlockIndex() (first []int, total int) {
	first = make([]int, len(c.Files))
	for i, f := range c.Files {
		first[i] = total
		total += f.NumBlocks()
	}
	return first, total
}

// phaseNote is Coverage.Note: what a reader of the phases should know.
const phaseNote = "A phase ends when kubewalk observed its boundary, polling the API server every 100 ms, and asked each program to write its counters; a program may already have run some of the next phase's code by then, so a phase can hold the start of the next. Code that runs between writing and clearing the counters (microseconds) is not counted."

// coverBlock is a block of one file while counters are gathered.
type coverBlock struct {
	path                                 string
	startLine, startCol, endLine, endCol int
}

// coverCounts gathers counters read from the programs' coverage files
// (or covdata textfmt output of them): which blocks each program
// counted, and how often each ran per phase.
type coverCounts struct {
	stmts map[coverBlock]int
	// files a program counted.
	files map[string]map[string]bool
	// hits per phase and program.
	hits map[[2]string]map[coverBlock]int64
}

func newCoverCounts() *coverCounts {
	return &coverCounts{stmts: map[coverBlock]int{}, files: map[string]map[string]bool{}, hits: map[[2]string]map[coverBlock]int64{}}
}

// repoPath turns a counted file's name (import path and file name, as the
// go command writes it) into the tree's repository path: k8s.io/kubernetes
// at the root, the other k8s.io modules under staging/src. Other files
// are not the tree's.
func repoPath(name string) (string, bool) {
	if p, ok := strings.CutPrefix(name, "k8s.io/kubernetes/"); ok {
		return p, true
	}
	if strings.HasPrefix(name, "k8s.io/") {
		return "staging/src/" + name, true
	}
	return "", false
}

// generated reports whether a file is generated code the recording leaves
// out: conversion, deep-copy and defaulting functions, protobuf code.
func generated(p string) bool {
	base := path.Base(p)
	return strings.HasPrefix(base, "zz_generated") || strings.HasSuffix(base, ".pb.go")
}

// add reads one covdata textfmt output (a "mode:" line, then
// "file:startLine.startCol,endLine.endCol stmts count" lines) as what
// program counted in phase. Run reads the programs' files itself
// (addMeta, addCounters); the text is what go tool covdata shows of them.
func (cc *coverCounts) add(phase, program string, r io.Reader) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for line := 1; sc.Scan(); line++ {
		s := sc.Text()
		if line == 1 && strings.HasPrefix(s, "mode: ") || s == "" {
			continue
		}
		b, stmts, count, err := parseTextfmtLine(s)
		if err != nil {
			return fmt.Errorf("line %d: %w", line, err)
		}
		p, ok := repoPath(b.path)
		if !ok || generated(p) {
			continue
		}
		b.path = p
		cc.counted(program, b, stmts)
		cc.ran(phase, program, b, count)
	}
	return sc.Err()
}

// counted notes that program counts block b of stmts statements.
func (cc *coverCounts) counted(program string, b coverBlock, stmts int) {
	files := cc.files[program]
	if files == nil {
		files = map[string]bool{}
		cc.files[program] = files
	}
	files[b.path] = true
	cc.stmts[b] = stmts
}

// ran adds count runs of block b to program's in phase.
func (cc *coverCounts) ran(phase, program string, b coverBlock, count int64) {
	if count == 0 {
		return
	}
	k := [2]string{phase, program}
	hits := cc.hits[k]
	if hits == nil {
		hits = map[coverBlock]int64{}
		cc.hits[k] = hits
	}
	hits[b] += count
}

// addMeta notes every block program's meta-data lists as counted, run
// or not, as covdata textfmt lists them with a count of 0.
func (cc *coverCounts) addMeta(program string, m *covMeta) {
	for _, funcs := range m.pkgs {
		for _, f := range funcs {
			for i, b := range f.blocks {
				if b.path != "" {
					cc.counted(program, b, f.stmts[i])
				}
			}
		}
	}
}

// addCounters adds one function's counters, as a counter file of
// program's in phase holds them, to its blocks in m.
func (cc *coverCounts) addCounters(phase, program string, m *covMeta, pkg, fun uint32, counters []uint32) error {
	if int(pkg) >= len(m.pkgs) || int(fun) >= len(m.pkgs[pkg]) {
		return fmt.Errorf("counters of function %d of package %d, which the meta-data does not list", fun, pkg)
	}
	f := m.pkgs[pkg][fun]
	if len(counters) > len(f.blocks) {
		return fmt.Errorf("%d counters for function %d of package %d, which has %d blocks", len(counters), fun, pkg, len(f.blocks))
	}
	for i, n := range counters {
		if b := f.blocks[i]; b.path != "" {
			cc.ran(phase, program, b, int64(n))
		}
	}
	return nil
}

// parseTextfmtLine reads "file:12.34,15.2 3 7".
func parseTextfmtLine(s string) (coverBlock, int, int64, error) {
	bad := func() (coverBlock, int, int64, error) {
		return coverBlock{}, 0, 0, fmt.Errorf("not a coverage line: %q", s)
	}
	colon := strings.LastIndexByte(s, ':')
	if colon < 0 {
		return bad()
	}
	f := strings.Fields(s[colon+1:])
	if len(f) != 3 {
		return bad()
	}
	from, to, ok := strings.Cut(f[0], ",")
	if !ok {
		return bad()
	}
	var pos [4]int
	for i, lc := range []string{from, to} {
		l, c, ok := strings.Cut(lc, ".")
		if !ok {
			return bad()
		}
		var err1, err2 error
		pos[2*i], err1 = strconv.Atoi(l)
		pos[2*i+1], err2 = strconv.Atoi(c)
		if err1 != nil || err2 != nil {
			return bad()
		}
	}
	stmts, err1 := strconv.Atoi(f[1])
	count, err2 := strconv.ParseInt(f[2], 10, 64)
	if err1 != nil || err2 != nil {
		return bad()
	}
	return coverBlock{s[:colon], pos[0], pos[1], pos[2], pos[3]}, stmts, count, nil
}

// coverage builds the Coverage of phases (in order) and programs (in
// order) from what was gathered. The file table, the blocks and the hits
// are numbered against each other, so they are built in one function, in
// that order.
func (cc *coverCounts) coverage(phases []Phase, programs []string) *Coverage {
	ran := map[string]bool{}
	for _, hs := range cc.hits {
		for b := range hs {
			ran[b.path] = true
		}
	}
	byFile := map[string][]coverBlock{}
	for b := range cc.stmts {
		byFile[b.path] = append(byFile[b.path], b)
	}
	paths := make([]string, 0, len(byFile))
	for p := range byFile {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	c := &Coverage{Mode: "atomic", Note: phaseNote, Phases: phases}
	fileIdx := map[string]int{}
	index := map[coverBlock]int{}
	n := 0
	for i, p := range paths {
		fileIdx[p] = i
		f := CoverFile{Path: p, Blocks: []int{}}
		if ran[p] {
			bs := byFile[p]
			slices.SortFunc(bs, func(a, b coverBlock) int {
				return cmp.Or(cmp.Compare(a.startLine, b.startLine), cmp.Compare(a.startCol, b.startCol), cmp.Compare(a.endLine, b.endLine), cmp.Compare(a.endCol, b.endCol))
			})
			// Blocks on the same lines (a condition and what follows it
			// on its line) are one: the site marks lines.
			prev := 0
			var last *coverBlock
			for _, b := range bs {
				if last != nil && last.startLine == b.startLine && last.endLine == b.endLine {
					f.Blocks[len(f.Blocks)-1] += cc.stmts[b]
					index[b] = n - 1
					continue
				}
				f.Blocks = append(f.Blocks, b.startLine-prev, b.endLine-b.startLine, cc.stmts[b])
				prev = b.startLine
				index[b] = n
				n++
				last = &b
			}
		}
		c.Files = append(c.Files, f)
	}
	for _, prog := range programs {
		files, ok := cc.files[prog]
		if !ok {
			continue
		}
		cp := CoverProgram{Name: prog, Files: []int{}}
		for p := range files {
			cp.Files = append(cp.Files, fileIdx[p])
		}
		slices.Sort(cp.Files)
		c.Programs = append(c.Programs, cp)
	}
	for _, ph := range phases {
		for _, prog := range programs {
			hs := cc.hits[[2]string{ph.Name, prog}]
			if len(hs) == 0 {
				continue
			}
			h := Hits{Phase: ph.Name, Program: prog}
			counts := map[int]int64{}
			for b, n := range hs {
				// Blocks merged into one keep the largest count.
				counts[index[b]] = max(counts[index[b]], n)
			}
			idx := make([]int, 0, len(counts))
			for i := range counts {
				idx = append(idx, i)
			}
			slices.Sort(idx)
			prev := 0
			for _, i := range idx {
				h.Counts = append(h.Counts, int64(i-prev), counts[i])
				prev = i
			}
			c.Hits = append(c.Hits, h)
		}
	}
	return c
}

// writeJSON writes c as JSON at the given indentation, one line per
// phase, program, file and hits entry: indenting their number lists one
// number a line would make a kept recording several times larger.
func (c *Coverage) writeJSON(b *bytes.Buffer, indent string) error {
	in := indent + "  "
	fmt.Fprintf(b, "{\n%s\"mode\": %s,\n%s\"note\": %s,\n", in, jsonString(c.Mode), in, jsonString(c.Note))
	lists := []struct {
		name string
		n    int
		elem func(int) any
	}{
		{"phases", len(c.Phases), func(i int) any { return c.Phases[i] }},
		{"programs", len(c.Programs), func(i int) any { return c.Programs[i] }},
		{"files", len(c.Files), func(i int) any { return c.Files[i] }},
		{"hits", len(c.Hits), func(i int) any { return c.Hits[i] }},
	}
	for li, l := range lists {
		fmt.Fprintf(b, "%s%q: [", in, l.name)
		for i := range l.n {
			e, err := json.Marshal(l.elem(i))
			if err != nil {
				return err
			}
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(b, "\n%s  %s", in, e)
		}
		if l.n > 0 {
			b.WriteString("\n" + in)
		}
		b.WriteString("]")
		if li < len(lists)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString(indent + "}")
	return nil
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
