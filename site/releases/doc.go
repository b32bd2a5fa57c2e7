// Package releases is the stage that makes one site of several
// releases of Kubernetes: its build matrix (Matrix: the releases, newest
// first, by the languages each is written in), its entry point (Build,
// which the command's `kubewalk build --tags` and `make site-all` reach
// through cmd/kubewalk/internal/sitebuild), and, below, the definition of
// the pages and scripts such a site has beyond a single release's. It
// imports package site, never the other way (site's TestDependencies).
//
// # The stage and package site
//
// Package site renders releases, one at a time; this package decides
// what a site of several is, and runs the passes that make one site of
// them — packages of no site code under site/internal, over plain data.
// What crosses is explicit (site.Prepared's comment lists it in order):
//
//   - in, per release, a site.Release (its site.Input and permalink
//     rule); site.PrepareReleases prepares them as a site.Prepared;
//   - per release a site.Manifest (tag, commit, the release it shows
//     changes since, its directory, its walkthroughs' step IDs, its other
//     pages, the files it has source pages of, its count of changed
//     references): every page's version switcher is computed from them,
//     and this package writes the list of releases from them
//     (site.WriteReleaseList);
//   - the shared source pages' layout, a srcmerge.Set, made by
//     srcmerge.Layout with the site.Prepared as its srcmerge.Renderer: the
//     files an older release regenerated wholesale left unrendered there
//     and linked on GitHub (srcmerge.Regenerated, Prepared.Unrender), each
//     file's copies aligned (srcmerge.Align), every release's rendering
//     of its lines filed there by site (Prepared.RenderLines), the page
//     split into parts (Set.Split, Prepared.PartBudget), the files the
//     facts only link aligned too (Set.AlignLinked over srcmerge.Linked
//     of the releases' facts and traces); site's pages link into it and
//     Prepared.Write writes the shared source pages from it, each
//     release's headers and backlinks rendered by site (site/shared.go)
//     in the form srcmerge.Src.Blocks decides (made over from the
//     newest's header, from another release's source header, or
//     whole);
//   - the releases' resource graphs, per language, as data
//     (Prepared.ResourceGraphs), which this package draws on one layout
//     (diagram.Graphs) and hands back (Prepared.SetResourceGraphs);
//   - over the site's files, which Prepared.Write puts into a
//     sitetree.Tree that is written to disk once the passes are done:
//     pageshare (the pages the releases share; its
//     tree merge in treemerge) with the releases' line maps
//     (Prepared.LineMaps, a linemap.Maps), which reports where the
//     links to the pages it shared go now (pageshare.Links);
//   - the releases' explain and search scripts, as data: each release's
//     explain Index and steps per language (Prepared.ExplainScripts) and
//     its search indexes (Prepared.SearchScripts, searchindex.Data),
//     which site does not write in a site of several; their links moved
//     by pageshare.Links, explainshare.Share and searchshare.Share write
//     them, with what the releases share written once.
//
// What stays in package site is rendering: a release's pages as one of
// several (the version switcher, computed from the releases' Manifests
// and the layout, lines printed by their stable anchors, lines.go, links
// into the shared source pages), the shared source pages' HTML (the
// header blocks srcmerge.Src.Blocks decides, through a
// srcmerge.BlockRenderer), and the changes since the previous release
// (changes.go), which are one release's page made from reldiff's
// comparison of two releases, handed in as Input.Changes. Site's own
// tests build sites of several releases with the same steps
// (site/releases_build_test.go), as they cannot import this package.
//
// # Layout
//
// A site of releases R₀ (newest) … Rₙ, in languages L₀ … Lₘ (one: the
// site has no language directories):
//
//	index.html                     the releases, newest first (site.WriteReleaseList)
//	assets/                        site.css site.js search.js explain.js lang.js releases.js
//	.kubewalk-site                 the marker, listing the site's files
//	src/<path>.html                a file's source page, for every release that renders it
//	src/<path>.<n>.html            part n (2, 3 …) of a source page over a megabyte
//	<page>                         an index page two releases or more have (traces/,
//	                               controllers/, handlers.html events.html resources.html gates.html),
//	                               every language's (data-lg), written once for the group of
//	                               releases of the newest that has it
//	<lang>/<page>                  the same of a walkthrough (walkthroughs/), one per language
//	<name>.<tag>.html              the same page for another group, named by its newest release,
//	                               beside it
//	<lang>/search-site.js          the search entries two releases or more have
//	<L₀>/search-site-shared.js     the same, of the entries every language has alike
//	<lang>/explain-steps-shared.js each distinct list of explain's steps
//	explain-shared.js              the explain call sites two releases or more have
//	<tag>/…                        release tag laid out as a single-release site (site's
//	                               package comment) but for what is above: its home,
//	                               search, explain, recorded run and changes pages, the
//	                               pages no other release shares, its scripts of data
//	<tag>/lines.js                 the release's line map (every release but the newest)
//
// In a site of one language <lang>/ is the root. Every link is relative;
// links into another release's directory or a shared page are what
// internal/linkcheck follows, reading a shared page as each release it
// shows a link for sees it.
//
// Throughout, the releases of a page are listed newest first, and a
// release mask is a number whose bit k (least significant first) is the
// k-th of them, written in lower-case hexadecimal without a prefix; at
// most 31 releases share a page (srcmerge.MaxRels), so releases.js
// reads a mask as a 32-bit integer. A page "shows" a release when it is
// opened with ?rel=<its tag>, or without ?rel= for the page's newest.
//
// # Scripts
//
// Every page of a release of several loads assets/releases.js before
// assets/site.js (the explain page: before assets/explain.js, and not
// again at its foot; the changes page too). releases.js runs nothing on
// load: it defines window.kubewalkReleases = {page, explain}. site.js
// calls page(k), k its helpers {stepInView, modified, shownLines,
// lineID}; page sets up what follows and returns {source(blocks, rel)},
// the release part of a shared source page's header blocks, whose
// pick(r, lang) returns the release to show ("" when it sends the reader
// elsewhere), like(block), shown() and relink(a). explain.js calls
// explain(S, R, SS) (below). A single release's pages load neither
// releases.js nor its code.
//
// # Every page
//
//   - The version switcher (<details class="versions">, one <li> per
//     release) links each release's counterpart of the page: the same
//     walkthrough, with data-keep = the step IDs of the page that release
//     has too, "*" for all (releases.js adds the step in view as the
//     fragment when data-keep holds it); the same source page at the
//     same line, with data-switch (site.js keeps the fragment); the same
//     other page when the release has it (Manifest.Pages); else that
//     release's home page, marked as such. Its last item links the list
//     of releases.
//   - Diffs since the previous release: an element with data-diffs names
//     the release's <tag>/diffs.js (window.kubewalkDiffs: change number
//     to unified diff, or "=N" for the same text as change N's).
//     a.badge[data-diff] (its href the change's entry, #d<N>, on the
//     changes page) opens that diff in a box cloned from
//     <template id="diffbox">; every pre[data-diff=N] is filled at once.
//
// # Source pages
//
// src/<path>.html and its parts, one page per file for every release
// that renders it (package site's shared.go; the lines' alignment and
// parts: site/internal/srcmerge):
//
//   - pre.code.src holds every release's lines, aligned by a line diff,
//     each merged line once per distinct rendering: <u id=A data-r=M>…</u>.
//     A is the line's anchor ("L12": the newest release's line 12;
//     "L12.1", "L12.2" …: the lines it lacks after its line 12, "L0.1"
//     … before its first), on the first rendering only; M the mask of the
//     page's releases that show the line so, absent when all do. site.css
//     hides a line whose mask lacks bit 0; releases.js, showing release k
//     > 0, adds class "rel" to the pre and hides every [data-r] line
//     without bit k. On a part of a page, data-start on the pre is, per
//     release, the number of its lines before the part (the CSS line
//     counter's start).
//   - Each release's and language's header and backlinks are a
//     <div class="langblock"> with data-rel (its tag) and data-lang, all
//     hidden but the newest release's first language's. data-gh, on an
//     older release's block, is the release's GitHub base
//     ("https://github.com/kubernetes/kubernetes/blob/v1.31.0/") where it
//     is not the newest's with the tag changed; the newest's is the
//     <body>'s data-gh (below).
//   - The code's GitHub links are the newest release's, in the compact
//     form a single release's pages have (package site's doc): <a data-g=P>,
//     P the rest of the permalink after the <body>'s data-gh, the newest
//     release's base (P attribute-escaped, and quoted, as an href would
//     be; a leading "~" stands for staging/src/k8s.io/,
//     codehtml.GitHubRest). site.js sets each such link's href, the
//     data-gh and the rest P names, and writes that rest whole into
//     data-g, as the page loads, before releases.js runs; without script
//     the identifier is no link. Showing an older release, releases.js gives each the href it
//     has for that release (so a new tab opens it too): the <body>'s
//     data-gh + P with the release's block's data-gh (or the tag swapped)
//     for the <body>'s, and on a line the release shares with newer ones
//     its line moved by data-ghl, or the link sent elsewhere by data-lnk. An empty block
//     with data-like=T (and data-drop, the space-separated paths of its
//     bar's links to pages the release lacks) is release T's header with
//     the release's tag put in: releases.js copies T's block, moves its
//     links' "/T/" and ?rel=T to the release's, drops data-drop's links,
//     swaps the switcher's current entry and adds ?rel= to the language
//     links. A source header (header.srchead) block of an older release
//     carries data-n, the release's number of lines, and either data-head=T
//     (empty: made the same way from release T's source header) or the
//     header whole; either way its cited lines are written as anchors and
//     releases.js renumbers them as the release counts its shown lines.
//   - data-ghf, on the newest release's block of the first part: the
//     GitHub permalinks in the code that go to another line of the same
//     file for some release, each from the page's GitHub base on (a
//     link's data-g, "~" expanded, without its fragment), space-separated, sorted. data-ghl, per older release: groups
//     "<index>#<line>=<its line>,<line>=<its line>…", space-separated,
//     index into data-ghf. data-lnt, on the newest's block: every href a
//     release's other links move to, space-separated, in order of first
//     use (a GitHub link's href whole: the <body>'s data-gh and its
//     data-g); data-lnk, per older release: pairs of indexes into data-lnt,
//     "<href> <its href>" (a target that is a fragment alone is on the
//     first href's page). A line an older release shares with a newer
//     (its mask has a lower bit, or none) takes these moves; a line of
//     its own has its own links.
//   - nav.parts links a page's parts; ?rel=T&lang=L pick the release and
//     language shown and links between source pages carry them along
//     (site.js). A ?rel= the page does not serve sends the reader through
//     its version switcher to that release's page of the file; a query
//     naming a part the page lacks is a broken link (internal/linkcheck).
//
// # Pages the releases share
//
// <page>, <lang>/<page> and their <name>.<tag>.html
// (site/internal/pageshare): each release's rendering, parsed, its links
// moved to the shared page's place, merged as trees newest first. An
// index page's rendering is itself its languages' merged (package
// site's langshare.go: <html> carries data-langs, the languages in
// order, and what differs between them data-lg, a mask over them,
// hidden unless the first has it); its releases' masks are data-r, and
// site.js shows an element when both its masks, where it has them, name
// the release and the language shown (?rel=, ?lang=).
//
//   - <html> carries data-rels (the tags of the group, newest first),
//     data-releases (every release of the site), data-root (the way up
//     to the site's root, "../" per directory) and, when other groups
//     serve the page, data-groups: "<tag>,<tag>=<url>" per other group,
//     space-separated, where releases.js sends a ?rel= of theirs (with
//     ?rel= and the fragment).
//   - A child not every release of the group has carries data-r (a mask
//     over data-rels), hidden unless the newest has it; text that
//     differs is a <span data-r>, or its element is written per
//     rendering where a span may not stand. An id a hidden rendering
//     repeats is data-id there; releases.js moves the id to the rendering
//     shown. A release's own title is a second <title data-r>. A table
//     cell left with nothing shown gets class "none" (site.css draws the
//     dash of an empty cell).
//   - Showing release r of the group, releases.js turns the newest's
//     directory in relative links (after any "../") and the tag of GitHub
//     permalinks into r's, and adds ?rel=r to every relative link but
//     those into a release's directory or to the list of releases. The
//     code of excerpts links GitHub in the compact form (<a data-g>, the
//     <body>'s data-gh the group's newest release's base: a source page's
//     code's form), made hrefs by site.js before releases.js runs, so
//     they take r's tag as the other permalinks do.
//   - Line numbers: a location in a file with a shared source page is
//     printed by the page's anchors ("x.go:136-140", "136.1" a line the
//     newest lacks), in text, title and GitHub permalink, and the element
//     carries data-l="136-140"; an excerpt's code is pre[data-l], its line
//     numbers (.nr) and elisions (.gap) by their text or their element's
//     data-l. For an older release releases.js loads <tag>/lines.js and
//     writes the release's own numbers. A group's page whose newest
//     release is not the site's, and a page left in a release's
//     directory, are written with that release's numbers already.
//
// # Line maps
//
// <tag>/lines.js assigns window.kubewalkLines, a JSON object from
// repository path to the release's lines as runs of anchors: "<n>:<count>"
// starts n anchors on from the previous run's end, at a line the newest
// has; "<n>.<k>:<count>" at the k-th line after the newest's line n that
// it lacks (n 0 left out); ":1" is left out. "1:27 .1 1:9 3.1:3" is lines
// 1-27 at 1-27, 28 at 27.1, 29-37 at 28-36, 38-40 at 39.1-39.3. A file
// whose lines are the anchors' own is absent.
//
// # Search
//
// window.KUBEWALK_SEARCH_SITE (<lang>/search-site.js) and
// window.KUBEWALK_SEARCH_SITE_SHARED (<L₀>/search-site-shared.js) are
// {docs, lens, terms, releases, rels}: docs, lens and terms as a
// release's search index has them (site/search.go), releases the tags
// newest first, rels per entry the mask of the releases that have it (a
// JSON number: at most 53 releases are told apart). An entry's URL is
// relative to a release's search page (<tag>/<lang>/search.html), with
// rel=* for the release reading it and rel=+ for it unless it is the
// entry's newest. Each release's search-index.js keeps its own entries
// and adds release (its tag) and site (the site scripts its page loads,
// relative to the page); search.js loads them as script elements.
//
// # Explain
//
// window.kubewalkExplainShared (explain-shared.js) is {tok, dirs,
// tables, entries}: tok two characters, the token of a release's tag in
// strings and of a permalink's line; dirs every index's package
// directories; tables the distinct values of the indexes' other tables;
// entries, per kind (events, writes, handlers), the call sites two
// indexes or more have, each with in (a hex mask over the releases), l
// (the line of each release that has it, in mask order) where they
// differ, and x, [[mask, {field: value}] …], the values of the releases
// in mask that differ from the entry's (null deletes the field; [p,
// text, s] keeps the first p and last s characters of the entry's string
// and puts text between). A release's
// explain-index.js (window.kubewalkExplain) is {tag, rel?, copy, tables,
// entries}: copy its bit, tables its entry in tables, entries its own
// sites, each with at, its place in the release's list.
// window.kubewalkExplainStepsShared (<lang>/explain-steps-shared.js) is
// {tok, lists}: each distinct list of steps, tag as a token, with the
// tags that have it. releases.js's explain(S, R, SS) puts a release's
// index and steps back together; explainshare.Encode checks before it
// returns them that this gives every release what it wrote.
package releases
