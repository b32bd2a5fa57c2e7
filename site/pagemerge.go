package site

// A multi-release site's own pages, shared by its releases.
//
// Each release renders its walkthroughs, indexes (handlers, events,
// resources, gates, changes), traces and controller pages as a
// single-release site would, in its own subtree (<tag>/<lang>/…). Two
// releases' renderings of a page are mostly the same but for what names
// the release: its directory in links, ?rel= on links into the shared
// source pages, the tag of GitHub permalinks, the page title.
// shareReleasePages writes each page two releases or more have once, at
// <lang>/<page> beside the shared source pages:
//
//   - Each release's rendering is parsed (golang.org/x/net/html), its
//     links moved to the shared page's place, and what names the release
//     set to the page's newest release's: its directory and GitHub tag in
//     links (when the newest has that file too), ?rel= of itself dropped,
//     and the tag in the title.
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
//   - An id a hidden rendering repeats is data-id there; site.js moves the
//     id to the rendering it shows.
//   - site.js, for ?rel= of an older release, shows its renderings, turns
//     the newest's directory and tag in links back into the release's,
//     and, for any release, carries ?rel= on links to the source pages
//     and the shared pages. Without script a reader sees the newest.
//
// Every other file's links to a release's copy name the shared page and
// the release. A page whose renderings cannot be merged, whose merge is no
// smaller than the copies (a release's changes have little in common with
// another's) or would weigh more than a megabyte (relPageBudget: an index
// whose rows name each release's lines), stays in each release's subtree;
// so do the pages that load their release's data (search, explain) and
// the recorded run.
//
// The link checker reads a shared page as each release it shows a link
// for sees it (linkcheck.go, releaseView).

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
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
	case "handlers.html", "events.html", "resources.html", "gates.html", "changes.html":
		return true
	}
	dir, f := path.Split(p)
	return (dir == "traces/" || dir == "controllers/" || dir == "walkthroughs/") && strings.HasSuffix(f, ".html")
}

// relPages maps the site path of each shared page's per-release copy
// ("v1.36.3/en/handlers.html") to its shared page ("en/handlers.html").
type relPages struct {
	to     map[string][]string // shared page → the releases that have it, newest first
	site   map[string]bool     // every file of the site
	rel    map[string]bool     // the release directories
	all    []string            // the releases, newest first
	budget int                 // the most a shared page may weigh
}

// shareReleasePages writes the pages every release of the multi-release
// site in dir has and sharedRelPage names once (workers at a time), at their place under the
// site's root, removes the releases' copies and points every link of the
// site at the shared page. tags are newest first. It returns the change
// in bytes and in pages.
func shareReleasePages(ctx context.Context, dir string, tags []string, workers, budget int) (dBytes int64, dPages int, err error) {
	rp := &relPages{to: map[string][]string{}, site: map[string]bool{}, rel: map[string]bool{}, all: tags, budget: budget}
	for _, t := range tags {
		rp.rel[t] = true
	}
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
	// A page whose renderings cannot be merged, or whose merge is no
	// smaller than its copies, stays in each release's subtree; the
	// others are merged again, for their links to it.
	var merged map[string][]byte
	for again := true; again; {
		again, merged = false, map[string][]byte{}
		outs := make([][]byte, len(pages))
		errs := make([]error, len(pages))
		g, gctx := errgroup.WithContext(ctx)
		g.SetLimit(workers)
		for i, p := range pages {
			if rp.to[p] == nil {
				continue
			}
			g.Go(func() error {
				if err := gctx.Err(); err != nil {
					return err
				}
				out, err := rp.merge(dir, p)
				if err == nil && (int64(len(out)) >= rp.size(dir, p) || len(out) > rp.budget) {
					// The releases' pages have little in common, or one
					// page for all would be too much for a reader.
					err = errUnmergeable
				}
				outs[i], errs[i] = out, err
				if errors.Is(err, errUnmergeable) {
					return nil
				}
				return err
			})
		}
		if err := g.Wait(); err != nil {
			return 0, 0, err
		}
		for i, p := range pages {
			if errors.Is(errs[i], errUnmergeable) {
				delete(rp.to, p)
				again = true
			} else if outs[i] != nil {
				merged[p] = outs[i]
			}
		}
	}
	for _, p := range pages {
		out, ok := merged[p]
		if !ok {
			continue
		}
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
		}
		f := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			return 0, 0, err
		}
		if err := os.WriteFile(f, out, 0o644); err != nil {
			return 0, 0, err
		}
		dBytes += int64(len(out))
		dPages++
	}
	if len(merged) == 0 {
		return dBytes, dPages, nil
	}
	// Every other page's links to a release's copy go to the shared page.
	for f := range rp.site {
		isIndex := path.Base(f) == searchIndexJS
		if !strings.HasSuffix(f, ".html") && !isIndex {
			continue
		}
		if i := strings.IndexByte(f, '/'); i > 0 && merged[f[i+1:]] != nil {
			continue // a copy, removed above
		}
		full := filepath.Join(dir, filepath.FromSlash(f))
		data, err := os.ReadFile(full)
		if err != nil {
			return 0, 0, err
		}
		out := rp.relink(f, data)
		if isIndex {
			if out, err = rp.relinkSearch(f, data); err != nil {
				return 0, 0, fmt.Errorf("%s: %w", f, err)
			}
		}
		if bytes.Equal(out, data) {
			continue
		}
		if err := os.WriteFile(full, out, 0o644); err != nil {
			return 0, 0, err
		}
		dBytes += int64(len(out) - len(data))
	}
	return dBytes, dPages, nil
}

// size is the bytes of the releases' copies of the shared page p.
func (rp *relPages) size(dir, p string) int64 {
	var n int64
	for _, t := range rp.to[p] {
		if fi, err := os.Stat(filepath.Join(dir, filepath.FromSlash(t+"/"+p))); err == nil {
			n += fi.Size()
		}
	}
	return n
}

// merge merges the releases' renderings of the shared page p.
func (rp *relPages) merge(dir, p string) ([]byte, error) {
	var docs []*html.Node
	for _, t := range rp.to[p] {
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(t+"/"+p)))
		if err != nil {
			return nil, err
		}
		doc, err := html.Parse(bytes.NewReader(data))
		if err != nil {
			return nil, fmt.Errorf("%s/%s: %w", t, p, err)
		}
		rp.relocate(doc, t, p)
		docs = append(docs, doc)
	}
	out, err := mergePages(p, docs, rp.to[p], rp.all)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	return out, nil
}

// relPageBudget is the most a page shared by releases may weigh: what a
// reader on a phone downloads for one page, as a source page's parts.
const relPageBudget = 1 << 20

// errUnmergeable is mergePages's error for renderings it cannot merge.
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
		v, ok := rp.move(f, f, raw, "")
		if !ok {
			return m
		}
		return []byte(string(sm[1]) + `="` + html.EscapeString(v) + `"`)
	})
}

// relinkSearch points the URLs of the search index at site path f
// (relative to the search page beside it) at the shared pages.
func (rp *relPages) relinkSearch(f string, data []byte) ([]byte, error) {
	jsn, ok := strings.CutPrefix(string(data), searchIndexHead)
	jsn, ok2 := strings.CutSuffix(jsn, searchIndexTail)
	if !ok || !ok2 {
		return nil, fmt.Errorf("not a search index script")
	}
	var d searchData
	if err := json.Unmarshal([]byte(jsn), &d); err != nil {
		return nil, err
	}
	page, changed := path.Join(path.Dir(f), searchPage), false
	for _, e := range d.Docs {
		if len(e) > 2 {
			if v, ok := rp.move(page, page, e[2], ""); ok {
				e[2], changed = v, true
			}
		}
	}
	if !changed {
		return data, nil
	}
	out, err := json.Marshal(d)
	if err != nil {
		return nil, err
	}
	return []byte(searchIndexHead + string(out) + searchIndexTail), nil
}

// move returns the link raw, written on the page at site path from, as a
// link from the page at site path to: a link to a shared page's copy
// names the shared page and the copy's release (none when the release is
// self's, which site.js supplies). ok is false for a link move leaves as
// it is (from == to and nothing to change).
func (rp *relPages) move(from, to, raw, self string) (string, bool) {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "" || u.Host != "" || u.Path == "" || strings.HasPrefix(u.Path, "/") {
		return raw, false
	}
	target := path.Join(path.Dir(from), u.Path)
	q := u.Query()
	if self != "" && q.Get("rel") == self {
		q.Del("rel")
	}
	if t, rest, ok := strings.Cut(target, "/"); ok && rp.to[rest] != nil {
		if rp.rel[t] {
			target = rest
			if t != self {
				q.Set("rel", t)
			}
		}
	}
	if target == path.Join(path.Dir(from), u.Path) && from == to {
		return raw, false
	}
	out := relURL(to, target, u.Fragment)
	if target == to && u.Fragment != "" {
		out = relURL(to, target, "")
		out += "#" + u.Fragment
	}
	return withQuery(out, q.Encode()), true
}

// relocate makes release tag's rendering of the shared page p (its
// path under the release directory) a rendering from the shared page's
// place, with what names the release set to the newest's.
func (rp *relPages) relocate(doc *html.Node, tag, p string) {
	newest := rp.to[p][0]
	from, to := tag+"/"+p, p
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			for i, a := range n.Attr {
				if a.Namespace != "" || !urlAttr[a.Key] {
					continue
				}
				v := a.Val
				if m, ok := rp.move(from, to, v, tag); ok {
					v = m
				}
				if tag != newest {
					v = rp.asNewest(to, v, tag, newest)
				}
				n.Attr[i].Val = v
			}
			if n.DataAtom == atom.Title && n.FirstChild != nil && n.FirstChild.Type == html.TextNode && tag != newest {
				n.FirstChild.Data = strings.ReplaceAll(n.FirstChild.Data, tag, newest)
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
}

// asNewest turns a link of release tag's rendering into the newest
// release's: its release directory (when the newest has the same file)
// and its GitHub tag. site.js turns them back for the release.
func (rp *relPages) asNewest(page, v, tag, newest string) string {
	if rest, ok := strings.CutPrefix(v, ghBlob+tag+"/"); ok {
		return ghBlob + newest + "/" + rest
	}
	u, err := url.Parse(v)
	if err != nil || u.Scheme != "" || u.Host != "" || u.Path == "" {
		return v
	}
	target := path.Join(path.Dir(page), u.Path)
	rest, ok := strings.CutPrefix(target, tag+"/")
	if !ok || !rp.site[newest+"/"+rest] {
		return v
	}
	return withQuery(relURL(page, newest+"/"+rest, u.Fragment), u.RawQuery)
}

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

// mergePages merges the renderings docs (newest first) of one page into
// one page, as the package comment says; p is its site path, all the
// site's releases.
func mergePages(p string, docs []*html.Node, tags, all []string) ([]byte, error) {
	if len(docs) > 64 {
		return nil, fmt.Errorf("%d releases: a page is shared by at most 64", len(docs))
	}
	mt := &mergeTree{mask: map[*html.Node]uint64{}, last: map[*html.Node]string{}}
	base := docs[0]
	mt.adopt(base, 1)
	for k := 1; k < len(docs); k++ {
		hashes(docs[k], mt.last)
		if !mt.pair(base, docs[k], 1<<k) {
			return nil, fmt.Errorf("%w: release %s's with the newer ones'", errUnmergeable, tags[k])
		}
	}
	mt.emit(base, uint64(1)<<len(docs)-1)
	fixIDs(base)
	root := htmlElement(base)
	if root == nil {
		return nil, fmt.Errorf("no <html> element")
	}
	root.Attr = append(root.Attr, html.Attribute{Key: "data-rels", Val: strings.Join(tags, " ")},
		html.Attribute{Key: "data-releases", Val: strings.Join(all, " ")},
		html.Attribute{Key: "data-root", Val: strings.Repeat("../", strings.Count(p, "/"))})
	var buf bytes.Buffer
	if err := html.Render(&buf, base); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
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
	if n.Type != html.ElementNode || n.Namespace != "" {
		return false
	}
	switch n.DataAtom {
	case atom.Html, atom.Head, atom.Title, atom.Script, atom.Style, atom.Textarea, atom.Option, atom.Select, atom.Template:
		return false
	}
	return true
}

// blank is text of white space only.
func blank(n *html.Node) bool {
	return n.Type == html.TextNode && strings.TrimSpace(n.Data) == ""
}

// pair merges c, release bit's rendering of merged node m (same start
// tag), into m. It reports false, having changed nothing, when the
// renderings cannot be merged inside m.
func (mt *mergeTree) pair(m, c *html.Node, bit uint64) bool {
	mark := len(mt.undo)
	if !mt.children(m, c, bit) {
		for i := len(mt.undo) - 1; i >= mark; i-- {
			mt.undo[i]()
		}
		mt.undo = mt.undo[:mark]
		return false
	}
	mt.setMask(m, mt.mask[m]|bit)
	old := mt.last[m]
	mt.last[m] = mt.last[c]
	mt.undo = append(mt.undo, func() { mt.last[m] = old })
	return true
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
		// Pair renderings of an element with the same start tag, in order.
		used := 0
		for _, n := range ins {
			paired := false
			if n.Type == html.ElementNode {
				for x := used; x < len(dels); x++ {
					d := dels[x]
					if d.Type == html.ElementNode && startTag(d) == startTag(n) && mt.pair(d, n, bit) {
						used, paired = x+1, true
						break
					}
				}
			}
			if paired {
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
