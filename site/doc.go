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
// resolved); Build renders their Markdown with walkthrough.Renderer and
// the site's link rules (prose.go): inline references to the source
// pages, links between walkthroughs to their pages, fenced code
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
//	search-index.js                 the full-text search index as a script (file:// cannot fetch JSON; search.go)
//	facts.json.zst                  every fact, for tools, zstd-compressed (package analyzer/fact/factsfile; linked from the home page)
//	assets/site.css site.js search.js explain.js lang.js
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
// BuildReleases makes one site of several releases: <out>/<tag>/… per
// release, laid out as above but for the assets, which sit once at
// <out>/assets/ for every release (assets.go), and the source pages,
// which sit once at <out>/src/ for every release that renders the
// file: each line once, marked with the releases that have it, and each
// release's permalink,
// backlinks and switcher, chosen by ?rel=<tag> (shared.go, merge.go); a
// page over a megabyte is cut into parts, src/<path>.2.html …. The
// walkthroughs, indexes, traces and controller pages two releases or more
// have are written once as well, at <out>/<lang>/… (pagemerge.go): the
// releases' renderings, which print a location's lines by its source
// page's anchors (lines.go: site.js numbers them as the release read
// does, from its <out>/<tag>/lines.js), merged as trees, what differs
// written per release and chosen by ?rel=<tag> in site.js, every link
// of the site to one of
// them naming its release; a page that would pass a megabyte is written
// once per group of releases (<name>.<tag>.html beside it); a
// resources page's graph is drawn on the layout of every release's
// graph (graphrel.go), so its drawings merge too. What the releases'
// search and explain scripts share is written once at the root and in
// <out>/<lang>/ (searchrel.go, explainrel.go), each release's own part
// staying in <out>/<tag>/ with the recorded run and its changes page
// (one page for its languages in a bilingual site: changes.go). Files no
// release renders that the facts locate code in are aligned across the
// releases too (linemaps.go), so a GitHub permalink into them is printed
// once by its stable lines. <out>/index.html lists the
// releases newest first (semver). Every page has a version switcher whose targets are computed
// at build time from each release's page inventory: the same walkthrough
// (site.js carries the step in view over when the other release has that
// step ID), the same source file when it is rendered there, else that
// release's home. Each release after the oldest shows, on every excerpt
// and step, a badge for references whose code moved, changed, was renamed
// or is gone since the previous release (Input.Changes, from
// internal/derive/reldiff), with the diff behind a <details>. One release builds
// flat, exactly as Build.
//
// Every link is relative to the page it is on, so the site works from
// file:// and under any URL prefix. Nothing is
// loaded from elsewhere: no CDN, no web fonts; GitHub permalinks at the tag
// are the only external links.
//
// Which files get source pages: those a walkthrough cites (excerpts and
// inline references) and those a handler, wiring, write or event points
// into, but for a file whose page would pass a megabyte even as plain
// text, which a site of one release links on GitHub (regenerated.go). Identifier links go to the target's source page when it has one and
// to GitHub at the tag otherwise — rendering every target would pull in
// most of the tree for a few clicks.
//
// # Safety
//
// Templates are html/template, parsed once from package templates and
// cloned per build to bind the UI language. template.HTML is produced in
// exactly three places, each with a comment saying why it is safe: the
// highlighted code and diagrams from internal/render/codehtml and internal/render/diagram
// and the source page table that wraps those lines with integer-only
// markup (both in code.go), and walkthrough segments, which are
// walkthrough.Renderer's goldmark output with raw HTML off around, in
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
// format beside their encoders.
//
// # The format of a site of several releases (draft)
//
// What BuildReleases writes beyond a single release's pages, and what
// site.js, search.js and explain.js decode, defined in one place. This is
// the format today's encoders (merge.go, shared.go, pagemerge.go,
// lines.go, searchrel.go, explainrel.go) emit; a stage that combines
// releases from data must emit it or change it here first. Throughout,
// the releases of a page are listed newest first, and a release mask is
// a number whose bit k (least significant first) is the k-th of them,
// written in lower-case hexadecimal without a prefix; at most 31
// releases share a page (maxMergeRels), so site.js reads a mask as a
// 32-bit integer.
//
// Shared source pages (src/<path>.html, parts <path>.<n>.html):
//
//   - A line is <u id=A data-r=M hidden>…</u>: A its anchor ("L12" the
//     newest release's line 12; "L12.1", "L12.2" … the lines it lacks
//     after its line 12), M the mask of the page's releases that show the
//     line so (absent: all of them); hidden unless the newest shows it. A
//     line rendered differently by some releases is written once per
//     rendering, each with its mask, one after the other.
//   - Each release's header is a <div class="langblock"> with data-rel
//     (its tag) and data-lang; data-gh is its GitHub base where that is
//     not the newest's with the tag changed. data-like=T (with data-drop,
//     the paths of its bar's links to pages the release lacks) says the
//     header is release T's with the release's tag put in (likeNewest),
//     and site.js makes it; a header block (srcheadlike) carries data-n,
//     the release's number of lines, and either data-head=T, the release
//     whose header it is made from with the release's numbers, or the
//     header whole in anchor form.
//   - data-ghf, on the newest release's first part: the GitHub permalinks
//     in the code that go to another line of the same file for some
//     release, from the page's GitHub base on, space-separated, sorted.
//     data-ghl, per older release: "<index>#<line>=<its line>,…" groups,
//     space-separated, index into data-ghf.
//   - data-lnt, on the newest's header: every href a release's other
//     links move to, space-separated, in order of first use. data-lnk,
//     per older release: pairs of indexes into data-lnt, "<href>
//     <where it goes for the release>"; a target that is a fragment alone
//     is on the first href's page (linkMoves).
//   - ?rel=T&lang=L pick the release and language shown; a query naming
//     a part the page lacks is a broken link (internal/linkcheck).
//
// Pages the releases share (<lang>/<page>, <lang>/<name>.<tag>.html for
// a group whose newest release is not the site's): the <html> element
// carries data-rels (the group's tags), data-releases (every release of
// the site), data-root (the way up to the site's root) and, when other
// groups serve the page, data-groups ("<tag>,<tag>=<url>" per group,
// space-separated, where site.js sends their releases); a child not
// every release has carries data-r (mask over data-rels),
// hidden unless the newest has it; an id a hidden rendering repeats is
// data-id there. A release's own title is a second <title>. Locations in
// files with a shared source page print stable anchors and carry data-l
// ("136-140", the anchors' numbers), which site.js rewrites as the
// release's own from its line map.
//
// Line maps: <tag>/lines.js assigns window.kubewalkLines, a JSON object
// from repository path to the release's lines as runs of anchors
// (lineRuns: "<n>:<count>" n anchors on from the previous run's end,
// "<n>.<k>:<count>" at the k-th line after the newest's line n that it
// lacks, ":1" left out; "1:27 .1 1:9 3.1:3" is lines 1-27 at 1-27, 28 at
// 27.1, 29-37 at 28-36, 38-40 at 39.1-39.3); a file whose lines are the
// anchors' own is absent.
//
// Search: <lang>/search-site.js and <first language>/search-site-shared.js
// list the releases newest first, the entries two releases or more have,
// and per entry a mask of those that have it, URLs relative to a
// release's search page, rel=* standing for the release and rel=+ for
// the release but none for the entry's newest; each release's
// search-index.js keeps its own entries and names its tag and the site
// scripts to load (searchrel.go).
//
// Explain: explain-shared.js at the root holds the call sites two
// releases' indexes or more have, aligned as source lines are, each with
// "in", a mask over the releases, and "x", the values that differ; tags
// and permalink lines are tokens in its strings. Each release's
// explain-index.js names its bit ("copy") and keeps its own sites with
// their places ("at"); <lang>/explain-steps-shared.js holds each distinct
// list of steps with the tags that have it (explainrel.go).
package site
