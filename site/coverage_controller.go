package site

import (
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
	table := func() *coverage.Table { return c.Table(b.symbolsIn(dirs)) }
	var t *coverage.Table
	if b.reuse == nil {
		t = table()
	} else {
		t = b.reuse.ranTables.Keep(p, struct{}{}, table)
	}
	if t == nil {
		return nil
	}
	v := &ctlRanView{NotRan: t.NotRan}
	for _, r := range t.Rows {
		dl := fact.Location{Path: r.Path, StartLine: r.Start, EndLine: r.End}
		fr := ctlFuncRan{Symbol: b.shortName(r.Symbol, dl), Href: b.covHref(p, dl)}
		for _, k := range r.Counts {
			s := ""
			if k > 0 {
				s = strconv.FormatInt(k, 10)
			}
			fr.Counts = append(fr.Counts, s)
		}
		v.Funcs = append(v.Funcs, fr)
	}
	for _, name := range t.Scenarios {
		v.Scenarios = append(v.Scenarios, navView{Href: b.link(p, RecordedPage(name), ""), Title: name})
	}
	return v
}

// symbolsIn returns the release's symbols declared in dirs, in the order
// of Input.Symbols. Every controller page of every language asks, so the
// symbols are filed by directory once, for the release.
func (b *builder) symbolsIn(dirs []string) []fact.Symbol {
	byDir := b.rel.symDirs()
	var at []int
	for _, d := range slices.Compact(slices.Sorted(slices.Values(dirs))) {
		at = append(at, byDir[d]...)
	}
	slices.Sort(at)
	syms := make([]fact.Symbol, len(at))
	for k, i := range at {
		syms[k] = b.in.Symbols[i]
	}
	return syms
}
