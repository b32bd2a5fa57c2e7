package site

// Line numbers on the pages a multi-release site's releases share
// (pagemerge.go).
//
// Two releases' renderings of a walkthrough, an index or a trace differ
// mostly by the line numbers they print — "x.go:136" in one is "x.go:129"
// in the other — where the code is the same. So a page of a
// kind the releases share prints each location in a file with a shared
// source page by the lines' stable anchors (merge.go: "L136" is line 136
// of the page's newest release, "L136.1" a line it lacks after it), in
// its text, title and GitHub permalink, and marks the element with them
// (data-l="136-140"): the releases that agree on the code print the same,
// and the merge writes it once.
//
// What a reader sees is a release's own numbers:
//
//   - site.js, showing an older release of a shared page (?rel=), loads
//     that release's line map (<tag>/lines.js: per file, its lines as runs
//     of stable anchors, lineRuns) and writes each marked element's
//     numbers as the release's; an excerpt's code (<pre data-l>) numbers
//     its lines (.nr) and elisions the same way, each by its text, or by
//     its text's element's data-l where the text is not its stable number;
//   - a group's page whose newest release is not the site's, and a page
//     left in a release's directory, are renumbered here (renumber), so a
//     reader without script sees that release's numbers too.
//
// Without script a reader of the site's newest release's page reads its
// numbers, which are the stable ones. A walkthrough link's text (class
// symref) is the author's: only its title is renumbered. A location in
// a file that has no shared source page for the release (a GitHub link)
// prints the release's own numbers, unmarked.

import (
	"bytes"
	"encoding/json"
	"html"
	"html/template"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	xhtml "golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// lineNums are lines of a file as a page prints them.
type lineNums struct {
	// From and To are the numbers printed; To is "" for one line.
	From, To string
	// from and to are the lines of a GitHub permalink: the lines asked
	// for, in the numbers printed where those are whole numbers.
	from, to int
	// Mark is the data-l of the element printing them: the lines' stable
	// numbers on a page the releases share, "" elsewhere.
	Mark string
}

// String is "12" or "12-20".
func (n lineNums) String() string { return linesText(n.From, n.To) }

func linesText(from, to string) string {
	if to == "" {
		return from
	}
	return from + "-" + to
}

// lines returns lines from..to (to ≤ from for one line) of file p as the
// page at v.page prints them: their stable numbers, marked, on a page
// the releases of a multi-release site share, when p has a shared source
// page for the release; else the release's own.
func (v views) lines(p string, from, to int) lineNums {
	n := lineNums{From: strconv.Itoa(from), from: from, to: to}
	if to > from {
		n.To = strconv.Itoa(to)
	}
	if !v.stableLines() {
		return n
	}
	sf, ok := v.b.stableLine(p, from)
	st := ""
	if ok && to > from {
		st, ok = v.b.stableLine(p, to)
	}
	if !ok {
		return n
	}
	n.From, n.To, n.Mark = sf, st, linesText(sf, st)
	// The permalink is by the stable numbers too, a line the newest
	// lacks ("136.1") by the newest's line before it: site.js and
	// renumber set the release's own from the mark, and releases that
	// agree on the code print the same link.
	f := linkLine(sf)
	switch {
	case to > from:
		n.from, n.to = f, linkLine(st)
	case to > 0:
		n.from, n.to = f, f
	default:
		n.from = f
	}
	return n
}

// linkLine is the line of a GitHub permalink at stable number s: its
// whole part, at least 1.
func linkLine(s string) int {
	a, ok := parseAnchor(s)
	if !ok || a.n < 1 {
		return 1
	}
	return a.n
}

// excerptRow is a line of an excerpt as a page prints it: its number, or
// an elision's first and last lines.
type excerptRow struct {
	N, End string
	HTML   template.HTML
	Mark   bool // highlighted
	Gap    bool
}

// excerptRows numbers the excerpt ls of file p as v's page prints lines
// (lines): stable reports stable numbers, which the code's <pre> marks.
func (v views) excerptRows(p string, ls []exLine) (rows []excerptRow, stable bool) {
	stable = v.stableLines()
	num := func(n int) string {
		l := v.lines(p, n, 0)
		stable = stable && l.Mark != ""
		return l.From
	}
	for _, l := range ls {
		r := excerptRow{N: num(l.N), HTML: l.HTML, Mark: l.Mark, Gap: l.Gap}
		if l.Gap {
			r.End = num(l.End)
		}
		rows = append(rows, r)
	}
	if !stable { // all or none
		for i, l := range ls {
			rows[i].N = strconv.Itoa(l.N)
			if l.Gap {
				rows[i].End = strconv.Itoa(l.End)
			}
		}
	}
	return rows, stable
}

// stableLines reports whether v's page prints stable line numbers: it is
// of a kind the releases share, and the build shares them.
func (v views) stableLines() bool {
	return v.b.set != nil && !v.b.tune.ownReleasePages && sharedRelPage(v.page)
}

// stableLine returns line n of file f of b's release as its shared source
// page's anchor numbers it ("12", "12.1"); ok is false when the release
// has no shared source page of f or f no line n.
func (b *builder) stableLine(f string, n int) (string, bool) {
	m := b.set.merged[f]
	if m == nil {
		return "", false
	}
	ml, ok := m.line(b.self, n)
	if !ok {
		return "", false
	}
	return strings.TrimPrefix(m.ids[ml], "L"), true
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

// lineRuns is copy k's line map of m's page: its lines, from line 1 on,
// as runs of consecutive anchors, space-separated; "" when its lines are
// the anchors' own numbers (the page's newest release, or a release
// whose copy is the same). A run is written from the anchor before it,
// the last of the previous run's or 0, for brevity: "<n>:<lines>" starts
// n anchors on, at a line the newest has; "<n>.<k>:<lines>" at the k-th
// line after the newest's line n on that it lacks (n 0 left out); one
// line leaves out ":1". The run's last anchor is then a line the newest
// has, or the n it starts after. "1:27 .1 1:9 3.1:3" is lines 1-27 at
// 1-27, 28 at 27.1, 29-37 at 28-36, 38-40 at 39.1-39.3.
func (m *mergedSrc) lineRuns(k int) string {
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
	for i, ml := range m.at[k] {
		a, _ := parseAnchor(strings.TrimPrefix(m.ids[ml], "L")) // anchors writes them
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

// ownLine returns copy k's line at stable anchor number s of m's page;
// ok is false when the copy lacks that line.
func (m *mergedSrc) ownLine(k int, s string) (int, bool) {
	a, ok := parseAnchor(s)
	if !ok || a.n > len(m.at[0]) {
		return 0, false
	}
	ml := a.k - 1 // a line the newest lacks before its first
	if a.n > 0 {
		ml = int(m.at[0][a.n-1]) + a.k
	}
	if ml < 0 || ml >= len(m.ids) || m.ids[ml] != "L"+s {
		return 0, false
	}
	at := m.at[k]
	i := sort.Search(len(at), func(i int) bool { return int(at[i]) >= ml })
	if i == len(at) || int(at[i]) != ml {
		return 0, false
	}
	return i + 1, true
}

// linesJS is the name of a release's line map, in its directory.
const linesJS = "lines.js"

// linesScript is release rel's line map (rel indexes set.rels), for
// site.js: window.kubewalkLines, each file whose lines in rel are not its
// page's anchors' numbers to its lineRuns.
func (set *releaseSet) linesScript(rel int) ([]byte, error) {
	lines := map[string]string{}
	for f, m := range set.merged {
		for k, r := range m.rels {
			if r == rel {
				if runs := m.lineRuns(k); runs != "" {
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

// lineSet is what numbering lines (renumber, linesScript) needs of set:
// the releases' tags and the source pages' alignments, without their code
// and the releases' builders. Given it instead of set, shareReleasePages
// lets them go, most of a multi-release build's heap. nil for nil.
func (set *releaseSet) lineSet() *releaseSet {
	if set == nil {
		return nil
	}
	out := &releaseSet{merged: map[string]*mergedSrc{}, byPath: map[string]*mergedSrc{}}
	for _, r := range set.rels {
		out.rels = append(out.rels, &relIndex{Manifest: Manifest{Tag: r.Tag}})
	}
	for f, m := range set.merged {
		out.merged[f] = &mergedSrc{file: m.file, rels: m.rels, ids: m.ids, at: m.at}
	}
	for p, m := range set.byPath {
		out.byPath[p] = out.merged[m.file]
	}
	return out
}

// relIndex returns the index of release tag in set.rels, or -1.
func (set *releaseSet) relIndex(tag string) int {
	for i, r := range set.rels {
		if r.Tag == tag {
			return i
		}
	}
	return -1
}

// renumber writes the line numbers marked on doc, the page at site path
// page, as release tag numbers them, where it has the lines; tag's are
// those not hidden. keep keeps the marks, for site.js to number them for
// another release (a group's page, the merge written: pagemerge.go), a
// line number whose text is no longer its stable number getting it as
// data-l; else they go (a page of one release).
func (set *releaseSet) renumber(doc *xhtml.Node, page, tag string, keep bool) {
	rel := set.relIndex(tag)
	if rel < 0 {
		return
	}
	// own maps stable number s of file f to tag's ("" to "").
	own := func(f, s string) (string, bool) {
		m := set.merged[f]
		if s == "" || m == nil {
			return "", s == ""
		}
		if k := slices.Index(m.rels, rel); k >= 0 {
			if n, ok := m.ownLine(k, s); ok {
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
			if f := set.markedFile(page, excerptFile(n)); f != "" {
				numberCode(n, func(s string) (string, bool) { return own(f, s) }, keep)
			}
			return
		case marked:
			from, to, _ := strings.Cut(mark, "-")
			f := set.markedFile(page, n)
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

// ownNumbers is data, release tag's page at site path f, with its own
// line numbers and no marks (renumber).
func (set *releaseSet) ownNumbers(f, tag string, data []byte) ([]byte, error) {
	if !bytes.Contains(data, []byte(" data-l")) {
		return data, nil
	}
	doc, err := xhtml.Parse(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	set.renumber(doc, f, tag, false)
	var buf bytes.Buffer
	if err := xhtml.Render(&buf, doc); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// markedFile is the repository path of the file a marked element's link
// names, on the page at site path page: a shared source page (or a part
// of one) or a GitHub permalink; "" for none.
func (set *releaseSet) markedFile(page string, n *xhtml.Node) string {
	if n == nil {
		return ""
	}
	href, _ := attr(n, "href")
	if rest, ok := strings.CutPrefix(href, ghBlob); ok {
		_, p, _ := strings.Cut(rest, "/") // after the tag
		p, _, _ = strings.Cut(p, "#")
		f, err := url.PathUnescape(p)
		if err != nil || set.merged[f] == nil {
			return ""
		}
		return f
	}
	u, err := url.Parse(href)
	if err != nil || u.Scheme != "" || u.Host != "" || u.Path == "" {
		return ""
	}
	if m := set.byPath[path.Join(path.Dir(page), u.Path)]; m != nil {
		return m.file
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
		case a.Key == "href" && strings.HasPrefix(a.Val, ghBlob):
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

// symrefStart matches the start tags of a walkthrough's link to a symbol
// and of its permalink (walkthrough/refs.go, renderRefLink: the title is
// "path:from-to").
var symrefStart = regexp.MustCompile(`<a class="symref" href="([^"]*)" title="([^"]*)">|<a class="symref-gh" href="([^"]*)"`)

// stableRefs prints the lines of the links to symbols in a walkthrough's
// HTML h (their titles and permalinks) as v's page prints lines (lines),
// marked.
func (v views) stableRefs(h template.HTML) template.HTML {
	if !v.stableLines() || !strings.Contains(string(h), `class="symref`) {
		return h
	}
	// Safe: only a title and an href change, to escaped values, and a
	// data-l of digits, dots and a hyphen is added.
	return template.HTML(symrefStart.ReplaceAllStringFunc(string(h), func(tag string) string {
		m := symrefStart.FindStringSubmatch(tag)
		if m[3] != "" { // the permalink
			gh := html.UnescapeString(m[3])
			rest, ok := strings.CutPrefix(gh, ghBlob)
			_, p, _ := strings.Cut(rest, "/") // after the tag
			p, frag, _ := strings.Cut(p, "#")
			f, err := url.PathUnescape(p)
			from, to, okL := parseLines(frag)
			if !ok || err != nil || !okL || v.b.opts.SourceURL(f, from, to) != gh {
				return tag
			}
			n := v.lines(f, from, to)
			if n.Mark == "" {
				return tag
			}
			return `<a class="symref-gh" href="` + html.EscapeString(v.b.opts.SourceURL(f, n.from, n.to)) + `" data-l="` + n.Mark + `"`
		}
		title := html.UnescapeString(m[2])
		i := strings.LastIndexByte(title, ':')
		if i < 0 {
			return tag
		}
		from, to, ok := parseLines("L" + strings.Replace(title[i+1:], "-", "-L", 1))
		if !ok {
			return tag
		}
		n := v.lines(title[:i], from, to)
		if n.Mark == "" {
			return tag
		}
		return `<a class="symref" href="` + m[1] + `" title="` + html.EscapeString(title[:i]+":"+n.String()) + `" data-l="` + n.Mark + `">`
	}))
}

// ownLines returns the release of site path f when f is its page of a
// kind the releases share that stays in its directory (pagemerge.go), so
// prints its own line numbers; "" for any other file.
func (rp *relPages) ownLines(f string) string {
	if rp.set == nil || !strings.HasSuffix(f, ".html") {
		return ""
	}
	tag, rest, _ := strings.Cut(f, "/")
	if !slices.Contains(rp.all, tag) || rp.at[rest] != nil {
		return ""
	}
	if _, p, lang := strings.Cut(rest, "/"); sharedRelPage(rest) || lang && sharedRelPage(p) {
		return tag
	}
	return ""
}

// writeLines writes the line map of each release but the newest into its
// directory (linesJS), for site.js to number the shared pages' lines as
// that release does; it returns the bytes written.
func (rp *relPages) writeLines(dir string) (int64, error) {
	if rp.set == nil || len(rp.at) == 0 {
		return 0, nil
	}
	var n int64
	for i, tag := range rp.all[1:] {
		data, err := rp.set.linesScript(i + 1)
		if err != nil {
			return 0, err
		}
		if err := os.WriteFile(filepath.Join(dir, tag, linesJS), data, 0o644); err != nil {
			return 0, err
		}
		n += int64(len(data))
	}
	return n, nil
}
