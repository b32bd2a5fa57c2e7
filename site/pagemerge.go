package site

// A multi-release site's own pages, shared by its releases.
//
// Each release renders its walkthroughs, indexes (handlers, events,
// resources, gates), traces and controller pages as a
// single-release site would, in its own subtree (<tag>/<lang>/…), but
// for its line numbers: a location in a file with a shared source page
// is printed by the page's stable anchors, the same in every release
// whose code there is the same (lines.go). Two releases' renderings of a
// page are then mostly the same but for what names the release: its
// directory in links, ?rel= on links into the shared source pages, the
// tag of GitHub permalinks, the page title.
// shareReleasePages writes each page two releases or more have once for
// a group of releases, at <lang>/<page> beside the shared source pages
// (the group of the newest release that has it) and <lang>/<name>.<tag>.html
// (the others', named by their newest release):
//
//   - Each release's rendering is parsed (golang.org/x/net/html), its
//     links moved to the shared page's place, and what names the release
//     set to its group's newest release's: its directory and GitHub tag in
//     links, ?rel= of itself dropped, and the tag in the title.
//   - Releases join the group of the newer ones, newest first, while that
//     takes fewer bytes than their own page and the group's page stays
//     within a megabyte (relPageBudget: a reader on a phone downloads it
//     whole); so a walkthrough, trace or controller page is usually one
//     page for every release that has it, and an index that differs more
//     between releases is shared by a few releases at a time.
//   - The renderings are merged as trees, newest first: an element's
//     children are aligned by content (a Myers diff of subtree hashes, as
//     the source pages' lines are aligned); a child every release has is
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

import (
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"math/bits"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/sergi/go-diff/diffmatchpatch"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
	"golang.org/x/sync/errgroup"
)

// sharedRelPage reports whether a page (its path under a release's
// language directory) is one shareReleasePages may share.
func sharedRelPage(p string) bool {
	switch p {
	case "handlers.html", "events.html", "resources.html", "gates.html":
		return true
	}
	dir, f := path.Split(p)
	return (dir == "traces/" || dir == "controllers/" || dir == "walkthroughs/") && strings.HasSuffix(f, ".html")
}

// relPages is what shareReleasePages knows of a multi-release site.
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
	set *releaseSet
}

// shareReleasePages writes the pages sharedRelPage names that two
// releases or more of the multi-release site in dir have once per group
// of releases (workers at a time), as the package comment says, removes
// the releases' copies and points every link of the site at the shared
// pages; a release's page of those kinds left in its directory gets its
// own line numbers, and each release but the newest its line map
// (lines.go). tags are newest first, set the releases' lineSet (nil when
// the pages print their own lines). It returns the change in bytes and
// in pages.
//
// It is long (some 185 lines) because its phases — list the site's pages
// and each page's releases, merge them in parallel, relink the site,
// renumber and remove what was shared, write the line maps — work on the
// one relPages and the workers' results in order; each phase is a block
// with its comment.
func shareReleasePages(ctx context.Context, dir string, tags []string, set *releaseSet, workers, budget int) (dBytes int64, dPages int, err error) {
	rp := &relPages{to: map[string][]string{}, site: map[string]bool{}, all: tags, budget: budget, set: set}
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		r, _ := filepath.Rel(dir, p)
		rp.site[filepath.ToSlash(r)] = true
		return nil
	})
	if err != nil {
		return 0, 0, err
	}
	// The shared pages: those two releases or more have.
	for _, t := range tags {
		for f := range rp.site {
			rest, ok := strings.CutPrefix(f, t+"/")
			if !ok {
				continue
			}
			// A bilingual release has a directory per language.
			if _, p, lang := strings.Cut(rest, "/"); sharedRelPage(rest) || lang && sharedRelPage(p) {
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
				outs[i], links[i], errs[i] = rp.merge(dir, p)
				if errors.Is(errs[i], errUnmergeable) {
					return nil
				}
				return errs[i]
			})
		}
		if err := g.Wait(); err != nil {
			return 0, 0, err
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
		for _, t := range rp.to[p] {
			f := filepath.Join(dir, filepath.FromSlash(t+"/"+p))
			fi, err := os.Stat(f)
			if err != nil {
				return 0, 0, err
			}
			dBytes -= fi.Size()
			dPages--
			if err := os.Remove(f); err != nil {
				return 0, 0, err
			}
			// A directory left empty goes too: the site is its files.
			for d := filepath.Dir(f); d != dir && os.Remove(d) == nil; d = filepath.Dir(d) {
			}
		}
		for _, g := range gs {
			for _, t := range g.tags {
				rp.at[p][t] = g.path
			}
			f := filepath.Join(dir, filepath.FromSlash(g.path))
			if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
				return 0, 0, err
			}
			if err := os.WriteFile(f, g.data, 0o644); err != nil {
				return 0, 0, err
			}
			dBytes += int64(len(g.data))
			dPages++
		}
	}
	nLines, err := rp.writeLines(dir)
	if err != nil {
		return 0, 0, err
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
		if len(merged) > 0 && (strings.HasSuffix(f, ".html") || isSearchIndex(f) || path.Base(f) == explainStepsJS) || rp.ownLines(f) != "" {
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
			full := filepath.Join(dir, filepath.FromSlash(f))
			data, err := os.ReadFile(full)
			if err != nil {
				return err
			}
			out := data
			if tag := rp.ownLines(f); tag != "" {
				if out, err = rp.set.ownNumbers(f, tag, data); err != nil {
					return fmt.Errorf("%s: %w", f, err)
				}
			}
			if len(merged) == 0 {
				// Nothing shared: no link to move.
			} else if isSearchIndex(f) {
				if out, err = rp.relinkSearch(f, data); err != nil {
					return fmt.Errorf("%s: %w", f, err)
				}
			} else if path.Base(f) == explainStepsJS {
				if out, err = rp.relinkExplainSteps(f, data); err != nil {
					return fmt.Errorf("%s: %w", f, err)
				}
			} else {
				out = rp.relink(f, out)
			}
			if bytes.Equal(out, data) {
				return nil
			}
			grown[i] = int64(len(out) - len(data))
			return os.WriteFile(full, out, 0o644)
		})
	}
	if err := g.Wait(); err != nil {
		return 0, 0, err
	}
	for _, n := range grown {
		dBytes += n
	}
	return dBytes, dPages, nil
}

// merge merges the releases' renderings of the shared page p into
// groups (mergeGroups) and renders their pages: the first group's at p,
// the others' beside it (groupPath); links are the shared pages the
// renderings link. Every release alone is errUnmergeable.
func (rp *relPages) merge(dir, p string) (gps []groupPage, links map[string]bool, err error) {
	links = map[string]bool{}
	var docs []*html.Node
	var sizes []int64
	for _, t := range rp.to[p] {
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(t+"/"+p)))
		if err != nil {
			return nil, nil, err
		}
		doc, err := html.Parse(bytes.NewReader(data))
		if err != nil {
			return nil, nil, fmt.Errorf("%s/%s: %w", t, p, err)
		}
		rp.relocate(doc, t, p, links)
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
		out[i] = groupPage{tags: g.tags, path: p}
		if i > 0 {
			out[i].path = groupPath(p, g.tags[0])
		}
	}
	for i, g := range gs {
		if rp.set != nil && g.tags[0] != rp.all[0] {
			// What a reader without script sees: the group's newest
			// release's lines.
			g.number = func(doc *html.Node) { rp.set.renumber(doc, p, g.tags[0], true) }
		}
		var others []string
		for j, o := range out {
			if j != i {
				others = append(others, strings.Join(o.tags, ",")+"="+relURL(out[i].path, o.path, ""))
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

// relPageBudget is the most a page shared by releases may weigh: what a
// reader on a phone downloads for one page; a megabyte, as make bench
// counts it.
const relPageBudget = 1_000_000

// errUnmergeable is the error of a page no two releases' renderings of
// which merge smaller.
var errUnmergeable = errors.New("the renderings cannot be merged")

// urlAttr are the attributes that hold a URL on the pages shared.
var urlAttr = map[string]bool{"href": true, "src": true, "action": true, "data-src": true, "data-diffs": true}

// quotedURL finds the URL attributes the templates write (quoted): the
// only ones that may link to a release's page.
var quotedURL = regexp.MustCompile(`\b(href|action)="([^"]*)"`)

// relink points page f's links to shared pages' copies at the shared
// pages, with ?rel= of the copy's release.
func (rp *relPages) relink(f string, data []byte) []byte {
	return quotedURL.ReplaceAllFunc(data, func(m []byte) []byte {
		sm := quotedURL.FindSubmatch(m)
		raw := html.UnescapeString(string(sm[2]))
		v, _, ok := rp.move(f, f, raw, "")
		if !ok {
			return m
		}
		return []byte(string(sm[1]) + `="` + html.EscapeString(v) + `"`)
	})
}

// relinkSearch points the URLs of the search index at site path f
// (relative to the search page beside it) at the shared pages.
func (rp *relPages) relinkSearch(f string, data []byte) ([]byte, error) {
	d, err := parseSearchIndex(data)
	if err != nil {
		return nil, err
	}
	var links []*string
	for _, e := range d.Docs {
		if len(e) > 2 {
			links = append(links, &e[2])
		}
	}
	if !rp.moveLinks(path.Join(path.Dir(f), searchPage), links) {
		return data, nil
	}
	return searchScript(d)
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
	out := relURL(to, target, u.Fragment)
	if target == to && u.Fragment != "" {
		out = relURL(to, target, "")
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
	return withQuery(relURL(page, relToken+"/"+rest, u.Fragment), u.RawQuery)
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
const ghBlob = "https://github.com/kubernetes/kubernetes/blob/"

// mergeTree is the state of merging renderings of a page.
type mergeTree struct {
	mask map[*html.Node]uint64 // releases that have the node (in its parent)
	last map[*html.Node]string // hash of the newest-merged rendering of the node
	undo []func()
}

// pageGroup is releases (newest first) whose renderings of a page are
// merged into one page, and the merge.
type pageGroup struct {
	tags []string
	doc  *html.Node
	mt   *mergeTree
	// number, when set, numbers the merged page's lines for its newest
	// release (lines.go, renumber).
	number func(*html.Node)
}

// mergeGroups merges the renderings docs of a page (newest first; sizes
// are the bytes of each release's own page) into groups of consecutive
// releases, as the package comment says: a release joins the newer ones'
// group while that takes fewer bytes than its own page and the group's
// page stays within budget.
func mergeGroups(docs []*html.Node, tags []string, sizes []int64, budget int) ([]pageGroup, error) {
	if len(docs) > 64 {
		return nil, fmt.Errorf("%d releases: a page is shared by at most 64", len(docs))
	}
	var gs []pageGroup
	for i := 0; i < len(docs); {
		mt := &mergeTree{mask: map[*html.Node]uint64{}, last: map[*html.Node]string{}}
		base, n := docs[i], 1
		mt.adopt(base, 1)
		est := mt.estimate(base)
		for j := i + 1; j < len(docs); j++ {
			mark := len(mt.undo)
			hashes(docs[j], mt.last)
			if !mt.pair(base, docs[j], 1<<n) {
				break
			}
			e := mt.estimate(base)
			if e > int64(budget) || e-est >= sizes[j] {
				mt.rollback(mark)
				break
			}
			est, n = e, n+1
		}
		gs = append(gs, pageGroup{tags: tags[i : i+n], doc: base, mt: mt})
		i += n
	}
	return gs, nil
}

// estimate is at least the bytes of the page merged so far: its
// rendering, what emit adds to mark each rendering of a node (a span
// around text), an id fixIDs makes a data-id on any node, and room for
// the attributes render puts on <html>.
func (mt *mergeTree) estimate(doc *html.Node) int64 {
	var w countWriter
	html.Render(&w, doc) // a countWriter does not fail
	n := int64(w) + 2048
	over := mt.sharedBlanks(doc, mt.mask[doc])
	var walk func(p *html.Node, parent uint64)
	walk = func(p *html.Node, parent uint64) {
		for c := p.FirstChild; c != nil; c = c.NextSibling {
			m, ok := over[c]
			if !ok {
				m = mt.mask[c]
			}
			if m != parent && !(blank(c) && !textHost(p)) {
				n += int64(len(` data-r=""`) + len(strconv.FormatUint(m, 16)))
				if m&1 == 0 {
					n += int64(len(` hidden=""`))
				}
				if c.Type != html.ElementNode || hasAttr(c, "hidden") {
					n += int64(len(`<span></span>`))
				}
			}
			if hasAttr(c, "id") {
				n += int64(len("data-"))
			}
			walk(c, m)
		}
	}
	walk(doc, mt.mask[doc])
	return n
}

type countWriter int64

func (w *countWriter) Write(p []byte) (int, error) {
	*w += countWriter(len(p))
	return len(p), nil
}

// render writes the group's page, at site path p; all are the site's
// releases and others the other groups' pages ("<tag>,<tag>=<url>").
func (g pageGroup) render(p string, all, others []string) ([]byte, error) {
	every := uint64(1)<<len(g.tags) - 1
	g.mt.shareBlanks(g.doc, every)
	g.mt.emit(g.doc, every)
	fixIDs(g.doc)
	setRelease(g.doc, g.tags[0])
	if g.number != nil {
		g.number(g.doc)
	}
	root := htmlElement(g.doc)
	if root == nil {
		return nil, fmt.Errorf("no <html> element")
	}
	root.Attr = append(root.Attr, html.Attribute{Key: "data-rels", Val: strings.Join(g.tags, " ")},
		html.Attribute{Key: "data-releases", Val: strings.Join(all, " ")},
		html.Attribute{Key: "data-root", Val: strings.Repeat("../", strings.Count(p, "/"))})
	if len(others) > 0 {
		root.Attr = append(root.Attr, html.Attribute{Key: "data-groups", Val: strings.Join(others, " ")})
	}
	var buf bytes.Buffer
	if err := html.Render(&buf, g.doc); err != nil {
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

func htmlElement(doc *html.Node) *html.Node {
	for c := doc.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && c.DataAtom == atom.Html {
			return c
		}
	}
	return nil
}

// adopt records the subtree n as a rendering of releases mask.
func (mt *mergeTree) adopt(n *html.Node, mask uint64) {
	hashes(n, mt.last)
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		mt.mask[n] = mask
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
}

// hashes records the hash of every node of the subtree n in h: its
// start tag (or text) and its children's hashes.
func hashes(n *html.Node, h map[*html.Node]string) string {
	f := fnv.New128a()
	switch n.Type {
	case html.ElementNode:
		f.Write([]byte{'E'})
		f.Write([]byte(startTag(n)))
	case html.TextNode:
		f.Write([]byte{'T'})
		f.Write([]byte(n.Data))
	case html.CommentNode:
		f.Write([]byte{'C'})
		f.Write([]byte(n.Data))
	default:
		f.Write([]byte{'D', byte(n.Type)})
		f.Write([]byte(n.Data))
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		f.Write([]byte(hashes(c, h)))
	}
	s := hex.EncodeToString(f.Sum(nil))
	h[n] = s
	return s
}

// startTag is an element's name and attributes, as a key.
func startTag(n *html.Node) string {
	var b strings.Builder
	b.WriteString(n.Namespace)
	b.WriteByte(':')
	b.WriteString(n.Data)
	for _, a := range n.Attr {
		b.WriteByte(0)
		b.WriteString(a.Namespace)
		b.WriteByte(':')
		b.WriteString(a.Key)
		b.WriteByte('=')
		b.WriteString(a.Val)
	}
	return b.String()
}

// textHost reports whether a span may stand among n's children (so text
// there can carry data-r).
func textHost(n *html.Node) bool {
	if n.Type != html.ElementNode {
		return false
	}
	if n.Namespace != "" {
		return false
	}
	switch n.DataAtom {
	case atom.Html, atom.Head, atom.Table, atom.Thead, atom.Tbody, atom.Tfoot, atom.Tr, atom.Colgroup,
		atom.Select, atom.Optgroup, atom.Datalist, atom.Ul, atom.Ol, atom.Dl, atom.Title, atom.Script,
		atom.Style, atom.Textarea, atom.Option, atom.Template, atom.Details:
		return false
	}
	return true
}

// variantHost reports whether n's children may be written per rendering.
func variantHost(n *html.Node) bool {
	if n.Type != html.ElementNode {
		return false
	}
	if n.Namespace != "" {
		// A group of an SVG drawing's groups (the resource graph's frames,
		// boxes and lines, each its own group: diagram.Graphs draws the
		// releases' graphs on one layout): one may be drawn for some
		// releases only, its data-r and hidden attributes acting as on
		// HTML ([data-r][hidden] in site.css; site.js sets the attribute,
		// not the property an SVG element lacks).
		return n.Namespace == "svg" && n.Data == "g" && groupsOnly(n)
	}
	switch n.DataAtom {
	case atom.Html, atom.Head, atom.Title, atom.Script, atom.Style, atom.Textarea, atom.Option, atom.Select, atom.Template:
		return false
	}
	return true
}

// groupsOnly reports whether n's elements are all <g>.
func groupsOnly(n *html.Node) bool {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && c.Data != "g" {
			return false
		}
	}
	return true
}

// blank is text of white space only.
func blank(n *html.Node) bool {
	return n.Type == html.TextNode && strings.TrimSpace(n.Data) == ""
}

// collapsible reports whether n is text of white space that collapses
// outside preformatted text: spaces, tabs and newlines only (not a
// no-break space, nor a form feed, which CSS does not collapse).
func collapsible(n *html.Node) bool {
	if n.Type != html.TextNode || n.Data == "" {
		return false
	}
	for i := 0; i < len(n.Data); i++ {
		switch n.Data[i] {
		case ' ', '\t', '\n':
		default:
			return false
		}
	}
	return true
}

// keepsSpace reports whether white space inside element n may matter:
// preformatted text, code, what is not rendered as HTML text (script,
// style, a title, a form control's options), foreign content (an SVG
// drawing's text) and an element styled in place.
func keepsSpace(n *html.Node) bool {
	if n.Namespace != "" {
		return true
	}
	switch n.DataAtom {
	case atom.Pre, atom.Listing, atom.Xmp, atom.Plaintext, atom.Textarea, atom.Code, atom.Samp, atom.Kbd, atom.Tt,
		atom.Script, atom.Style, atom.Title, atom.Noscript, atom.Noembed, atom.Noframes, atom.Iframe, atom.Template,
		atom.Select, atom.Option, atom.Optgroup, atom.Datalist:
		return true
	}
	return hasAttr(n, "style")
}

// shareBlanks writes the collapsible white space sharedBlanks finds for
// every release of its parent so, and of each run of white space among a
// parent's children every release of it has that it made, keeps one: one
// with a newline if any has, the newest's if it has one of those, else
// the first of those. all are the releases of the merged page doc.
func (mt *mergeTree) shareBlanks(doc *html.Node, all uint64) {
	over := mt.sharedBlanks(doc, all)
	if len(over) == 0 {
		return
	}
	var walk func(p *html.Node, pm uint64)
	walk = func(p *html.Node, pm uint64) {
		for c := p.FirstChild; c != nil; {
			if c.Type == html.ElementNode {
				if !keepsSpace(c) {
					walk(c, mt.mask[c])
				}
				c = c.NextSibling
				continue
			}
			// The run from c: white space its parent's releases all have
			// (made so, or so already).
			var run []*html.Node
			made := false
			for x := c; x != nil && collapsible(x); x = x.NextSibling {
				m, ok := over[x]
				if !ok {
					m = mt.mask[x]
				}
				if m != pm {
					break
				}
				run = append(run, x)
				made = made || ok
			}
			if len(run) == 0 {
				c = c.NextSibling
				continue
			}
			c = run[len(run)-1].NextSibling
			if !made || len(run) == 1 {
				continue
			}
			keep, nl := -1, false
			for i, x := range run {
				xnl := strings.Contains(x.Data, "\n")
				newest := mt.mask[x]&1 != 0 // before it was shared
				if keep < 0 || xnl && !nl || xnl == nl && newest && mt.mask[run[keep]]&1 == 0 {
					keep, nl = i, xnl
				}
			}
			for i, x := range run {
				if i != keep {
					p.RemoveChild(x)
				}
			}
		}
	}
	walk(doc, all)
	for n, m := range over {
		mt.mask[n] = m
	}
}

// sharedBlanks is what to write the collapsible white space among the
// children of text hosts of the merged page doc (its releases all) for
// where that differs from mt.mask: every release of its parent, instead
// of the releases that have it, where each release lacking it would show
// nothing more with it (blankUnseen). It is not written in a span then.
func (mt *mergeTree) sharedBlanks(doc *html.Node, all uint64) map[*html.Node]uint64 {
	over := map[*html.Node]uint64{}
	mask := func(n *html.Node) uint64 {
		if m, ok := over[n]; ok {
			return m
		}
		return mt.mask[n]
	}
	var walk func(p *html.Node, pm uint64)
	walk = func(p *html.Node, pm uint64) {
		if textHost(p) {
			// Until none changes: white space shared may be what another
			// collapses with.
			for changed := true; changed; {
				changed = false
				for c := p.FirstChild; c != nil; c = c.NextSibling {
					m := mask(c)
					if m == 0 || m == pm || m&^pm != 0 || !collapsible(c) {
						continue
					}
					ok := true
					for miss := pm &^ m; miss != 0 && ok; miss &= miss - 1 {
						ok = blankUnseen(p, c, miss&-miss, mask)
					}
					if ok {
						over[c], changed = pm, true
					}
				}
			}
		}
		for c := p.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode && !keepsSpace(c) {
				walk(c, mask(c))
			}
		}
	}
	walk(doc, all)
	return over
}

// blankUnseen reports whether release x, which lacks the collapsible
// white space c among p's children, would show nothing more with it, by
// the nearest children before and after c that x has (mask): one is
// white space that c collapses into (a newline only into one that has a
// newline); or c is at the start or the end of a block p, where a line
// begins or ends (but not all x has of p: an element of white space only
// is not :empty; nor in a summary, whose end site.css writes after);
// or it is between two block-level elements.
func blankUnseen(p, c *html.Node, x uint64, mask func(*html.Node) uint64) bool {
	has := func(n *html.Node) bool {
		m := mask(n)
		return m == 0 || m&x != 0 // what emit leaves unmarked all have
	}
	prev, next := c.PrevSibling, c.NextSibling
	for prev != nil && !has(prev) {
		prev = prev.PrevSibling
	}
	for next != nil && !has(next) {
		next = next.NextSibling
	}
	nl := strings.Contains(c.Data, "\n")
	for _, s := range []*html.Node{prev, next} {
		if s != nil && collapsible(s) && (!nl || strings.Contains(s.Data, "\n")) {
			return true
		}
	}
	if (prev == nil) != (next == nil) && blockBox(p) && p.DataAtom != atom.Summary {
		return true
	}
	return prev != nil && next != nil && blockLevel(prev) && blockLevel(next)
}

// blockLevel reports whether n is an element a browser lays out as a
// block (site.css makes none of these inline), not hidden or styled in
// place.
func blockLevel(n *html.Node) bool {
	if n.Type != html.ElementNode || n.Namespace != "" || hasAttr(n, "hidden") || hasAttr(n, "style") {
		return false
	}
	switch n.DataAtom {
	case atom.Address, atom.Article, atom.Aside, atom.Blockquote, atom.Details, atom.Dialog, atom.Dd, atom.Div,
		atom.Dl, atom.Dt, atom.Fieldset, atom.Figcaption, atom.Figure, atom.Footer, atom.Form, atom.H1, atom.H2,
		atom.H3, atom.H4, atom.H5, atom.H6, atom.Header, atom.Hgroup, atom.Hr, atom.Li, atom.Main, atom.Nav,
		atom.Ol, atom.P, atom.Pre, atom.Section, atom.Summary, atom.Table, atom.Ul:
		return true
	}
	return false
}

// blockBox reports whether n's content is laid out in a block of its
// own, at whose start and end white space shows nothing (where nothing
// is written before or after it).
func blockBox(n *html.Node) bool {
	if blockLevel(n) {
		return true
	}
	if n.Type != html.ElementNode || n.Namespace != "" || hasAttr(n, "style") {
		return false
	}
	switch n.DataAtom {
	case atom.Body, atom.Td, atom.Th, atom.Caption:
		return true
	}
	return false
}

// pair merges c, release bit's rendering of merged node m (same start
// tag), into m. It reports false, having changed nothing, when the
// renderings cannot be merged inside m.
func (mt *mergeTree) pair(m, c *html.Node, bit uint64) bool {
	mark := len(mt.undo)
	if !mt.children(m, c, bit) {
		mt.rollback(mark)
		return false
	}
	mt.setMask(m, mt.mask[m]|bit)
	old := mt.last[m]
	mt.last[m] = mt.last[c]
	mt.undo = append(mt.undo, func() { mt.last[m] = old })
	return true
}

// rollback undoes what was merged since the undo log's length was mark.
func (mt *mergeTree) rollback(mark int) {
	for i := len(mt.undo) - 1; i >= mark; i-- {
		mt.undo[i]()
	}
	mt.undo = mt.undo[:mark]
}

func (mt *mergeTree) setMask(n *html.Node, v uint64) {
	old, had := mt.mask[n]
	mt.mask[n] = v
	mt.undo = append(mt.undo, func() {
		if had {
			mt.mask[n] = old
		} else {
			delete(mt.mask, n)
		}
	})
}

// children aligns c's children with m's.
//
// Its 103 lines are one diff walk (Myers, over subtree hashes) whose
// runs of deletions and insertions are paired (partners) and merged,
// rolled back when a pair fails, in place: the walk's state is the
// function's.
func (mt *mergeTree) children(m, c *html.Node, bit uint64) bool {
	var ms, cs []*html.Node
	for x := m.FirstChild; x != nil; x = x.NextSibling {
		ms = append(ms, x)
	}
	for x := c.FirstChild; x != nil; x = x.NextSibling {
		cs = append(cs, x)
	}
	textOK, varOK := textHost(m), variantHost(m)
	// A title of its own for a release (site.js shows it), the only
	// child of the head a release may have alone.
	vary := func(n *html.Node) bool {
		if m.DataAtom == atom.Head && m.Namespace == "" {
			return n.Type == html.ElementNode && n.DataAtom == atom.Title
		}
		return varOK && (n.Type == html.ElementNode || textOK)
	}
	key := func(n *html.Node, h string) string {
		if !textOK && blank(n) {
			return "blank" // white space where it does not matter
		}
		return h
	}
	mk, ck := make([]string, len(ms)), make([]string, len(cs))
	for i, n := range ms {
		mk[i] = key(n, mt.last[n])
	}
	for i, n := range cs {
		ck[i] = key(n, mt.last[n])
	}
	i, j := 0, 0
	var dels, ins []*html.Node
	flush := func() bool {
		// Pair renderings of an element with the same start tag, in order:
		// those most alike (partners).
		used := 0
		match := mt.partners(dels, ins)
		for k, n := range ins {
			if x := match[k]; x >= used && mt.pair(dels[x], n, bit) {
				used = x + 1
				continue
			}
			if blank(n) && !textOK {
				continue // dropped: white space where it does not matter
			}
			if !vary(n) {
				return false
			}
			// Written for this release: after the last child paired, so
			// in its place among the children both renderings show.
			var before *html.Node
			if used < len(dels) {
				before = dels[used]
			} else if i < len(ms) {
				before = ms[i]
			}
			next := n.NextSibling
			c.RemoveChild(n)
			m.InsertBefore(n, before)
			mt.adopt(n, bit)
			mt.undo = append(mt.undo, func() {
				m.RemoveChild(n)
				c.InsertBefore(n, next)
			})
		}
		for _, d := range dels {
			if mt.mask[d]&bit != 0 {
				continue
			}
			if blank(d) && !textOK {
				mt.setMask(d, mt.mask[d]|bit)
				continue
			}
			if !vary(d) {
				return false
			}
		}
		dels, ins = dels[:0], ins[:0]
		return true
	}
	for _, d := range lineDiff(mk, ck) {
		switch d.op {
		case diffmatchpatch.DiffEqual:
			if !flush() {
				return false
			}
			for n := 0; n < d.n; n, i, j = n+1, i+1, j+1 {
				if ck[j] == "blank" {
					mt.setMask(ms[i], mt.mask[ms[i]]|bit)
					continue
				}
				mt.same(ms[i], bit)
			}
		case diffmatchpatch.DiffDelete:
			dels = append(dels, ms[i:i+d.n]...)
			i += d.n
		case diffmatchpatch.DiffInsert:
			ins = append(ins, cs[j:j+d.n]...)
			j += d.n
		}
	}
	return flush()
}

// partners matches the renderings ins of a release with the merged
// children dels they may be merged into (same start tag), keeping their
// order and, of the ways to, the one that pairs the most alike: the most
// children in common, plus one a pair (a longest common subsequence
// weighted so). match[k] is ins[k]'s partner in dels, or -1. Runs longer
// than maxPartners on both sides are paired greedily, in order.
//
// Its 85 lines are one dynamic program (the weighted common subsequence)
// and its traceback, with the greedy fallback for long runs.
func (mt *mergeTree) partners(dels, ins []*html.Node) []int {
	match := make([]int, len(ins))
	for k := range match {
		match[k] = -1
	}
	tag := func(n *html.Node) string {
		if n.Type != html.ElementNode {
			return ""
		}
		return startTag(n)
	}
	dt, it := make([]string, len(dels)), make([]string, len(ins))
	for x, d := range dels {
		dt[x] = tag(d)
	}
	for k, n := range ins {
		it[k] = tag(n)
	}
	if len(dels)*len(ins) > maxPartners*maxPartners {
		used := 0
		for k := range ins {
			for x := used; x < len(dels) && it[k] != ""; x++ {
				if dt[x] == it[k] {
					match[k], used = x, x+1
					break
				}
			}
		}
		return match
	}
	kids := func(n *html.Node) map[string]bool {
		set := map[string]bool{}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if !blank(c) {
				set[mt.last[c]] = true
			}
		}
		return set
	}
	dk := make([]map[string]bool, len(dels))
	weight := func(k, x int) int {
		if it[k] == "" || it[k] != dt[x] {
			return 0
		}
		if dk[x] == nil {
			dk[x] = kids(dels[x])
		}
		w := 1
		for c := ins[k].FirstChild; c != nil; c = c.NextSibling {
			if !blank(c) && dk[x][mt.last[c]] {
				w++
			}
		}
		return w
	}
	// best[k][x]: the most weight pairing ins[k:] with dels[x:].
	best := make([][]int, len(ins)+1)
	for k := range best {
		best[k] = make([]int, len(dels)+1)
	}
	ws := make([][]int, len(ins))
	for k := len(ins) - 1; k >= 0; k-- {
		ws[k] = make([]int, len(dels))
		for x := len(dels) - 1; x >= 0; x-- {
			ws[k][x] = weight(k, x)
			b := max(best[k+1][x], best[k][x+1])
			if ws[k][x] > 0 {
				b = max(b, ws[k][x]+best[k+1][x+1])
			}
			best[k][x] = b
		}
	}
	for k, x := 0, 0; k < len(ins) && x < len(dels); {
		switch {
		case ws[k][x] > 0 && best[k][x] == ws[k][x]+best[k+1][x+1]:
			match[k] = x
			k, x = k+1, x+1
		case best[k][x] == best[k+1][x]:
			k++
		default:
			x++
		}
	}
	return match
}

// maxPartners bounds the runs partners weighs: past it, pairing is in
// order.
const maxPartners = 300

// same records that release bit renders merged node n as the newest
// release merged into it did: every node of that rendering gets bit.
func (mt *mergeTree) same(n *html.Node, bit uint64) {
	m := mt.mask[n]
	lb := uint64(1) << (63 - bits.LeadingZeros64(m)) // that release
	var walk func(*html.Node)
	walk = func(x *html.Node) {
		if mt.mask[x]&lb == 0 {
			return
		}
		mt.setMask(x, mt.mask[x]|bit)
		for c := x.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
}

// emit writes the merge into the tree: a node the releases of its parent
// do not all have gets data-r (hidden unless the newest has it); text
// is wrapped in a span for it.
func (mt *mergeTree) emit(n *html.Node, parent uint64) {
	for c := n.FirstChild; c != nil; {
		next := c.NextSibling
		m := mt.mask[c]
		if blank(c) && !textHost(n) {
			m = parent // white space where it does not matter: left as it is
		}
		if m != parent && m != 0 {
			el := c
			if c.Type != html.ElementNode || hasAttr(c, "hidden") {
				el = &html.Node{Type: html.ElementNode, Data: "span", DataAtom: atom.Span}
				n.InsertBefore(el, c)
				n.RemoveChild(c)
				el.AppendChild(c)
			}
			el.Attr = append(el.Attr, html.Attribute{Key: "data-r", Val: strconv.FormatUint(m, 16)})
			if m&1 == 0 {
				el.Attr = append(el.Attr, html.Attribute{Key: "hidden"})
			}
		}
		if c.Type == html.ElementNode {
			mt.emit(c, m)
		}
		c = next
	}
	// The newest release's title first: the one a browser shows.
	if n.DataAtom == atom.Head {
		var first, newest *html.Node
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode && c.DataAtom == atom.Title {
				if first == nil {
					first = c
				}
				if mt.mask[c]&1 != 0 && newest == nil {
					newest = c
				}
			}
		}
		if newest != nil && first != newest {
			n.RemoveChild(newest)
			n.InsertBefore(newest, first)
		}
	}
}

func hasAttr(n *html.Node, k string) bool {
	for _, a := range n.Attr {
		if a.Key == k && a.Namespace == "" {
			return true
		}
	}
	return false
}

// fixIDs leaves each id on one element: the first the newest release
// shows, else the first; the others carry it as data-id.
func fixIDs(doc *html.Node) {
	type el struct {
		n     *html.Node
		shown bool
	}
	byID := map[string][]el{}
	var order []string
	var walk func(n *html.Node, hidden bool)
	walk = func(n *html.Node, hidden bool) {
		if n.Type == html.ElementNode {
			hidden = hidden || hasAttr(n, "hidden") && hasAttr(n, "data-r")
			for _, a := range n.Attr {
				if a.Key == "id" && a.Namespace == "" {
					if _, ok := byID[a.Val]; !ok {
						order = append(order, a.Val)
					}
					byID[a.Val] = append(byID[a.Val], el{n, !hidden})
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, hidden)
		}
	}
	walk(doc, false)
	for _, id := range order {
		es := byID[id]
		if len(es) < 2 {
			continue
		}
		keep := 0
		for i, e := range es {
			if e.shown {
				keep = i
				break
			}
		}
		for i, e := range es {
			if i == keep {
				continue
			}
			for k, a := range e.n.Attr {
				if a.Key == "id" && a.Namespace == "" {
					e.n.Attr[k].Key = "data-id"
				}
			}
		}
	}
}
