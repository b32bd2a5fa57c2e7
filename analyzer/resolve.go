package analyzer

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/agnivade/levenshtein"

	"github.com/kubewalk/kubewalk/analyzer/fact"
)

// Resolve resolves ref against the symbol index: the first alternate that
// names a declaration wins, and its regexp, if any, must match at least one
// line of that declaration. A reference whose names all miss yields a
// *fact.NotFoundError with suggestions.
func (r *Result) Resolve(ref fact.Ref) (fact.Resolved, error) {
	if len(ref.Alternates) == 0 {
		return fact.Resolved{}, errors.New("empty reference")
	}
	for i, name := range r.alternates(ref) {
		sym, ok := r.Lookup(name)
		if !ok {
			continue
		}
		res := fact.Resolved{Symbol: sym, Alternate: i}
		if ref.Lines != "" {
			m, err := r.matchLines(sym, ref.Lines)
			if err != nil {
				return fact.Resolved{}, fmt.Errorf("resolve %s: %w", ref, err)
			}
			res.Matched = m
		}
		return res, nil
	}
	return fact.Resolved{}, r.notFound(ref)
}

// alternates returns ref's names, correcting relative alternates when the
// first alternate's import path has a dotted last element (see fact.ParseRef).
func (r *Result) alternates(ref fact.Ref) []string {
	names := ref.Alternates
	guess, _, ok := fact.SplitSymbol(names[0])
	if !ok {
		return names
	}
	pkg := r.packageOf(names[0])
	if pkg == "" || pkg == guess {
		return names
	}
	out := append([]string(nil), names...)
	for i := 1; i < len(out); i++ {
		if _, found := r.Lookup(out[i]); !found && strings.HasPrefix(out[i], guess+".") {
			out[i] = pkg + out[i][len(guess):]
		}
	}
	return out
}

// packageOf returns the import path of the loaded package that name can
// be split into ("path.Name" or "path.Type.Method"), or "". The longest
// such path wins, which only matters for dotted last elements.
func (r *Result) packageOf(name string) string {
	slash := strings.LastIndex(name, "/")
	for i := len(name) - 1; i > slash; i-- {
		if name[i] == '.' && r.hasPackage(name[:i]) {
			return name[:i]
		}
	}
	return ""
}

// hasPackage reports whether some symbol is declared in package path.
func (r *Result) hasPackage(path string) bool {
	r.pkgsOnce.Do(func() {
		r.pkgs = map[string]bool{}
		for _, s := range r.Symbols {
			r.pkgs[symbolPackage(s)] = true
		}
	})
	return r.pkgs[path]
}

// symbolPackage returns the import path of a symbol's package.
func symbolPackage(s fact.Symbol) string {
	name := s.Name
	n := 1
	if s.Kind == "method" {
		n = 2
	}
	for range n {
		if i := strings.LastIndexByte(name, '.'); i >= 0 {
			name = name[:i]
		}
	}
	return name
}

// packageSymbols returns the symbols of package path. Its names sort
// together after "path.", mixed only with those of packages whose path
// extends path's last element with a dot ("path.v2/…"), which are skipped.
func (r *Result) packageSymbols(path string) []fact.Symbol {
	prefix := path + "."
	var out []fact.Symbol
	i := sort.Search(len(r.Symbols), func(i int) bool { return r.Symbols[i].Name >= prefix })
	for ; i < len(r.Symbols) && strings.HasPrefix(r.Symbols[i].Name, prefix); i++ {
		if symbolPackage(r.Symbols[i]) == path {
			out = append(out, r.Symbols[i])
		}
	}
	return out
}

// matchLines returns the lines of sym's declaration that re matches.
func (r *Result) matchLines(sym fact.Symbol, re string) ([]int, error) {
	rx, err := regexp.Compile(re)
	if err != nil {
		return nil, err
	}
	if r.dir == "" {
		return nil, errors.New("no tree to read declarations from")
	}
	src, err := os.ReadFile(filepath.Join(r.dir, filepath.FromSlash(sym.Decl.Path)))
	if err != nil {
		return nil, err
	}
	// A file shorter than the declaration (the tree changed under the
	// index) is matched as far as it goes.
	text, _ := fact.LineSpan(src, sym.Decl.StartLine, sym.Decl.EndLine)
	matched := fact.MatchLines(rx, text, sym.Decl.StartLine)
	if matched == nil {
		return nil, fmt.Errorf("/%s/ in %s (%s:%d-%d): %w", re, sym.Name, sym.Decl.Path, sym.Decl.StartLine, sym.Decl.EndLine, fact.ErrNoMatch)
	}
	return matched, nil
}

// maxSuggestions bounds fact.NotFoundError.Suggestions; five is arbitrary but
// fits on one diagnostic line.
const maxSuggestions = 5

// notFound builds the error for a reference none of whose names exist.
func (r *Result) notFound(ref fact.Ref) *fact.NotFoundError {
	e := &fact.NotFoundError{Ref: ref.String()}
	type cand struct {
		name string
		dist int
		rank int // 0 same package, 1 elsewhere
	}
	seen := map[string]bool{}
	var cands []cand
	addCand := func(c cand) {
		if !seen[c.name] {
			seen[c.name] = true
			cands = append(cands, c)
		}
	}
	for _, alt := range ref.Alternates {
		pkg := r.packageOf(alt)
		if pkg == "" {
			if p, _, ok := fact.SplitSymbol(alt); ok && !containsString(e.NoPackage, p) {
				e.NoPackage = append(e.NoPackage, p)
			}
		} else {
			want := alt[len(pkg)+1:]
			for _, s := range r.packageSymbols(pkg) {
				have := s.Name[len(pkg)+1:]
				d := levenshtein.ComputeDistance(strings.ToLower(want), strings.ToLower(have))
				if d <= maxDist(want) || strings.EqualFold(lastElem(want), lastElem(have)) {
					addCand(cand{s.Name, d, 0})
				}
			}
		}
		// Elsewhere: the same last element, or a close one, in another
		// package (a symbol moved between packages or types).
		last := strings.ToLower(lastElem(alt))
		for _, s := range r.Symbols {
			if pkg != "" && strings.HasPrefix(s.Name, pkg+".") {
				continue
			}
			l := lastElem(s.Name)
			if abs(len(l)-len(last)) > 2 {
				continue
			}
			if d := levenshtein.ComputeDistance(last, strings.ToLower(l)); d <= maxDist(last)/2 {
				addCand(cand{s.Name, d, 1})
			}
		}
	}
	sort.SliceStable(cands, func(i, j int) bool {
		a, b := cands[i], cands[j]
		if a.rank != b.rank {
			return a.rank < b.rank
		}
		if a.dist != b.dist {
			return a.dist < b.dist
		}
		return a.name < b.name
	})
	for _, c := range cands {
		if len(e.Suggestions) == maxSuggestions {
			break
		}
		e.Suggestions = append(e.Suggestions, c.name)
	}
	return e
}

// maxDist is the largest edit distance worth suggesting for a name: a third
// of its length, at least 2.
func maxDist(s string) int {
	return max(2, utf8.RuneCountInString(s)/3)
}

func lastElem(name string) string {
	if i := strings.LastIndexAny(name, "./"); i >= 0 {
		return name[i+1:]
	}
	return name
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
