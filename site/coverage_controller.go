package site

import (
	"cmp"
	"path"
	"slices"
	"strconv"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/internal/derive/coverage"
)

// A controller's page says which functions of its packages ran in which
// recorded scenario: one row per function that ran in any, with how
// often it was entered in each, in source order, and how many of its
// counted functions ran in none.

// ctlRanView is the controller page's coverage section.
type ctlRanView struct {
	// Scenarios are the recorded scenarios in which a function of the
	// controller ran, each linking its run page: the table's columns.
	Scenarios []navView
	Funcs     []ctlFuncRan
	// NotRan counts the counted functions that ran in no scenario.
	NotRan int
}

type ctlFuncRan struct {
	Symbol, Href string
	// Counts are the entries per scenario, in Scenarios order; "" where
	// it did not run.
	Counts []string
}

// controllerRan returns the coverage section of a controller whose
// constructors live in dirs, nil without coverage or when no scenario
// counted its files.
func (b *builder) controllerRan(p string, dirs []string) *ctlRanView {
	c := b.coverage()
	if c == nil || len(dirs) == 0 {
		return nil
	}
	var syms []fact.Symbol
	for _, s := range b.in.Symbols {
		if slices.Contains(dirs, path.Dir(s.Decl.Path)) {
			syms = append(syms, s)
		}
	}
	fns := coverage.Functions(syms, c.idx, coverage.Filter{})
	if len(fns) == 0 {
		return nil
	}
	slices.SortStableFunc(fns, func(x, y coverage.Function) int {
		return cmp.Or(cmp.Compare(x.Path, y.Path), cmp.Compare(x.Start, y.Start))
	})
	v := &ctlRanView{}
	ran := make([]bool, len(c.names))
	for _, fn := range fns {
		if fn.Total() == 0 {
			v.NotRan++
			continue
		}
		n := make([]int64, len(c.names))
		for _, r := range fn.Runs {
			n[slices.Index(c.names, r.Scenario)] += r.Count
		}
		fr := ctlFuncRan{Symbol: b.shortName(fn.Symbol, fact.Location{Path: fn.Path, StartLine: fn.Start, EndLine: fn.End}), Href: b.covHref(p, fact.Location{Path: fn.Path, StartLine: fn.Start, EndLine: fn.End})}
		for i, k := range n {
			s := ""
			if k > 0 {
				s = strconv.FormatInt(k, 10)
				ran[i] = true
			}
			fr.Counts = append(fr.Counts, s)
		}
		v.Funcs = append(v.Funcs, fr)
	}
	// The columns of scenarios in which nothing of it ran go: the
	// sentence above the table counts what ran in none.
	for i := len(c.names) - 1; i >= 0; i-- {
		if !ran[i] {
			for k := range v.Funcs {
				v.Funcs[k].Counts = slices.Delete(v.Funcs[k].Counts, i, i+1)
			}
		}
	}
	for i, name := range c.names {
		if ran[i] {
			v.Scenarios = append(v.Scenarios, navView{Href: b.link(p, RecordedPage(name), ""), Title: name})
		}
	}
	return v
}
