package site

import (
	"sort"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/internal/derive/coverage"
	"github.com/kubewalk/kubewalk/internal/derive/explain"
	"github.com/kubewalk/kubewalk/internal/render/codehtml"
	"github.com/kubewalk/kubewalk/record"
	"github.com/kubewalk/kubewalk/site/internal/pagecache"
)

// Cache carries pages from one Build to the next build of the same
// release, so that a build after a walkthrough edit renders again only
// what the edit can change (kubewalk serve: save → reload). Pass the same
// Cache in Options.Cache to every build of a session; without one, Build
// renders everything, as it always did.
//
// What a build reuses, and the inputs its key covers besides the release:
//
//   - a source page: the file's path, its backlinks (the steps citing it,
//     as the page shows them), and which of the files its identifiers
//     link to have a source page (a link goes in-site or to GitHub);
//   - the handlers, events and resources pages and the trace pages: the
//     set of files with a source page (their links);
//   - the highlighted files behind walkthrough excerpts: as a source page's
//     links;
//   - facts.json: nothing but the release;
//   - the files whose content is known before rendering (assets, search
//     index, marker): that content.
//
// Every other page (home, walkthroughs, search, explain) is rendered each
// time. A reused page is a hard link to the same file of the previous
// successful build, so the output is byte for byte what a fresh build
// writes, and nothing is rewritten; where the link fails (the previous
// output is gone, another file system), the page is rendered. With
// Options.InPlace, a build into the output of an earlier build leaves the
// pages that kept their key where they are.
//
// A page shared by hard link is never written to: a build replaces such a
// file by unlinking it first. Only the pages rendered every time, which
// are never linked, are overwritten in place.
//
// "The release" is everything in Input but Docs and what is derived from
// them (Changes, FactChanges: only pages rendered every time show those):
// Tag, Commit, Backend, Lang, Since, Facts, Symbols, Xrefs, Traces and
// Recordings (source pages mark the lines a recorded run counted) are
// compared (the slices and Facts by identity: an analysis result is never
// modified) and the Cache starts afresh when any of them differs. ReadFile and
// Options.SourceURL cannot be compared: a Cache must not outlive the tree
// they read. Build uses the Cache; PrepareReleases, for a site of several
// releases, does not. Builds using one Cache run one at a time.
type Cache struct {
	store pagecache.Store[cacheBase] // what the last few builds wrote, by key

	// The memos below depend on the release only, and survive failed
	// builds.
	targets pagecache.Memo[struct{}, []string] // by file: the paths its identifiers link to
	// lines are the highlighted files for excerpts, under the key of
	// their links.
	lines pagecache.Memo[pageKey, []codehtml.Line]
	// factsSize is facts.json.zst's size under the facts the file was
	// compressed against (the newest release's, for an older release of
	// a site of several), nil for none. An analysis result is never
	// modified: the pointer names the facts, and keeping it keeps
	// another's from taking its address.
	factsSize pagecache.Memo[*fact.Facts, int]
	// coverage is the recordings' (under ""), with the line counts it
	// keeps: an edit of a walkthrough changes none of it.
	coverage pagecache.Memo[struct{}, *covScenarios]
	// matches are the recordings' items matched to code
	// (explain.CodeMatch), by scenario under the recording: the facts
	// decide them, the walkthroughs do not, so a build after an edit
	// puts them under the new steps (explain's AttributeSteps) instead
	// of matching every item again (codeMatch).
	matches pagecache.Memo[*record.Recording, *explain.CodeMatch]
	// controllers is what the controller pages share (under ""): the
	// facts, symbols, source and traces decide it, the walkthroughs do
	// not.
	controllers pagecache.Memo[struct{}, *controllerData]
	// ranTables are the controller pages' tables of what ran, by page:
	// the recordings' coverage of the controller's packages, which the
	// walkthroughs do not change.
	ranTables pagecache.Memo[struct{}, *coverage.Table]
	// sourceCovs are the source pages' coverage marks, by file: every
	// build asks for every rendered file's, to know whether its page
	// fits, and only the recordings decide them.
	sourceCovs pagecache.Memo[struct{}, *sourceCov]
}

// NewCache returns an empty Cache.
func NewCache() *Cache { return &Cache{} }

// cacheBase identifies the release a Cache's entries belong to.
type cacheBase struct {
	tag, commit, backend, lang, since string
	facts                             *fact.Facts
	xrefs                             *fact.FileXref
	symbols                           *fact.Symbol
	traces                            *TraceInput
	// recordings: source pages mark the lines their coverage counted.
	recordings                       **record.Recording
	nXrefs, nSymbols, nTraces, nRecs int
}

func baseOf(in Input) cacheBase {
	return cacheBase{
		tag: in.Tag, commit: in.Commit, backend: in.Backend, lang: in.Lang, since: in.Since,
		facts: in.Facts, xrefs: first(in.Xrefs), symbols: first(in.Symbols), traces: first(in.Traces),
		recordings: first(in.Recordings), nRecs: len(in.Recordings),
		nXrefs: len(in.Xrefs), nSymbols: len(in.Symbols), nTraces: len(in.Traces),
	}
}

func first[T any](s []T) *T {
	if len(s) == 0 {
		return nil
	}
	return &s[0]
}

// pageKey hashes every input of a page that can change within a release.
type pageKey = pagecache.Key

// begin locks c for a build of in and drops every entry of another
// release; pagecache.Publish unlocks it.
func (c *Cache) begin(in Input) {
	c.store.Begin(baseOf(in), &c.targets, &c.lines, &c.factsSize, &c.coverage, &c.matches, &c.controllers, &c.ranTables, &c.sourceCovs)
}

// linkTargets returns the paths file p's identifiers link to, sorted.
func (c *Cache) linkTargets(p string, idents []fact.Ident) []string {
	if ts, ok := c.targets.Get(p, struct{}{}); ok {
		return ts
	}
	seen := map[string]bool{}
	var ts []string
	for _, id := range idents {
		if t := id.Target.Path; t != "" && !seen[t] {
			seen[t] = true
			ts = append(ts, t)
		}
	}
	sort.Strings(ts)
	c.targets.Put(p, struct{}{}, ts)
	return ts
}

// linksKey adds to k which of the files p links to have a source page.
func (b *builder) linksKey(k pagecache.Hasher, p string) {
	for _, t := range b.reuse.linkTargets(p, b.xrefs[p]) {
		if b.rendered[t] {
			k.Add(t)
		}
	}
}

// sourceKey is the key of file f's source page.
func (b *builder) sourceKey(f string) pageKey {
	k := pagecache.NewHasher("source")
	for _, c := range b.citeViews(f) {
		k.Add(c.Doc)
		k.Add(c.Step)
		k.Add(c.Href)
		k.Add(c.Lines)
	}
	k.Add("links")
	b.linksKey(k, f)
	return k.Sum()
}

// filesKey is the key of the pages whose links depend only on which
// files have a source page.
func (b *builder) filesKey() pageKey {
	b.filesOnce.Do(func() {
		k := pagecache.NewHasher("files")
		for _, f := range b.files {
			k.Add(f)
		}
		b.filesSum = k.Sum()
	})
	return b.filesSum
}

// releaseKey is the key of a page that depends on the release only.
func releaseKey() pageKey { return pagecache.NewHasher("release").Sum() }

// cachedFactsSize is facts.json.zst's size for the release, compressed
// against the facts against (nil: alone), if a build measured it; c may
// be nil.
func (c *Cache) cachedFactsSize(against *fact.Facts) (int, bool) {
	if c == nil {
		return 0, false
	}
	return c.factsSize.Get(factsFile, against)
}

// codeMatch returns rec's items matched to code by x (explain's
// MatchCode), the one a build before matched if the Cache has it: it
// depends on the release only (the facts, and the permalinks of
// Options.SourceURL, which a Cache does not outlive). The steps are
// never kept: AttributeSteps puts the match under x's, which are this
// build's.
func (b *builder) codeMatch(x *explain.Explainer, rec *record.Recording) *explain.CodeMatch {
	match := func() *explain.CodeMatch { return x.MatchCode(rec) }
	if b.reuse == nil {
		return match()
	}
	return b.reuse.matches.Keep(rec.Scenario, rec, match)
}

// keepFactsSize remembers facts.json.zst's size for the release,
// compressed against the facts against (nil: alone); c may be nil.
func (c *Cache) keepFactsSize(n int, against *fact.Facts) {
	if c != nil {
		c.factsSize.Put(factsFile, against, n)
	}
}
