package fact

import (
	"bytes"
	"regexp"
	"strings"
)

// Ref is a parsed symbol reference, as walkthroughs write it (see
// analyzer.ParseRef, which holds the grammar):
//
//	k8s.io/kubernetes/pkg/scheduler.Scheduler.ScheduleOne | .Scheduler.scheduleOne /sched\.bind/
//
// The first alternate that exists at the tree's tag wins; an alternate that
// starts with "." is relative to the first alternate's import path.
type Ref struct {
	// Alternates are full names, "importpath.Name" or
	// "importpath.Type.Method", in order of preference.
	Alternates []string `json:"alternates"`
	// Lines, when not "", is a regular expression (RE2) matched against each
	// line of the declaration to narrow the reference to those lines.
	Lines string `json:"lines,omitempty"`
}

// Resolved is a reference resolved at one tag.
type Resolved struct {
	Symbol Symbol `json:"symbol"`
	// Alternate is the index in Ref.Alternates of the name that resolved.
	Alternate int `json:"alternate"`
	// Matched lists the lines of the declaration that Ref.Lines matched, in
	// order; nil when Ref.Lines is "".
	Matched []int `json:"matched,omitempty"`
}

// String formats r in ParseRef's syntax (relative alternates are written
// in full).
func (r Ref) String() string {
	s := strings.Join(r.Alternates, " | ")
	if r.Lines != "" {
		s += " /" + r.Lines + "/"
	}
	return s
}

// MatchLines returns the numbers of the lines of text that rx matches,
// the first line of text being line first: how Ref.Lines narrows a
// declaration (text is the declaration's lines, first its StartLine).
func MatchLines(rx *regexp.Regexp, text []byte, first int) []int {
	var out []int
	for n := first; len(text) > 0; n++ {
		line := text
		if i := bytes.IndexByte(text, '\n'); i >= 0 {
			line, text = text[:i], text[i+1:]
		} else {
			text = nil
		}
		if rx.Match(line) {
			out = append(out, n)
		}
	}
	return out
}

// LineSpan returns lines from to to (1-based, inclusive) of src, each
// with its newline, the way a Location spans a file. ok is false when src
// ends before line to; span is then what there is from line from on (nil
// when src ends before it), for callers that tolerate a short file.
func LineSpan(src []byte, from, to int) (span []byte, ok bool) {
	start, line := -1, 1
	for off := 0; ; {
		if line == from {
			start = off
		}
		i := bytes.IndexByte(src[off:], '\n')
		if i < 0 {
			if start < 0 {
				return nil, false
			}
			return src[start:], line == to
		}
		off += i + 1
		if line == to && start >= 0 {
			return src[start:off], true
		}
		line++
	}
}
