// Package site renders kubewalk's static website: the walkthroughs, source
// pages of every file they and the fact indexes point into, the indexes of
// informer handlers, events and resources, search and facts.json.zst.
//
// It is the last stage of the pipeline and knows nothing of how facts were
// found: Build takes plain data (Input: facts, symbols, identifier tables,
// resolved walkthroughs, a ReadFile for the tree) and link rules as
// functions (Options.SourceURL), in the manner of pkgsite's dochtml.
//
//	st, err := site.Build(ctx, site.Input{
//		Tag: tree.Tag, Commit: tree.Commit, Backend: tree.Backend, Lang: "ko",
//		Facts: res.Facts(), Symbols: res.Symbols, Xrefs: res.Xrefs, Docs: docs,
//		ReadFile: func(p string) ([]byte, error) { return os.ReadFile(filepath.Join(tree.Dir, p)) },
//	}, site.Options{Out: "public", SourceURL: tree.Permalink})
//
// Input holds values of the stages before site, never the stages
// themselves: facts, symbols and identifier tables of package fact (not
// the analyzer that found them), resolved walkthroughs (walkthrough.Doc),
// recorded runs (record.Recording), and what two derivations of the facts
// found — internal/derive/reldiff's changes since the previous release (Changes,
// FactChanges) and internal/derive/trace's chains (Traces). Their types are used
// as they are, not copied into site: reldiff and trace, like walkthrough,
// import only fact (and reldiff walkthrough), never site, the loader or an
// HTML renderer, so data flows one way, into site, and what they report is
// defined once. TestDependencies holds that.
//
// Walkthroughs come as data (walkthrough.Doc: parsed Markdown, references
// resolved); each walkthrough page renders their Markdown with
// prosehtml.Renderer and the site's link rules for that page
// (prose.go): inline references to the source pages (in a site of
// several releases, the shared page serving the release, lines by their
// stable numbers), links between walkthroughs to their pages, fenced code
// highlighted as the source pages are. This package decides the URLs and
// the code's markup, so only it knows them.
//
// # Layout
//
//	index.html                      home: walkthroughs, release, indexes
//	walkthroughs/<id>.html          one per walkthrough
//	src/<repo path>.html            source pages (#L12, #L12-L30)
//	handlers.html events.html resources.html search.html
//	traces/<kind>.html              chains derived from the facts (internal/derive/trace)
//	explain.html explain-index.js   paste events or audit lines, explained in the browser
//	explain-steps.js                the walkthrough steps explain-index.js names, titled in the page's language
//	changes.html                    what changed since Input.Since (multi-release sites; both languages)
//	diffs.js                        the diffs of the changes page and the walkthroughs' badges (changes.go)
//	search-index.js                 the full-text search index as a script (file:// cannot fetch JSON; its entries search.go, its terms and format site/internal/searchindex)
//	facts.json.zst                  every fact, for tools, zstd-compressed (package analyzer/fact/factsfile; linked from the home page)
//	assets/site.css site.js search.js explain.js lang.js (releases.js: a release of several, site/releases)
//	.kubewalk-site                  marker: Build only ever replaces its own output
//
// With Input.Langs (the command line's default: en and ko) the site is
// bilingual (langs.go): <out>/en/… and <out>/ko/… each laid out as above
// but for what is the same in every language, which sits once at <out>/
// for all of them: src/, facts.json.zst, diffs.js,
// assets/ and explain-index.js (each language has its own only when its
// walkthroughs give the call sites other steps: explain.go);
// <out>/index.html sends the reader to the browser's language
// (assets/lang.js); every page has a language switch and hreflang
// alternates.
//
// Package site/releases makes one site of several releases and defines
// the pages and scripts such a site adds; one release builds flat,
// exactly as Build. This package renders each of the releases for it
// (PrepareReleases: a Prepared, whose comment lists what the stage hands
// in and gets back, as data, in order); the stage runs the passes that
// combine them, and draws the releases' resource graphs on one layout
// (Prepared.ResourceGraphs). What a release renders as one of several
// stays here, over data: its version switcher (from the releases'
// Manifests and the shared source pages' layout; no release reads
// another's builder), its lines printed by their stable anchors
// (lines.go), and its header blocks on the shared source pages
// (shared.go, rendering what srcmerge.Src.Blocks decides).
//
// What is not rendering lives beside its format or its data:
// site/internal/searchindex makes the search index's entries and builds
// it, site/internal/pagecache keeps the files a rebuild reuses,
// internal/derive/runlog, cited, gates, coverage and reldiff derive what
// the recorded run, gate, coverage and changes views show, site/internal/covdata
// encodes a source page's coverage for site.js, site/internal/linediff
// makes a recorded object's change, site/internal/scriptlinks reads a
// built site's data scripts for the link checker, templates.Messages
// reads the UI text, internal/disk/publish puts a site into
// Options.Out, internal/derive/chain orders the Observed panel's
// functions.
//
// Every link is relative to the page it is on, so the site works from
// file:// and under any URL prefix. Nothing is
// loaded from elsewhere: no CDN, no web fonts; GitHub permalinks at the tag
// are the only external links.
//
// Which files get source pages: those a walkthrough cites (excerpts and
// inline references) and those a handler, wiring, write or event points
// into, but for a file whose page would pass a megabyte even as plain
// text, or a generated one whose page would pass a quarter of that,
// which a site of one release links on GitHub (regenerated.go). Identifier links go to the target's source page when it has one and
// to GitHub at the tag otherwise — rendering every target would pull in
// most of the tree for a few clicks. A link to GitHub in code is written
// compact: the rest of its permalink after the release's base in data-g,
// staging/src/k8s.io/ written as "~" (<a class=t
// data-g=~api/core/v1/types.go#L30>, codehtml.CompactGitHub), the
// base once per page on the <body> (data-gh: source pages, walkthroughs,
// traces), and site.js gives each such link its href, base and data-g,
// as the page loads (highlight, in code.go). Without script such an
// identifier is shown but is no link.
//
// # Safety
//
// Templates are html/template, parsed once from package templates and
// cloned per build to bind the UI language. template.HTML is produced in
// exactly three places, each with a comment saying why it is safe: the
// highlighted code and diagrams from internal/render/codehtml and internal/render/diagram
// and the source page table that wraps those lines with integer-only
// markup (both in code.go), and walkthrough segments, which are
// prosehtml.Renderer's goldmark output with raw HTML off around, in
// fenced code blocks, codehtml's output again (highlightCode, prose.go). Tests build a site whose titles, captions, facts and
// file names carry script tags and javascript: URLs and check they come out
// as text.
//
// # Determinism and atomicity
//
// Everything is sorted before it is written; no timestamps or absolute
// paths reach the output, so two builds of the same input are
// byte-identical (TestDeterministic). Pages render in parallel
// (errgroup.SetLimit(Options.Workers)); statistics are gathered by index
// and read in path order. The site is built in a temporary directory beside
// Options.Out and renamed into place: a failed or cancelled build leaves
// the previous site as it was (TestAtomicOutput).
//
// # Building again
//
// kubewalk serve builds a release again after every walkthrough edit.
// With Options.Cache, a build keeps, as hard links to the previous build's
// files, the pages the edit cannot change — a page's key hashes what can
// change within a release, such as a source page's backlinks and which of
// its links go in-site — and renders the rest; with Options.InPlace, it
// updates an earlier build's directory instead of making a new tree, which
// saves making its directories again (on a file system that has just
// freed many inodes, ext4 can be slow to mkdir). The output is byte for
// byte a full build's (TestCacheRebuildIsFullBuild). After an edit of a
// step's text, a build renders a few of a release's pages again: home,
// the walkthroughs, search and explain.
//
// # Checking
//
// internal/linkcheck verifies a built site: every relative href, src and
// action resolves to a file, every #fragment to an id (a line range
// #L10-L20 to both ends), and nothing links out except over https.
// ScriptLinks lists, for it, the links the site's data scripts hold
// (search indexes, explain's data), read with the decoders of their
// format beside their encoders (site/internal/scriptlinks).
//
// # Testing
//
// Most tests build a small site and read its files. sitetest_test.go
// does both, after Hugo's integration tests: testBuild takes a txtar of
// walkthroughs (walkthroughs/<id>.md, loaded as walkthrough.LoadAll
// loads them) and, optionally, a tree of its own (tree/<path>, its
// declarations the symbols) and its facts (facts.json), builds with
// the fixture's tree and facts when it has no tree, and returns the
// site; AssertFileContent(path, "want", "! not this") checks a file's
// text and names the file and the text around a failed match. It is
// part of this package's tests, not a package of its own, because they
// read this package's unexported names and could not import a package
// that imports site.
package site
