// Package walkthrough parses walkthrough Markdown and resolves every symbol
// reference in it against the analyzer, producing plain-data documents
// (Doc) that package site lays out.
//
// # A worked example
//
// A walkthrough is one Markdown file, deployment.md, with YAML front
// matter, an intro, and steps:
//
//	---
//	title: What happens when you create a Deployment
//	summary: One line for the home page.
//	order: 1
//	topics: [deployment, controllers]
//	participants: [kubectl, kube-apiserver, deployment controller]
//	---
//
//	Intro prose: everything before the first step heading.
//
//	## The deployment controller creates a ReplicaSet {from="deployment controller" to="kube-apiserver" label="POST replicasets"}
//
//	[getNewReplicaSet](https://pkg.go.dev/k8s.io/kubernetes/pkg/controller/deployment#DeploymentController.getNewReplicaSet)
//	builds the ReplicaSet; [ScheduleOne](<go:k8s.io/kubernetes/pkg/scheduler.Scheduler.ScheduleOne | .Scheduler.scheduleOne>)
//	is renamed between releases; [syncDeployment][] uses a definition.
//
//	```excerpt
//	name: new-rs
//	ref: k8s.io/kubernetes/pkg/controller/deployment.DeploymentController.getNewReplicaSet
//	lines: ReplicaSets\(.*\)\.Create
//	context: 4
//	caption: The new ReplicaSet is created here.
//	```
//
//	### A sub-heading {#new-rs-details}
//
//	```facts
//	writes: resource=replicasets verb=create
//	```
//
//	[syncDeployment]: go:k8s.io/kubernetes/pkg/controller/deployment.DeploymentController.syncDeployment
//
// and its Korean translation, deployment.ko.md, beside it:
//
//	---
//	title: 디플로이먼트를 만들면 일어나는 일
//	participants: [kubectl, kube-apiserver, 디플로이먼트 컨트롤러]
//	---
//
//	## 디플로이먼트 컨트롤러가 레플리카셋을 만든다 {label="레플리카셋 POST"}
//
//	[syncDeployment][]가 ...
//
//	```excerpt
//	use: new-rs
//	caption: 여기서 새 레플리카셋을 만든다.
//	```
//
//	```facts
//	writes: resource=replicasets verb=create
//	```
//
// # Files and languages
//
// A directory holds <id>.md (English, the original) and <id>.<lang>.md
// translations (ids are lower-case letters, digits, "-" and "_"; lang is
// two or three letters, e.g. "ko"). README.md and names starting with "_"
// or "." are skipped. Load(fsys, dir, "ko", opts) returns the Korean
// translation of each walkthrough, or the English original where there is
// none: the home page lists every walkthrough in every language, and
// Doc.Lang tells the site which it got.
//
// # Front matter
//
// title (required), summary, order (sorts the home page, then id), topics
// and participants (the sequence diagram's lifelines, left to right).
// Unknown keys are errors. A translation sets title, summary and, if it
// translates them, participants — the same number, in the same order;
// order and topics are the original's.
//
// # Steps
//
// Each level-2 heading (##) starts a step; ### and deeper are headings
// inside it; a level-1 heading is an error (the title is in the front
// matter). A step heading may end in goldmark's attribute syntax
// {from=… to=… label=… id=…} (or #id): from and to, both or neither, name
// participants; label is the message's text. Only those keys (and a
// translation's en, below) are accepted on step headings and only an id
// on other headings; anything else
// ({onclick=…}, {style=…}, {.class}) is an error, and attributes are never
// rendered as written. So is a block goldmark cannot read (a value in
// single quotes, or a double quote inside one not written \"), which it
// would leave in the heading's text (unreadAttrs). A step's ID is its id attribute or
// "step-<n>-<slug of the title>", unique in the file.
//
// A translation has the same steps in the same order (checked); its steps
// take the original's IDs, so anchors are the same in every language, and
// the original's from and to (a translation's heading may set only label
// and en). A translated step's {en="1a2b3c4d"} names the English text it
// was translated from: the fingerprint of the English step's Markdown
// (StepInfo.Source: 8 hex digits of a SHA-256, heading to the next step,
// trailing blanks left out; quoted, since goldmark leaves a value that
// starts with a digit unparsed). When the English step changes, the
// fingerprints differ: the step is Stale, the site says the translation
// is older than its original, and kubewalk check warns, printing the
// fingerprint to write once the translation is brought up to date. A
// step without en= is not marked, and check asks for one.
//
// # References
//
// A reference names a declaration go doc style, never a line number:
//
//	ALT [| ALT]... [/REGEXP/]
//
// where ALT is importpath.Name or importpath.Type.Method, later ALTs may
// start with "." to mean the first ALT's import path, the first ALT that
// exists at the tag wins (for symbols renamed between releases), and
// REGEXP (RE2) narrows the reference to the declaration's lines it
// matches. This is fact.ParseRef's grammar.
//
// Inline references are ordinary Markdown links, so the file reads well on
// GitHub too:
//
//   - [text](https://pkg.go.dev/importpath#Name) or #Type.Method: a plain
//     working link anywhere else. A version after the module path
//     (k8s.io/client-go@v0.31.0/tools/cache) is ignored: the tag being
//     built decides. A pkg.go.dev link without a #fragment stays an
//     ordinary link.
//   - [text](go:REF), or [text](<go:REF>) when REF has blanks (alternates,
//     a regexp). The regexp is taken as written: goldmark keeps the
//     backslashes of a link destination, so /a\.b/ means a\.b.
//   - [text][label] or [label][] with a definition [label]: go:REF anywhere
//     in the file.
//
// Each becomes a node of kind KindRefLink holding the symbol and lines
// it resolved to (RefNodeOf); the site renders it as a link to its
// source page with a GitHub permalink beside it.
//
// # Excerpt blocks
//
// A fenced block with the info string "excerpt" embeds lines of a
// declaration: key: value lines (blank lines and # comments allowed):
//
//	ref:     REF (required, unless use:)
//	lines:   REGEXP — the lines to highlight (or /REGEXP/ at the end of ref)
//	from:    REGEXP — show from the first line it matches …
//	to:      REGEXP — … to the first line at or after that it matches
//	context: N | all — lines shown around highlighted lines; default: the
//	         whole (cut) declaration when it is at most 40 lines or nothing
//	         is highlighted, else 3
//	caption: plain text above the code
//	name:    a name translations (and this file) can use
//	use:     NAME — show the excerpt named NAME in the English original
//	         (with only caption: and notrun: beside it)
//	notrun:  why the code is not meant to run in the recorded scenarios
//	         (below); a use: block in the named excerpt's own file
//	         without one shows that one's
//
// An unknown or repeated key, a missing ref, a bad regexp, or a regexp
// that matches no line is an error at that key's line and column.
//
// # Code not meant to run
//
// kubewalk check warns of a reference whose code ran in none of the
// release's recorded scenarios. Some references are meant not to run: an
// error path, a rollback, a branch only another configuration takes. The
// author says so next to the reference, with the reason, in the
// attribute syntax of step headings, right after the link (no blank
// between):
//
//	[rollback][]{notrun="only a Deployment rolled back to an older revision takes it"}
//	[doReconcile](go:k8s.io/kubernetes/pkg/controlplane/reconcilers.leaseEndpointReconciler.doReconcile){notrun="the recorded run starts its API server with --endpoint-reconciler-type=none"}
//
// and an excerpt with its notrun: key. The reason is plain text in the
// file's language: a translation marks the references its English step
// marks, in its own words, a use: block with its own notrun: (kubewalk
// check warns of a translated step whose marks differ). check then
// lists the reference as not run, as intended, with the reason, instead
// of warning; if the code did run in a recording, it warns that the mark
// is stale. On the site, the reference's badge says it did not run in
// the recorded scenarios, and why. A mark is never rendered as written;
// on GitHub it shows as text after the link, as step attributes do.
//
// The value is quoted ("…", with \" and \\ escapes) unless it is one
// word; it is one line. Anything else after a reference's link in braces
// is an error at its "{": another key than notrun, an empty reason, a
// block that does not parse; so is a notrun mark that follows no
// reference (after a blank, after a web link, a second mark).
//
// # Facts blocks
//
// A fenced block with the info string "facts" embeds facts the analyzer
// discovered, selected by one query of space-separated key=value
// selectors, all of which must match (case-insensitively):
//
//	handlers: resource= kind= group= component=
//	events:   reason= type= recorder= component=
//	writes:   resource= kind= group= verb= subresource= component=
//
// component= is a package, as the end of its import path: for events and
// writes, the package of the function that records or writes; for
// handlers, the registration's component. It matches that package only,
// not the packages under it, so a reason several controllers record is
// narrowed to one of them:
//
//	```facts
//	events: reason=SuccessfulCreate component=pkg/controller
//	```
//
// lists the pod control's "Created pod: …" (which the replicaset and job
// controllers share) and leaves out pkg/controller/cronjob's "Created job".
//
// An empty result is an error: the walkthrough promises something the code
// at this tag no longer has.
//
// # Other Markdown
//
// CommonMark with GitHub tables, strikethrough and bare-URL links. Raw
// HTML is dropped (goldmark's default, never html.WithUnsafe; DroppedHTML
// lists it, for check to warn of a "<name>" meant as text), and
// javascript:, vbscript:, file: and non-image data: links get an empty
// href (whoever renders the Markdown with goldmark's HTML renderer, as
// the site does). Other fenced code (yaml, sh, json, go, …) keeps its
// text and language (CodeText); the site highlights it as its source
// pages. This package makes no HTML.
//
// # Links between walkthroughs
//
// A link to a sibling file, [the first step](informers.md#step-1-…) or
// [informers](informers.md) (a translation may write informers.ko.md),
// is a link to that walkthrough: it works on GitHub as written, the site
// points it at the walkthrough's page in the reader's language
// (a node of kind KindWalkLink, WalkNodeOf), and Load and Check report a link to a
// walkthrough that is neither in the same directory nor among
// Options.Also (kubewalk passes the other directories of the site, so
// your walkthroughs may link to the built-in ones), or to a step anchor
// it does not have. A translation's step anchors are its original's.
//
// # Symbol references are shared between languages
//
// References are written once, in the English original: a translation
// shows the original's named excerpts with use:, and its [text][label]
// links find the original's link reference definitions (the original's
// definitions are put into the translation's parser context before it is
// parsed). The translation is checked to have the same steps. A
// translation may still write a go: link of its own; it is resolved like
// any other.
//
// # Errors
//
// Every problem is an *Error, "file:line:col: message (did you mean X?)",
// lines and byte columns 1-based. Parse reports syntax only; Load and
// Check resolve too; Check reports every problem of every file in every
// language, sorted, not only the first.
//
// # Documents are data; rendering is the reader's
//
// Load returns Docs whose text is parsed Markdown (Markdown: goldmark
// nodes, references resolved), so a command that only reads walkthroughs
// (explain, record, export codetour, check) needs no link rules and no
// HTML. Whoever shows a Doc renders its Markdown with the link rules it
// decides: the site, through internal/render/prosehtml, with its pages'
// URLs and highlighter.
//
// One goldmark.Markdown (md, markdown.go) parses every file. One
// extension or step per file: refs.go (inline references: inline parser
// and AST transformer), notrun.go (not-run marks after references),
// walklinks.go (links between walkthroughs), excerpt.go, facts.go,
// steps.go (step split and heading attributes), frontmatter.go;
// markdown.go is Markdown and what a renderer reads of this package's
// nodes.
package walkthrough
