package site

import (
	"context"
	"crypto/sha256"
	"fmt"
	"html"
	"html/template"
	"maps"
	"net/url"
	"path"
	"regexp"
	"slices"
	"strings"
)

// A multi-release site writes each source page once for every release
// whose page would show the same code, at the site's root:
//
//	src/pkg/x.go.html           the newest release's x.go, serving every
//	                            other release whose x.go is the same
//	src/pkg/x.go.v1.30.0.html   x.go as v1.30.0 (and older releases with
//	                            the same) have it
//	v1.31.0/…, v1.30.0/…        each release's other pages
//
// Two releases share a page when the file's bytes are the same and its
// identifiers are too (compatible). Where their links go may differ: a
// declaration in another file moved, that file's page is another, the
// GitHub permalink names another tag. Keying the page by its links would
// unshare every file linking to a changed one, and those linking to them,
// through the whole cross-referenced site: keyed so, 22 pages served both
// v1.36.3 and v1.37.2; keyed as here, 95 of the 257. So the code is
// rendered once, with the links of the page's newest release, and each
// other release's part carries the links that differ for it
// (data-relinks) and where its permalinks start (data-gh); site.js
// follows those for a reader of that release. Without script, the links
// are the newest release's.
//
// What differs per release — the header (its version switcher and links
// into the release), the GitHub permalink at the tag, the "Cited by"
// backlinks — is carried once per release and language, all hidden but
// the newest release's first language's; site.js shows the one ?rel= and
// ?lang= name. Without script the reader sees the newest release's parts,
// and the footer lists every release the page serves. Links from a
// release's pages into the source pages carry ?rel=<tag> (but to a page
// whose newest release it is); links between source pages carry none,
// site.js adding the release being read. A page opened with a ?rel= it
// does not serve sends the reader on through its version switcher to
// that release's page of the file, at the same line.

// sharedSrc is one shared source page.
type sharedSrc struct {
	path string // site path from the site's root
	file string // repository path
	rels []int  // indexes into releaseSet.rels, newest first
	// relinks are relinks' pairs, per release of rels.
	relinks []string
}

// share groups the rendered files of every release into shared pages and
// records, per file and release, which page serves it. bs are the
// releases' builders (first language), newest first.
func (set *releaseSet) share(bs []*builder) error {
	set.variant, set.newest = map[string][]string{}, map[string]int{}
	byHash := map[string]map[[32]byte][]int{} // file → bytes → releases
	for i, b := range bs {
		for _, f := range b.files {
			src, err := b.in.ReadFile(f)
			if err != nil {
				return fmt.Errorf("%s: %s: %w", b.in.Tag, f, err)
			}
			if byHash[f] == nil {
				byHash[f] = map[[32]byte][]int{}
			}
			k := sha256.Sum256(src)
			byHash[f][k] = append(byHash[f][k], i)
		}
	}
	for _, f := range slices.Sorted(maps.Keys(byHash)) {
		var gs [][]int
		for _, rs := range byHash[f] {
			gs = append(gs, splitShared(bs, f, rs)...)
		}
		// Releases are in order, so each group's first is its newest.
		slices.SortFunc(gs, func(a, b []int) int { return a[0] - b[0] })
		set.variant[f] = make([]string, len(bs))
		for j, rs := range gs {
			p := SourcePage(f)
			if j > 0 {
				p = "src/" + f + "." + bs[rs[0]].in.Tag + ".html"
			}
			set.pages = append(set.pages, sharedSrc{path: p, file: f, rels: rs})
			set.newest[p] = rs[0]
			for _, r := range rs {
				set.variant[f][r] = p
			}
		}
	}
	for i := range set.pages {
		set.pages[i].relinks = relinks(bs, set.pages[i])
	}
	return nil
}

// splitShared splits releases rs, whose file f has the same bytes, into
// groups one page can serve: each joins the first group whose newest
// release's page it can share (compatible), else starts one.
func splitShared(bs []*builder, f string, rs []int) [][]int {
	var gs [][]int
next:
	for _, r := range rs {
		for i, g := range gs {
			if compatible(bs[g[0]], bs[r], f) {
				gs[i] = append(g, r)
				continue next
			}
		}
		gs = append(gs, []int{r})
	}
	return gs
}

// linkTarget is what an identifier's link depends on (linkFor).
type linkTarget struct {
	path string
	line int
	page bool
}

// compatible reports whether file f's page, rendered for release a, can
// serve release r too, given the same bytes: the same identifiers,
// linked where a links them, and no two of a's links that r would send
// to two places (site.js maps each of a's links to r's: relinks).
func compatible(a, r *builder, f string) bool {
	ia, ir := a.xrefs[f], r.xrefs[f]
	if len(ia) != len(ir) {
		return false
	}
	seen := map[linkTarget]linkTarget{}
	for i := range ia {
		x, y := ia[i], ir[i]
		if x.Off != y.Off || x.Len != y.Len || x.Kind != y.Kind || x.Def != y.Def || x.Target.IsZero() != y.Target.IsZero() {
			return false
		}
		tx := linkTarget{x.Target.Path, x.Target.StartLine, a.rendered[x.Target.Path]}
		ty := linkTarget{y.Target.Path, y.Target.StartLine, r.rendered[y.Target.Path]}
		if tx.page != ty.page { // codehtml links some kinds only within the site
			return false
		}
		if prev, ok := seen[tx]; ok && prev != ty {
			return false
		}
		seen[tx] = ty
	}
	return true
}

// relinks are, per release of shared page sp but its newest, the links of
// the page's code that go elsewhere for that release, as "from to" pairs
// (data-relinks, which site.js follows): a target whose line moved, or
// whose page is another. A GitHub link that differs only by the tag is
// left out: site.js swaps the tag (data-gh).
func relinks(bs []*builder, sp sharedSrc) []string {
	out := make([]string, len(sp.rels))
	p := SourcePage(sp.file)
	a := bs[sp.rels[0]]
	la, gha := a.linkFor(p), ghBase(a, sp.file)
	for k, ri := range sp.rels[1:] {
		r := bs[ri]
		lr, ghr := r.linkFor(p), ghBase(r, sp.file)
		pairs := map[string]string{}
		for i, x := range a.xrefs[sp.file] {
			if x.Target.IsZero() {
				continue
			}
			from, to := la(x.Target), lr(r.xrefs[sp.file][i].Target)
			if to == from || gha != "" && ghr != "" && strings.HasPrefix(from, gha) && to == ghr+from[len(gha):] {
				continue
			}
			pairs[from] = to
		}
		var sb strings.Builder
		for _, from := range slices.Sorted(maps.Keys(pairs)) {
			if sb.Len() > 0 {
				sb.WriteByte(' ')
			}
			sb.WriteString(from + " " + pairs[from])
		}
		out[k+1] = sb.String()
	}
	return out
}

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

// srcVariant returns the site path, from the site's root, of the page
// serving site path p (a source page) in release rel; "" when the release
// has no page of that file.
func (set *releaseSet) srcVariant(p string, rel int) string {
	f, ok := strings.CutPrefix(p, "src/")
	if !ok {
		return ""
	}
	f, ok = strings.CutSuffix(f, ".html")
	if !ok {
		return ""
	}
	if vs := set.variant[f]; vs != nil {
		return vs[rel]
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
	if strings.HasPrefix(p, "src/") {
		if v := b.set.srcVariant(p, b.self); v != "" {
			return v
		}
		return p // "src/" itself
	}
	return b.set.rels[b.self].prefix + b.full(p)
}

// sharedSource reports whether site path p is a source page shared by the
// releases of a multi-release site.
func (b *builder) sharedSource(p string) bool {
	return b.set != nil && strings.HasPrefix(p, "src/") && strings.HasSuffix(p, ".html")
}

// relQuery is the query naming b's release and language on shared
// source page p (a site path from the release's root): "?rel=v1.30.0&lang=ko",
// leaving out what the page shows without a query — its newest release,
// the first language — which is most links of the newest release (678 on
// v1.37.2's deployment walkthrough, 8 KB).
func (b *builder) relQuery(p string) string {
	var q []string
	if b.set.newest[b.site(p)] != b.self {
		q = append(q, "rel="+url.QueryEscape(b.in.Tag))
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
// or that release's home page when it has no page of the file.
func (b *builder) srcVersions(p string) []versionView {
	from := b.site(p)
	var out []versionView
	for i, r := range b.set.rels {
		v := versionView{Tag: r.tag, Current: i == b.self}
		other := r.b
		if b.langs != nil {
			other = langsOf(r.b)[slices.Index(b.langs, b)]
		}
		if t := b.set.srcVariant(p, i); t != "" {
			v.Href, v.Line = url.PathEscape(path.Base(t))+other.relQuery(p), true
		} else {
			v.Href, v.Home = relURL(from, other.site(homePage), ""), true
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
	for _, sp := range set.pages {
		pages = append(pages, page{path: sp.path, source: true, html: true, render: func() ([]byte, error) {
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

// renderShared renders one shared source page: the code as its newest
// release has it, and every release's and language's header and
// backlinks, all but the newest release's first language hidden.
func renderShared(bs []*builder, sp sharedSrc) ([]byte, error) {
	f, p := sp.file, SourcePage(sp.file)
	b := bs[sp.rels[0]]
	src, err := b.in.ReadFile(f)
	if err != nil {
		return nil, err
	}
	code, n := sourceCode(path.Base(f), src, b.xrefs[f], b.linkFor(p))
	var parts srcParts
	var tags []string
	for k, r := range sp.rels {
		tags = append(tags, bs[r].in.Tag)
		gh := ghBase(bs[r], f)
		for _, lb := range langsOf(bs[r]) {
			sv := sourceView{Path: f, Dir: path.Dir(f), Name: path.Base(f), Lines: n, GitHub: lb.opts.SourceURL(f, 0, 0), Cites: lb.citeViews(f)}
			d := langBlock{pageData: lb.pageData(p, f, "", sv), Hide: len(parts.chrome) > 0, Rel: lb.in.Tag, GH: gh, Relinks: sp.relinks[k]}
			if err := parts.add(lb, d); err != nil {
				return nil, err
			}
		}
	}
	doc := b.pageData(p, f, "", nil)
	// The page's own line: every release it serves, which is what a
	// reader without script learns of the others.
	doc.Release = release{Tag: strings.Join(tags, ", ")}
	doc.SrcRoot = relURL(b.site(p), "src/", "")
	return parts.page(b, doc, code)
}

// symrefHref matches the href of a link into the source pages in a
// walkthrough's HTML, which walkthrough.Load rendered for a release's own
// src/ (SymbolURL): the way up, the source page, the fragment.
var symrefHref = regexp.MustCompile(`href="((?:\.\./)*)src/([^"#?]*)(#[^"]*)?"`)

// retarget points the links into the source pages of a walkthrough's
// HTML, on page p, at the shared pages serving b's release. A link that
// names no rendered file is left as it was (the link checker reports it).
func (b *builder) retarget(p string, h template.HTML) template.HTML {
	if b.set == nil || !strings.Contains(string(h), "src/") {
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
		if err != nil || b.set.srcVariant("src/"+target, b.self) == "" {
			return m
		}
		frag := strings.TrimPrefix(html.UnescapeString(s[3]), "#")
		return `href="` + html.EscapeString(b.link(p, "src/"+target, frag)) + `"`
	}))
}
