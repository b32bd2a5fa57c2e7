package linkcheck

import (
	"bytes"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/net/html"

	"github.com/kubewalk/kubewalk/internal/render/codehtml"
)

// Scripts lists the links the data script at site path p of the site in
// root holds (a search index, explain's data), each as the page it is
// followed from and its URL; ok is false when p is no such script. errs
// are the script's own problems, one message each. The site that writes
// the scripts reads them: site.ScriptLinks.
type Scripts func(root, p string) (links [][2]string, ok bool, errs []error)

// Check checks a built site in dir: every relative href, src, form
// action, data-diffs (the script site.js loads for a walkthrough's diffs)
// and place data-lnk sends a link to (a shared source page's, for an
// older release) of every HTML page (inline SVG included), and every URL
// scripts finds in the site's other files, names a file inside the site,
// and every #fragment names an id on the target page — a line range
// #L10-L20 needs both L10 and L20. A query's rel and lang (a shared
// source page's release and language) must name a part the target page
// carries (data-rel, data-lang). Links with a scheme other than https:
// are errors (the site links nowhere else: GitHub permalinks are https);
// https links are not fetched. A link of the code in the compact form
// (an <a> with data-g: the rest of a GitHub permalink, codehtml.GitHubRest)
// is checked as the href site.js gives it, the data-gh of the element
// around it (the <body>) before it: that base must be there, an https
// URL ending in "/", and data-g a relative path that stays under it. Errors are "page: message", sorted.
// scripts may be nil: HTML pages only.
func Check(dir string, scripts Scripts) []error {
	c := &linkChecker{root: dir, ids: map[string]map[string]bool{}, groups: map[string]map[string]string{}, stats: map[string]struct {
		fi  fs.FileInfo
		err error
	}{}}
	var pages, others []string // HTML pages; every other file, for scripts
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if strings.HasSuffix(d.Name(), ".html") {
			pages = append(pages, filepath.ToSlash(rel))
		} else if scripts != nil {
			others = append(others, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		return []error{err}
	}
	sort.Strings(pages)
	for _, p := range pages {
		c.page(p)
	}
	sort.Strings(others)
	for _, p := range others {
		links, ok, errs := scripts(dir, p)
		if !ok {
			continue
		}
		for _, err := range errs {
			c.errorf(p, "%v", err)
		}
		for _, l := range links {
			c.link(l[0], l[1])
		}
	}
	sort.Slice(c.errs, func(i, j int) bool { return c.errs[i].Error() < c.errs[j].Error() })
	// A link shown for several releases of a shared page fails once.
	c.errs = slices.CompactFunc(c.errs, func(a, b error) bool { return a.Error() == b.Error() })
	return c.errs
}

type linkChecker struct {
	root   string
	ids    map[string]map[string]bool   // page → ids, parsed once
	groups map[string]map[string]string // page → release → its page (parsedPage)
	stats  map[string]struct {
		fi  fs.FileInfo
		err error
	}
	errs []error
}

var lineRange = regexp.MustCompile(`^(L[0-9.]+)-(L[0-9.]+)$`)

// partKey is how a page's ids record the releases and languages its
// parts carry: "\x00rel=v1.31.0", which no id can be.
func partKey(attr, v string) string { return "\x00" + attr + "=" + v }

func (c *linkChecker) errorf(page, format string, args ...any) {
	c.errs = append(c.errs, fmt.Errorf("%s: %s", page, fmt.Sprintf(format, args...)))
}

// pageLink is a URL found on a page. On a page the releases of a
// multi-release site share (site/internal/pageshare), mask is the releases it is
// shown for (a bit per release, as data-r).
type pageLink struct {
	raw, tag, attr string
	mask           uint64
	// langs is, on a page a bilingual release's languages share, the
	// languages it is shown for (a bit per language, as data-lg).
	langs uint64
}

// parsedPage is what the link checker reads of an HTML page.
type parsedPage struct {
	ids    map[string]bool
	links  []pageLink
	dupIDs []string
	// bad are the page's links that are no URL as written: a GitHub
	// link in the compact form without its base, or one that leaves it.
	bad []string
	// On a page releases share: those releases (data-rels), all the
	// site's, and the page of each other release of the same page (its
	// URL from this one, data-groups), where site.js sends it.
	rels, all []string
	groups    map[string]string
	// langs are, on a page languages share, those languages (data-langs).
	langs []string
}

// parsePage reads the ids and links of an HTML page.
//
// Its length is one tokenizer loop with a case per attribute that names
// an id or a link: the attributes depend on each other within a tag and
// on the open elements' (data-r masks, data-gh bases, data-lnt before
// data-lnk), so they are read in one pass rather than in one per kind.
func parsePage(data []byte) parsedPage {
	ids := map[string]bool{}
	var links []pageLink
	var dupIDs, rels, all, lnt, bad, langs []string
	groups := map[string]string{}
	var moved []string
	// The releases each open element is shown for, and the base of the
	// GitHub links in it (data-gh): the pages shared by releases are
	// written by x/net/html, which closes every element.
	type open struct {
		tag         string
		mask, langs uint64
		gh          string
	}
	stack := []open{{"", ^uint64(0), ^uint64(0), ""}}
	z := html.NewTokenizer(bytes.NewReader(data))
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			for _, id := range moved {
				ids[id] = true
			}
			return parsedPage{ids, links, dupIDs, bad, rels, all, groups, langs}
		}
		if tt == html.EndTagToken {
			tag, _ := z.TagName()
			for i := len(stack) - 1; i > 0; i-- {
				if stack[i].tag == string(tag) {
					stack = stack[:i]
					break
				}
			}
			continue
		}
		if tt != html.StartTagToken && tt != html.SelfClosingTagToken {
			continue
		}
		tag, hasAttr := z.TagName()
		mask, lmask, gh := stack[len(stack)-1].mask, stack[len(stack)-1].langs, stack[len(stack)-1].gh
		var found [][2]string // attribute, URL
		var g []byte          // data-g, a GitHub link in the compact form
		for hasAttr {
			var k, v []byte
			k, v, hasAttr = z.TagAttr()
			switch string(k) {
			case "id":
				if ids[string(v)] {
					dupIDs = append(dupIDs, string(v))
				}
				ids[string(v)] = true
			case "data-id": // an id a page shared by releases moves to the release's rendering
				moved = append(moved, string(v))
			case "data-rels":
				rels = strings.Fields(string(v))
				for _, r := range rels {
					ids[partKey("rel", r)] = true
				}
			case "data-langs": // a page the languages share, merged (site/langshare.go)
				langs = strings.Fields(string(v))
				for _, l := range langs {
					ids[partKey("lang", l)] = true
				}
			case "data-releases":
				all = strings.Fields(string(v))
			case "data-groups": // the page of other releases, where site.js sends them
				for _, g := range strings.Fields(string(v)) {
					tags, u, _ := strings.Cut(g, "=")
					for _, r := range strings.Split(tags, ",") {
						ids[partKey("rel", r)] = true
						groups[r] = u
						found = append(found, [2]string{string(k), u + "?rel=" + url.QueryEscape(r)})
					}
				}
			case "data-r":
				if m, err := strconv.ParseUint(string(v), 16, 64); err == nil {
					mask &= m
				}
			case "data-lg":
				if m, err := strconv.ParseUint(string(v), 16, 64); err == nil {
					lmask &= m
				}
			case "data-rel", "data-lang":
				ids[partKey(strings.TrimPrefix(string(k), "data-"), string(v))] = true
			case "name": // <a name> is an anchor too; form fields are not
				if string(tag) == "a" {
					ids[string(v)] = true
				}
			case "href", "src", "action", "xlink:href", "data-diffs":
				found = append(found, [2]string{string(k), string(v)})
			case "data-gh":
				gh = string(v)
			case "data-g":
				g = v
			case "data-lnt": // the hrefs data-lnk names by index (site/internal/srcmerge LinkTable)
				lnt = strings.Fields(string(v))
			case "data-lnk": // "<href> <where it goes for the block's release>" pairs, by index in data-lnt
				f := strings.Fields(string(v))
				for i := 1; i < len(f); i += 2 {
					a, errA := strconv.Atoi(f[i-1])
					b, errB := strconv.Atoi(f[i])
					if errA != nil || errB != nil || a < 0 || b < 0 || a >= len(lnt) || b >= len(lnt) {
						found = append(found, [2]string{string(k), "data-lnk names no href of data-lnt: " + f[i-1] + " " + f[i]})
						continue
					}
					found = append(found, [2]string{string(k), expandLinkMove(lnt[a], lnt[b])})
				}
			}
		}
		if g != nil && string(tag) == "a" {
			if u, err := gitHubLink(gh, codehtml.GitHubRest(string(g))); err != nil {
				bad = append(bad, err.Error())
			} else {
				found = append(found, [2]string{"href", u}) // site.js makes it the link's href
			}
		}
		for _, l := range found {
			links = append(links, pageLink{l[1], string(tag), l[0], mask, lmask})
		}
		if tt == html.StartTagToken && !voidElement[string(tag)] {
			stack = append(stack, open{string(tag), mask, lmask, gh})
		}
	}
}

// gitHubLink is the href site.js gives a link of the code in the compact
// form: base (data-gh, around it) and the rest of its permalink (data-g).
func gitHubLink(base, rest string) (string, error) {
	b, err := url.Parse(base)
	switch {
	case base == "":
		return "", fmt.Errorf("GitHub link %q without a base (data-gh)", rest)
	case err != nil || b.Scheme != "https" || b.Host == "" || !strings.HasSuffix(base, "/"):
		return "", fmt.Errorf("GitHub link %q: base %q is no https URL ending in /", rest, base)
	}
	r, err := url.Parse(rest)
	if err != nil || rest == "" || r.Scheme != "" || r.Host != "" || strings.HasPrefix(rest, "/") || slices.Contains(strings.Split(r.Path, "/"), "..") {
		return "", fmt.Errorf("GitHub link %q: no path under its base %q", rest, base)
	}
	return base + rest, nil
}

// expandLinkMove is where data-lnk's pair from, to sends a link: to, or
// to on from's page when to is a fragment (site.js does the same).
func expandLinkMove(from, to string) string {
	if strings.HasPrefix(to, "#") {
		page, _, _ := strings.Cut(from, "#")
		return page + to
	}
	return to
}

// ghBlob is the start of a GitHub permalink at a tag.
const ghBlob = "https://github.com/kubernetes/kubernetes/blob/"

// SharedPage is what a page the releases of a site share (data-rels)
// shows each of them, as site.js shows it.
type SharedPage struct {
	// Rels are the releases that share the page, newest first.
	Rels []string
	// Links are, by release, the hrefs of the page's links and the
	// actions of its forms shown for it, in page order, as site.js writes
	// them (releaseView): in the page's first language when the
	// languages share it.
	Links map[string][]string
	// Langs are the languages that share the page (data-langs), none for
	// a page of one; LangLinks are, by language after the first and by
	// release, the links shown for them, as Links are.
	Langs     []string
	LangLinks map[string]map[string][]string
	// Groups are, by release, the page the release is sent to when
	// another page serves it (data-groups), relative to this one.
	Groups map[string]string
}

// ReadSharedPage reads the HTML page at site path p, data, as each
// release that shares it sees it: its Rels are empty for a page of one
// release.
func ReadSharedPage(p string, data []byte) SharedPage {
	pp := parsePage(data)
	sp := SharedPage{Rels: pp.rels, Links: map[string][]string{}, Groups: pp.groups, Langs: pp.langs, LangLinks: map[string]map[string][]string{}}
	langs := pp.langs
	if len(langs) == 0 {
		langs = []string{""}
	}
	for j, lang := range langs {
		links := sp.Links
		if j > 0 {
			links = map[string][]string{}
			sp.LangLinks[lang] = links
		}
		for k, r := range pp.rels {
			for _, l := range pp.links {
				if (l.tag == "a" || l.tag == "form") && l.mask&(1<<k) != 0 && l.langs&(1<<j) != 0 {
					links[r] = append(links[r], releaseView(l.raw, pp.rels, pp.all, k, p, "index.html"))
				}
			}
		}
	}
	return sp
}

// voidElement are the HTML elements without an end tag.
var voidElement = map[string]bool{
	"area": true, "base": true, "br": true, "col": true, "embed": true, "hr": true, "img": true,
	"input": true, "link": true, "meta": true, "source": true, "track": true, "wbr": true,
}

// releaseView is link raw of a page shared by releases rels (newest
// first; all are the site's) as site.js makes it for release k: the
// newest's directory and GitHub tag turned into the release's, and ?rel=
// on a link to a page no release's directory holds but the site's top
// index.html (top).
func releaseView(raw string, rels, all []string, k int, page, top string) string {
	r := rels[k]
	if rest, ok := strings.CutPrefix(raw, ghBlob+rels[0]+"/"); ok {
		return ghBlob + r + "/" + rest
	}
	if raw == "" || raw[0] == '#' || strings.Contains(strings.SplitN(raw, "/", 2)[0], ":") {
		return raw
	}
	raw = releaseDirView(raw, rels[0], r)
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	for _, s := range strings.Split(u.Path, "/") {
		if slices.Contains(all, s) {
			return raw
		}
	}
	if path.Join(path.Dir(page), u.Path) == top || u.Query().Has("rel") {
		return raw
	}
	q := u.Query()
	q.Set("rel", r)
	head, _, _ := strings.Cut(raw, "#")
	head, _, _ = strings.Cut(head, "?")
	return head + "?" + q.Encode() + strings.TrimPrefix(raw, strings.SplitN(raw, "#", 2)[0])
}

// releaseDirView is relative link raw with the directory of release n at
// its start (after any "../") turned into release r's, as site.js's
// releaseDir does.
func releaseDirView(raw, n, r string) string {
	seg := strings.Split(raw, "/")
	i := 0
	for i < len(seg) && seg[i] == ".." {
		i++
	}
	if i < len(seg)-1 && seg[i] == n {
		seg[i] = r
		raw = strings.Join(seg, "/")
	}
	return raw
}

// stat is os.Stat of site path p, once per path.
func (c *linkChecker) stat(p string) (fs.FileInfo, error) {
	st, ok := c.stats[p]
	if !ok {
		st.fi, st.err = os.Stat(filepath.Join(c.root, filepath.FromSlash(p)))
		c.stats[p] = st
	}
	return st.fi, st.err
}

func (c *linkChecker) pageIDs(p string) (map[string]bool, bool) {
	if ids, ok := c.ids[p]; ok {
		return ids, ids != nil
	}
	data, err := os.ReadFile(filepath.Join(c.root, filepath.FromSlash(p)))
	if err != nil {
		c.ids[p] = nil
		return nil, false
	}
	pp := parsePage(data)
	c.ids[p], c.groups[p] = pp.ids, pp.groups
	return pp.ids, true
}

func (c *linkChecker) page(p string) {
	data, err := os.ReadFile(filepath.Join(c.root, filepath.FromSlash(p)))
	if err != nil {
		c.errorf(p, "%v", err)
		return
	}
	pp := parsePage(data)
	c.ids[p], c.groups[p] = pp.ids, pp.groups
	for _, d := range pp.dupIDs {
		c.errorf(p, "duplicate id %q", d)
	}
	for _, b := range pp.bad {
		c.errorf(p, "%s", b)
	}
	for _, l := range pp.links {
		if len(pp.rels) == 0 {
			c.link(p, l.raw)
			continue
		}
		// A page shared by releases: each link as each release it is
		// shown for sees it. site.js rewrites the links a reader follows
		// (a[href], form[action]) and the diffs' script it loads
		// (data-diffs); a stylesheet, script or image loads as written.
		for k := range pp.rels {
			switch {
			case l.mask&(1<<k) == 0:
			case l.tag == "a" && l.attr == "href" || l.tag == "form" && l.attr == "action":
				c.link(p, releaseView(l.raw, pp.rels, pp.all, k, p, "index.html"))
			case l.attr == "data-diffs":
				c.link(p, releaseDirView(l.raw, pp.rels[0], pp.rels[k]))
			default:
				c.link(p, l.raw)
			}
		}
	}
}

// link checks one URL found on page p.
func (c *linkChecker) link(p, raw string) {
	if raw == "" {
		// An empty action or href is the page itself.
		return
	}
	u, err := url.Parse(raw)
	if err != nil {
		c.errorf(p, "bad URL %q: %v", raw, err)
		return
	}
	if u.Scheme != "" || u.Host != "" {
		if u.Scheme != "https" || u.Host == "" {
			c.errorf(p, "external link %q: only https links may leave the site", raw)
		}
		return
	}
	target := p
	if u.Path != "" {
		if strings.HasPrefix(u.Path, "/") {
			c.errorf(p, "absolute path %q: links must be relative", raw)
			return
		}
		target = path.Join(path.Dir(p), u.Path)
		if target == ".." || strings.HasPrefix(target, "../") {
			c.errorf(p, "link %q leaves the site", raw)
			return
		}
		fi, err := c.stat(target)
		if err != nil {
			c.errorf(p, "link %q: %s does not exist", raw, target)
			return
		}
		if fi.IsDir() {
			c.errorf(p, "link %q names a directory (does not work from file://)", raw)
			return
		}
	}
	c.query(p, raw, target, u.Query())
	if u.Fragment == "" {
		return
	}
	// A release another page serves: site.js goes there, fragment kept.
	if _, ok := c.pageIDs(target); ok {
		if at, ok := c.groups[target][u.Query().Get("rel")]; ok {
			target = path.Join(path.Dir(target), at)
		}
	}
	if !strings.HasSuffix(target, ".html") {
		c.errorf(p, "link %q: fragment on a non-HTML file", raw)
		return
	}
	ids, ok := c.pageIDs(target)
	if !ok {
		c.errorf(p, "link %q: cannot read %s", raw, target)
		return
	}
	want := []string{u.Fragment}
	if m := lineRange.FindStringSubmatch(u.Fragment); m != nil {
		want = []string{m[1], m[2]}
	}
	for _, id := range want {
		if !ids[id] {
			c.errorf(p, "link %q: no id %q in %s", raw, id, target)
		}
	}
}

// query checks that the release and language a link's query names are
// parts of its target page.
func (c *linkChecker) query(p, raw, target string, q url.Values) {
	for _, attr := range []string{"rel", "lang"} {
		v, ok := q[attr]
		if !ok {
			continue
		}
		ids, readable := c.pageIDs(target)
		if !strings.HasSuffix(target, ".html") || !readable {
			c.errorf(p, "link %q: a query on %s, which has no parts", raw, target)
			return
		}
		if len(v) != 1 || !ids[partKey(attr, v[0])] {
			c.errorf(p, "link %q: %s has no part for %s=%v", raw, target, attr, v)
		}
	}
}
