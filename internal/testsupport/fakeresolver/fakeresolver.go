// Package fakeresolver is the walkthrough.Resolver of tests: a table of
// symbols with the text of their declarations, resolved as
// analyzer.Result.Resolve resolves them, without loading any package. It
// is imported by tests only.
package fakeresolver

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/kubewalk/kubewalk/analyzer/fact"
)

// Resolver resolves references against Symbols.
type Resolver struct {
	// Symbols are the names that resolve, by full name.
	Symbols map[string]Symbol
	// Found is what Facts returns.
	Found *fact.Facts
	// Any, when set, resolves every name that is not in Symbols to a
	// ten-line function in x.go, and makes every line match a
	// reference's Lines: for tests of the Markdown, not of the
	// references.
	Any bool
}

// Symbol is a symbol and its declaration's lines: Lines[0] is line
// Symbol.Decl.StartLine.
type Symbol struct {
	Symbol fact.Symbol
	Lines  []string
}

// New returns a Resolver of syms, taking each declaration's lines from
// the source text src returns for its file.
func New(found *fact.Facts, src func(path string) string, syms ...fact.Symbol) *Resolver {
	r := &Resolver{Symbols: map[string]Symbol{}, Found: found}
	for _, s := range syms {
		lines := strings.Split(src(s.Decl.Path), "\n")
		from, to := min(max(s.Decl.StartLine-1, 0), len(lines)), min(s.Decl.EndLine, len(lines))
		r.Symbols[s.Name] = Symbol{Symbol: s, Lines: lines[from:max(from, to)]}
	}
	return r
}

// Facts returns r.Found.
func (r *Resolver) Facts() *fact.Facts { return r.Found }

// Resolve resolves the first of ref's alternates that names a symbol. With
// ref.Lines it gives the declaration's lines the expression matches, and
// fact.ErrNoMatch when none does. A name that resolves to nothing is a
// *fact.NotFoundError suggesting the names that differ from it only in
// case.
func (r *Resolver) Resolve(ref fact.Ref) (fact.Resolved, error) {
	for i, alt := range ref.Alternates {
		s, ok := r.Symbols[alt]
		if !ok && r.Any {
			s, ok = anySymbol(alt), true
		}
		if !ok {
			continue
		}
		res := fact.Resolved{Symbol: s.Symbol, Alternate: i}
		if ref.Lines == "" {
			return res, nil
		}
		re, err := regexp.Compile(ref.Lines)
		if err != nil {
			return fact.Resolved{}, fmt.Errorf("resolve %s: %w", ref, err)
		}
		for j, l := range s.Lines {
			if r.Any || re.MatchString(l) {
				res.Matched = append(res.Matched, s.Symbol.Decl.StartLine+j)
			}
		}
		if len(res.Matched) == 0 {
			// As analyzer.Result.Resolve says it.
			d := s.Symbol.Decl
			return fact.Resolved{}, fmt.Errorf("resolve %s: /%s/ in %s (%s:%d-%d): %w", ref, ref.Lines, s.Symbol.Name, d.Path, d.StartLine, d.EndLine, fact.ErrNoMatch)
		}
		return res, nil
	}
	var sugg []string
	for name := range r.Symbols {
		if len(ref.Alternates) > 0 && strings.EqualFold(name, ref.Alternates[0]) {
			sugg = append(sugg, name)
		}
	}
	return fact.Resolved{}, &fact.NotFoundError{Ref: ref.String(), Suggestions: sugg}
}

// anySymbol is what Any resolves name to.
func anySymbol(name string) Symbol {
	return Symbol{
		Symbol: fact.Symbol{Name: name, Kind: "func", Decl: fact.Location{Path: "x.go", StartLine: 1, EndLine: 10}},
		Lines:  make([]string, 10),
	}
}
