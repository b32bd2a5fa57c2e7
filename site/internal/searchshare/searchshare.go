// Package searchshare writes once the search entries that two releases
// or more of a site of several releases have (package site runs it after
// the releases' pages are shared; site/releases' package comment defines
// the scripts).
//
// Each release's search page loads the release's search scripts
// (search-shared.js, the entries its languages have alike, and its
// language's search-index.js), which package site hands over as data
// (Script: the index searchindex.Indexes made), their URLs pointed at
// the pages the releases share (pageshare.Links). Most of one release's
// entries are another's too: the same symbols, files, events, resources
// and steps, at the same shared pages and anchors. Share writes the
// releases' scripts into the release's subtrees, and every entry two
// releases or more have once for the site:
//
//   - An entry is another release's when its kind, title, detail, terms
//     and their weights are the same and so is its URL but for ?rel= of
//     its own release ("../../en/events.html?rel=v1.29.6#e-BackOff"),
//     which a site script writes as rel=* (RelTemplate) and
//     search.js fills in (SiteURL). A link into a shared source
//     page has no ?rel= from the page's first release (shared.go
//     relQuery): written once with the other releases' as rel=+, dropped
//     for the entry's newest release. An entry whose URL differs more (a
//     page shared by a group of releases, a line anchor that moved, a
//     func literal's line in its title) is another entry.
//   - Each of a release's scripts has its site script at the site's root,
//     beside the shared pages: <lang>/search-site.js the entries of the
//     language's search-index.js, <first language>/search-site-shared.js
//     those of search-shared.js (in a site of one language, both at the
//     root). It lists the releases, newest first, and
//     per entry a mask of those that have it (Rels); its URLs, like a
//     release's, are relative to a release's search page
//     (<tag>/<lang>/search.html, the same from every release).
//   - A release's scripts keep the entries no other release has; its
//     search-index.js names its tag and the site scripts its page loads.
//     search.js loads them as script elements (no fetch: it fails from
//     file://) and puts the release's index together from the site's
//     entries the release has and its own: the same entries, terms and
//     weights as before, found and ranked the same.
//
// A site of more releases than a site script's masks tell apart
// (maxSearchReleases) keeps every release's entries its own.
package searchshare

import (
	"encoding/json"
	"fmt"
	"maps"
	"math/bits"
	"net/url"
	"path"
	"slices"
	"strings"

	"github.com/kubewalk/kubewalk/site/internal/searchindex"
	"github.com/kubewalk/kubewalk/site/internal/sitepath"
	"github.com/kubewalk/kubewalk/site/internal/sitetree"
)

// maxSearchReleases is the most releases a site script's masks tell
// apart: search.js reads them as numbers, exact up to 2^53. A site of
// more (Kubernetes has had some 35 minor releases) keeps every release's
// entries its own.
const maxSearchReleases = 53

// Script is one of a release's search scripts as package site hands it
// over (Prepared.SearchScripts).
type Script struct {
	Tag string // its release
	// Path is its site path: "v1.29.6/en/search-index.js", or
	// search-shared.js beside the release's first language's.
	Path string
	// Data is its index, its URLs relative to the search page beside it.
	Data searchindex.Data
}

// Page is the site path of the search page s's URLs are relative to.
func (s *Script) Page() string { return path.Join(path.Dir(s.Path), searchindex.Page) }

// Links are the script's entries' URLs, to be moved in place.
func (s *Script) Links() []*string {
	var us []*string
	for _, e := range s.Data.Docs {
		if len(e) > 2 {
			us = append(us, &e[2])
		}
	}
	return us
}

// relSearchScript is one of a release's search scripts, as
// Share groups its entries.
type relSearchScript struct {
	path string // its site path: "v1.29.6/en/search-index.js"
	site string // its site script's: "en/search-site.js"
	bit  uint64 // its release's bit in the site script's masks
	d    searchindex.Data
	es   []siteEntry
}

// siteEntry is an entry of a release's search script.
type siteEntry struct {
	doc []string // kind, title, URL, detail
	// tmpl is the URL with ?rel= of its release as rel=*; bare, when the
	// URL has none (a link into a shared source page from the release
	// the page is first of has none: shared.go relQuery) and rel=* was
	// put first in its query (RelTemplate).
	tmpl    string
	bare    bool
	len     int
	terms   []string // its terms, sorted,
	weights []int    // and their weights
	// key is all of the above but doc's URL and bare: the same in another
	// release that has the entry. An entry no site script may have
	// (RelTemplate) has none.
	key string
}

// siteGroup is one entry as the releases of a site script have it: the
// releases whose URL has ?rel= of their own (rel) and those whose URL is
// bare, as masks, and one of its copies.
type siteGroup struct {
	rel, bare uint64
	bareURL   string // the bare releases' URL
	e         siteEntry
}

// share returns the releases (masks) whose copies of the entry the site
// script has: those with ?rel= of their own, written with rel=*, and the
// bare ones, written as they are, each when two releases or more have
// it. When the entry's newest release is bare and the others not, as
// links into a shared source page from the page's first release and
// from the others are, it returns them all as rel, written once with
// rel=+ (plus). What only one release has stays its own.
func (g *siteGroup) share() (rel, bare uint64, plus bool) {
	if bits.OnesCount64(g.bare) == 1 && g.rel != 0 && g.bare < g.rel&-g.rel {
		return g.rel | g.bare, 0, true
	}
	rel, bare = g.rel, g.bare
	if bits.OnesCount64(rel) < 2 {
		rel = 0
	}
	if bits.OnesCount64(bare) < 2 {
		bare = 0
	}
	return rel, bare, false
}

// Share writes the releases' search scripts ss into the multi-release
// site t, and the entries that two releases or more have once for the
// site, as the comment at the top of this file says. tags are newest
// first, ss in their order. It returns the bytes written.
//
// It is one function of some 190 lines because its steps — list every
// release's scripts, group their entries, write the site scripts, write
// each release's own entries — share the maps of scripts and groups
// the first two build; split, each would take or return most of them.
func Share(t *sitetree.Tree, tags []string, ss []Script) (n int64, err error) {
	if len(tags) < 2 || len(tags) > maxSearchReleases {
		return writeScripts(t, ss)
	}
	// A release's pages and their scripts: search.html in each of its
	// language directories loads search-shared.js, when the release has
	// one, and the search-index.js beside it.
	type relPage struct {
		tag, path   string // its release, its search page
		own, shared *relSearchScript
	}
	var pages []relPage
	var scripts []*relSearchScript
	shared := map[string]*relSearchScript{} // by release
	for _, x := range ss {
		bit := slices.Index(tags, x.Tag)
		if bit < 0 {
			return 0, fmt.Errorf("%s: release %s is not the site's", x.Path, x.Tag)
		}
		es, err := siteEntries(x.Data, x.Tag)
		if err != nil {
			return 0, fmt.Errorf("%s: %w", x.Path, err)
		}
		sub, name := path.Split(strings.TrimPrefix(x.Path, x.Tag+"/"))
		site := searchindex.SiteJS
		if name == searchindex.SharedJS {
			site = searchindex.SiteSharedJS
		}
		s := &relSearchScript{path: x.Path, site: path.Join(sub, site), bit: 1 << bit, d: x.Data, es: es}
		scripts = append(scripts, s)
		switch name {
		case searchindex.IndexJS:
			pages = append(pages, relPage{tag: x.Tag, path: x.Page(), own: s})
		case searchindex.SharedJS:
			shared[x.Tag] = s
		default:
			return 0, fmt.Errorf("%s: not a release's search script", x.Path)
		}
	}
	for i := range pages {
		pages[i].shared = shared[pages[i].tag]
	}

	// The releases that have each entry, by site script, with ?rel= of
	// their own or (bare) without. An entry a release's script has twice
	// stays the release's, as it is, so that its page counts it twice as
	// before.
	groups := map[string]map[string]*siteGroup{}
	for _, s := range scripts {
		n := map[string]int{}
		for _, e := range s.es {
			n[e.key]++
		}
		if groups[s.site] == nil {
			groups[s.site] = map[string]*siteGroup{}
		}
		for _, e := range s.es {
			if e.key == "" || n[e.key] != 1 {
				continue
			}
			g := groups[s.site][e.key]
			if g == nil {
				g = &siteGroup{e: e}
				groups[s.site][e.key] = g
			}
			if e.bare {
				g.bare |= s.bit
				g.bareURL = e.doc[2]
			} else {
				g.rel |= s.bit
			}
		}
	}
	onSite := func(s *relSearchScript, e siteEntry) bool {
		g := groups[s.site][e.key]
		if g == nil {
			return false
		}
		rel, bare, plus := g.share()
		if e.bare && !plus {
			rel = bare
		}
		return rel&s.bit != 0
	}

	// The site scripts: the entries two releases or more have, sorted.
	for _, site := range slices.Sorted(maps.Keys(groups)) {
		var es []siteEntry
		d := searchindex.Data{Releases: tags, Head: searchindex.SiteHead}
		if path.Base(site) == searchindex.SiteSharedJS {
			d.Head = searchindex.SiteSharedHead
		}
		for _, k := range slices.Sorted(maps.Keys(groups[site])) {
			g := groups[site][k]
			rel, bare, plus := g.share()
			e := g.e
			if rel != 0 {
				u := e.tmpl
				if plus {
					u = strings.Replace(u, "rel=*", "rel=+", 1)
				}
				e.doc = []string{e.doc[0], e.doc[1], u, e.doc[3]}
				es, d.Rels = append(es, e), append(d.Rels, rel)
			}
			if bare != 0 {
				e.doc = []string{e.doc[0], e.doc[1], g.bareURL, e.doc[3]}
				es, d.Rels = append(es, e), append(d.Rels, bare)
			}
		}
		if len(es) == 0 {
			continue
		}
		d.Docs, d.Lens, d.Terms = siteIndex(es)
		js, err := searchindex.Script(d)
		if err != nil {
			return 0, err
		}
		if err := t.Put(site, js); err != nil {
			return 0, err
		}
		n += int64(len(js))
	}

	// Each release's scripts keep the entries only they have; its pages'
	// search-index.js names the site scripts it loads.
	moved := map[*relSearchScript]bool{}
	for _, s := range scripts {
		var keep []siteEntry
		for _, e := range s.es {
			if !onSite(s, e) {
				keep = append(keep, e)
			}
		}
		if len(keep) < len(s.es) {
			moved[s] = true
			s.d.Docs, s.d.Lens, s.d.Terms = siteIndex(keep)
		}
	}
	for _, pg := range pages {
		for _, s := range []*relSearchScript{pg.shared, pg.own} {
			if s != nil && moved[s] {
				pg.own.d.Site = append(pg.own.d.Site, sitepath.Rel(pg.path, s.site, ""))
			}
		}
		if pg.own.d.Site != nil {
			pg.own.d.Release = pg.tag
		}
	}
	own := make([]Script, len(scripts))
	for i, s := range scripts {
		own[i] = Script{Path: s.path, Data: s.d}
	}
	m, err := writeScripts(t, own)
	return n + m, err
}

// writeScripts writes the scripts ss into t and returns the bytes
// written.
func writeScripts(t *sitetree.Tree, ss []Script) (int64, error) {
	var n int64
	for _, s := range ss {
		js, err := searchindex.Script(s.Data)
		if err != nil {
			return 0, err
		}
		if err := t.Put(s.Path, js); err != nil {
			return 0, err
		}
		n += int64(len(js))
	}
	return n, nil
}

// siteEntries lists the entries of d, a search script of release tag.
func siteEntries(d searchindex.Data, tag string) ([]siteEntry, error) {
	if len(d.Lens) != len(d.Docs) {
		return nil, fmt.Errorf("%d entry lengths for %d entries", len(d.Lens), len(d.Docs))
	}
	es := make([]siteEntry, len(d.Docs))
	for i, doc := range d.Docs {
		if len(doc) != 4 {
			return nil, fmt.Errorf("entry %q: want kind, title, URL, detail", doc)
		}
		es[i] = siteEntry{doc: doc, len: d.Lens[i]}
		es[i].tmpl, es[i].bare = RelTemplate(doc[2], tag)
	}
	for _, t := range slices.Sorted(maps.Keys(d.Terms)) {
		post := d.Terms[t]
		if len(post)%2 != 0 {
			return nil, fmt.Errorf("term %q: odd list of entries and weights", t)
		}
		for j := 0; j < len(post); j += 2 {
			if post[j] < 0 || post[j] >= len(es) {
				return nil, fmt.Errorf("term %q: no entry %d", t, post[j])
			}
			e := &es[post[j]]
			e.terms, e.weights = append(e.terms, t), append(e.weights, post[j+1])
		}
	}
	for i, e := range es {
		if e.tmpl == "" {
			continue
		}
		key, err := json.Marshal([]any{e.doc[0], e.doc[1], e.tmpl, e.doc[3], e.len, e.terms, e.weights})
		if err != nil {
			return nil, err
		}
		es[i].key = string(key)
	}
	return es, nil
}

// siteIndex is the index of entries es, as searchindex.Build makes it.
func siteIndex(es []siteEntry) (docs [][]string, lens []int, terms map[string][]int) {
	docs, lens, terms = make([][]string, len(es)), make([]int, len(es)), map[string][]int{}
	for i, e := range es {
		docs[i], lens[i] = e.doc, e.len
		for j, t := range e.terms {
			terms[t] = append(terms[t], i, e.weights[j])
		}
	}
	return docs, lens, terms
}

// RelTemplate is URL u of an entry of release tag as a site script
// may write it: ?rel= of the release as rel=*, or, when u has none
// (bare), rel=* put first in its query, where a link with ?rel= has it
// (shared.go relQuery). It is "" for a URL no site script may have: one
// that has rel=* or rel=+ already (a query's values are escaped, and *
// and + with them; a path could have them), or whose release's tag a
// query would escape.
func RelTemplate(u, tag string) (tmpl string, bare bool) {
	if strings.Contains(u, "rel=*") || strings.Contains(u, "rel=+") || url.QueryEscape(tag) != tag {
		return "", false
	}
	rest, frag, hasFrag := strings.Cut(u, "#")
	base, query, hasQuery := strings.Cut(rest, "?")
	var ps []string
	if hasQuery {
		ps = strings.Split(query, "&")
	}
	if i := slices.Index(ps, "rel="+tag); i >= 0 {
		ps[i] = "rel=*"
	} else {
		ps, bare = slices.Insert(ps, 0, "rel=*"), true
	}
	tmpl = base + "?" + strings.Join(ps, "&")
	if hasFrag {
		tmpl += "#" + frag
	}
	return tmpl, bare
}

// SiteURL is URL u of a site script's entry for release tag, as
// search.js writes it: rel=* and rel=+ as rel=<tag>, but rel=+ dropped
// for the entry's newest release (newest).
func SiteURL(u, tag string, newest bool) string {
	if !strings.Contains(u, "rel=+") {
		return strings.Replace(u, "rel=*", "rel="+tag, 1)
	}
	if !newest {
		return strings.Replace(u, "rel=+", "rel="+tag, 1)
	}
	if strings.Contains(u, "rel=+&") {
		return strings.Replace(u, "rel=+&", "", 1)
	}
	return strings.Replace(strings.Replace(u, "?rel=+", "", 1), "&rel=+", "", 1)
}

// Links lists the links of the search script d at site path p, as
// the search page each is followed from and its URL: a release's
// script's (its entries' and the site scripts it names) from the search
// page beside it; a site script's, each entry's from the search page of
// every release that has it, as search.js writes it there.
func Links(p string, d searchindex.Data) ([][2]string, error) {
	var links [][2]string
	if len(d.Releases) == 0 {
		page := path.Join(path.Dir(p), searchindex.Page)
		for _, e := range d.Docs {
			if len(e) == 4 {
				links = append(links, [2]string{page, e[2]})
			}
		}
		for _, s := range d.Site {
			links = append(links, [2]string{page, s})
		}
		return links, nil
	}
	if len(d.Rels) != len(d.Docs) {
		return nil, fmt.Errorf("%d release masks for %d entries", len(d.Rels), len(d.Docs))
	}
	for i, e := range d.Docs {
		if len(e) != 4 {
			continue
		}
		for b, tag := range d.Releases {
			if bit := uint64(1) << b; d.Rels[i]&bit != 0 {
				newest := d.Rels[i]&(bit-1) == 0
				links = append(links, [2]string{path.Join(tag, path.Dir(p), searchindex.Page), SiteURL(e[2], tag, newest)})
			}
		}
	}
	return links, nil
}
