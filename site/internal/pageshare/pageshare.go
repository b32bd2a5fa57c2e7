// Package pageshare writes once the pages two releases or more of a
// site of several releases have (site/releases runs Share on the files
// package site rendered, held in a sitetree.Tree; site/releases' package
// comment defines the pages it writes).
//
// Each release renders its walkthroughs, indexes (handlers, events,
// resources, gates), traces and controller pages as a
// single-release site would, in its own subtree (<tag>/<lang>/…, the
// index pages at <tag>/, its languages' renderings merged), but
// for its line numbers: a location in a file with a shared source page
// is printed by the page's stable anchors, the same in every release
// whose code there is the same (package site's lines.go). Two releases' renderings of a
// page are then mostly the same but for what names the release: its
// directory in links, ?rel= on links into the shared source pages, the
// tag of GitHub permalinks, the page title.
// Share writes each page two releases or more have once for
// a group of releases, at <page> (an index page the languages share,
// site's langshare.go) or <lang>/<page> (a walkthrough) beside the shared
// source pages (the group of the newest release that has it), and
// <name>.<tag>.html beside it (the others', named by their newest
// release):
//
//   - Each release's rendering is parsed (golang.org/x/net/html), its
//     links moved to the shared page's place, and what names the release
//     set to its group's newest release's: its directory and GitHub tag in
//     links (and in the <body>'s data-gh, the base its code's GitHub
//     links name the rest from), ?rel= of itself dropped, and the tag in
//     the title.
//   - Releases join the group of the newer ones, newest first, while that
//     takes fewer bytes than their own page and the group's page stays
//     within a megabyte (Budget: a reader on a phone downloads it
//     whole); so a walkthrough, trace or controller page is usually one
//     page for every release that has it, and an index that differs more
//     between releases is shared by a few releases at a time.
//   - The renderings are merged as trees, newest first: an element's
//     children are aligned by content (a Myers diff of subtree hashes, as
//     the source pages' lines are aligned; white space that shows nothing
//     where it stands, between table rows, list items or block-level
//     elements, is no anchor of it, and the newest's is kept, so that a
//     line break does not part a changed row from its other rendering);
//     a child every release has is
//     written once; two renderings of a child with the same start tag are
//     merged inside it; any other child is written once for the releases
//     that have it (data-r: a bit per release of data-rels, newest first;
//     hidden unless the newest has it). Text that differs is wrapped in a
//     span to carry data-r where a span may stand; where it may not (a
//     table row's own text), the element around it is written per
//     rendering instead. A release's own title is a second <title>, after
//     the newest's.
//   - White space that collapses (spaces, tabs and newlines only, outside
//     preformatted text and code) that only some of its parent's releases
//     have, where a template wrote more or less of it around what some
//     releases lack, is written for all of them where the others show
//     nothing more with it (sharedBlanks), without a span; of white space
//     so written next to other, one is kept (the newest's).
//   - An id a hidden rendering repeats is data-id there; site.js moves the
//     id to the rendering it shows.
//   - A group's page whose newest release is not the site's, and a page
//     left in a release's subtree, print that release's line numbers
//     (renumber): what a reader without script sees.
//   - site.js, for ?rel= of an older release, shows its renderings, turns
//     the newest's directory and tag in links back into the release's,
//     writes the release's line numbers (its <tag>/lines.js: lines.go),
//     and, for any release, carries ?rel= on links to the source pages
//     and the shared pages. Without script a reader sees the newest. A
//     release of another group is sent to its group's page (data-groups).
//
// Links within the shared pages name a page's first group's page and the
// release (site.js sends it on); every other file's links to a release's
// copy name its group's page. A page no two releases' renderings of
// which merge smaller stays in each release's subtree; so do the pages
// that load their release's data (search, explain), the recorded run and
// each release's changes (its diffs have little in common with
// another's: merged, the changes pages of v1.30..v1.37 were no smaller).
//
// The link checker reads a shared page as each release it shows a link
// for sees it (internal/linkcheck, releaseView).
package pageshare

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/url"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
	"golang.org/x/sync/errgroup"

	"github.com/kubewalk/kubewalk/site/internal/linemap"
	"github.com/kubewalk/kubewalk/site/internal/sitepath"
	"github.com/kubewalk/kubewalk/site/internal/sitetree"
	"github.com/kubewalk/kubewalk/site/internal/treemerge"
)

// Shares reports whether a page (its path under a release's
// language directory) is one Share may share.
func Shares(p string) bool {
	switch p {
	case "handlers.html", "events.html", "resources.html", "gates.html":
		return true
	}
	dir, f := path.Split(p)
	return (dir == "traces/" || dir == "controllers/" || dir == "walkthroughs/") && strings.HasSuffix(f, ".html")
}

// relPages is what Share knows of a multi-release site.
type relPages struct {
	// to maps each page shared ("en/handlers.html", the path of its
	// copies under each release's directory) to the releases that have
	// it, newest first.
	to   map[string][]string
	site map[string]bool // every file of the site
	// at is, once the pages are merged, each shared page's page of each
	// release: p, or its group's (groupPath).
	at     map[string]map[string]string
	all    []string // the releases, newest first: their directories
	budget int      // the most a shared page may weigh
	// set is the site's releases, whose line maps number the pages'
	// lines for each (lines.go); nil numbers none.
	set *linemap.Maps
}

// Result is what Share did: the change in the site's bytes and pages,
// and where the links to the pages it shared go now.
type Result struct {
	Bytes int64
	Pages int
	// Links moves the links of the data a site's stage holds to write
	// (a release's search entries, its explain page's steps) as Share
	// moved the site's files'.
	Links *Links
}

// Links moves links to a release's copy of a page Share shared to the
// shared page. A nil *Links moves none.
type Links struct{ rp *relPages }

// Move moves each of links, written on the page at site path page (a
// data script's links are relative to the page that loads it), to the
// shared pages; it reports whether any moved.
func (l *Links) Move(page string, links []*string) bool {
	if l == nil || len(l.rp.at) == 0 {
		return false
	}
	return l.rp.moveLinks(page, links)
}

// Share writes the pages Shares names that two
// releases or more of the multi-release site t have once per group
// of releases (workers at a time), as the package comment says, removes
// the releases' copies and points every link of the site at the shared
// pages; a release's page of those kinds left in its directory gets its
// own line numbers, and each release but the newest its line map
// (lines.go). tags are newest first, set the releases' lineSet (nil when
// the pages print their own lines).
//
// It is long (some 185 lines) because its phases — list the site's pages
// and each page's releases, merge them in parallel, relink the site,
// renumber and remove what was shared, write the line maps — work on the
// one relPages and the workers' results in order; each phase is a block
// with its comment.
func Share(ctx context.Context, t *sitetree.Tree, tags []string, set *linemap.Maps, workers, budget int) (Result, error) {
	var dBytes int64
	var dPages int
	rp := &relPages{to: map[string][]string{}, site: map[string]bool{}, all: tags, budget: budget, set: set}
	for _, p := range t.Paths() {
		rp.site[p] = true
	}
	// The shared pages: those two releases or more have.
	for _, t := range tags {
		for f := range rp.site {
			rest, ok := strings.CutPrefix(f, t+"/")
			if !ok {
				continue
			}
			// A bilingual release has a directory per language.
			if _, p, lang := strings.Cut(rest, "/"); Shares(rest) || lang && Shares(p) {
				rp.to[rest] = append(rp.to[rest], t)
			}
		}
	}
	var pages []string
	for p, ts := range rp.to {
		if len(ts) < 2 {
			delete(rp.to, p)
			continue
		}
		pages = append(pages, p)
	}
	sort.Strings(pages)
	// A page whose renderings cannot be merged, or are no smaller merged,
	// stays in each release's subtree; the pages that link it are merged
	// again, their links to it left as they are.
	merged := map[string][]groupPage{}
	linked := map[string]map[string]bool{} // page → the shared pages it links
	todo := pages
	for len(todo) > 0 {
		outs := make([][]groupPage, len(todo))
		links := make([]map[string]bool, len(todo))
		errs := make([]error, len(todo))
		g, gctx := errgroup.WithContext(ctx)
		g.SetLimit(workers)
		for i, p := range todo {
			g.Go(func() error {
				if err := gctx.Err(); err != nil {
					return err
				}
				outs[i], links[i], errs[i] = rp.merge(t, p)
				if errors.Is(errs[i], errUnmergeable) {
					return nil
				}
				return errs[i]
			})
		}
		if err := g.Wait(); err != nil {
			return Result{}, err
		}
		dropped := map[string]bool{}
		for i, p := range todo {
			merged[p], linked[p] = outs[i], links[i]
			if errors.Is(errs[i], errUnmergeable) {
				delete(rp.to, p)
				delete(merged, p)
				dropped[p] = true
			}
		}
		todo = nil
		for _, p := range pages {
			if rp.to[p] == nil {
				continue
			}
			for d := range dropped {
				if linked[p][d] {
					todo = append(todo, p)
					break
				}
			}
		}
	}
	rp.at = map[string]map[string]string{}
	for _, p := range pages {
		gs, ok := merged[p]
		if !ok {
			continue
		}
		rp.at[p] = map[string]string{}
		for _, tag := range rp.to[p] {
			f := tag + "/" + p
			data, err := t.ReadFile(f)
			if err != nil {
				return Result{}, err
			}
			dBytes -= int64(len(data))
			dPages--
			if err := t.Remove(f); err != nil {
				return Result{}, err
			}
		}
		for _, g := range gs {
			for _, tag := range g.tags {
				rp.at[p][tag] = g.path
			}
			if err := t.Put(g.path, g.data); err != nil {
				return Result{}, err
			}
			dBytes += int64(len(g.data))
			dPages++
		}
	}
	nLines, err := rp.writeLines(t)
	if err != nil {
		return Result{}, err
	}
	dBytes += nLines
	// Every other page's links to a release's copy go to the shared page;
	// a page of the kinds shared left in a release's directory gets the
	// release's line numbers.
	var files []string
	for f := range rp.site {
		if i := strings.IndexByte(f, '/'); i > 0 && merged[f[i+1:]] != nil {
			continue // a copy, removed above
		}
		if len(merged) > 0 && strings.HasSuffix(f, ".html") || rp.ownLines(f) != "" {
			files = append(files, f)
		}
	}
	grown := make([]int64, len(files))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(workers)
	for i, f := range files {
		g.Go(func() error {
			if err := gctx.Err(); err != nil {
				return err
			}
			data, err := t.ReadFile(f)
			if err != nil {
				return err
			}
			out := data
			if tag := rp.ownLines(f); tag != "" {
				if out, err = rp.set.OwnNumbers(f, tag, data); err != nil {
					return fmt.Errorf("%s: %w", f, err)
				}
			}
			if len(merged) == 0 {
				// Nothing shared: no link to move.
			} else {
				out = rp.relink(f, out)
			}
			if bytes.Equal(out, data) {
				return nil
			}
			grown[i] = int64(len(out) - len(data))
			return t.Put(f, out)
		})
	}
	if err := g.Wait(); err != nil {
		return Result{}, err
	}
	for _, n := range grown {
		dBytes += n
	}
	return Result{Bytes: dBytes, Pages: dPages, Links: &Links{rp}}, nil
}

// merge merges the releases' renderings of the shared page p into
// groups (mergeGroups) and renders their pages: the first group's at p,
// the others' beside it (groupPath); links are the shared pages the
// renderings link. Every release alone is errUnmergeable.
func (rp *relPages) merge(t *sitetree.Tree, p string) (gps []groupPage, links map[string]bool, err error) {
	links = map[string]bool{}
	var docs []*html.Node
	var sizes []int64
	for _, tag := range rp.to[p] {
		data, err := t.ReadFile(tag + "/" + p)
		if err != nil {
			return nil, nil, err
		}
		doc, err := html.Parse(bytes.NewReader(data))
		if err != nil {
			return nil, nil, fmt.Errorf("%s/%s: %w", tag, p, err)
		}
		rp.relocate(doc, tag, p, links)
		docs, sizes = append(docs, doc), append(sizes, int64(len(data)))
	}
	gs, err := mergeGroups(docs, rp.to[p], sizes, rp.budget)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", p, err)
	}
	if len(gs) == len(docs) {
		return nil, links, fmt.Errorf("%s: %w", p, errUnmergeable)
	}
	out := make([]groupPage, len(gs))
	for i, g := range gs {
		out[i] = groupPage{tags: g.Tags, path: p}
		if i > 0 {
			out[i].path = groupPath(p, g.Tags[0])
		}
	}
	for i, g := range gs {
		if rp.set != nil && g.Tags[0] != rp.all[0] {
			// What a reader without script sees: the group's newest
			// release's lines.
			g.number = func(doc *html.Node) { rp.set.Renumber(doc, p, g.Tags[0], true) }
		}
		var others []string
		for j, o := range out {
			if j != i {
				others = append(others, strings.Join(o.tags, ",")+"="+sitepath.Rel(out[i].path, o.path, ""))
			}
		}
		if out[i].data, err = g.render(out[i].path, rp.all, others); err != nil {
			return nil, nil, fmt.Errorf("%s: %w", p, err)
		}
	}
	return out, links, nil
}

// groupPage is a page of a group of releases: their tags, its site path
// and its bytes.
type groupPage struct {
	tags []string
	path string
	data []byte
}

// groupPath is the site path of the page of the group of releases the
// newest of which is tag, other than the first: handlers.v1.33.13.html.
func groupPath(p, tag string) string {
	return strings.TrimSuffix(p, ".html") + "." + tag + ".html"
}

// Budget is the most a page shared by releases may weigh: what a
// reader on a phone downloads for one page; a megabyte, as make bench
// counts it.
const Budget = 1_000_000

// errUnmergeable is the error of a page no two releases' renderings of
// which merge smaller.
var errUnmergeable = errors.New("the renderings cannot be merged")

// urlAttr are the attributes that hold a URL on the pages shared; the
// <body>'s data-gh is the base of the code's GitHub links (data-g, the
// rest of each), at the release's tag.
var urlAttr = map[string]bool{"href": true, "src": true, "action": true, "data-src": true, "data-diffs": true, "data-gh": true}

// QuotedURL finds the URL attributes the templates write (quoted): the
// only ones that may link to a release's page.
var QuotedURL = regexp.MustCompile(`\b(href|action)="([^"]*)"`)

// nextQuotedURL finds the first URL attribute QuotedURL matches in data
// at or after from: the attribute is data[name:end], its name (href or
// action) data[name:eq], and its value data[eq+2:end-1], between the
// quotes; name is -1 when there is none. It reads QuotedURL's pattern
// exactly, without running it, because relink runs over every page of
// the site: a name preceded by no ASCII letter, digit or '_' (\b), '="',
// anything but '"', and '"'. Matches follow one another as the
// regular expression's do: the next is looked for from the end of the
// last.
func nextQuotedURL(data []byte, from int) (name, eq, end int) {
	for {
		i := bytes.Index(data[from:], []byte(`="`))
		if i < 0 {
			return -1, -1, -1
		}
		eq = from + i
		from = eq + len(`="`)
		switch {
		case bytes.HasSuffix(data[:eq], []byte("href")):
			name = eq - len("href")
		case bytes.HasSuffix(data[:eq], []byte("action")):
			name = eq - len("action")
		default:
			continue
		}
		if name > 0 && isWordByte(data[name-1]) {
			continue
		}
		n := bytes.IndexByte(data[from:], '"')
		if n < 0 {
			return -1, -1, -1 // no closing quote here, nor after
		}
		return name, eq, from + n + 1
	}
}

// isWordByte reports whether c is an ASCII word character (\w): a byte
// of UTF-8 past ASCII is part of no word for \b.
func isWordByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_'
}

// relink points page f's links to shared pages' copies at the shared
// pages, with ?rel= of the copy's release: each URL attribute QuotedURL
// matches (nextQuotedURL) whose link moves is written anew, the rest of
// data as it was. data itself is returned when no link moves.
func (rp *relPages) relink(f string, data []byte) []byte {
	var out []byte
	last := 0
	for from := 0; ; {
		name, eq, end := nextQuotedURL(data, from)
		if name < 0 {
			break
		}
		from = end
		raw := html.UnescapeString(string(data[eq+len(`="`) : end-1]))
		v, _, ok := rp.move(f, f, raw, "")
		if !ok {
			continue
		}
		if out == nil {
			out = make([]byte, 0, len(data)+len(data)/8)
		}
		out = append(out, data[last:eq]...) // up to the attribute's '='
		out = append(out, `="`...)
		out = append(out, html.EscapeString(v)...)
		out = append(out, '"')
		last = end
	}
	if out == nil {
		return data
	}
	return append(out, data[last:]...)
}

// moveLinks moves each of links, written on the page at site path page
// (a data script's links are relative to the page that loads it), to the
// shared pages (move); it reports whether any moved.
func (rp *relPages) moveLinks(page string, links []*string) bool {
	changed := false
	for _, l := range links {
		if v, _, ok := rp.move(page, page, *l, ""); ok {
			*l, changed = v, true
		}
	}
	return changed
}

// move returns the link raw, written on the page at site path from, as a
// link from the page at site path to: a link to a shared page's copy
// names the shared page (returned as shared too) and the copy's release
// (none when the release is self's, which site.js supplies). ok is false
// for a link move leaves as it is (from == to and nothing to change).
func (rp *relPages) move(from, to, raw, self string) (v, shared string, ok bool) {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "" || u.Host != "" || u.Path == "" || strings.HasPrefix(u.Path, "/") {
		return raw, "", false
	}
	target := path.Join(path.Dir(from), u.Path)
	q := u.Query()
	if self != "" && q.Get("rel") == self {
		q.Del("rel")
	}
	if t, rest, ok := strings.Cut(target, "/"); ok && rp.to[rest] != nil {
		if slices.Contains(rp.all, t) {
			target, shared = rest, rest
			if at := rp.at[rest][t]; at != "" {
				target = at // straight to the release's group's page
			}
			if t != self {
				q.Set("rel", t)
			}
		}
	}
	if target == path.Join(path.Dir(from), u.Path) && from == to {
		return raw, "", false
	}
	out := sitepath.Rel(to, target, u.Fragment)
	if strings.HasSuffix(u.Path, "/") && u.Fragment == "" {
		out += "/" // a directory (data-src) stays one: path.Join drops the slash
	}
	if target == to && u.Fragment != "" {
		out = sitepath.Rel(to, target, "")
		out += "#" + u.Fragment
	}
	return withQuery(out, q.Encode()), shared, true
}

// relocate makes release tag's rendering of the shared page p (its
// path under the release directory) a rendering from the shared page's
// place, with what names the release set to relToken (asGroup), and
// records the shared pages it links in links.
func (rp *relPages) relocate(doc *html.Node, tag, p string, links map[string]bool) {
	from, to := tag+"/"+p, p
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			for i, a := range n.Attr {
				if a.Namespace != "" || !urlAttr[a.Key] {
					continue
				}
				v := a.Val
				if m, shared, ok := rp.move(from, to, v, tag); ok {
					v = m
					if shared != "" {
						links[shared] = true
					}
				}
				n.Attr[i].Val = asGroup(to, v, tag)
			}
			if n.DataAtom == atom.Title && n.FirstChild != nil && n.FirstChild.Type == html.TextNode {
				n.FirstChild.Data = strings.ReplaceAll(n.FirstChild.Data, tag, relToken)
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
}

// asGroup turns what names release tag in a link of its rendering, its
// directory and GitHub tag, into relToken, which the page of the
// releases merged with it names their newest by (groupPage.render);
// site.js turns them back for the release read.
func asGroup(page, v, tag string) string {
	if rest, ok := strings.CutPrefix(v, ghBlob+tag+"/"); ok {
		return ghBlob + relToken + "/" + rest
	}
	u, err := url.Parse(v)
	if err != nil || u.Scheme != "" || u.Host != "" || u.Path == "" {
		return v
	}
	rest, ok := strings.CutPrefix(path.Join(path.Dir(page), u.Path), tag+"/")
	if !ok {
		return v
	}
	return withQuery(sitepath.Rel(page, relToken+"/"+rest, u.Fragment), u.RawQuery)
}

// relToken stands for the newest release of a page's merged renderings
// until their group is known: no release tag or path has it.
const relToken = "@kubewalk-release@"

// withQuery puts query q into the relative URL s, before its fragment.
func withQuery(s, q string) string {
	if q == "" {
		return s
	}
	if i := strings.IndexByte(s, '#'); i >= 0 {
		return s[:i] + "?" + q + s[i:]
	}
	return s + "?" + q
}

// ghBlob is the start of a GitHub permalink at a tag.
const ghBlob = linemap.GitHubBlob

// pageGroup is releases (newest first) whose renderings of a page are
// merged into one page (treemerge), and how to number its lines.
type pageGroup struct {
	treemerge.Group
	// number, when set, numbers the merged page's lines for its newest
	// release (lines.go, renumber).
	number func(*html.Node)
}

// mergeGroups merges the renderings docs of a page into groups of
// consecutive releases, as the package comment says (treemerge.Merge).
func mergeGroups(docs []*html.Node, tags []string, sizes []int64, budget int) ([]pageGroup, error) {
	tgs, err := treemerge.Merge(docs, tags, sizes, budget)
	if err != nil {
		return nil, err
	}
	gs := make([]pageGroup, len(tgs))
	for i, g := range tgs {
		gs[i] = pageGroup{Group: g}
	}
	return gs, nil
}

// render writes the group's page, at site path p; all are the site's
// releases and others the other groups' pages ("<tag>,<tag>=<url>").
func (g pageGroup) render(p string, all, others []string) ([]byte, error) {
	g.Mark()
	setRelease(g.Doc, g.Tags[0])
	if g.number != nil {
		g.number(g.Doc)
	}
	root := treemerge.HTMLElement(g.Doc)
	if root == nil {
		return nil, fmt.Errorf("no <html> element")
	}
	root.Attr = append(root.Attr, html.Attribute{Key: "data-rels", Val: strings.Join(g.Tags, " ")},
		html.Attribute{Key: "data-releases", Val: strings.Join(all, " ")},
		html.Attribute{Key: "data-root", Val: strings.Repeat("../", strings.Count(p, "/"))})
	if len(others) > 0 {
		root.Attr = append(root.Attr, html.Attribute{Key: "data-groups", Val: strings.Join(others, " ")})
	}
	var buf bytes.Buffer
	if err := html.Render(&buf, g.Doc); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// setRelease names the group's newest release where relocate put
// relToken.
func setRelease(n *html.Node, tag string) {
	if n.Type == html.ElementNode {
		for i, a := range n.Attr {
			if a.Namespace == "" && urlAttr[a.Key] {
				n.Attr[i].Val = strings.ReplaceAll(a.Val, relToken, tag)
			}
		}
	}
	if n.Type == html.TextNode && n.Parent != nil && n.Parent.DataAtom == atom.Title {
		n.Data = strings.ReplaceAll(n.Data, relToken, tag)
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		setRelease(c, tag)
	}
}

// ownLines returns the release of site path f when f is its page of a
// kind the releases share that stays in its directory, so
// prints its own line numbers; "" for any other file.
func (rp *relPages) ownLines(f string) string {
	if rp.set == nil || !strings.HasSuffix(f, ".html") {
		return ""
	}
	tag, rest, _ := strings.Cut(f, "/")
	if !slices.Contains(rp.all, tag) || rp.at[rest] != nil {
		return ""
	}
	if _, p, lang := strings.Cut(rest, "/"); Shares(rest) || lang && Shares(p) {
		return tag
	}
	return ""
}

// writeLines writes the line map of each release but the newest into its
// directory (linemap.FileName), for releases.js to number the shared pages' lines as
// that release does; it returns the bytes written.
func (rp *relPages) writeLines(t *sitetree.Tree) (int64, error) {
	if rp.set == nil || len(rp.at) == 0 {
		return 0, nil
	}
	var n int64
	for i, tag := range rp.all[1:] {
		data, err := rp.set.Script(i + 1)
		if err != nil {
			return 0, err
		}
		if err := t.Put(tag+"/"+linemap.FileName, data); err != nil {
			return 0, err
		}
		n += int64(len(data))
	}
	return n, nil
}
