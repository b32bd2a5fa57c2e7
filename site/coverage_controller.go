package site

import (
	"path"
	"slices"
	"strconv"

	"github.com/kubewalk/kubewalk/analyzer/fact"
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
	t := c.Table(syms)
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
