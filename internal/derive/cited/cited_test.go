package cited

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/walkthrough"
)

func sym(name, kind string, decl, body fact.Location) fact.Symbol {
	return fact.Symbol{Name: name, Kind: kind, Decl: decl, Body: body}
}

func loc(from, to int) fact.Location {
	return fact.Location{Path: "pkg/x/x.go", StartLine: from, EndLine: to}
}

func ref(s fact.Symbol) walkthrough.Ref {
	return walkthrough.Ref{Ref: fact.Ref{Alternates: []string{s.Name}}, Resolved: fact.Resolved{Symbol: s}}
}

func excerpt(s fact.Symbol) walkthrough.Segment {
	return walkthrough.Segment{Excerpt: &walkthrough.Excerpt{Ref: ref(s)}}
}

var (
	sync   = sym("x.C.sync", "method", loc(10, 30), loc(11, 30))
	helper = sym("x.helper", "func", loc(40, 50), loc(41, 50))
	typ    = sym("x.C", "type", loc(5, 8), fact.Location{})
	noBody = sym("x.linked", "func", loc(60, 60), fact.Location{})
	// step cites helper, sync (also its excerpt), the type, helper again,
	// and a function without a body.
	step = walkthrough.Step{
		ID:       "s",
		Segments: []walkthrough.Segment{{Markdown: &walkthrough.Markdown{}}, excerpt(sync)},
		Refs:     []walkthrough.Ref{ref(helper), ref(sync), ref(typ), ref(helper), ref(noBody)},
	}
)

func names(refs []fact.Ref) []string {
	var out []string
	for _, r := range refs {
		out = append(out, r.String())
	}
	return out
}

// TestRefs: a step's references are its text's then its excerpts';
// those of its text are the ones no excerpt shows, once each.
func TestRefs(t *testing.T) {
	if got, want := names(Refs(step)), []string{"x.helper", "x.C.sync", "x.C", "x.helper", "x.linked", "x.C.sync"}; !slices.Equal(got, want) {
		t.Errorf("Refs %q, want %q", got, want)
	}
	var text []string
	for _, r := range Text(step) {
		text = append(text, r.Ref.String())
	}
	if want := []string{"x.helper", "x.C", "x.linked"}; !slices.Equal(text, want) {
		t.Errorf("Text %q, want %q", text, want)
	}
	d := &walkthrough.Doc{Intro: []walkthrough.Segment{excerpt(typ)}, Steps: []walkthrough.Step{{Refs: []walkthrough.Ref{ref(noBody)}}, step}}
	if got := names(Doc(d)); len(got) != 8 || got[0] != "x.C" || got[1] != "x.linked" {
		t.Errorf("Doc %q, want the intro's excerpt, then each step's", got)
	}
}

// TestFuncs: the functions and methods with a body, once each, a step's
// excerpts before its text, across the steps given.
func TestFuncs(t *testing.T) {
	other := walkthrough.Step{Refs: []walkthrough.Ref{ref(sync), ref(sym("x.later", "func", loc(70, 80), loc(71, 80)))}}
	var got []string
	for _, s := range Funcs(step, other) {
		got = append(got, s.Name)
	}
	if want := []string{"x.C.sync", "x.helper", "x.later"}; !slices.Equal(got, want) {
		t.Errorf("Funcs %q, want %q", got, want)
	}
}

// TestCounted: marked lines, else matched lines, else a function's entry
// line, else the declaration.
func TestCounted(t *testing.T) {
	line := func(l int) fact.Location { return loc(l, l) }
	matched := fact.Resolved{Symbol: sync, Matched: []int{20, 22}}
	for _, c := range []struct {
		name  string
		r     fact.Resolved
		marks []int
		want  []fact.Location
	}{
		{"marks", matched, []int{12}, []fact.Location{line(12)}},
		{"matched", matched, nil, []fact.Location{line(20), line(22)}},
		{"entry", fact.Resolved{Symbol: sync}, nil, []fact.Location{line(11)}},
		{"declaration", fact.Resolved{Symbol: typ}, nil, []fact.Location{loc(5, 8)}},
	} {
		if diff := cmp.Diff(c.want, Counted(c.r, c.marks)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", c.name, diff)
		}
	}
}
