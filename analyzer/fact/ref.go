package fact

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"unicode"
)

// Ref is a parsed symbol reference, as walkthroughs write it (see
// ParseRef, which holds the grammar):
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

// ParseRef parses a symbol reference as walkthroughs write it:
//
//	ref  = alt { "|" alt } [ "/" regexp "/" ] .
//	alt  = importpath "." Name [ "." Method ]   (a full name)
//	     | "." Name [ "." Method ]              (relative to the first alt's import path)
//
// Blanks around "|" are allowed. The regular expression (RE2 syntax) starts
// at the first "/" that begins a blank-separated word — an alternate never
// does — and runs to the final "/", so it may contain blanks and slashes.
//
// The import path ends at the first dot after its last slash. That is only
// a syntactic guess when the last path element itself has dots
// ("gopkg.in/yaml.v3.Marshal"): a relative alternate is expanded with that
// guess, and the analyzer's Result.Resolve corrects it against the
// packages it loaded.
func ParseRef(s string) (Ref, error) {
	var ref Ref
	text := strings.TrimSpace(s)
	if text == "" {
		return ref, errors.New("empty reference")
	}
	if i := regexpStart(text); i >= 0 {
		re := text[i:]
		if len(re) < 2 || re[len(re)-1] != '/' {
			return ref, fmt.Errorf("reference %q: unterminated /regexp/", s)
		}
		ref.Lines = re[1 : len(re)-1]
		if ref.Lines == "" {
			return ref, fmt.Errorf("reference %q: empty /regexp/", s)
		}
		if _, err := regexp.Compile(ref.Lines); err != nil {
			return ref, fmt.Errorf("reference %q: %w", s, err)
		}
		text = strings.TrimSpace(text[:i])
	}
	var base string
	for k, alt := range strings.Split(text, "|") {
		alt = strings.TrimSpace(alt)
		if alt == "" {
			return ref, fmt.Errorf("reference %q: empty alternate", s)
		}
		if strings.ContainsFunc(alt, unicode.IsSpace) {
			return ref, fmt.Errorf("reference %q: blank inside %q (a /regexp/ must start after a blank)", s, alt)
		}
		if strings.HasPrefix(alt, ".") {
			if k == 0 {
				return ref, fmt.Errorf("reference %q: the first alternate must be a full name (importpath.Name)", s)
			}
			if err := checkNames(alt[1:]); err != nil {
				return ref, fmt.Errorf("reference %q: %v", s, err)
			}
			alt = base + alt
		} else {
			path, names, ok := SplitSymbol(alt)
			if !ok {
				return ref, fmt.Errorf("reference %q: %q names no symbol (want importpath.Name or importpath.Type.Method)", s, alt)
			}
			if err := checkNames(names); err != nil {
				return ref, fmt.Errorf("reference %q: %v", s, err)
			}
			if k == 0 {
				base = path
			}
		}
		ref.Alternates = append(ref.Alternates, alt)
	}
	return ref, nil
}

// regexpStart returns the index of the "/" opening the regexp, or -1.
func regexpStart(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] == '/' && (i == 0 || s[i-1] == ' ' || s[i-1] == '\t') {
			return i
		}
	}
	return -1
}

// checkNames checks "Name" or "Type.Method".
func checkNames(names string) error {
	parts := strings.Split(names, ".")
	if len(parts) > 2 {
		// A dotted last path element ("yaml.v3.Type.Method") parses
		// into more parts; the resolver sorts it out.
		parts = parts[len(parts)-2:]
	}
	for _, p := range parts {
		if !isIdent(p) {
			return fmt.Errorf("%q is not a Go identifier", p)
		}
	}
	return nil
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if !unicode.IsLetter(r) && r != '_' && (i == 0 || !unicode.IsDigit(r)) {
			return false
		}
	}
	return true
}

// NotFoundError is what a resolver (the analyzer's Result.Resolve)
// returns when no alternate of a reference names a declaration of the
// tree.
type NotFoundError struct {
	// Ref is the reference, as Ref.String formats it.
	Ref string
	// Suggestions are the nearest existing names, best first: names of the
	// same package by edit distance, then names elsewhere whose last
	// element is close (a symbol moved to another package).
	Suggestions []string
	// NoPackage lists the alternates' import paths of which no package is
	// loaded at all: the reference may be right but its package is not
	// among the analyzed roots or their dependencies.
	NoPackage []string
}

func (e *NotFoundError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: no such declaration", e.Ref)
	if len(e.NoPackage) > 0 {
		fmt.Fprintf(&b, " (package %s not loaded)", strings.Join(e.NoPackage, ", "))
	}
	if len(e.Suggestions) > 0 {
		fmt.Fprintf(&b, "; did you mean %s?", strings.Join(e.Suggestions, ", "))
	}
	return b.String()
}

// ErrNoMatch is wrapped by a resolver's error when a reference's regexp
// matches no line of the declaration: the code changed under the
// walkthrough.
var ErrNoMatch = errors.New("regexp matches no line of the declaration")

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
