package gates

import (
	"slices"
	"testing"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/walkthrough"
)

const file = "pkg/kubelet/kubelet.go"

// facts: gate A guards lines 10-20 when on and 30-32 when off; gate B
// guards 15-16 when on, and lines of another file; gate C guards
// nothing. The table lists B before A.
var facts = &fact.Facts{
	Gates: []fact.Gate{{Name: "B", Stage: "beta"}, {Name: "A", Stage: "alpha"}, {Name: "C"}},
	GateChecks: []fact.GateCheck{
		{Gate: "A", Guarded: fact.Location{Path: file, StartLine: 10, EndLine: 20}, WhenEnabled: true},
		{Gate: "A", Guarded: fact.Location{Path: file, StartLine: 30, EndLine: 32}},
		{Gate: "B", Guarded: fact.Location{Path: file, StartLine: 15, EndLine: 16}, WhenEnabled: true},
		{Gate: "B", Guarded: fact.Location{Path: "pkg/other.go", StartLine: 1, EndLine: 100}, WhenEnabled: true},
	},
}

func names(gs []Guard) []string {
	var out []string
	for _, g := range gs {
		n := g.Gate.Name
		if g.Off {
			n += "/off"
		}
		out = append(out, n)
	}
	return out
}

// TestGuarding: a gate guards the spans its guarded lines overlap, once
// per side, in the gate table's order, on before off.
func TestGuarding(t *testing.T) {
	for _, c := range []struct {
		name  string
		spans []Span
		want  []string
	}{
		{"edge", []Span{{20, 25}}, []string{"A"}},
		{"both gates", []Span{{1, 15}}, []string{"B", "A"}},
		{"both sides", []Span{{16, 16}, {32, 40}}, []string{"B", "A", "A/off"}},
		{"between", []Span{{21, 29}}, nil},
	} {
		if got := names(Guarding(facts, file, c.spans)); !slices.Equal(got, c.want) {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
	if got := Guarding(facts, "pkg/none.go", []Span{{1, 100}}); got != nil {
		t.Errorf("a file no gate guards: %q", names(got))
	}
}

func ref(name string, decl fact.Location, matched ...int) walkthrough.Ref {
	return walkthrough.Ref{
		Ref:      fact.Ref{Alternates: []string{name}},
		Resolved: fact.Resolved{Symbol: fact.Symbol{Name: name, Decl: decl}, Matched: matched},
	}
}

// TestExcerptAndStep: an excerpt's marked lines, else all it shows; a
// step's other references' matched lines, else their declarations, not
// the ones an excerpt shows, each gate once.
func TestExcerptAndStep(t *testing.T) {
	decl := fact.Location{Path: file, StartLine: 1, EndLine: 40}
	ex := &walkthrough.Excerpt{Ref: ref("k.shown", decl), From: 25, To: 35}
	if got := names(Excerpt(facts, ex)); !slices.Equal(got, []string{"A/off"}) {
		t.Errorf("excerpt of 25-35: %q", got)
	}
	ex.Highlight = []int{12}
	if got := names(Excerpt(facts, ex)); !slices.Equal(got, []string{"A"}) {
		t.Errorf("excerpt marking 12: %q", got)
	}
	s := walkthrough.Step{
		Segments: []walkthrough.Segment{{Excerpt: ex}},
		Refs: []walkthrough.Ref{
			ref("k.shown", decl), // by the excerpt: its own badges
			ref("k.matched", decl, 31),
			ref("k.whole", fact.Location{Path: file, StartLine: 14, EndLine: 18}),
			ref("k.again", decl, 11),
		},
	}
	if got, want := names(Step(facts, s)), []string{"A/off", "B", "A"}; !slices.Equal(got, want) {
		t.Errorf("step: %q, want %q", got, want)
	}
	if got := Step(&fact.Facts{Gates: facts.Gates}, s); got != nil {
		t.Errorf("step without gate checks: %q", names(got))
	}
}

// TestSteps: each gate's steps, by the step's references or excerpts, in
// walkthrough and step order, each step once per gate.
func TestSteps(t *testing.T) {
	whole := fact.Location{Path: file, StartLine: 1, EndLine: 40}
	d1 := &walkthrough.Doc{ID: "kubelet", Steps: []walkthrough.Step{
		{ID: "sync", Refs: []walkthrough.Ref{ref("k.whole", whole)}},
		{ID: "none", Refs: []walkthrough.Ref{ref("k.top", fact.Location{Path: file, StartLine: 1, EndLine: 5})}},
	}}
	d2 := &walkthrough.Doc{ID: "pods", Steps: []walkthrough.Step{
		{ID: "ex", Segments: []walkthrough.Segment{{Excerpt: &walkthrough.Excerpt{Ref: ref("k.x", whole), From: 15, To: 15}}}},
	}}
	got := map[string][]string{}
	for g, cs := range Steps(facts, []*walkthrough.Doc{d1, d2}) {
		for _, c := range cs {
			got[g] = append(got[g], c.Doc.ID+"#"+c.Step.ID)
		}
	}
	if len(got) != 2 || !slices.Equal(got["A"], []string{"kubelet#sync", "pods#ex"}) || !slices.Equal(got["B"], []string{"kubelet#sync", "pods#ex"}) {
		t.Errorf("steps %q, want A and B on kubelet#sync and pods#ex", got)
	}
}
