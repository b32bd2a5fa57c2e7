package site

import (
	"fmt"

	"github.com/kubewalk/kubewalk/site/internal/treemerge"
)

// A bilingual release writes each index page (indexPage) once for its
// languages, at the release's root beside its language directories:
// each language renders the page as it would its own, and the renderings
// are merged as a multi-release site merges a page its releases share
// (package treemerge), the languages standing for the releases. What is
// the same in every language — the tables' symbols, files and lines — is
// written once; each language's text, and its links to its own pages, is
// marked with the languages that show it (data-lg, a bit per language of
// data-langs on <html>, in the site's order; hidden unless the first has
// it). site.js shows the language ?lang= names, as on the source pages,
// and carries ?lang= on links to the pages the languages share. Without
// script a reader sees the first language's. Such a page links the
// shared source pages without ?lang= (relQueryAt): its links are the same
// in every language. In a site of several releases, each release's page
// so merged is then shared between the releases (package pageshare,
// data-r), as a page of one language is.

// mergeLangs renders an index page in each language (rs, in the
// languages' order) and merges the renderings into one page
// (treemerge.Langs).
func (b *builder) mergeLangs(rs []page) ([]byte, error) {
	if len(rs) != len(b.rel.langs) {
		return nil, fmt.Errorf("site: %s rendered in %d of %d languages", rs[0].path, len(rs), len(b.rel.langs))
	}
	data := make([][]byte, len(rs))
	langs := make([]string, len(rs))
	for i, p := range rs {
		d, err := p.render()
		if err != nil {
			return nil, err
		}
		data[i], langs[i] = d, b.rel.langs[i].in.Lang
	}
	return treemerge.Langs(rs[0].path, data, langs)
}
