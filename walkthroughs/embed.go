// Package walkthroughs holds kubewalk's built-in walkthroughs, embedded in
// the binary: <id>.md is the English original, <id>.ko.md its Korean
// translation. The format is the walkthrough package's (see its doc);
// this package only ships files.
//
// Conventions the built-in files follow, so they survive releases and
// translations:
//
//   - Every symbol is referenced by name, never by line. An inline
//     reference is written once, as a link reference definition at the
//     end of the English file ([getNewReplicaSet]: go:k8s.io/…), and used
//     as [text][label] in both languages; a translation never repeats the
//     import path.
//   - Every excerpt in the English file has a name:, and the translation
//     shows it with use: <name> (optionally with its own caption:), so
//     ref: and lines: are written once.
//   - A translation has the same steps in the same order; its headings
//     carry no from=/to=; its front matter has no order: or topics:, and
//     names the participants one for one.
//   - Each reference resolves at every release the project supports
//     (v1.29 onwards). Where a symbol was renamed or moved, the reference
//     lists alternates, newest first ("Scheduler.ScheduleOne |
//     .Scheduler.scheduleOne"), and the prose says what changed and when.
//     A lines: regexp is written as an alternation that matches at least
//     one line at every release.
package walkthroughs

import "embed"

// FS holds the built-in walkthroughs, at its root.
//
//go:embed *.md
var FS embed.FS

// Recordings holds recorded runs (package record) kept with the
// walkthroughs, as recordings/<tag>/<scenario>.json.zst (zstd; make
// recordings writes them) or .json: a site built at one
// of these releases shows what was observed beside each step without
// first building and running the release's programs. make e2e records the
// default release again and compares the two, hop by hop and reason by
// reason.
//
//go:embed recordings
var Recordings embed.FS
