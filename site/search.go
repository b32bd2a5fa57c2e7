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
	_, shared, err := b.searchIndex()
	if err != nil {
		return nil, err
	}
	var body struct{ SharedJS string }
	if shared != nil {
		body.SharedJS = relURL(b.full(searchPage), langsOf(b)[0].full(searchSharedJS), "")
	}
	return b.exec("search", b.pageData(searchPage, b.t("search.title"), "search", body))
}

// searchIndex is built at build time: walkthroughs, steps, referenced
// symbols, event reasons, resources and rendered files. search.html loads
// it as a script (search-index.js assigns a global) because fetch() of a
// JSON file fails from file://.
//
// In a bilingual release the entries every language has alike are
// search-shared.js (searchindex.Scripts), written once, beside the first
// language's search page; shared is nil when there is nothing to share;
// the first language writes it (dataPages). The scripts are made once
// for all the languages. A multi-release site then moves the entries two
// releases or more have into scripts of its own (package searchshare).
func (b *builder) searchIndex() (own, shared []byte, err error) {
	ls := langsOf(b)
	x := &ls[0].searchIdx
	x.once.Do(func() { x.own, x.shared, x.err = searchScripts(ls) })
	if x.err != nil {
		return nil, nil, x.err
	}
	return x.own[slices.Index(ls, b)], x.shared, nil
}

// searchIndexes are the search scripts of a release's languages
// (builder.searchIndex): each language's search-index.js, in langsOf's
// order, and search-shared.js (nil when none).
type searchIndexes struct {
	once   sync.Once
	own    [][]byte
	shared []byte
	err    error
}

// searchScripts makes the search scripts of languages ls.
func searchScripts(ls []*builder) (own [][]byte, shared []byte, err error) {
	entries := make([][]searchEntry, len(ls))
	for i, lb := range ls {
		entries[i] = lb.searchEntries()
	}
	return searchindex.Scripts(entries)
}

// searchEntries lists the search index's entries (searchindex.Entries),
// with b's links from search.html's directory. Links into the source
// pages are the first language's, which name no language (site.js adds
// the reader's to a link it follows), so that the languages' entries of
// symbols and files agree (searchIndex).
func (b *builder) searchEntries() []searchEntry {
	const root = searchPage
	first := langsOf(b)[0]
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
