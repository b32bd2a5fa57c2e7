// Package linemap numbers lines on the pages a site's releases share as
// each release numbers them. A shared source page names each line by a
// stable anchor ("L12" the newest release's line 12, "L12.1" a line it
// lacks after it); Maps says, per file, which anchors each release's
// lines are, and with it Renumber writes a page's marked line numbers
// (data-l) as a release's, and Script writes a release's lines.js, from
// which releases.js does the same in the browser (site/releases'
// package comment defines both).
package linemap

import (
	"bytes"
	"encoding/json"
	"net/url"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/sergi/go-diff/diffmatchpatch"
	xhtml "golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/kubewalk/kubewalk/site/internal/linediff"
)

// Maps are the line maps of a site's shared source pages.
type Maps struct {
	// Tags are the site's releases, newest first.
	Tags []string
	// Files are the files with a shared source page, by repository path.
	Files map[string]*File
	// Pages are the site paths of every part of those pages ("src/x.go.html",
	// "src/x.go.2.html"), to their files.
	Pages map[string]string
}

// File is how the releases' copies of a file align on its shared page.
type File struct {
	// Rels are the releases with a copy, as indexes into Maps.Tags, newest
	// first.
	Rels []int
	// IDs are the page's lines' anchors ("L12", "L12.1"), in order.
	IDs []string
	// At are, per copy (as Rels), the index in IDs of each of its lines.
	At [][]int32
}

// GitHubBlob is the start of a GitHub permalink at a tag.
const GitHubBlob = "https://github.com/kubernetes/kubernetes/blob/"

// AnchorLine is the whole part of stable line number s ("12" of "12.3"),
// ok false when s is no stable number.
func AnchorLine(s string) (n int, ok bool) {
	a, ok := parseAnchor(s)
	return a.n, ok
}

// anchorNum is a stable line number split: "12.3" is {12, 3}, "12" {12, 0}.
type anchorNum struct{ n, k int }

func parseAnchor(s string) (anchorNum, bool) {
	a, b, frac := strings.Cut(s, ".")
	n, err := strconv.Atoi(a)
	if err != nil || n < 0 || a != strconv.Itoa(n) {
		return anchorNum{}, false
	}
	if !frac {
		return anchorNum{n, 0}, n > 0
	}
	k, err := strconv.Atoi(b)
	if err != nil || k < 1 || b != strconv.Itoa(k) {
		return anchorNum{}, false
	}
	return anchorNum{n, k}, true
}

// next is the anchor of the merged line after a when both are lines the
// newest release has, or both lines it lacks after the same one of its.
func (a anchorNum) next() anchorNum {
	if a.k == 0 {
		return anchorNum{a.n + 1, 0}
	}
	return anchorNum{a.n, a.k + 1}
}

// Runs is copy k's line map of f's page: its lines, from line 1 on,
// as runs of consecutive anchors, space-separated; "" when its lines are
// the anchors' own numbers (the page's newest release, or a release
// whose copy is the same). A run is written from the anchor before it,
// the last of the previous run's or 0, for brevity: "<n>:<lines>" starts
// n anchors on, at a line the newest has; "<n>.<k>:<lines>" at the k-th
// line after the newest's line n on that it lacks (n 0 left out); one
// line leaves out ":1". The run's last anchor is then a line the newest
// has, or the n it starts after. "1:27 .1 1:9 3.1:3" is lines 1-27 at
// 1-27, 28 at 27.1, 29-37 at 28-36, 38-40 at 39.1-39.3.
func (f *File) Runs(k int) string {
	var sb strings.Builder
	var first, prev anchorNum
	base, n, runs := 0, 0, 0
	flush := func() {
		if n == 0 {
			return
		}
		if runs++; runs > 1 {
			sb.WriteByte(' ')
		}
		if d := first.n - base; first.k == 0 || d != 0 {
			sb.WriteString(strconv.Itoa(d))
		}
		if first.k > 0 {
			sb.WriteString("." + strconv.Itoa(first.k))
		}
		if n > 1 {
			sb.WriteString(":" + strconv.Itoa(n))
		}
		base = first.n
		if first.k == 0 {
			base += n - 1
		}
	}
	for i, ml := range f.At[k] {
		a, _ := parseAnchor(strings.TrimPrefix(f.IDs[ml], "L")) // anchors writes them
		if i > 0 && a == prev.next() {
			n++
		} else {
			flush()
			first, n = a, 1
		}
		prev = a
	}
	flush()
	if runs == 0 || runs == 1 && first == (anchorNum{1, 0}) {
		return ""
	}
	return sb.String()
}

// Own returns copy k's line at stable anchor number s of f's page;
// ok is false when the copy lacks that line.
func (f *File) Own(k int, s string) (int, bool) {
	a, ok := parseAnchor(s)
	if !ok || a.n > len(f.At[0]) {
		return 0, false
	}
	ml := a.k - 1 // a line the newest lacks before its first
	if a.n > 0 {
		ml = int(f.At[0][a.n-1]) + a.k
	}
	if ml < 0 || ml >= len(f.IDs) || f.IDs[ml] != "L"+s {
		return 0, false
	}
	at := f.At[k]
	i := sort.Search(len(at), func(i int) bool { return int(at[i]) >= ml })
	if i == len(at) || int(at[i]) != ml {
		return 0, false
	}
	return i + 1, true
}

// FileName is the name of a release's line map, in its directory.
const FileName = "lines.js"

// Script is release rel's line map (rel indexes m.Tags), for
// releases.js: window.kubewalkLines, each file whose lines in rel are not
// its page's anchors' numbers to its Runs.
func (m *Maps) Script(rel int) ([]byte, error) {
	lines := map[string]string{}
	for f, fl := range m.Files {
		for k, r := range fl.Rels {
			if r == rel {
				if runs := fl.Runs(k); runs != "" {
					lines[f] = runs
				}
			}
		}
	}
	data, err := json.Marshal(lines) // sorted, and <, >, & escaped
	if err != nil {
		return nil, err
	}
	return append(append([]byte("window.kubewalkLines = "), data...), ";\n"...), nil
}

// rel returns the index of release tag in m.Tags, or -1.
func (m *Maps) rel(tag string) int { return slices.Index(m.Tags, tag) }

// Renumber writes the line numbers marked on doc, the page at site path
// page, as release tag numbers them, where it has the lines; tag's are
// those not hidden. keep keeps the marks, for site.js to number them for
// another release (a group's page, the merge written: package pageshare), a
// line number whose text is no longer its stable number getting it as
// data-l; else they go (a page of one release).
func (m *Maps) Renumber(doc *xhtml.Node, page, tag string, keep bool) {
	rel := m.rel(tag)
	if rel < 0 {
		return
	}
	// own maps stable number s of file f to tag's ("" to "").
	own := func(f, s string) (string, bool) {
		fl := m.Files[f]
		if s == "" || fl == nil {
			return "", s == ""
		}
		if k := slices.Index(fl.Rels, rel); k >= 0 {
			if n, ok := fl.Own(k, s); ok {
				return strconv.Itoa(n), true
			}
		}
		return "", false
	}
	var walk func(n *xhtml.Node)
	walk = func(n *xhtml.Node) {
		if _, hidden := attr(n, "hidden"); hidden && keep {
			return // another release's
		}
		mark, marked := attr(n, "data-l")
		if marked && !keep {
			delAttr(n, "data-l")
		}
		switch {
		case marked && n.DataAtom == atom.Pre:
			if f := m.markedFile(page, excerptFile(n)); f != "" {
				numberCode(n, func(s string) (string, bool) { return own(f, s) }, keep)
			}
			return
		case marked:
			from, to, _ := strings.Cut(mark, "-")
			f := m.markedFile(page, n)
			of, okF := own(f, from)
			ot, okT := own(f, to)
			if f != "" && okF && okT {
				setLines(n, path.Base(f), of, ot)
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == xhtml.ElementNode || c.FirstChild != nil {
				walk(c)
			}
		}
	}
	walk(doc)
}

// OwnNumbers is data, release tag's page at site path f, with its own
// line numbers and no marks (Renumber).
func (m *Maps) OwnNumbers(f, tag string, data []byte) ([]byte, error) {
	if !bytes.Contains(data, []byte(" data-l")) {
		return data, nil
	}
	doc, err := xhtml.Parse(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	m.Renumber(doc, f, tag, false)
	var buf bytes.Buffer
	if err := xhtml.Render(&buf, doc); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// markedFile is the repository path of the file a marked element's link
// names, on the page at site path page: a shared source page (or a part
// of one) or a GitHub permalink; "" for none.
func (m *Maps) markedFile(page string, n *xhtml.Node) string {
	if n == nil {
		return ""
	}
	href, _ := attr(n, "href")
	if rest, ok := strings.CutPrefix(href, GitHubBlob); ok {
		_, p, _ := strings.Cut(rest, "/") // after the tag
		p, _, _ = strings.Cut(p, "#")
		f, err := url.PathUnescape(p)
		if err != nil || m.Files[f] == nil {
			return ""
		}
		return f
	}
	u, err := url.Parse(href)
	if err != nil || u.Scheme != "" || u.Host != "" || u.Path == "" {
		return ""
	}
	if f, ok := m.Pages[path.Join(path.Dir(page), u.Path)]; ok {
		return f
	}
	return ""
}

// excerptFile is the link to the whole file of the excerpt whose code is
// pre (layout.html's "excerpt": a.file in the figure's head), the first
// not hidden: the merge of releases' excerpts has one per file.
func excerptFile(pre *xhtml.Node) *xhtml.Node {
	fig := pre.Parent
	for fig != nil && !hasClass(fig, "excerpt") {
		fig = fig.Parent
	}
	var find func(n *xhtml.Node) *xhtml.Node
	find = func(n *xhtml.Node) *xhtml.Node {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if _, hidden := attr(c, "hidden"); c == pre || hidden {
				continue
			}
			if c.Type == xhtml.ElementNode && c.DataAtom == atom.A && hasClass(c, "file") {
				return c
			}
			if x := find(c); x != nil {
				return x
			}
		}
		return nil
	}
	if fig == nil {
		return nil
	}
	return find(fig)
}

// numberCode numbers an excerpt's lines (.nr) and elisions (.gap, its
// text "12–30 …" after its mark) by own, which maps a stable number to
// the release's. A number's stable one is its text's element's data-l,
// or its text; keep gives that element the stable number as data-l where
// its text is no longer it, else it has none. A hidden number is another
// release's, left as it is.
func numberCode(pre *xhtml.Node, own func(string) (string, bool), keep bool) {
	write := func(t *xhtml.Node, stable, shown, text string) {
		t.Data = text
		if keep && shown != stable {
			setAttr(t.Parent, "data-l", stable)
		} else {
			delAttr(t.Parent, "data-l")
		}
	}
	var walk func(n *xhtml.Node, in string)
	walk = func(n *xhtml.Node, in string) {
		if n.Type == xhtml.TextNode {
			stable, marked := attr(n.Parent, "data-l")
			switch in {
			case "nr":
				if !marked {
					stable = n.Data
				}
				if o, ok := own(stable); ok {
					write(n, stable, o, o)
				}
			case "gap":
				a, rest, found := strings.Cut(n.Data, "–")
				b, tail, _ := strings.Cut(rest, " ")
				if !found {
					return
				}
				if marked {
					a, b, _ = strings.Cut(stable, "-")
				}
				oa, okA := own(a)
				ob, okB := own(b)
				if okA && okB {
					write(n, a+"-"+b, oa+"-"+ob, oa+"–"+ob+" "+tail)
				}
			}
			return
		}
		if _, hidden := attr(n, "hidden"); hidden {
			return // another release's
		}
		if n.Type == xhtml.ElementNode {
			switch {
			case hasClass(n, "gap"):
				in = "gap"
			case hasClass(n, "nr"):
				if in == "gap" {
					in = "" // the elision's mark
				} else {
					in = "nr"
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, in)
		}
	}
	walk(pre, "")
}

// setLines writes lines from-to (to "" for one line) where a marked
// element prints its lines: the last "<base>:<lines>" of each of its
// texts that ends the text or a parenthesis (not in a walkthrough link's
// text, the author's), its title, and a GitHub permalink's fragment.
func setLines(n *xhtml.Node, base, from, to string) {
	if !hasClass(n, "symref") {
		var walk func(c *xhtml.Node)
		walk = func(c *xhtml.Node) {
			for ; c != nil; c = c.NextSibling {
				if c.Type == xhtml.TextNode {
					c.Data = printLines(c.Data, base, from, to)
				}
				walk(c.FirstChild)
			}
		}
		walk(n.FirstChild)
	}
	for i, a := range n.Attr {
		switch {
		case a.Namespace != "":
		case a.Key == "title":
			n.Attr[i].Val = printLines(a.Val, base, from, to)
		case a.Key == "href" && strings.HasPrefix(a.Val, GitHubBlob):
			n.Attr[i].Val = ghLines(a.Val, from, to)
		}
	}
}

// printLines rewrites the last "<base>:<lines>" of s that ends s or a
// parenthesis, after a path's "/", a "(" or a space or at the start, to
// lines from-to, or from alone where s prints one line.
func printLines(s, base, from, to string) string {
	key := base + ":"
	for end := len(s); end > 0; {
		i := strings.LastIndex(s[:end], key)
		if i < 0 {
			break
		}
		end = i
		if i > 0 && !strings.ContainsRune("/( ", rune(s[i-1])) {
			continue
		}
		j := i + len(key)
		a := numLen(s[j:])
		if a == 0 {
			continue
		}
		k, one := j+a, true
		if k < len(s) && s[k] == '-' {
			if b := numLen(s[k+1:]); b > 0 {
				k, one = k+1+b, false
			}
		}
		if k < len(s) && s[k] != ')' {
			continue
		}
		v := from
		if !one && to != "" {
			v = from + "-" + to
		}
		return s[:j] + v + s[k:]
	}
	return s
}

// numLen is the length of the line number ("12", "12.3") s starts with.
func numLen(s string) int {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i > 0 && i+1 < len(s) && s[i] == '.' && s[i+1] >= '0' && s[i+1] <= '9' {
		i++
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	}
	return i
}

// ghLines sets a GitHub permalink's lines (#L12 or #L12-L20) to from-to.
func ghLines(u, from, to string) string {
	base, frag, ok := strings.Cut(u, "#L")
	if !ok {
		return u
	}
	if strings.Contains(frag, "-L") && to != "" {
		return base + "#L" + from + "-L" + to
	}
	return base + "#L" + from
}

// attr returns n's attribute k.
func attr(n *xhtml.Node, k string) (string, bool) {
	for _, a := range n.Attr {
		if a.Key == k && a.Namespace == "" {
			return a.Val, true
		}
	}
	return "", false
}

func setAttr(n *xhtml.Node, k, v string) {
	for i, a := range n.Attr {
		if a.Key == k && a.Namespace == "" {
			n.Attr[i].Val = v
			return
		}
	}
	n.Attr = append(n.Attr, xhtml.Attribute{Key: k, Val: v})
}

func delAttr(n *xhtml.Node, k string) {
	n.Attr = slices.DeleteFunc(n.Attr, func(a xhtml.Attribute) bool { return a.Key == k && a.Namespace == "" })
}

// hasClass reports whether element n has class c.
func hasClass(n *xhtml.Node, c string) bool {
	v, _ := attr(n, "class")
	for _, x := range strings.Fields(v) {
		if x == c {
			return true
		}
	}
	return false
}

// TextLines splits src as codehtml does: a final line without a newline
// counts, an empty file has none.
func TextLines(src []byte) []string {
	s := string(src)
	if s == "" {
		return nil
	}
	ls := strings.SplitAfter(s, "\n")
	if ls[len(ls)-1] == "" {
		ls = ls[:len(ls)-1]
	}
	return ls
}

// Align merges the lines of several copies of a file, newest first: the
// merged lines, which copies have each (a bit per copy), and per copy the
// merged line of each of its lines. Each copy is diffed against the lines
// merged so far, so a line an older copy shares with any newer one is
// matched, not only with the newest.
func Align(copies [][]string) (masks []uint64, at [][]int32) {
	var merged []string
	for k, ls := range copies {
		if k == 0 {
			merged = append(merged, ls...)
			masks = make([]uint64, len(ls))
			at = append(at, make([]int32, len(ls)))
			for i := range ls {
				masks[i] = 1
				at[0][i] = int32(i)
			}
			continue
		}
		var nm []string
		var nmask []uint64
		remap := make([]int32, len(merged))
		mine := make([]int32, len(ls))
		i, j := 0, 0           // next merged line, next line of this copy
		keep := func(to int) { // merged lines before to: not this copy's
			for ; i < to; i++ {
				remap[i] = int32(len(nm))
				nm, nmask = append(nm, merged[i]), append(nmask, masks[i])
			}
		}
		same := func(n int) { // n lines both have
			for ; n > 0; n-- {
				remap[i], mine[j] = int32(len(nm)), int32(len(nm))
				nm, nmask = append(nm, merged[i]), append(nmask, masks[i]|1<<k)
				i, j = i+1, j+1
			}
		}
		for _, d := range linediff.Lines(merged, ls) {
			switch d.Op {
			case diffmatchpatch.DiffEqual:
				same(d.N)
			case diffmatchpatch.DiffDelete:
				keep(i + d.N)
			case diffmatchpatch.DiffInsert: // lines only this copy has (so far)
				for end := j + d.N; j < end; j++ {
					mine[j] = int32(len(nm))
					nm, nmask = append(nm, ls[j]), append(nmask, 1<<k)
				}
			}
		}
		same(len(merged) - i)
		for _, a := range at {
			for x, m := range a {
				a[x] = remap[m]
			}
		}
		merged, masks, at = nm, nmask, append(at, mine)
	}
	return masks, at
}

// Anchors names merged lines by the newest copy's line numbers (bit 0):
// "L12", and "L12.1", "L12.2" for lines after its line 12 that it lacks.
func Anchors(masks []uint64) []string {
	ids := make([]string, len(masks))
	n, k := 0, 0
	for i, m := range masks {
		if m&1 != 0 {
			n, k = n+1, 0
			ids[i] = "L" + strconv.Itoa(n)
			continue
		}
		k++
		ids[i] = "L" + strconv.Itoa(n) + "." + strconv.Itoa(k)
	}
	return ids
}
