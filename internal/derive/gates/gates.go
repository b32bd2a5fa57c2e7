// Package gates says which feature gates guard the code a walkthrough
// shows or cites: from the analyzer's gate checks (fact.GateCheck, the
// lines that run only when a gate is on, or only when it is off), the
// gates of an excerpt's lines, of a step's other references, and the
// steps each gate guards code of. The site badges excerpts and steps
// with them and lists each gate's steps on its feature gates page; the
// badge of an excerpt and the gates page's list of steps must agree, so
// both come from here.
//
// A reference's lines are the ones the walkthrough points at: an
// excerpt's marked lines, else all it shows; a cited symbol's lines its
// regular expression matched, else its whole declaration. A gate guards
// them when its guarded span overlaps one of them.
package gates

import (
	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/walkthrough"
)

// Span is a run of lines of one file, inclusive.
type Span struct{ From, To int }

// Guard is a gate that guards code: the code runs only when the gate is
// on, or, Off, only when it is off.
type Guard struct {
	Gate fact.Gate
	Off  bool
}

type side struct {
	gate string
	off  bool
}

// Guarding returns the gates whose guarded lines of file path overlap
// one of spans, once per gate and side, in the order of f.Gates, on
// before off.
func Guarding(f *fact.Facts, path string, spans []Span) []Guard {
	seen := map[side]bool{}
	for _, c := range f.GateChecks {
		if c.Guarded.Path != path || seen[side{c.Gate, !c.WhenEnabled}] {
			continue
		}
		for _, s := range spans {
			if s.From <= c.Guarded.EndLine && c.Guarded.StartLine <= s.To {
				seen[side{c.Gate, !c.WhenEnabled}] = true
				break
			}
		}
	}
	if len(seen) == 0 {
		return nil
	}
	var out []Guard
	for _, g := range f.Gates {
		for _, off := range []bool{false, true} {
			if seen[side{g.Name, off}] {
				out = append(out, Guard{Gate: g, Off: off})
			}
		}
	}
	return out
}

// Excerpt returns the gates guarding an excerpt's marked lines, or all
// it shows when it marks none.
func Excerpt(f *fact.Facts, e *walkthrough.Excerpt) []Guard {
	return Guarding(f, e.Resolved.Symbol.Decl.Path, lines(e.Highlight, Span{e.From, e.To}))
}

// Step returns the gates guarding a step's references that no excerpt
// of it shows (an excerpt has its own, Excerpt): of the lines each
// reference's regular expression matched, else of its whole
// declaration; once per gate and side, in the order of the references.
func Step(f *fact.Facts, s walkthrough.Step) []Guard {
	if len(f.GateChecks) == 0 {
		return nil
	}
	excerpts := map[string]bool{}
	for _, seg := range s.Segments {
		if seg.Excerpt != nil {
			excerpts[seg.Excerpt.Ref.Ref.String()] = true
		}
	}
	var out []Guard
	have := map[side]bool{}
	for _, r := range s.Refs {
		if excerpts[r.Ref.String()] {
			continue
		}
		d := r.Resolved.Symbol.Decl
		for _, g := range Guarding(f, d.Path, lines(r.Resolved.Matched, Span{d.StartLine, d.EndLine})) {
			if k := (side{g.Gate.Name, g.Off}); !have[k] {
				have[k] = true
				out = append(out, g)
			}
		}
	}
	return out
}

// lines are the spans of the lines ls, one each, or whole when ls is
// empty.
func lines(ls []int, whole Span) []Span {
	if len(ls) == 0 {
		return []Span{whole}
	}
	spans := make([]Span, len(ls))
	for i, l := range ls {
		spans[i] = Span{l, l}
	}
	return spans
}

// Cite is a step of a walkthrough.
type Cite struct {
	Doc  *walkthrough.Doc
	Step *walkthrough.Step
}

// Steps maps each gate's name to the steps of docs with code it guards
// (Step, or one of the step's excerpts), in walkthrough and step order.
func Steps(f *fact.Facts, docs []*walkthrough.Doc) map[string][]Cite {
	out := map[string][]Cite{}
	for _, d := range docs {
		for i := range d.Steps {
			s := &d.Steps[i]
			gs := Step(f, *s)
			for _, seg := range s.Segments {
				if seg.Excerpt != nil {
					gs = append(gs, Excerpt(f, seg.Excerpt)...)
				}
			}
			seen := map[string]bool{}
			for _, g := range gs {
				if !seen[g.Gate.Name] {
					seen[g.Gate.Name] = true
					out[g.Gate.Name] = append(out[g.Gate.Name], Cite{Doc: d, Step: s})
				}
			}
		}
	}
	return out
}
