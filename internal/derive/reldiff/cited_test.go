package reldiff

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/walkthrough"
)

func side(sym, path string, from, to int) Side {
	return Side{Symbol: sym, Decl: fact.Location{Path: path, StartLine: from, EndLine: to}}
}

// TestNumberedPattern: the badged changes, sorted by key; a change's
// pattern is its reference after the symbol, the reference whole when
// it names neither side's symbol.
func TestNumberedPattern(t *testing.T) {
	changes := map[string]RefChange{
		"b.F":          {Ref: "b.F", Status: Changed, To: side("b.F", "b.go", 1, 9)},
		"a.G /return/": {Ref: "a.G /return/", Status: PatternLost, From: side("a.G", "a.go", 3, 4)},
		"a.H":          {Ref: "a.H", Status: Unchanged},
		"c.Old | c.N":  {Ref: "c.Old | c.N", Status: Renamed, From: side("c.Old", "c.go", 5, 6), To: side("c.N", "c.go", 7, 8)},
	}
	got := Numbered(changes, func(st Status) bool { return st != Unchanged })
	if want := []string{"a.G /return/", "b.F", "c.Old | c.N"}; !slices.Equal(got, want) {
		t.Errorf("numbered %q, want %q", got, want)
	}
	for k, want := range map[string]string{"a.G /return/": "/return/", "b.F": "", "c.Old | c.N": "| c.N"} {
		if p := changes[k].Pattern(); p != want {
			t.Errorf("pattern of %q: %q, want %q", k, p, want)
		}
	}
	if p := (RefChange{Ref: ".Short", To: side("x.T.Short", "x.go", 1, 2)}).Pattern(); p != ".Short" {
		t.Errorf("pattern of a short form: %q, want it whole", p)
	}
	if at := changes["c.Old | c.N"].To.At(); at != "c.go:7-8" {
		t.Errorf("At %q", at)
	}
}

// TestOnce: a diff the same as a lower number's is written "=N", by
// number, not by string order (10 after 2).
func TestOnce(t *testing.T) {
	got := Once(map[string]string{"10": "x", "2": "x", "3": "y", "1": "z"})
	want := map[string]string{"1": "z", "2": "x", "3": "y", "10": "=2"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func cites(refs ...string) walkthrough.Step {
	var s walkthrough.Step
	for _, r := range refs {
		s.Refs = append(s.Refs, walkthrough.Ref{Ref: fact.Ref{Alternates: []string{r}}})
	}
	return s
}

// TestGroups: each change under the first step citing it, in the first
// language that cites it; the steps in the first language's order, then
// a translation's own, then the changes no step cites; a diff shown
// above is not shown again.
func TestGroups(t *testing.T) {
	changes := map[string]RefChange{
		"a": {Diff: "d1"}, "b": {Diff: "d1"}, "c": {}, "d": {Diff: "d2"}, "e": {Diff: "d2"}, "f": {Diff: "d1"},
	}
	keys := []string{"a", "b", "c", "d", "e", "f"}
	numbered := func(k string) bool { _, ok := changes[k]; return ok }
	step := func(id string, refs ...string) walkthrough.Step {
		s := cites(refs...)
		s.ID = id
		return s
	}
	en := StepCites([]*walkthrough.Doc{
		{ID: "w", Steps: []walkthrough.Step{step("one", "x", "b", "b"), step("two", "c", "a", "b"), step("three", "y")}},
	}, numbered)
	if want := (Cites{Steps: []string{"w#one", "w#two"}, Of: map[string][]string{"b": {"w#one", "w#two"}, "c": {"w#two"}, "a": {"w#two"}}}); !cmp.Equal(want, en) {
		t.Errorf("cites %+v, want %+v", en, want)
	}
	// The translation cites d in a step of its own, and b first in two.
	ko := StepCites([]*walkthrough.Doc{
		{ID: "w", Steps: []walkthrough.Step{step("two", "b"), step("ko", "d", "e")}},
	}, numbered)
	var got []string
	for _, g := range Groups(changes, keys, []Cites{en, ko}) {
		s := g.Step + ":"
		for _, e := range g.Entries {
			s += " " + e.Key
			if e.SameAs != "" {
				s += "=" + e.SameAs
			}
		}
		got = append(got, s)
	}
	want := []string{"w#one: b", "w#two: a=b c", "w#ko: d e=d", ": f=b"}
	if !slices.Equal(got, want) {
		t.Errorf("groups %q, want %q", got, want)
	}
}
