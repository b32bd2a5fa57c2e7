// Package cited says what a walkthrough cites: the references of a step
// (in its text, on its excerpts), the functions and methods among them,
// and the lines of a reference's code a coverage count speaks of. The
// site badges a step's references with how their code changed since the
// previous release (internal/derive/reldiff) and how often it ran
// (internal/derive/coverage), lists the code that ran in its phases, and
// the recorded runs pages match rules to the functions a step cites; all
// of them read a step the same way, so it is said once here, over
// walkthrough's plain Docs.
//
// An excerpt carries its own badges, so the references a step cites "in
// its text" (Text) are those none of its excerpts shows.
package cited

import (
	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/walkthrough"
)

// Refs are the references step s cites: its text's, then its
// excerpts'.
func Refs(s walkthrough.Step) []fact.Ref {
	var refs []fact.Ref
	for _, r := range s.Refs {
		refs = append(refs, r.Ref)
	}
	return append(refs, Excerpts(s.Segments)...)
}

// Doc are the references d cites: its introduction's excerpts', then
// each step's (Refs).
func Doc(d *walkthrough.Doc) []fact.Ref {
	refs := Excerpts(d.Intro)
	for _, s := range d.Steps {
		refs = append(refs, Refs(s)...)
	}
	return refs
}

// Text are the references step s cites in its text and not by an
// excerpt (which carries its own badges), once each, in the order cited.
func Text(s walkthrough.Step) []walkthrough.Ref {
	seen := map[string]bool{}
	for _, r := range Excerpts(s.Segments) {
		seen[r.String()] = true
	}
	var out []walkthrough.Ref
	for _, r := range s.Refs {
		if k := r.Ref.String(); !seen[k] {
			seen[k] = true
			out = append(out, r)
		}
	}
	return out
}

// Excerpts are the references of the excerpts among segs.
func Excerpts(segs []walkthrough.Segment) []fact.Ref {
	var refs []fact.Ref
	for _, seg := range segs {
		if seg.Excerpt != nil {
			refs = append(refs, seg.Excerpt.Ref.Ref)
		}
	}
	return refs
}

// Funcs are the functions and methods steps cite, by excerpt or
// reference (a step's excerpts first), once each, in the order cited:
// the code whose runs a walkthrough's Observed panels count. A symbol
// without a body (a declaration the analyzer has no body of) is left
// out: coverage counts a function by its body's entry block.
func Funcs(steps ...walkthrough.Step) []fact.Symbol {
	var out []fact.Symbol
	seen := map[string]bool{}
	add := func(s fact.Symbol) {
		if (s.Kind == "func" || s.Kind == "method") && !s.Body.IsZero() && !seen[s.Name] {
			seen[s.Name] = true
			out = append(out, s)
		}
	}
	for _, s := range steps {
		for _, seg := range s.Segments {
			if seg.Excerpt != nil {
				add(seg.Excerpt.Resolved.Symbol)
			}
		}
		for _, r := range s.Refs {
			add(r.Resolved.Symbol)
		}
	}
	return out
}

// Counted is where a reference's code is counted, one line each: the
// lines marks names (an excerpt's marked lines), else those its regular
// expression matched, else a function's first body line (its entry
// block, which runs once per call), else its whole declaration.
func Counted(r fact.Resolved, marks []int) []fact.Location {
	path := r.Symbol.Decl.Path
	if len(marks) == 0 {
		marks = r.Matched
	}
	if len(marks) > 0 {
		out := make([]fact.Location, len(marks))
		for i, l := range marks {
			out[i] = fact.Location{Path: path, StartLine: l, EndLine: l}
		}
		return out
	}
	if b := r.Symbol.Body; !b.IsZero() {
		return []fact.Location{{Path: b.Path, StartLine: b.StartLine, EndLine: b.StartLine}}
	}
	return []fact.Location{r.Symbol.Decl}
}
