package coverage

import (
	"cmp"
	"slices"

	"github.com/kubewalk/kubewalk/analyzer/fact"
)

// PhasesAt returns the phases of the first scenario's run in which the
// moments at fell (milliseconds, as record.Phase's Start and End), each
// once, in the run's order: the phases of a step whose requests the
// audit log records at those moments.
func (s *Scenarios) PhasesAt(at []int64) []string {
	var out []string
	for _, ph := range s.Recs[0].Coverage.Phases {
		in := slices.ContainsFunc(at, func(t int64) bool { return t >= ph.Start && t < ph.End })
		if in && !slices.Contains(out, ph.Name) {
			out = append(out, ph.Name)
		}
	}
	return out
}

// PhasesRan returns the phases of the first scenario's run in which a
// function among funcs ran, in the run's order: those of a step whose
// requests the audit log does not record (an API server's start-up, an
// informer's machinery), found from the code it cites.
func (s *Scenarios) PhasesRan(funcs []fact.Symbol) []string {
	ran := map[string]bool{}
	for _, fn := range Functions(funcs, s.Index[:1], Filter{}) {
		for _, r := range fn.Runs {
			if r.Count > 0 {
				ran[r.Phase] = true
			}
		}
	}
	var out []string
	for _, ph := range s.Recs[0].Coverage.Phases {
		if ran[ph.Name] {
			out = append(out, ph.Name)
		}
	}
	return out
}

// Program is a program of the first scenario's run and the functions
// that ran in it.
type Program struct {
	Name  string
	Funcs []Entered
}

// Entered is a function and how often it was entered.
type Entered struct {
	Function
	N int64
}

// PhaseCode lists, per program, the functions among funcs that ran in
// the first scenario's phases, each with how often it was entered there.
// order compares two functions by symbol (a walkthrough's chain order,
// internal/derive/chain): it sorts each program's functions, and the
// programs by their first function, then by name. nil when none ran.
func (s *Scenarios) PhaseCode(funcs []fact.Symbol, phases []string, order func(x, y string) int) []Program {
	var out []Program
	at := map[string]int{} // program → index in out
	for _, fn := range Functions(funcs, s.Index[:1], Filter{}) {
		n := map[string]int64{}
		var progs []string
		for _, r := range fn.Runs {
			if slices.Contains(phases, r.Phase) && r.Count > 0 {
				if n[r.Program] == 0 {
					progs = append(progs, r.Program)
				}
				n[r.Program] += r.Count
			}
		}
		for _, prog := range progs {
			k, ok := at[prog]
			if !ok {
				k = len(out)
				at[prog] = k
				out = append(out, Program{Name: prog})
			}
			out[k].Funcs = append(out[k].Funcs, Entered{Function: fn, N: n[prog]})
		}
	}
	for _, p := range out {
		slices.SortFunc(p.Funcs, func(x, y Entered) int { return order(x.Symbol, y.Symbol) })
	}
	slices.SortFunc(out, func(x, y Program) int {
		return cmp.Or(order(x.Funcs[0].Symbol, y.Funcs[0].Symbol), cmp.Compare(x.Name, y.Name))
	})
	return out
}

// RanIn names the scenarios in which a function among funcs ran, in
// their order.
func (s *Scenarios) RanIn(funcs []fact.Symbol) []string {
	var out []string
	for i, name := range s.Names {
		if slices.ContainsFunc(Functions(funcs, s.Index[i:i+1], Filter{}), func(fn Function) bool { return fn.Total() > 0 }) {
			out = append(out, name)
		}
	}
	return out
}

// Table is what ran of a set of functions (a controller's packages'),
// scenario by scenario.
type Table struct {
	// Scenarios are those in which one of the functions ran: the
	// columns.
	Scenarios []string
	// Rows are the functions that ran in one of them, in source order
	// (path, then line), with how often each was entered in each column's
	// scenario.
	Rows []Row
	// NotRan counts the counted functions that ran in none.
	NotRan int
}

// Row is a function of a Table and its counts, one per column.
type Row struct {
	Function
	Counts []int64
}

// Table returns what ran of the functions among syms, nil when no
// scenario counted one of their files.
func (s *Scenarios) Table(syms []fact.Symbol) *Table {
	fns := Functions(syms, s.Index, Filter{})
	if len(fns) == 0 {
		return nil
	}
	slices.SortStableFunc(fns, func(x, y Function) int {
		return cmp.Or(cmp.Compare(x.Path, y.Path), cmp.Compare(x.Start, y.Start))
	})
	t := &Table{}
	ran := make([]bool, len(s.Names))
	for _, fn := range fns {
		if fn.Total() == 0 {
			t.NotRan++
			continue
		}
		n := make([]int64, len(s.Names))
		for _, r := range fn.Runs {
			n[slices.Index(s.Names, r.Scenario)] += r.Count
		}
		for i, k := range n {
			ran[i] = ran[i] || k > 0
		}
		t.Rows = append(t.Rows, Row{Function: fn, Counts: n})
	}
	// The columns of scenarios in which nothing of them ran go.
	for i := len(s.Names) - 1; i >= 0; i-- {
		if !ran[i] {
			for k := range t.Rows {
				t.Rows[k].Counts = slices.Delete(t.Rows[k].Counts, i, i+1)
			}
		}
	}
	for i, name := range s.Names {
		if ran[i] {
			t.Scenarios = append(t.Scenarios, name)
		}
	}
	return t
}
