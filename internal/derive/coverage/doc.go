// Package coverage answers what ran of the tree's code in recorded runs:
// per function, how many times its entry block ran in each scenario, phase
// and program; per source line, how many times its statements ran. It
// reads the counters a recording carries (record.Coverage, from programs
// built with coverage counters) and the analyzer's symbols, and is used by
// `kubewalk list coverage` and by the site: Scenarios holds the runs a
// site shows, for its source pages' line counts, its walkthroughs' badges
// and Observed panels, and its controller pages' tables.
//
//	idx := coverage.New(rec) // nil when rec has no coverage
//	fns := coverage.Functions(symbols, []*coverage.Index{idx}, coverage.Filter{Phase: "apply"})
//	// fns[i].Runs: {Scenario: "deployment", Phase: "apply/replicaset", Program: "kube-controller-manager", Count: 1}
//
// # What a count means
//
// A function's count is that of its entry block: the statements from its
// opening brace to its first branch, which run exactly once per call. A
// line's count is the largest count of the blocks that cover it, so a
// loop's header line shows the loop's iterations, not the sum of the
// blocks on it.
//
// Code is in one of three states in a recording: it ran (a count ≥ 1);
// it did not run (its file was counted by a program that ran, and none of
// its blocks ran in the phases asked for); it was not counted (its file is
// not in the recording: generated API types, third-party modules, or a
// package none of the programs imports). A file of which nothing ran in
// any phase is kept without its blocks (record.CoverFile), so its lines
// are "did not run" as a whole, none of them singled out as a statement.
//
// Phases are observed some milliseconds after the request that ends them,
// so a phase may hold the first calls of the next (record.Coverage.Note).
package coverage
