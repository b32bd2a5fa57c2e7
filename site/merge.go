package site

import (
	"context"
	"fmt"
	"html"
	"maps"
	"net/url"
	"path"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/sync/errgroup"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/internal/render/codehtml"
	"github.com/kubewalk/kubewalk/site/internal/linemap"
)

// A multi-release site has one source page per file (split into parts
// when it would weigh over a megabyte), serving every release that renders
// the file. Most lines of a file are the same from one minor release to
// the next — the cited files of v1.29 to v1.37 have 1.47 million lines
// between them and 254,000 different ones — so the page holds each line
// once, aligned across releases (a line diff, newest to oldest, each
// release against what is merged so far), and marks the lines not every
// release has with the releases that have them (data-r, a bit per release
// of the page, newest first). A line shown differently by two releases
// (an identifier that resolves elsewhere, a link to a target that moved)
// is written once per way it is shown, one after the other.
//
// A line's anchor is stable across releases: "L12" is line 12 of the
// page's newest release, and a line it lacks is "L12.1", "L12.2" … after
// it. Links to a line, from any release, name its anchor, so a link
// inside shared code is right for every release that has the line, and
// the version switcher keeps the reader on the same line. The newest
// release's lines are what a reader without script sees (the others are
// hidden); site.js shows the lines of the release ?rel= names. Line
// numbers are a CSS counter over the lines shown, so they are that
// release's own.

// mergedSrc is the code of one shared source page.
type mergedSrc struct {
	file string
	rels []int // releases that render the file, newest first
	// ids is each merged line's anchor; at, per release of rels, the
	// merged line of each of its lines.
	ids []string
	at  [][]int32
	// views are each merged line's renderings, the first its newest
	// release's.
	views [][]lineView
	// gh is the page's GitHub base, the newest release's (ghBase): the
	// code's GitHub links name their permalinks from it on (data-g,
	// codehtml.Options.GitHub), and the page carries it once (data-gh).
	gh string
	// moves is, per release of rels, where the links of the renderings it
	// shares with newer releases go for it: a rendering's href to the
	// release's (file1).
	moves []map[string]string
	all   uint64 // the mask of every release of rels
	// parts are where each part of the page starts (merged lines), and
	// paths their site paths.
	parts []int
	paths []string
	lines []int // per release of rels: its number of lines
}

// lineView is one rendering of a merged line: HTML whose in-site links
// are placeholders (placeholder) until the page's part is written, and
// the releases showing it (a bit per release of the page's rels).
type lineView struct {
	html string
	mask uint64
}

// maxMergeRels is the most releases one page can tell apart: a bit each,
// in a number site.js reads as a 32-bit integer.
const maxMergeRels = 31

// merge aligns every shared file's copies (align), renders each copy
// (renderMerged) and splits the pages into parts (split), files side by
// side; files are the releases (indexes into bs) rendering each file.
func (set *releaseSet) merge(ctx context.Context, bs []*builder, files map[string][]int) error {
	if len(bs) > maxMergeRels {
		return fmt.Errorf("site: %d releases in one site; at most %d", len(bs), maxMergeRels)
	}
	set.merged = map[string]*mergedSrc{}
	var ms []*mergedSrc
	for _, f := range slices.Sorted(maps.Keys(files)) {
		rs := files[f]
		m := &mergedSrc{file: f, rels: rs, all: 1<<len(rs) - 1}
		set.merged[f] = m
		ms = append(ms, m)
	}
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(runtime.GOMAXPROCS(0))
	for _, m := range ms {
		g.Go(func() error {
			if err := gctx.Err(); err != nil {
				return err
			}
			copies := make([][]string, len(m.rels))
			for k, r := range m.rels {
				src, err := bs[r].in.ReadFile(m.file)
				if err != nil {
					return fmt.Errorf("%s: %s: %w", bs[r].in.Tag, m.file, err)
				}
				copies[k] = linemap.TextLines(src)
				m.lines = append(m.lines, len(copies[k]))
			}
			masks, at := linemap.Align(copies)
			m.ids, m.at = linemap.Anchors(masks), at
			m.views = make([][]lineView, len(masks))
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	g, gctx = errgroup.WithContext(ctx)
	g.SetLimit(runtime.GOMAXPROCS(0))
	for _, m := range ms {
		g.Go(func() error {
			if err := gctx.Err(); err != nil {
				return err
			}
			return set.renderMerged(bs, m)
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	for _, m := range ms { // one part each, while the parts are found
		m.parts, m.paths = []int{0}, []string{SourcePage(m.file)}
	}
	for _, m := range ms {
		budget := partBudget(len(m.rels))
		if b := bs[0].tune.partBudget; b > 0 {
			budget = b
		}
		m.split(set, budget)
	}
	return nil
}

// renderMerged renders each release's copy of m's file and files each
// line's rendering under its merged line. Links are rendered as if the
// file were the newest's everywhere: in-site ones as placeholders for a
// merged line of a file (placeholder; resolved per part when written),
// GitHub permalinks with the page's newest tag, in the compact form
// from the page's base on (m.gh; releases.js swaps the tag for an older
// release's, its block's data-gh), so a line renders the same in
// releases that agree on it.
func (set *releaseSet) renderMerged(bs []*builder, m *mergedSrc) error {
	newest := bs[m.rels[0]]
	m.gh = ghBase(newest, m.file)
	m.moves = make([]map[string]string, len(m.rels))
	var decls bool
	for k, r := range m.rels {
		m.moves[k] = map[string]string{}
		b := bs[r]
		src, err := b.in.ReadFile(m.file)
		if err != nil {
			return err
		}
		if k == 0 { // the newest decides for every release of the page
			decls = path.Ext(m.file) == ".go" && codehtml.Generated(src)
		}
		link := func(l fact.Location) string {
			if !b.rendered[l.Path] {
				u := b.opts.SourceURL(l.Path, l.StartLine, 0)
				if g, gn := ghBase(b, l.Path), ghBase(newest, l.Path); g != "" && gn != "" && strings.HasPrefix(u, g) {
					u = gn + u[len(g):]
				}
				return u
			}
			return set.placeholder(l.Path, r, l.StartLine)
		}
		var lines []codehtml.Line
		if !decls {
			lines = highlight(path.Base(m.file), src, b.xrefs[m.file], link, m.gh)
		}
		// As on a release's own page (sourceCode), generated code and a
		// file too heavy in full show their declarations only, here in
		// every release of the page, so that its lines compare equal.
		if k == 0 && codeSize(lines) > maxCode {
			decls = true
		}
		if decls {
			lines = codehtml.Go(src, b.xrefs[m.file], codehtml.Options{DeclsOnly: true})
		}
		if len(lines) != len(m.at[k]) {
			return fmt.Errorf("site: %s at %s: %d lines rendered, %d read", m.file, b.in.Tag, len(lines), len(m.at[k]))
		}
		for j, l := range lines {
			m.file1(k, int(m.at[k][j]), string(l))
		}
	}
	return nil
}

// ghLineHref matches a permalink to a line on GitHub (an href as a
// line's HTML has it): what it links, and the line.
var ghLineHref = regexp.MustCompile(`^(https://[^"#]*)#L([0-9]+)$`)

// movableHref matches the href of a link in a line's HTML (as
// linkTo gives it) that another release's rendering of the line may
// send elsewhere: a placeholder (an in-site link) or a permalink to a
// line on GitHub.
var movableHref = regexp.MustCompile(`^(?:@[0-9]+/[^"]*|https://[^"#]*#L[0-9]+)$`)

// linkTo is where link v of a line's HTML (as codehtml.Hrefs gives it)
// goes, attribute-escaped: its href, or a GitHub link's permalink whole,
// the page's base before its data-g. The moves between releases name
// links so, which is what their hrefs are once site.js has completed
// the GitHub links.
func (m *mergedSrc) linkTo(v codehtml.Href) string {
	if v.GitHub {
		return m.gh + v.Value
	}
	return v.Value
}

// movables are the links in h that movableHref matches, in order, as
// linkTo names them.
func (m *mergedSrc) movables(h string) []string {
	var out []string
	for _, v := range codehtml.Hrefs(h) {
		if u := m.linkTo(v); movableHref.MatchString(u) {
			out = append(out, u)
		}
	}
	return out
}

// unmoved is h with every link movableHref matches emptied (href=""
// for an in-site and a GitHub link alike): what two renderings that
// differ only in where their links go have alike.
func (m *mergedSrc) unmoved(h string) string {
	return codehtml.ReplaceHrefs(h, func(v codehtml.Href) (codehtml.Href, bool) {
		return codehtml.Href{}, movableHref.MatchString(m.linkTo(v))
	})
}

// file1 files release k's rendering h of merged line ml: under the
// rendering it shares with newer releases, or as a new one. Two
// renderings whose only difference is where their links go (a
// declaration that moved, a local variable whose declaring line changed,
// a file the site renders in one release and not the other) are one: the
// newer releases' rendering is written, and where each of its links goes
// for k is recorded in k's part of the page (moves; data-ghl and
// data-lnk), which site.js follows for the renderings k shares with
// newer releases — never for k's own. A link the page already sends
// elsewhere for k cannot go to a third place: k keeps its own rendering.
func (m *mergedSrc) file1(k, ml int, h string) {
	vs := m.views[ml]
	for v := range vs {
		if vs[v].html == h {
			vs[v].mask |= 1 << k
			return
		}
	}
	if mine := m.movables(h); len(mine) > 0 {
		canon := m.unmoved(h)
		for v := range vs {
			theirs := m.movables(vs[v].html)
			if len(theirs) != len(mine) || m.unmoved(vs[v].html) != canon {
				continue
			}
			if m.follow(k, theirs, mine) {
				vs[v].mask |= 1 << k
				return
			}
		}
	}
	m.views[ml] = append(vs, lineView{html: h, mask: 1 << k})
}

// follow records, for release k, that each of the links theirs goes to
// mine's, unless one of them already goes elsewhere for k (or would go to
// two places, or names a space, which data-lnk cannot hold).
func (m *mergedSrc) follow(k int, theirs, mine []string) bool {
	add := map[string]string{}
	for i, from := range theirs {
		to := mine[i]
		if strings.ContainsRune(from+to, ' ') {
			return false
		}
		if was, ok := m.moves[k][from]; ok && was != to {
			return false
		}
		if was, ok := add[from]; ok && was != to {
			return false
		}
		add[from] = to
	}
	maps.Copy(m.moves[k], add)
	return true
}

// ghFiles is the page's data-ghf: the links, from base on, of the
// permalinks in the code that go to another line of the same file for
// some release (moves), sorted; each release's data-ghl names them by
// their index here (ghLines).
func (m *mergedSrc) ghFiles(base string) []string {
	links := map[string]bool{}
	for k := 1; k < len(m.moves); k++ {
		for from, to := range m.moves[k] {
			if link, _, _, ok := ghLineMove(from, to); ok {
				links[html.UnescapeString(strings.TrimPrefix(link, base))] = true
			}
		}
	}
	return slices.Sorted(maps.Keys(links))
}

// ghLines is release k's part of the page's data-ghl: each permalink in
// the code that goes to another line of the same file for k, grouped by
// the link, named by its index in files (the page's ghFiles),
// "<index>#<line>=<k's line>,<line>=<k's line>…", the groups
// space-separated, links and lines sorted. A link is named once for all
// its lines, and once for all releases: written once per line, or named
// again by every release, it would weigh twice as much.
func (m *mergedSrc) ghLines(k int, base string, files []string) string {
	if k == 0 || m.moves == nil {
		return ""
	}
	lines := map[int][][2]int{}
	for from, to := range m.moves[k] {
		link, a, b, ok := ghLineMove(from, to)
		if !ok {
			continue
		}
		i, found := slices.BinarySearch(files, html.UnescapeString(strings.TrimPrefix(link, base)))
		if !found {
			continue // not in the page's files: the newest's line
		}
		lines[i] = append(lines[i], [2]int{a, b})
	}
	var sb strings.Builder
	for _, i := range slices.Sorted(maps.Keys(lines)) {
		ls := lines[i]
		slices.SortFunc(ls, func(x, y [2]int) int { return x[0] - y[0] })
		if sb.Len() > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(strconv.Itoa(i))
		sep := byte('#')
		for _, l := range ls {
			sb.WriteByte(sep)
			sb.WriteString(strconv.Itoa(l[0]) + "=" + strconv.Itoa(l[1]))
			sep = ','
		}
	}
	return sb.String()
}

// ghLineMove reports whether a move goes from one line of a GitHub file
// to another of the same file (data-ghl), and which.
func ghLineMove(from, to string) (link string, a, b int, ok bool) {
	f := ghLineHref.FindStringSubmatch(from)
	t := ghLineHref.FindStringSubmatch(to)
	if f == nil || t == nil || f[1] != t[1] || f[2] == t[2] {
		return "", 0, 0, false
	}
	a, _ = strconv.Atoi(f[2]) // digits: ghLineHref
	b, _ = strconv.Atoi(t[2])
	return f[1], a, b, true
}

// linkMoves is release k's part of the page's data-lnk, on part p: each
// other link of the code that goes elsewhere for k (a move that is not
// data-ghl's), as the two hrefs resolved from the part, "<href> <k's
// href>" pairs, space-separated, sorted; k's href is only its fragment
// ("#L12.1") when it goes to the same page, which site.js reads as on
// the first href's page.
func (m *mergedSrc) linkMoves(set *releaseSet, k, p int) string {
	if k == 0 || m.moves == nil {
		return ""
	}
	from := m.paths[p]
	href := func(h string) string { // as getAttribute gives it
		if u, ok := set.resolveHref(from, h, true); ok {
			return u
		}
		return html.UnescapeString(h)
	}
	var out []string
	for a, b := range m.moves[k] {
		if _, _, _, gh := ghLineMove(a, b); gh || a == b {
			continue
		}
		if x, y := href(a), href(b); x != y {
			xp, _, _ := strings.Cut(x, "#")
			yp, frag, ok := strings.Cut(y, "#")
			switch {
			case ok && yp == xp:
				y = "#" + frag // on x's page
			case yp == "" && xp != "":
				y = path.Base(from) + y // on this page, which a fragment alone would not say
			}
			out = append(out, x+" "+y)
		}
	}
	slices.Sort(out)
	return strings.Join(out, " ")
}

// placeholder is the href, in a merged line's rendering, of line n of file
// f in release r: "@<merged line>/<file>", resolved when the part holding
// the link is written (resolve). "" when the line is not in the file.
func (set *releaseSet) placeholder(f string, r, n int) string {
	t := set.merged[f]
	if t == nil {
		return ""
	}
	ml, ok := t.line(r, n)
	if !ok {
		return ""
	}
	return "@" + strconv.Itoa(ml) + "/" + f
}

// line returns the merged line of release r's line n.
func (m *mergedSrc) line(r, n int) (int, bool) {
	for k, x := range m.rels {
		if x == r {
			if n < 1 || n > len(m.at[k]) {
				return 0, false
			}
			return int(m.at[k][n-1]), true
		}
	}
	return 0, false
}

// part returns the index of the part holding merged line ml.
func (m *mergedSrc) part(ml int) int {
	p := 0
	for p+1 < len(m.parts) && m.parts[p+1] <= ml {
		p++
	}
	return p
}

// mergedLineMarkup is the most bytes code adds to a rendering
// besides its HTML: `<u id=L12345.12 data-r=1ff hidden>` and "\n</u>".
const mergedLineMarkup = 42

// mergedLinkCost is the most a link adds when it goes to another part of
// its file's page than the first: the part's file name (".12.html").
const mergedLinkCost = 16

// split cuts m's page into parts of at most budget bytes of code.
func (m *mergedSrc) split(set *releaseSet, budget int) {
	size := 0
	for i, vs := range m.views {
		n := 0
		for _, v := range vs {
			// Links as resolved from the first part; one into a later
			// part of a file adds its part's number (mergedLinkCost).
			n += len(set.resolveIn(m.paths[0], v.html, false)) + mergedLineMarkup + placeholders(v.html)*mergedLinkCost
		}
		if size > 0 && size+n > budget {
			m.parts = append(m.parts, i)
			m.paths = append(m.paths, partPage(m.file, len(m.parts)))
			size = 0
		}
		size += n
	}
}

// partBudget is the most code one part of a merged page may carry: a
// megabyte (maxCode) less the parts every release and language add to
// the page (a header and backlinks each, a few KB).
func partBudget(rels int) int { return maxCode - rels*16<<10 }

// partPage is the site path of part k (from 1) of file f's page.
func partPage(f string, k int) string {
	if k <= 1 {
		return SourcePage(f)
	}
	return "src/" + f + "." + strconv.Itoa(k) + ".html"
}

// placeholderHref matches a placeholder (an href's Value as
// codehtml.Hrefs gives it): its merged line, and its file,
// attribute-escaped.
var placeholderHref = regexp.MustCompile(`^@([0-9]+)/(.*)$`)

// placeholders is how many links of h are placeholders.
func placeholders(h string) int {
	if !hasPlaceholder(h) {
		return 0
	}
	n := 0
	for _, v := range codehtml.Hrefs(h) {
		if !v.GitHub && placeholderHref.MatchString(v.Value) {
			n++
		}
	}
	return n
}

// hasPlaceholder reports whether h may hold a placeholder link: a quick
// test before the hrefs are read.
func hasPlaceholder(h string) bool {
	return strings.Contains(h, `href=@`) || strings.Contains(h, `href="@`)
}

// target returns the page and anchor of lines from..to of file f in
// release r: the part holding from, and the anchors of from and of to (or
// of that part's last line when to is past it).
func (set *releaseSet) target(f string, r, from, to int) (page, frag string, ok bool) {
	m := set.merged[f]
	if m == nil || from <= 0 {
		return "", "", false
	}
	a, ok := m.line(r, from)
	if !ok {
		return "", "", false
	}
	p := m.part(a)
	frag = m.ids[a]
	if to > from {
		if z, ok := m.line(r, to); ok && z > a {
			if p+1 < len(m.parts) && z >= m.parts[p+1] {
				z = m.parts[p+1] - 1
			}
			frag += "-" + m.ids[z]
		}
	}
	return m.paths[p], frag, true
}

// code writes part p of m's page: each merged line's renderings, the
// placeholders resolved from the part's path, each marked with the
// releases showing it unless all do. A line the page's newest release
// lacks (data-r even) is hidden by site.css, not by a hidden attribute
// on each: site.js shows another release's lines.
func (m *mergedSrc) code(set *releaseSet, p int) string {
	from := m.paths[p]
	end := len(m.views)
	if p+1 < len(m.parts) {
		end = m.parts[p+1]
	}
	var sb strings.Builder
	sb.WriteString(`<pre class="code src"`)
	if len(m.parts) > 1 {
		// Where each release's numbering of this part starts (site.js).
		sb.WriteString(` data-start="`)
		for k := range m.rels {
			if k > 0 {
				sb.WriteByte(' ')
			}
			n := 0
			for _, ml := range m.at[k] {
				if int(ml) < m.parts[p] {
					n++
				}
			}
			sb.WriteString(strconv.Itoa(n))
		}
		sb.WriteByte('"')
	}
	sb.WriteByte('>')
	for i := m.parts[p]; i < end; i++ {
		for v, lv := range m.views[i] {
			sb.WriteString(lineOpen)
			if v == 0 {
				sb.WriteString(` id=` + m.ids[i])
			}
			if lv.mask != m.all {
				sb.WriteString(` data-r=` + strconv.FormatUint(lv.mask, 16))
			}
			sb.WriteByte('>')
			sb.WriteString(set.resolve(from, lv.html))
			sb.WriteString(lineClose)
		}
	}
	sb.WriteString(`</pre>`)
	return sb.String()
}

// resolve replaces the placeholders in h, on the page at site path from,
// by links to the part and anchor of their merged line.
func (set *releaseSet) resolve(from, h string) string { return set.resolveIn(from, h, true) }

// resolveIn is resolve, with links into any file's first part unless
// parts: what split measures, the same whichever files are split first.
func (set *releaseSet) resolveIn(from, h string, parts bool) string {
	if !hasPlaceholder(h) {
		return h
	}
	return codehtml.ReplaceHrefs(h, func(v codehtml.Href) (codehtml.Href, bool) {
		if v.GitHub {
			return v, false
		}
		u, ok := set.resolveHref(from, v.Value, parts)
		return codehtml.Href{Value: u}, ok
	})
}

// resolveHref is the URL, from the page at site path from, of
// placeholder v (attribute-escaped, as codehtml.Hrefs gives it); false
// when v is no placeholder of a merged line.
func (set *releaseSet) resolveHref(from, v string, parts bool) (string, bool) {
	sm := placeholderHref.FindStringSubmatch(v)
	if sm == nil {
		return "", false
	}
	ml, _ := strconv.Atoi(sm[1]) // digits: placeholderHref
	t := set.merged[sm[2]]
	if t == nil || ml >= len(t.ids) {
		// The file name went through codehtml's attribute escaping; a
		// repository path with a quote or ampersand is not in the map
		// and keeps its placeholder, which the link checker reports.
		return "", false
	}
	p := SourcePage(t.file)
	if parts {
		p = t.paths[t.part(ml)]
	}
	return nearURL(from, p, t.ids[ml]), true
}

// nearURL is relURL by the shortest way: up from the page's directory
// only as far as the two paths part, "status/status_manager.go.html#L218"
// from src/pkg/kubelet/kubelet.go.html rather than
// "../../../src/pkg/kubelet/status/status_manager.go.html#L218": the
// links between the shared source pages are many, and shorter for it.
func nearURL(from, target, fragment string) string {
	if target == from && fragment != "" {
		return "#" + fragment
	}
	dirs := strings.Split(from, "/")
	dirs = dirs[:len(dirs)-1]
	segs := strings.Split(target, "/")
	i := 0
	for i < len(dirs) && i < len(segs)-1 && dirs[i] == segs[i] {
		i++
	}
	var b strings.Builder
	b.WriteString(strings.Repeat("../", len(dirs)-i))
	for j, seg := range segs[i:] {
		if j > 0 {
			b.WriteByte('/')
		} else if i == len(dirs) && strings.Contains(seg, ":") {
			// A colon in the first segment would make it a scheme
			// (RFC 3986 section 4.2).
			b.WriteString("./")
		}
		b.WriteString(url.PathEscape(seg))
	}
	if fragment != "" {
		b.WriteByte('#')
		b.WriteString(fragment)
	}
	return b.String()
}
