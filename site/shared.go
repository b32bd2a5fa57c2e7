package site

import (
	"context"
	"html"
	"html/template"
	"net/url"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/kubewalk/kubewalk/site/internal/srcmerge"
)

// A multi-release site writes one source page per file, at the site's
// root, for every release that renders it (package srcmerge): src/pkg/x.go.html,
// and src/pkg/x.go.2.html … for the parts of a page too heavy for one.
// Each release's other pages are in its directory (v1.31.0/…).
//
// What differs per release besides the code — the header (its version
// switcher and links into the release), the GitHub permalink at the tag,
// the "Cited by" backlinks — is carried once per release and language,
// all hidden but the newest release's first language's (a header that is
// the newest's made over for the release is made by site.js instead:
// srcmerge.LikeNewest); site.js shows the one ?rel= and ?lang= name, and the lines
// of that release. Without
// script the reader sees the newest release's, and the footer lists every
// release the page serves. Links from a release's pages into the source
// pages carry ?rel=<tag> (but to a page whose newest release it is);
// links between source pages carry none, site.js adding the release being
// read. A page opened with a ?rel= it does not serve sends the reader on
// through its version switcher to that release's home.

// ghBase is the part of b's permalinks before the path of file f
// ("https://github.com/kubernetes/kubernetes/blob/v1.31.0/"), "" when its
// permalink rule does not end a file's link with the path.
func ghBase(b *builder, f string) string {
	u := b.opts.SourceURL(f, 0, 0)
	if base, ok := strings.CutSuffix(u, relURL("", f, "")); ok && strings.HasSuffix(base, "/") {
		return base
	}
	return ""
}

// site returns site path p of b's pages as a path from the site's root:
// in a multi-release site a source page is the shared page serving b's
// release, anything else is in the release's directory.
func (b *builder) site(p string) string {
	if b.set == nil {
		return b.full(p)
	}
	return b.siteAt(p, b.self)
}

// siteAt is site for the site's release i in b's language: every release
// has the same languages, so its page p is where b's would be, in its
// directory or the shared source page serving it.
func (b *builder) siteAt(p string, i int) string {
	if strings.HasPrefix(p, "src/") {
		if v := b.set.src.Variant(p, i); v != "" {
			return v
		}
		return p // "src/" itself
	}
	return b.set.rels[i].Dir + b.full(p)
}

// sharedSource reports whether site path p is a source page shared by the
// releases of a multi-release site.
func (b *builder) sharedSource(p string) bool {
	return b.set != nil && strings.HasPrefix(p, "src/") && strings.HasSuffix(p, ".html")
}

// relQuery is the query naming b's release and language on shared
// source page p (a site path from the release's root): "?rel=v1.30.0&lang=ko",
// leaving out what the page shows without a query — its newest release,
// the first language — which is most links of the newest release.
func (b *builder) relQuery(p string) string { return b.relQueryAt(p, b.self) }

// relQueryAt is relQuery for the site's release i in b's language.
func (b *builder) relQueryAt(p string, i int) string {
	var q []string
	if m := b.set.src.ByPath[b.siteAt(p, i)]; m != nil && m.Rels[0] != i {
		q = append(q, "rel="+url.QueryEscape(b.set.rels[i].Tag))
	}
	if b.langs != nil && b != b.langs[0] {
		q = append(q, "lang="+url.QueryEscape(b.in.Lang))
	}
	if len(q) == 0 {
		return ""
	}
	return "?" + strings.Join(q, "&")
}

// srcVersions is the version switcher of shared source page p (site path
// from the release's root) in b's release: the page serving each other
// release, at the same line (data-switch: site.js keeps the fragment),
// or that release's home page when it has no page of the file. It reads
// the other releases' Manifests and the shared pages' layout, never
// their builders.
func (b *builder) srcVersions(p string) []versionView {
	from := b.site(p)
	var out []versionView
	for i, r := range b.set.rels {
		v := versionView{Tag: r.Tag, Current: i == b.self}
		if t := b.set.src.Variant(p, i); t != "" {
			v.Href, v.Line = url.PathEscape(path.Base(t))+b.relQueryAt(p, i), true
		} else {
			v.Href, v.Home = relURL(from, b.siteAt(homePage, i), ""), true
		}
		out = append(out, v)
	}
	return out
}

// sharedSelf is the link from shared source page p to itself in b's
// release and language (the language switch).
func (b *builder) sharedSelf(p string) string {
	return url.PathEscape(path.Base(b.site(p))) + b.relQuery(p)
}

// writeShared renders the shared source pages into dir, the site's root.
func writeShared(ctx context.Context, dir string, bs []*builder) (Stats, error) {
	set := bs[0].set
	var pages []page
	for _, sp := range set.src.Pages {
		pages = append(pages, page{path: sp.Path, source: true, html: true, render: func() ([]byte, error) {
			return renderShared(bs, sp)
		}})
	}
	slices.SortFunc(pages, func(a, b page) int { return strings.Compare(a.path, b.path) })
	if err := makeDirs(dir, pages); err != nil {
		return Stats{}, err
	}
	sizes, err := bs[0].renderPages(ctx, dir, pages)
	if err != nil {
		return Stats{}, err
	}
	var st Stats
	for i, p := range pages {
		st.Pages++
		st.SourcePages++
		st.Bytes += sizes[i]
		if sizes[i] > st.LargestBytes {
			st.Largest, st.LargestBytes = p.path, sizes[i]
		}
	}
	return st, nil
}

// renderShared renders one part of a shared source page: the code of
// every release it serves (package srcmerge), and every release's and language's
// header and backlinks, all but the newest release's first language
// hidden.
//
// Its 86 lines are one loop over the page's releases and languages whose
// blocks depend on those written before it (the newest's header, the
// headers written whole so far, which an older release's is made from).
func renderShared(bs []*builder, sp srcmerge.Page) ([]byte, error) {
	f, p := sp.File, sp.Path // the part's own path: its switcher stays on it
	set := bs[0].set
	m := set.src.Files[f]
	b := bs[m.Rels[0]]
	var parts srcParts
	var tags []string
	newestHeader := map[string]string{} // per language
	// Per language, the source headers written whole so far, newest
	// first, in anchor form (headLike): an older release's may be made
	// from any of them.
	written := map[string][]writtenHead{}
	newestGH := ghBase(b, f)
	ghf := m.GHFiles(newestGH) // data-ghf, on the newest's first part
	moves := make([]string, len(m.Rels))
	for k := range m.Rels {
		moves[k] = m.LinkMoves(set.src, k, sp.Part)
	}
	lnt, lnk := srcmerge.LinkTable(moves) // data-lnt on the newest's, data-lnk
	for k, r := range m.Rels {
		tags = append(tags, bs[r].in.Tag)
		gh := ghBase(bs[r], f)
		if k == 0 || gh == strings.Replace(newestGH, "/"+b.in.Tag+"/", "/"+bs[r].in.Tag+"/", 1) {
			// The newest's is the page's (the <body>'s data-gh), and an
			// older release's that is the newest's at its tag releases.js
			// makes.
			gh = ""
		}
		for _, lb := range langsOf(bs[r]) {
			sv := sourceView{Path: f, Dir: path.Dir(f), Name: path.Base(f), Lines: m.Lines[k], GitHub: lb.opts.SourceURL(f, 0, 0), Cites: lb.citeViews(f)}
			d := langBlock{pageData: lb.pageData(p, f, "", sv), Hide: len(parts.chrome) > 0, Rel: lb.in.Tag, GH: gh}
			if lb == bs[r] { // once per release
				d.GHL, d.LNK = m.GHLines(k, newestGH, ghf), lnk[k]
				if k == 0 {
					d.GHF, d.LNT = strings.Join(ghf, " "), lnt
				}
			}
			h, err := lb.exec("header", d.pageData)
			if err != nil {
				return nil, err
			}
			var hl headLikeView
			if k == 0 {
				newestHeader[lb.in.Lang] = string(h)
				// The newest's own line numbers are the page's anchors.
				if h, err = lb.exec("srcheader", sv); err != nil {
					return nil, err
				}
				written[lb.in.Lang] = []writtenHead{{tag: lb.in.Tag, html: string(h)}}
			} else if !lb.tune.explicitHeaders {
				if drop, ok := srcmerge.LikeNewestBut(newestHeader[lb.in.Lang], b.in.Tag, lb.in.Tag, string(h)); ok {
					d.Like, d.Drop = b.in.Tag, drop
				}
				var anchor string
				if hl, anchor, err = headLike(m, lb, sv, k, written[lb.in.Lang]); err != nil {
					return nil, err
				}
				if anchor != "" && hl.Like == "" {
					written[lb.in.Lang] = append(written[lb.in.Lang], writtenHead{tag: lb.in.Tag, html: anchor})
				}
			}
			if hl.Like == "" && hl.Head == "" {
				if err := parts.add(lb, d); err != nil {
					return nil, err
				}
				continue
			}
			c, err := lb.exec("srcchrome", d)
			if err != nil {
				return nil, err
			}
			lh, err := lb.exec("srcheadlike", hl)
			if err != nil {
				return nil, err
			}
			// Safe: fragments html/template wrote from our templates.
			parts.chrome, parts.heads = append(parts.chrome, template.HTML(c)), append(parts.heads, template.HTML(lh))
		}
	}
	doc := b.pageData(p, f, "", nil)
	doc.GH = m.GH // the code's GitHub links' base (renderMerged)
	// The page's own line: every release it serves, which is what a
	// reader without script learns of the others.
	doc.Release = release{Tag: strings.Join(tags, ", ")}
	doc.SrcRoot = relURL(sp.Path, "src/", "")
	// Safe: srcmerge.Src.Code writes integers, anchors and codehtml's escaped
	// lines, their links resolved to relURL's escaped output.
	code := template.HTML(m.PartsNav(sp.Part) + m.Code(set.src, sp.Part))
	return parts.page(b, doc, code)
}

// headLikeView is the source header of an older release that site.js
// makes over (headLike): its language and release, its number of lines
// (data-n), and either the release whose header it is made from
// (data-head) or, written whole, its header in anchor form (Head).
type headLikeView struct {
	Lang, Rel, Like string
	N               int
	Head            template.HTML
}

// writtenHead is a source header written whole on a shared source page,
// in anchor form (headLike), and its release's tag.
type writtenHead struct{ tag, html string }

// headLike finds how release k's source header (sv, in lb's language)
// is written on the page, by its anchor form: the lines its steps cite
// named by the page's anchors, which site.js counts among the lines the
// release shows, and the newest release's number of lines, for site.js
// to set the release's own (data-n). When that is a header written whole
// before it in the same language (written, newest first, each in anchor
// form) but for the release in its links (relinked), site.js makes it
// from that one (hl.Like: data-head); else it is written whole in anchor
// form (hl.Head), or as any header is when that is its own numbers (hl
// empty), and anchor is what the caller keeps for the releases after it.
// Not only the newest's, for releases agree with each other more than
// with the newest: deployment_controller.go's header is v1.34.4's in
// v1.31..v1.33 and v1.30.14's in v1.29.6, none of them v1.37.2's. Of the
// headers still written whole, some are another's but for their numbers,
// which name other lines of the page (the cited code is not where the
// other's is), and some are on pages in parts: a page in parts cannot
// count the lines of the others, and a header citing a line the release
// lacks cannot name it, so such a header is written whole, as the
// release numbers it (hl and anchor empty).
func headLike(m *srcmerge.Src, lb *builder, sv sourceView, k int, written []writtenHead) (hl headLikeView, anchor string, err error) {
	if len(m.Parts) > 1 {
		return headLikeView{}, "", nil
	}
	own := sv.Lines == m.Lines[0] // the anchor form is the release's own numbers
	cites := slices.Clone(sv.Cites)
	for i := range cites {
		ok := true
		cites[i].Lines = citedLine.ReplaceAllStringFunc(cites[i].Lines, func(l string) string {
			n, _ := strconv.Atoi(l[1:]) // digits: citedLine
			ml, found := m.Line(m.Rels[k], n)
			ok = ok && found
			own = own && m.IDs[ml] == l
			return m.IDs[ml]
		})
		if !ok {
			return headLikeView{}, "", nil
		}
	}
	sv.Cites, sv.Lines = cites, m.Lines[0]
	h, err := lb.exec("srcheader", sv)
	if err != nil {
		return headLikeView{}, "", err
	}
	hl = headLikeView{Lang: lb.in.Lang, Rel: lb.in.Tag, N: m.Lines[k]}
	for _, w := range written {
		if string(h) == srcmerge.Relinked(w.html, w.tag, lb.in.Tag) {
			hl.Like = w.tag
			return hl, string(h), nil
		}
	}
	if own {
		return headLikeView{}, string(h), nil
	}
	// Safe: a fragment html/template wrote from our templates.
	hl.Head = template.HTML(h)
	return hl, string(h), nil
}

// citedLine matches a line in a cited range ("L12" of "L12-L40").
var citedLine = regexp.MustCompile(`L[0-9]+`)

// symrefHref matches the href of a link into the source pages in a
// walkthrough's HTML, which walkthrough.Load rendered for a release's own
// src/ (symbolURLFor): the way up, the source page, the fragment.
var symrefHref = regexp.MustCompile(`href="((?:\.\./)*)src/([^"#?]*)(#[^"]*)?"`)

// retarget points the links into the source pages of a walkthrough's
// HTML, on page p, at the shared pages serving b's release, or at GitHub
// for a file the release does not render (unrenderRegenerated,
// unrenderOversized). A link
// that names no file of the release's is left as it was (the link
// checker reports it).
func (b *builder) retarget(p string, h template.HTML) template.HTML {
	if b.set == nil && !b.oversized || !strings.Contains(string(h), "src/") {
		return h
	}
	// Safe: only href values change, to relURL's escaped output.
	return template.HTML(symrefHref.ReplaceAllStringFunc(string(h), func(m string) string {
		s := symrefHref.FindStringSubmatch(m)
		up := strings.Count(s[1], "../")
		if up != strings.Count(b.full(p), "/") {
			return m // not the release's src/
		}
		target, err := url.PathUnescape(html.UnescapeString(s[2]))
		if err != nil {
			return m
		}
		frag := strings.TrimPrefix(html.UnescapeString(s[3]), "#")
		if b.set == nil || b.set.src.Variant("src/"+target, b.self) == "" {
			f, ok := strings.CutSuffix(target, ".html")
			from, to, okL := parseLines(frag)
			if !ok || b.rendered[f] || !okL {
				return m
			}
			return `href="` + html.EscapeString(b.opts.SourceURL(f, from, to)) + `"`
		}
		return `href="` + html.EscapeString(b.link(p, "src/"+target, frag)) + `"`
	}))
}
