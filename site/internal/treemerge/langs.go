package treemerge

import (
	"bytes"
	"fmt"
	"strings"

	"golang.org/x/net/html"
)

// Langs merges the renderings of page p (a site path, for errors) in
// each of a release's languages, data in the order of langs, into one
// page, as Merge merges releases' renderings, the languages standing for
// the releases (package site's langshare.go: a bilingual release's index
// pages). The page is the first language's (its lang on <html>), with
// data-langs naming the languages, in order, for the masks' bits. The
// renderings may differ only where a page may vary: not in its head.
func Langs(p string, data [][]byte, langs []string) ([]byte, error) {
	docs := make([]*html.Node, len(data))
	for i, d := range data {
		doc, err := html.Parse(bytes.NewReader(d))
		if err != nil {
			return nil, fmt.Errorf("site: %s: %w", p, err)
		}
		root := HTMLElement(doc)
		if root == nil {
			return nil, fmt.Errorf("site: %s: no <html> element", p)
		}
		// The first language's; site.js sets the one shown.
		setAttr(root, "lang", langs[0])
		docs[i] = doc
	}
	gs, err := merge(docs, langs, nil, 0, LangMask)
	if err != nil {
		return nil, fmt.Errorf("site: %s: %w", p, err)
	}
	if len(gs) != 1 {
		// The renderings differ where a page may not vary: in the head.
		return nil, fmt.Errorf("site: %s: its languages' renderings do not merge", p)
	}
	gs[0].Mark()
	setAttr(HTMLElement(gs[0].Doc), "data-langs", strings.Join(langs, " "))
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
