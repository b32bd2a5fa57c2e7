package reldiff

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"

	"github.com/kubewalk/kubewalk/analyzer/fact"
)

// Status classifies a reference between two releases.
type Status string

// The statuses, from the most to the least urgent for a maintainer: a
// reference gets the first that applies.
const (
	// Unresolved: the reference resolves at neither release (or its
	// lines: regexp matches at neither), or a declaration's file could not
	// be read. kubewalk check reports the former too.
	Unresolved Status = "unresolved"
	// Gone: the reference resolves at From and none of its names exists
	// at To.
	Gone Status = "gone"
	// PatternLost: the symbol exists at both, the reference's /regexp/
	// (lines:) matches at From and no longer at To.
	PatternLost Status = "pattern-lost"
	// New: the reference does not resolve at From (no such name, or its
	// regexp matches nothing there) and does at To: written for the newer
	// release.
	New Status = "new"
	// Renamed: it resolves at both, through different alternates — the
	// walkthrough followed a rename. Diff compares the two declarations.
	Renamed Status = "renamed"
	// Changed: the same name at both, and the declaration's text (doc
	// comment included) differs byte for byte. Diff says how.
	Changed Status = "changed"
	// Moved: the same name and the same declaration text, at other lines
	// or in another file. Links by symbol keep working; nothing to do.
	Moved Status = "moved"
	// Unchanged: same name, same text, same place.
	Unchanged Status = "unchanged"
)

// Statuses lists every Status in the order above (the order of the
// text report's summary line).
var Statuses = []Status{Unresolved, Gone, PatternLost, New, Renamed, Changed, Moved, Unchanged}

// RefChange is one reference use compared between two releases.
type RefChange struct {
	// File, Line and Col locate the reference in the Markdown (1-based;
	// Col in bytes), as walkthrough.RefUse does; Text is the reference as
	// written there.
	File string `json:"file,omitempty"`
	Line int    `json:"line,omitempty"`
	Col  int    `json:"col,omitempty"`
	Text string `json:"text,omitempty"`
	// Ref is the parsed reference, as fact.Ref.String formats it.
	Ref    string `json:"ref"`
	Status Status `json:"status"`
	// From and To are the resolution at each release.
	From Side `json:"from"`
	To   Side `json:"to"`
	// Diff is a unified diff of the declaration's text, From to To, with
	// the file's own line numbers in the hunk headers; "" when the texts
	// are equal or one side did not resolve. It is set whatever Status
	// says, so a renamed or pattern-lost reference shows what happened.
	Diff string `json:"diff,omitempty"`
}

// Side is a reference's resolution at one release.
type Side struct {
	// Symbol is the declaration the reference resolved to ("" when none);
	// Alternate the index of the name that resolved it.
	Symbol    string        `json:"symbol,omitempty"`
	Alternate int           `json:"alternate"`
	Decl      fact.Location `json:"decl"`
	// Matched lists the declaration's lines the reference's regexp
	// matches; nil without a regexp.
	Matched []int `json:"matched,omitempty"`
	// Error says why the reference did not resolve (fully) here: no such
	// name (with suggestions), a regexp that matches nothing, an
	// unreadable file.
	Error string `json:"error,omitempty"`

	text []byte // the declaration's bytes, when read
}

// ok reports whether the side resolved fully: a symbol, and its lines when
// the reference has a regexp.
func (s Side) ok() bool { return s.Symbol != "" && s.Error == "" }

// comparer compares references between two releases, resolving each
// distinct reference once.
type comparer struct {
	a, b Release
	memo map[string]RefChange
}

func newComparer(a, b Release) *comparer {
	return &comparer{a: a, b: b, memo: map[string]RefChange{}}
}

func (c *comparer) compare(ref fact.Ref) RefChange {
	key := ref.String()
	if rc, ok := c.memo[key]; ok {
		return rc
	}
	rc := CompareRef(c.a, c.b, ref)
	c.memo[key] = rc
	return rc
}

// CompareRef compares one reference between two releases. The site calls
// it for the "changed since the previous release" badge of each reference
// on a step: Status is the badge, Diff the text to show under it. File,
// Line, Col and Text are left empty.
func CompareRef(a, b Release, ref fact.Ref) RefChange {
	rc := RefChange{Ref: ref.String()}
	rc.From = resolve(a, ref)
	rc.To = resolve(b, ref)
	if rc.From.text != nil && rc.To.text != nil && !bytes.Equal(rc.From.text, rc.To.text) {
		rc.Diff = declDiff(a.tag(), b.tag(), rc.From, rc.To)
	}
	rc.Status = classify(rc.From, rc.To)
	return rc
}

func classify(from, to Side) Status {
	switch {
	case from.Symbol != "" && from.text == nil, to.Symbol != "" && to.text == nil:
		return Unresolved // a file could not be read: Error says which
	case !from.ok() && !to.ok():
		return Unresolved
	case from.ok() && to.Symbol == "":
		return Gone
	case from.ok() && !to.ok():
		return PatternLost
	case !from.ok():
		return New
	case from.Alternate != to.Alternate || from.Symbol != to.Symbol:
		return Renamed
	case !bytes.Equal(from.text, to.text):
		return Changed
	case from.Decl != to.Decl:
		return Moved
	}
	return Unchanged
}

// resolve resolves ref's names at r, then reads the declaration and
// matches ref's regexp against its lines. The regexp is matched here
// rather than by analyzer.Result.Resolve so that a symbol whose lines no
// longer match is still known (pattern-lost, not gone) and so that every
// read goes through r.Read.
func resolve(r Release, ref fact.Ref) Side {
	res, err := r.Result.Resolve(fact.Ref{Alternates: ref.Alternates})
	if err != nil {
		return Side{Error: err.Error()}
	}
	s := Side{Symbol: res.Symbol.Name, Alternate: res.Alternate, Decl: res.Symbol.Decl}
	text, err := declText(r, res.Symbol.Decl)
	if err != nil {
		s.Error = err.Error()
		return s
	}
	s.text = text
	if ref.Lines != "" {
		rx, err := regexp.Compile(ref.Lines)
		if err != nil {
			s.Error = err.Error()
			return s
		}
		s.Matched = fact.MatchLines(rx, text, s.Decl.StartLine)
		if s.Matched == nil {
			s.Error = fmt.Sprintf("/%s/ in %s (%s:%d-%d): %v", ref.Lines, s.Symbol, s.Decl.Path, s.Decl.StartLine, s.Decl.EndLine, fact.ErrNoMatch)
		}
	}
	return s
}

// errShortFile is returned when a declaration's lines run past its file's
// end: the tree is not the one the facts were computed from.
var errShortFile = errors.New("file is shorter than the declaration")

// declText returns the bytes of lines loc.StartLine to loc.EndLine of the
// file, each with its newline: a copy, as a comparison is kept while
// the site is built and a slice of the file would keep all of it.
func declText(r Release, loc fact.Location) ([]byte, error) {
	src, err := r.read(loc.Path)
	if err != nil {
		return nil, err
	}
	text, ok := fact.LineSpan(src, loc.StartLine, loc.EndLine)
	if !ok {
		return nil, fmt.Errorf("%s:%d-%d: %w", loc.Path, loc.StartLine, loc.EndLine, errShortFile)
	}
	return bytes.Clone(text), nil
}
