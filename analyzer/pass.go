package analyzer

import (
	"context"
	"fmt"
	"time"

	"github.com/kubewalk/kubewalk/analyzer/fact"
)

// Pass is one pass over a Program, in the shape of x/tools'
// analysis.Analyzer: a name, a doc, the passes whose results it reads, and
// a Run. A discovery pass (Passes) returns what it finds as its result, a
// *fact.Facts holding facts of its own kinds only, which RunPasses adds to
// the facts it was given; a pass may also compute a value for others, as
// the unexported index pass does for all of them.
type Pass struct {
	Name string
	Doc  string
	// Requires are the passes whose results Run reads through
	// PassRun.ResultOf. RunPasses runs each of them first, once per call.
	Requires []*Pass
	// Run returns the pass's result: a *fact.Facts for a discovery pass,
	// else a value for the passes that require it (nil when none does).
	Run func(run *PassRun) (any, error)
}

// PassRun is what one pass sees during RunPasses, as analysis.Pass is to
// an analysis.Analyzer.
type PassRun struct {
	Prog *Program
	// Tag is the release being analysed (Facts.Tag).
	Tag string
	// ResultOf holds the result of each pass in Requires, and of no other.
	ResultOf map[*Pass]any
}

// RunPasses runs passes over prog in order, each after the passes it
// requires, adding the facts they return to facts. A pass runs once per call
// however many others require it. Results are shared as values within the
// call and dropped when it returns, so nothing keeps prog reachable
// afterwards (a process analysing several releases, or serve, holds each
// program only while it is analysed). logf, when not nil, receives each
// pass's time.
func RunPasses(ctx context.Context, prog *Program, facts *fact.Facts, passes []*Pass, logf func(string, ...any)) error {
	results := map[*Pass]any{}
	running := map[*Pass]bool{}
	var run func(p *Pass) error
	run = func(p *Pass) error {
		if _, done := results[p]; done {
			return nil
		}
		if running[p] {
			return fmt.Errorf("analyzer pass %s requires itself", p.Name)
		}
		running[p] = true
		for _, r := range p.Requires {
			if err := run(r); err != nil {
				return err
			}
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		pr := &PassRun{Prog: prog, Tag: facts.Tag, ResultOf: make(map[*Pass]any, len(p.Requires))}
		for _, r := range p.Requires {
			pr.ResultOf[r] = results[r]
		}
		t := time.Now()
		res, err := p.Run(pr)
		if err != nil {
			return fmt.Errorf("analyzer pass %s: %w", p.Name, err)
		}
		if logf != nil {
			logf("analyzer: pass %s: %v", p.Name, time.Since(t).Round(time.Millisecond))
		}
		results[p] = res
		if found, ok := res.(*fact.Facts); ok {
			addFacts(facts, found)
		}
		return nil
	}
	for _, p := range passes {
		if err := run(p); err != nil {
			return err
		}
	}
	return nil
}

// addFacts appends the facts a discovery pass found to dst. Each pass
// finds facts of its own kinds only, so the order passes are added in
// changes nothing.
func addFacts(dst, found *fact.Facts) {
	dst.Handlers = append(dst.Handlers, found.Handlers...)
	dst.Wirings = append(dst.Wirings, found.Wirings...)
	dst.Writes = append(dst.Writes, found.Writes...)
	dst.Events = append(dst.Events, found.Events...)
	dst.ListWatches = append(dst.ListWatches, found.ListWatches...)
	dst.InformerRequests = append(dst.InformerRequests, found.InformerRequests...)
	dst.Calls = append(dst.Calls, found.Calls...)
	dst.Gates = append(dst.Gates, found.Gates...)
	dst.GateChecks = append(dst.GateChecks, found.GateChecks...)
	dst.Controllers = append(dst.Controllers, found.Controllers...)
	dst.SchedulerPlugins = append(dst.SchedulerPlugins, found.SchedulerPlugins...)
}
