package reldiff

import (
	"os"
	"path/filepath"
	"sort"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/walkthrough"
)

// Analysis is what a comparison needs of an analysed release: its facts,
// its resolver and where its tree is. *analyzer.Result implements it; the
// package asks for no more, so the site, which shows what reldiff finds,
// does not depend on the loader through it.
type Analysis interface {
	// Resolve resolves a reference's names (see analyzer.Result.Resolve).
	Resolve(ref fact.Ref) (fact.Resolved, error)
	Facts() *fact.Facts
	// Dir is the tree's directory, read when Release.Read is nil.
	Dir() string
}

// Release is one side of a comparison.
type Release struct {
	// Tag labels the release in the report and in diff headers; "" means
	// Result.Facts().Tag.
	Tag string
	// Result is the analysed release.
	Result Analysis
	// Read returns the bytes of a file of the release's tree, by the
	// repo-relative, slash-separated path of fact.Location. nil reads
	// from Result.Dir(). The site passes its own reader when it already
	// holds the files.
	Read func(path string) ([]byte, error)
}

func (r Release) tag() string {
	if r.Tag != "" {
		return r.Tag
	}
	return r.Result.Facts().Tag
}

func (r Release) read(path string) ([]byte, error) {
	if r.Read != nil {
		return r.Read(path)
	}
	return os.ReadFile(filepath.Join(r.Result.Dir(), filepath.FromSlash(path)))
}

// Report is the comparison of two releases. Its JSON form is `kubewalk
// diff -o json`; every slice is sorted, so two runs print the same bytes.
type Report struct {
	// From and To are the releases' tags (and commits, when known).
	From ReleaseInfo `json:"from"`
	To   ReleaseInfo `json:"to"`
	// Summary counts Refs by status and Facts by kind and change.
	Summary Summary `json:"summary"`
	// Refs has one entry per reference use, unchanged ones included, sorted
	// by File, Line, Col.
	Refs []RefChange `json:"refs"`
	// Facts lists the handler registrations, events and writes added or
	// removed, sorted by Kind, Change, Key.
	Facts []FactChange `json:"facts"`
}

// ReleaseInfo identifies a release in a report.
type ReleaseInfo struct {
	Tag    string `json:"tag"`
	Commit string `json:"commit,omitempty"`
}

// Summary holds the report's counts.
type Summary struct {
	// Refs counts reference uses by status; every Status is present, zero
	// or not, so the JSON always has the same keys (encoding/json sorts
	// map keys).
	Refs map[Status]int `json:"refs"`
	// Facts counts fact changes: "handlers", "events", "writes", each with
	// "added" and "removed".
	Facts map[string]map[Change]int `json:"facts"`
}

// Compare compares every reference use at a and at b, and the facts of a
// and b. refs are typically walkthrough.Refs over each walkthrough set,
// with File already prefixed so that it names the Markdown file for the
// reader (the command line writes "walkthroughs/scheduler.md" for the
// built-in set). A reference written several times is resolved once.
func Compare(a, b Release, refs []walkthrough.RefUse) Report {
	rep := Report{
		From: ReleaseInfo{Tag: a.tag(), Commit: a.Result.Facts().Commit},
		To:   ReleaseInfo{Tag: b.tag(), Commit: b.Result.Facts().Commit},
		Refs: []RefChange{},
	}
	c := newComparer(a, b)
	for _, u := range refs {
		rc := c.compare(u.Ref)
		rc.File, rc.Line, rc.Col, rc.Text = u.File, u.Line, u.Col, u.Text
		rep.Refs = append(rep.Refs, rc)
	}
	sort.SliceStable(rep.Refs, func(i, j int) bool {
		x, y := rep.Refs[i], rep.Refs[j]
		if x.File != y.File {
			return x.File < y.File
		}
		if x.Line != y.Line {
			return x.Line < y.Line
		}
		return x.Col < y.Col
	})
	rep.Facts = CompareFacts(a.Result.Facts(), b.Result.Facts())
	rep.Summary = summarize(rep.Refs, rep.Facts)
	return rep
}

func summarize(refs []RefChange, facts []FactChange) Summary {
	s := Summary{Refs: map[Status]int{}, Facts: map[string]map[Change]int{}}
	for _, st := range Statuses {
		s.Refs[st] = 0
	}
	for _, k := range []FactKind{KindHandler, KindEvent, KindWrite} {
		s.Facts[k.plural()] = map[Change]int{Added: 0, Removed: 0}
	}
	for _, r := range refs {
		s.Refs[r.Status]++
	}
	for _, f := range facts {
		s.Facts[f.Kind.plural()][f.Change]++
	}
	return s
}

// Changed reports whether the report has anything a maintainer should look
// at: a reference that is not unchanged or merely moved, or a fact change.
func (r Report) Changed() bool {
	for _, rc := range r.Refs {
		if rc.Status != Unchanged && rc.Status != Moved {
			return true
		}
	}
	return len(r.Facts) > 0
}
