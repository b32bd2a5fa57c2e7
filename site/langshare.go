package site

import (
	"bytes"
	"fmt"
	"math"
	"strings"

	"golang.org/x/net/html"

	"github.com/kubewalk/kubewalk/site/internal/treemerge"
)

// A bilingual site of one release writes each index page (indexPage)
// once for its languages, at the release's root beside the source pages:
// each language renders the page as it would its own, and the renderings
// are merged as a multi-release site merges a page its releases share
// (package treemerge), the languages standing for the releases. What is
// the same in every language — the tables' symbols, files and lines — is
// written once; each language's text, and its links to its own pages, is
// marked with the languages that show it (data-r, a bit per language of
// data-langs on <html>, in the site's order; hidden unless the first has
// it). site.js shows the language ?lang= names, as on the source pages,
// and carries ?lang= on links to the pages the languages share. Without
// script a reader sees the first language's.

// mergeLangs renders an index page in each language (rs, in the
// languages' order) and merges the renderings into one page.
func (b *builder) mergeLangs(rs []page) ([]byte, error) {
	if len(rs) != len(b.langs) {
		return nil, fmt.Errorf("site: %s rendered in %d of %d languages", rs[0].path, len(rs), len(b.langs))
	}
	docs := make([]*html.Node, len(rs))
	sizes := make([]int64, len(rs))
	langs := make([]string, len(rs))
	for i, p := range rs {
		data, err := p.render()
		if err != nil {
			return nil, err
		}
		doc, err := html.Parse(bytes.NewReader(data))
		if err != nil {
			return nil, fmt.Errorf("site: %s: %w", p.path, err)
		}
		root := treemerge.HTMLElement(doc)
		if root == nil {
			return nil, fmt.Errorf("site: %s: no <html> element", p.path)
		}
		// The first language's; site.js sets the one shown.
		setAttr(root, "lang", b.langs[0].in.Lang)
		docs[i], sizes[i], langs[i] = doc, math.MaxInt64, b.langs[i].in.Lang
	}
	gs, err := treemerge.Merge(docs, langs, sizes, math.MaxInt)
	if err != nil {
		return nil, fmt.Errorf("site: %s: %w", rs[0].path, err)
	}
	if len(gs) != 1 {
		// The renderings differ where a page may not vary: in the head.
		return nil, fmt.Errorf("site: %s: its languages' renderings do not merge", rs[0].path)
	}
	gs[0].Mark()
	setAttr(treemerge.HTMLElement(gs[0].Doc), "data-langs", strings.Join(langs, " "))
	var buf bytes.Buffer
	if err := html.Render(&buf, gs[0].Doc); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// setAttr sets attribute k of n to v.
func setAttr(n *html.Node, k, v string) {
	for i, a := range n.Attr {
		if a.Namespace == "" && a.Key == k {
			n.Attr[i].Val = v
			return
		}
	}
	n.Attr = append(n.Attr, html.Attribute{Key: k, Val: v})
}
