package site

import (
	"fmt"
	"html/template"
	"maps"
	"net/url"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/kubewalk/kubewalk/walkthrough"
)

// A bilingual site (Input.Langs) is laid out as Hugo lays out a
// multilingual one, with one difference: what does not depend on the
// language is written once, for every language — code is code, so the
// source pages, the facts and the diffs behind a walkthrough's badges (its
// script, and the changes page);
// and the assets, which are the same bytes in every language. (So is
// most of explain's index: explain.go.)
//
//	index.html           sends the reader to the browser's language
//	en/index.html, en/walkthroughs/…, en/search.html, …
//	ko/index.html, ko/walkthroughs/…, ko/search.html, …
//	src/…                the source pages, shared
//	handlers.html, events.html, resources.html, gates.html, controllers/…,
//	traces/…, recorded…  the index pages, shared (langshare.go)
//	facts.json.zst       shared
//	diffs.js             shared
//	changes.html         shared: the references once, the text per language (changes.go)
//	assets/…             shared (in a multi-release site, by every release too)
//
// Each language has a builder whose site paths are from its directory
// (so every page registered in pages() comes out in each language, and
// links between a language's pages need no change); full and link put
// the directory in front where a link crosses into or out of the shared
// pages. A shared source page carries every language's header and
// backlinks, the first language's shown; ?lang=ko in its URL shows
// another's (site.js), and site.js adds it to links into the source
// pages from a page in another language.

// sharedPage reports whether site path p is one page for every language
// of a bilingual site rather than one per language.
func sharedPage(p string) bool {
	return strings.HasPrefix(p, "src/") || p == factsFile || strings.HasPrefix(p, assetsDir) || p == diffsFile || p == changesPage
}

// indexPage reports whether site path p is one of the pages that list the
// facts: the handlers, events, resources and gates, the controllers, the
// traces and the recorded runs. Their tables are code — symbols, files,
// lines, requests — with a little text around it.
func indexPage(p string) bool {
	switch p {
	case handlersPage, eventsPage, resourcesPage, gatesPage:
		return true
	}
	return strings.HasPrefix(p, "controllers/") || strings.HasPrefix(p, "traces/") || strings.HasPrefix(p, "recorded")
}

// shared reports whether site path p of b's release is one page for
// every language: sharedPage's, and the index pages too
// (b.shareIndexes), each language's rendering merged into one page
// (langshare.go), which the releases of a site of several then share
// (package pageshare).
func (b *builder) shared(p string) bool {
	return sharedPage(p) || b.shareIndexes && indexPage(p)
}

// full returns site path p of b's pages as a path from the release's
// root: in a bilingual site, in b's language directory unless shared.
func (b *builder) full(p string) string {
	if b.langDir == "" || b.shared(p) {
		return p
	}
	return b.langDir + p
}

// link is relURL between two of b's site paths, whichever side of the
// language directory each is on.
// In a multi-release site, a link from a release's page into the shared
// source pages names the release in its query (shared.go); one between
// source pages does not, site.js adding the release being read.
//
// A line fragment ("L12", "L12-L20", in b's release's numbering) into a
// multi-release site's source page becomes the part of the page and the
// anchors holding those lines (package srcmerge).
func (b *builder) link(from, target, fragment string) string {
	to := b.site(target)
	if b.set != nil {
		if f, ok := strings.CutPrefix(target, "src/"); ok {
			f = strings.TrimSuffix(f, ".html")
			if l1, l2, ok := parseLines(fragment); ok {
				if pg, frag, ok := b.set.src.Target(f, b.self, l1, l2); ok {
					to, fragment = pg, frag
				}
			}
		}
	}
	if !b.sharedSource(target) || b.sharedSource(from) {
		return relURL(b.site(from), to, fragment)
	}
	// A page every language shares links the same in each.
	u := relURL(b.site(from), to, "") + b.relQueryAt(target, b.self, !b.shared(from))
	if fragment != "" {
		u += "#" + fragment
	}
	return u
}

// prepareLangs prepares the builders of in: one, or with Input.Langs one
// per language, all sharing one set of source files, and returns the
// first (the one whose write writes them all).
//
// shareIndexes writes the index pages once for every language (shared).
func prepareLangs(in Input, opts Options, shareIndexes bool) (*builder, error) {
	if len(in.Langs) < 2 {
		return prepare(in, opts)
	}
	var bs []*builder
	for i, l := range in.Langs {
		if slices.Contains(in.Langs[:i], l) {
			return nil, fmt.Errorf("site: language %q given twice", l)
		}
		li := in
		li.Lang, li.Langs = l, nil
		b, err := prepareLang(li, opts, l+"/", shareIndexes)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", l, err)
		}
		bs = append(bs, b)
	}
	// The shared source pages are the files any language cites: a
	// translation may cite a file its original does not.
	all := map[string]bool{}
	for _, b := range bs {
		maps.Copy(all, b.rendered)
	}
	files := slices.Sorted(maps.Keys(all))
	rel := bs[0].rel
	rel.langs = bs
	for _, b := range bs {
		b.rendered, b.files, b.rel = all, files, rel
	}
	return bs[0], nil
}

// allPages lists every file of b's release, sorted by path: b's pages, or
// in a bilingual site each language's under its directory, the shared
// pages once (explain-index.js too when the languages' agree: explain.go),
// and the language chooser at the root.
func (b *builder) allPages() ([]page, error) {
	if !b.bilingual() {
		return b.pages()
	}
	ex, err := b.explainIndexes()
	if err != nil {
		return nil, err
	}
	var all []page
	// The index pages' renderings, per path, in the languages' order.
	indexes := map[string][]page{}
	for i, lb := range b.rel.langs {
		ps, err := lb.pages()
		if err != nil {
			return nil, err
		}
		for _, p := range ps {
			switch {
			case p.path == markerFile:
				// One marker, at the site's root, listing the whole site
				// (writeManifest).
			case b.shareIndexes && indexPage(p.path):
				if len(indexes[p.path]) == 0 {
					all = append(all, page{path: p.path, html: true})
				}
				indexes[p.path] = append(indexes[p.path], p)
			case b.shared(p.path) || p.path == explainIndexJS && ex.shared:
				if i == 0 {
					all = append(all, p)
				}
			default:
				p.path = lb.langDir + p.path
				all = append(all, p)
			}
		}
	}
	for i, p := range all {
		if rs, ok := indexes[p.path]; ok {
			all[i].render = func() ([]byte, error) { return b.mergeLangs(rs) }
		}
	}
	all = append(all, page{path: homePage, html: true, render: b.chooserPage})
	sort.Slice(all, func(i, j int) bool { return all[i].path < all[j].path })
	for i := 1; i < len(all); i++ {
		if all[i].path == all[i-1].path {
			return nil, fmt.Errorf("site: two pages at %s", all[i].path)
		}
	}
	return all, nil
}

// langView is one language of the language switch, and of the page's
// hreflang alternates.
type langView struct {
	Lang, Name, Href string
	Current          bool
	// Steps, on a walkthrough page, lists the step IDs the other
	// language's walkthrough has too ("*" for all): site.js keeps the
	// reader on the step in view when it holds it. Elsewhere site.js
	// keeps the URL's fragment (a line, an event reason).
	Steps string
}

// langViews returns the language switch of the page at site path p; nil
// in a site of one language.
func (b *builder) langViews(p string) []langView {
	if !b.bilingual() {
		return nil
	}
	var out []langView
	for i, lb := range b.rel.langs {
		v := langView{Lang: lb.in.Lang, Name: lb.t("lang.name"), Current: lb == b}
		if b.sharedSource(p) {
			v.Href = lb.sharedSelf(p)
		} else if b.shared(p) {
			// The same page: the language rides in the query.
			v.Href = url.PathEscape(path.Base(p))
			if i > 0 {
				v.Href += "?lang=" + lb.in.Lang
			}
		} else {
			v.Href = relURL(b.full(p), lb.full(p), "")
			if id, ok := walkthroughID(p); ok {
				v.Steps = keepList(docSteps(b.docs, id), docSteps(lb.docs, id))
			}
		}
		out = append(out, v)
	}
	return out
}

// originalStep links, from walkthrough page p, the step id of the same
// walkthrough in English, "" when the site has no English pages.
func (b *builder) originalStep(p, id string) string {
	for _, lb := range b.rel.langs {
		if lb.in.Lang == "en" && lb != b {
			return relURL(b.full(p), lb.full(p), id)
		}
	}
	return ""
}

// walkthroughID returns the walkthrough ID of a walkthrough page's site
// path.
func walkthroughID(p string) (string, bool) {
	if !strings.HasPrefix(p, "walkthroughs/") || !strings.HasSuffix(p, ".html") {
		return "", false
	}
	return strings.TrimSuffix(strings.TrimPrefix(p, "walkthroughs/"), ".html"), true
}

// docSteps lists the step IDs of walkthrough id among docs, in order.
func docSteps(docs []*walkthrough.Doc, id string) []string {
	var out []string
	for _, d := range docs {
		if d.ID == id {
			for _, s := range d.Steps {
				out = append(out, s.ID)
			}
		}
	}
	return out
}

// keepList is the data-steps (and version switcher's data-keep) value:
// the steps of have that other has too, space-separated, or "*" when it
// has them all.
func keepList(have, other []string) string {
	var keep []string
	for _, id := range have {
		if slices.Contains(other, id) {
			keep = append(keep, id)
		}
	}
	if len(keep) == len(have) {
		return "*"
	}
	return strings.Join(keep, " ")
}

// langBlock is one language's part of a shared page, hidden unless it is
// the first language's (site.js shows the one ?lang= names).
type langBlock struct {
	pageData
	Hide bool
	// Rel is the release of the part in a multi-release site's shared
	// source page (shared.go), "" otherwise; GH is where its permalinks
	// start (site.js swaps the code's GitHub links to it), GHL the lines
	// they go to when they are not the page's (srcmerge.Src.GHLines), by the
	// links the newest release's part names in GHF (GHFiles), LNK where
	// other links go when not where the page's do (LinkMoves), by the
	// indexes of the hrefs the newest's part names in LNT (LinkTable).
	Rel, GH, GHF, GHL, LNT, LNK string
	// Like is, in a multi-release site's shared source page, the newest
	// release when this part's header is the newest's made over for
	// this part's release (srcmerge.LikeNewest): site.js makes it, the page does
	// not carry it, but for the links in its bar to the pages Drop names
	// (paths from the release's directory, space-separated).
	Like, Drop string
}

// sourcePageLangs is the source page of file f in a bilingual site: the
// page of the first language, with every language's header and backlinks
// and the code once.
func (b *builder) sourcePageLangs(f string, code template.HTML, lines int, cov *covHeadView) ([]byte, error) {
	p := SourcePage(f)
	var parts srcParts
	for _, lb := range b.rel.langs {
		sv := sourceView{Path: f, Dir: path.Dir(f), Name: path.Base(f), Lines: lines, GitHub: b.opts.SourceURL(f, 0, 0), Cites: lb.citeViews(f), Cov: cov}
		if err := parts.add(lb, langBlock{pageData: lb.pageData(p, f, "", sv), Hide: lb != b}); err != nil {
			return nil, err
		}
	}
	return parts.page(b, b.codePageData(p, f, "", nil), code)
}

// srcParts are the parts of a shared source page, one per language (and
// release): the page's header, and the source header with backlinks.
type srcParts struct{ chrome, heads []template.HTML }

// add renders one part with lb's templates.
func (s *srcParts) add(lb *builder, d langBlock) error {
	c, err := lb.exec("srcchrome", d)
	if err != nil {
		return err
	}
	h, err := lb.exec("srchead", d)
	if err != nil {
		return err
	}
	// Safe: whole fragments html/template wrote from our templates,
	// each starting and ending in HTML text, where they are put.
	s.chrome, s.heads = append(s.chrome, template.HTML(c)), append(s.heads, template.HTML(h))
	return nil
}

// page lays out the shared source page: doc's head, every part, the code
// once.
func (s *srcParts) page(b *builder, doc pageData, code template.HTML) ([]byte, error) {
	return b.exec("sourcelangs", struct {
		pageData
		Chrome, Heads []template.HTML
		Code          template.HTML
	}{doc, s.chrome, s.heads, code})
}

// chooserPage is the root of a bilingual release: links to each
// language's home, which assets/lang.js follows to the browser's
// preferred language.
func (b *builder) chooserPage() ([]byte, error) {
	d := pageData{
		Lang: b.in.Lang, Title: b.t("site.name"), Release: release{Tag: b.in.Tag},
		CSS: relURL(b.releaseDir()+homePage, assetsDir+"site.css", ""),
		JS:  relURL(b.releaseDir()+homePage, assetsDir+"lang.js", ""),
	}
	for _, lb := range b.rel.langs {
		d.Langs = append(d.Langs, langView{Lang: lb.in.Lang, Name: lb.t("lang.name"), Href: relURL(homePage, lb.full(homePage), "")})
	}
	return b.exec("langs", d)
}
