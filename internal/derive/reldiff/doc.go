// Package reldiff compares two analysed releases: how each walkthrough
// reference fares between them, and which handler registrations, events
// and API writes were added or removed. It is pure — two
// *analyzer.Result values, a way to read each tree's files, and the
// references in; plain data out — so `kubewalk diff` prints it and the
// site's "changed since the previous release" badges come from the same
// code.
//
// # Worked example
//
// The scheduler walkthrough writes
//
//	[scheduleOnePod](<go:k8s.io/kubernetes/pkg/scheduler.Scheduler.scheduleOnePod | .Scheduler.ScheduleOne>)
//
// v1.35 has only ScheduleOne (the second alternate resolves); v1.36 split
// the per-pod work out into scheduleOnePod (the first does). Compare
// reports that use as renamed, with where each release has it and the
// diff of the two declarations; ExampleCompare shows the report's text
// (WriteText) for the same case in this package's test fixture.
// CompareRef compares one reference, as the site does for a step: its
// RefChange's Status is the badge ("changed", "renamed", …), Diff the
// unified diff to show under it, From and To where it was and is.
//
// # Reference statuses
//
// Each reference is resolved at both releases by its names alone (the
// first alternate that exists wins, as analyzer.Result.Resolve does); its
// declaration's text (fact.Symbol.Decl: doc comment to closing brace)
// is read from each tree; then its lines: regexp, if any, is matched
// against that text. The first status that applies, in this order:
//
//	unresolved    resolves at neither release (kubewalk check says why)
//	gone          resolves at From; none of its names exists at To
//	pattern-lost  the symbol is at both; the regexp matches at From only
//	new           does not resolve at From, does at To
//	renamed       resolves at both through different alternates
//	changed       same name; the declaration's bytes differ
//	moved         same name, same bytes, other lines or file
//	unchanged     same name, bytes, file and lines
//
// Text is compared byte for byte, not with whitespace normalised: a
// whitespace-only edit (gofmt realigning a struct's fields after one was
// added) shows as changed, which is what a reader comparing two excerpts
// sees, and a normaliser would also hide real edits inside string
// literals. Only line numbers changing is "moved", which costs a
// walkthrough nothing, since links are by symbol.
//
// RefChange.Diff holds the unified diff whenever both sides were read and
// differ — for renamed and pattern-lost references too, where it shows
// what to update. Hunk headers carry the files' own line numbers.
//
// # Facts
//
// CompareFacts matches facts by identity, not line (see FactChange): a
// handler by component, informer, registration method and handler
// functions; an event by recorder, reason and calling function; a write
// by verb, resource, subresource and calling function. Func literals'
// "$N" suffixes are dropped from identities because they shift when a
// literal is added above. A fact whose calling function was renamed shows
// as removed and added: true to the code, and what a walkthrough's facts
// block would notice.
//
// # The diff library
//
// Unified diffs come from github.com/aymanbagabas/go-udiff, an exported
// copy of golang.org/x/tools/internal/diff — the diff gopls and the go
// command's own tests use — kept in step with upstream, with no
// dependencies. It diffs by lines (Myers) and exposes the hunks
// (ToUnifiedDiff), which lets this package shift their line numbers to the
// files' lines. The alternatives were weaker fits: github.com/pmezard/
// go-difflib has had no release since 2016, and
// github.com/sergi/go-diff (already a dependency through go-git) is a
// character-level diff-match-patch port whose unified output needs
// line-mode conversion by hand.
//
// # What a site shows
//
// A site badges the references whose status is worth it and numbers
// them (Numbered: change N, its diff the diffs script's key N, written
// once when several share it, Once). Its changes page lists each change
// under the step of the walkthroughs that cites it first (StepCites,
// Groups), a translation's own steps after the first language's, the
// changes no step cites last.
//
// # Determinism
//
// Report.Refs is sorted by file, line and column; Report.Facts by kind,
// change and key; Summary's maps have every key present and
// encoding/json sorts them. No absolute paths or timestamps appear: paths
// are the trees' repo-relative ones.
package reldiff
