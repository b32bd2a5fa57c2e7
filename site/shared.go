package site

import (
	"context"
	"html/template"
	"net/url"
	"path"
	"regexp"
	"slices"
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
func (b *builder) relQuery(p string) string { return b.relQueryAt(p, b.self, true) }

// relQueryAt is relQuery for the site's release i, naming b's language
// when lang is set: a page every language shares links the same in each,
// site.js carrying the reader's language along (langshare.go).
func (b *builder) relQueryAt(p string, i int, lang bool) string {
	var q []string
	if m := b.set.src.ByPath[b.siteAt(p, i)]; m != nil && m.Rels[0] != i {
		q = append(q, "rel="+url.QueryEscape(b.set.rels[i].Tag))
	}
	if lang && !b.firstLang() {
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
			v.Href, v.Line = url.PathEscape(path.Base(t))+b.relQueryAt(p, i, true), true
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

// writeShared renders the shared source pages into out, the site's root.
func writeShared(ctx context.Context, out output, bs []*builder) (Stats, error) {
	set := bs[0].set
	var pages []page
	for _, sp := range set.src.Pages {
		pages = append(pages, page{path: sp.Path, source: true, html: true, render: func() ([]byte, error) {
			return renderShared(bs, sp)
		}})
	}
	slices.SortFunc(pages, func(a, b page) int { return strings.Compare(a.path, b.path) })
	if err := out.prepare(pages); err != nil {
		return Stats{}, err
	}
	sizes, err := bs[0].renderPages(ctx, out, pages)
	if err != nil {
		return Stats{}, err
	}
	set.src.Written()
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
// every release it serves (package srcmerge), and every release's and
// language's header and backlinks, written as srcmerge.Src.Blocks
// decides, all but the newest release's first language hidden.
func renderShared(bs []*builder, sp srcmerge.Page) ([]byte, error) {
	f, p := sp.File, sp.Path // the part's own path: its switcher stays on it
	set := bs[0].set
	m := set.src.Files[f]
	b := bs[m.Rels[0]]
	var tags []string
	for _, r := range set.rels {
		tags = append(tags, r.Tag)
	}
	r := sharedBlocks{bs: bs, f: f, p: p}
	blocks, err := m.Blocks(set.src, sp.Part, tags, len(b.rel.langs), r, b.tune.explicitHeaders)
	if err != nil {
		return nil, err
	}
	var parts srcParts
	tags = tags[:0]
	for _, bl := range blocks {
		lb := bs[bl.Rel].rel.langs[bl.Lang]
		if bl.Lang == 0 {
			tags = append(tags, lb.in.Tag)
		}
		d := langBlock{pageData: lb.pageData(p, f, "", r.view(bl.Rel, bl.Lang)), Hide: bl.Hide, Rel: lb.in.Tag,
			GH: bl.GH, GHF: bl.GHF, GHL: bl.GHL, LNT: bl.LNT, LNK: bl.LNK, Like: bl.Like, Drop: bl.Drop}
		if bl.Head == nil {
			if err := parts.add(lb, d); err != nil {
				return nil, err
			}
			continue
		}
		c, err := lb.exec("srcchrome", d)
		if err != nil {
			return nil, err
		}
		// Safe: a fragment html/template wrote from our templates.
		hl := headLikeView{Lang: lb.in.Lang, Rel: lb.in.Tag, Like: bl.Head.Like, N: bl.Head.N, Head: template.HTML(bl.Head.Head)}
		lh, err := lb.exec("srcheadlike", hl)
		if err != nil {
			return nil, err
		}
		// Safe: fragments html/template wrote from our templates.
		parts.chrome, parts.heads = append(parts.chrome, template.HTML(c)), append(parts.heads, template.HTML(lh))
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

// sharedBlocks renders the blocks of shared source page p of file f for
// srcmerge.Src.Blocks, with the releases' builders bs.
type sharedBlocks struct {
	bs   []*builder
	f, p string
}

// view is release rel's source header of f in language lang, as the
// release numbers it.
func (r sharedBlocks) view(rel, lang int) sourceView {
	lb := r.bs[rel].rel.langs[lang]
	m := lb.set.src.Files[r.f]
	k := slices.Index(m.Rels, rel)
	return sourceView{Path: r.f, Dir: path.Dir(r.f), Name: path.Base(r.f), Lines: m.Lines[k], GitHub: lb.opts.SourceURL(r.f, 0, 0), Cites: lb.citeViews(r.f)}
}

func (r sharedBlocks) GitHubBase(rel int) string { return ghBase(r.bs[rel], r.f) }

func (r sharedBlocks) Header(rel, lang int) (string, error) {
	lb := r.bs[rel].rel.langs[lang]
	h, err := lb.exec("header", lb.pageData(r.p, r.f, "", r.view(rel, lang)))
	return string(h), err
}

func (r sharedBlocks) SourceHeader(rel, lang, lines int, anchor func(string) string) (string, error) {
	sv := r.view(rel, lang)
	sv.Lines = lines
	if anchor != nil {
		sv.Cites = slices.Clone(sv.Cites)
		for i := range sv.Cites {
			sv.Cites[i].Lines = citedLine.ReplaceAllStringFunc(sv.Cites[i].Lines, anchor)
		}
	}
	h, err := r.bs[rel].rel.langs[lang].exec("srcheader", sv)
	return string(h), err
}

// headLikeView is the source header of an older release that site.js
// makes over (srcmerge.HeadLike): its language and release, its number
// of lines (data-n), and either the release whose header it is made from
// (data-head) or, written whole, its header in anchor form (Head).
type headLikeView struct {
	Lang, Rel, Like string
	N               int
	Head            template.HTML
}

// citedLine matches a line in a cited range ("L12" of "L12-L40").
var citedLine = regexp.MustCompile(`L[0-9]+`)
