package site

import (
	"slices"
	"sync"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/site/internal/searchindex"
)

// Search is full text and static: package searchindex makes the entries
// (Entries), the index's format and terms.

// searchEntry is one search hit (searchEntries).
type searchEntry = searchindex.Entry

// searchData is search-index.js's JSON (package searchindex).
type searchData = searchindex.Data

// searchPage is search.html: it loads search-shared.js, when the
// release's languages have one, before its own search-index.js.
func (b *builder) searchPage() ([]byte, error) {
	var body struct{ SharedJS string }
	if _, shared := b.searchIndex(); shared != nil {
		body.SharedJS = relURL(b.full(searchPage), b.rel.langs[0].full(searchSharedJS), "")
	}
	return b.exec("search", b.pageData(searchPage, b.t("search.title"), "search", body))
}

// searchIndex is built at build time: walkthroughs, steps, referenced
// symbols, event reasons, resources and rendered files. search.html loads
// it as a script (search-index.js assigns a global) because fetch() of a
// JSON file fails from file://.
//
// In a bilingual release the entries every language has alike are
// search-shared.js (searchindex.Indexes), written once, beside the first
// language's search page; shared is nil when there is nothing to share;
// the first language writes it (dataPages). The indexes are made once
// for all the languages. A multi-release site hands them to its stage
// as data (Prepared.SearchScripts), which moves the entries two releases
// or more have into scripts of its own (package searchshare).
func (b *builder) searchIndex() (own searchData, shared *searchData) {
	ls := b.rel.langs
	x := &b.rel.searchIdx
	x.once.Do(func() {
		entries := make([][]searchEntry, len(ls))
		for i, lb := range ls {
			entries[i] = lb.searchEntries()
		}
		x.own, x.shared = searchindex.Indexes(entries)
	})
	return x.own[slices.Index(ls, b)], x.shared
}

// searchIndexes are the search indexes of a release's languages
// (builder.searchIndex): each language's search-index.js, in the release's
// order, and search-shared.js (nil when none).
type searchIndexes struct {
	once   sync.Once
	own    []searchData
	shared *searchData
}

// searchScripts adds b's search scripts to l: its search-index.js and,
// for the first language, search-shared.js. A release of a
// multi-release site has its stage write them (Prepared.SearchScripts).
func (b *builder) searchScripts(l *pageList) error {
	if b.set != nil {
		return nil
	}
	own, shared := b.searchIndex()
	js, err := searchindex.Script(own)
	if err != nil {
		return err
	}
	l.static(searchIndexJS, js)
	if shared != nil && b == b.rel.langs[0] {
		js, err := searchindex.Script(*shared)
		if err != nil {
			return err
		}
		l.static(searchSharedJS, js)
	}
	return nil
}

// searchEntries lists the search index's entries (searchindex.Entries),
// with b's links from search.html's directory. Links into the source
// pages are the first language's, which name no language (site.js adds
// the reader's to a link it follows), so that the languages' entries of
// symbols and files agree (searchIndex).
func (b *builder) searchEntries() []searchEntry {
	const root = searchPage
	first := b.rel.langs[0]
	return searchindex.Entries(searchindex.Release{
		Docs: b.docs, Facts: b.in.Facts, Files: b.files, Prose: b.prose,
		Rendered: func(f string) bool { return b.rendered[f] },
		URLs: searchindex.URLs{
			Walkthrough: func(id, step string) string { return relURL(root, WalkthroughPage(id), step) },
			Symbol: func(decl fact.Location) string {
				return first.link(root, SourcePage(decl.Path), lineFragment(decl.StartLine, decl.EndLine))
			},
			Event:       func(key string) string { return b.link(root, eventsPage, anchorID("e-", key)) },
			Resource:    func(label string) string { return b.link(root, resourcesPage, anchorID("res-", label)) },
			File:        func(f string) string { return first.link(root, SourcePage(f), "") },
			SymbolTitle: b.shortName,
		},
	})
}
