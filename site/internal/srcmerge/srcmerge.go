// Package srcmerge lays out the source pages of a site of several
// releases: one page per file (split into parts when it would weigh over
// a megabyte), serving every release that renders the file. It holds no
// site code: package site renders each release's copy of a file's lines
// and files them here (Src.File1), and writes the pages from what this
// package makes of them (Src.Code, Set.Target, Set.Resolve …);
// site/releases' package comment defines the page.
//
// Most lines of a file are the same from one minor release to the next,
// so the page holds each line once, aligned across releases (a line
// diff, newest to oldest, each release against what is merged so far:
// package linemap), and marks the lines not every release has with the
// releases that have them (data-r, a bit per release of the page, newest
// first). A line shown differently by two releases (an identifier that
// resolves elsewhere, a link to a target that moved) is written once per
// way it is shown, one after the other.
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
package srcmerge

import (
	"context"
	"errors"
	"fmt"
	"html"
	"io/fs"
	"maps"
	"net/url"
	"path"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/sync/errgroup"

	"github.com/kubewalk/kubewalk/internal/render/codehtml"
	"github.com/kubewalk/kubewalk/site/internal/linemap"
)

// Set is the source pages of a site of several releases, and the line
// maps of the files its facts point into that have none.
type Set struct {
	// Files are the files' code, by repository path: those with a page,
	// and those only linked (AlignLinked), without.
	Files map[string]*Src
	// Pages are every part of every page, by file then part; ByPath the
	// Src of each, by the part's site path.
	Pages  []Page
	ByPath map[string]*Src
}

// Page is one part of a shared source page: part Part (from 0) of File's
// page, at site path Path, from the site's root.
type Page struct {
	Path, File string
	Part       int
}

// MaxRels is the most releases one page can tell apart: a bit each,
// in a number site.js reads as a 32-bit integer.
const MaxRels = 31

// Reader reads release r's copy of file f.
type Reader func(r int, f string) ([]byte, error)

// Align aligns the copies of every file of files, each rendered by the
// releases files names (indexes, newest first), read by read; tags name
// the releases in errors. The lines are then rendered into the Set
// (Src.File1) before it is split into parts (Split).
func Align(ctx context.Context, files map[string][]int, tags []string, read Reader) (*Set, error) {
	set := &Set{Files: map[string]*Src{}}
	var ms []*Src
	for _, f := range slices.Sorted(maps.Keys(files)) {
		rs := files[f]
		m := &Src{File: f, Rels: rs, All: 1<<len(rs) - 1}
		set.Files[f] = m
		ms = append(ms, m)
	}
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(runtime.GOMAXPROCS(0))
	for _, m := range ms {
		g.Go(func() error {
			if err := gctx.Err(); err != nil {
				return err
			}
			copies := make([][]string, len(m.Rels))
			for k, r := range m.Rels {
				src, err := read(r, m.File)
				if err != nil {
					return fmt.Errorf("%s: %s: %w", tags[r], m.File, err)
				}
				copies[k] = linemap.TextLines(src)
				m.Lines = append(m.Lines, len(copies[k]))
			}
			masks, at := linemap.Align(copies)
			m.IDs, m.At = linemap.Anchors(masks), at
			m.views = make([][]lineView, len(masks))
			return nil
		})
	}
	return set, g.Wait()
}

// Sorted are the Set's files with a page, by path.
func (set *Set) Sorted() []*Src {
	var ms []*Src
	for _, f := range slices.Sorted(maps.Keys(set.Files)) {
		if m := set.Files[f]; m.views != nil {
			ms = append(ms, m)
		}
	}
	return ms
}

// Written lets go of the lines' renderings and their links' moves once
// every part of every page has been written (Code, Blocks), which no
// call may ask for after; the rest of the Set — the pages, their
// anchors, Variant, Target, Resolve, LineMaps — stays, for the pages
// that link into them.
func (set *Set) Written() {
	for _, m := range set.Files {
		if m.views != nil {
			m.views = [][]lineView{}
		}
		m.Moves = nil
	}
}

// Split cuts every page into parts of at most budget(its number of
// releases) bytes of code, and lists the parts (Pages, ByPath).
func (set *Set) Split(budget func(rels int) int) {
	ms := set.Sorted()
	for _, m := range ms { // one part each, while the parts are found
		m.Parts, m.Paths = []int{0}, []string{PartPage(m.File, 1)}
	}
	for _, m := range ms {
		m.split(set, budget(len(m.Rels)))
	}
}

// List lists the parts of the pages (Pages, ByPath), once every file is
// in the Set.
func (set *Set) List() {
	set.ByPath = map[string]*Src{}
	for _, f := range slices.Sorted(maps.Keys(set.Files)) {
		m := set.Files[f]
		for k, p := range m.Paths {
			set.Pages = append(set.Pages, Page{Path: p, File: f, Part: k})
			set.ByPath[p] = m
		}
	}
}

// AlignLinked gives the files of linked (sorted) that the releases'
// facts locate code in but no release renders (a gate's declaration in
// kube_features.go, a call in a package outside the roots) an alignment
// of their lines, as a page's: the pages the releases share print a
// location there, a GitHub permalink, by its stable lines, marked
// (package site's lines.go), so releases that agree on the code print it
// the same, and each release's line map (lines.js) carries the file for
// site.js to print its own. A file is aligned across the releases (of
// nrels) whose trees have it (read gives fs.ErrNotExist for the others),
// two or more; the files with pages are left alone.
func (set *Set) AlignLinked(ctx context.Context, linked []string, nrels int, read Reader) error {
	var ms []*Src
	for _, f := range linked {
		if _, ok := set.Files[f]; !ok && f != "" {
			ms = append(ms, &Src{File: f})
		}
	}
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(runtime.GOMAXPROCS(0))
	for _, m := range ms {
		g.Go(func() error {
			if err := gctx.Err(); err != nil {
				return err
			}
			var copies [][]string
			for r := range nrels {
				src, err := read(r, m.File)
				if errors.Is(err, fs.ErrNotExist) {
					continue
				}
				if err != nil {
					return err
				}
				m.Rels = append(m.Rels, r)
				copies = append(copies, linemap.TextLines(src))
				m.Lines = append(m.Lines, len(copies[len(copies)-1]))
			}
			if len(copies) < 2 {
				m.Rels = nil
				return nil
			}
			masks, at := linemap.Align(copies)
			m.IDs, m.At, m.All = linemap.Anchors(masks), at, 1<<len(m.Rels)-1
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	for _, m := range ms {
		if m.Rels != nil {
			set.Files[m.File] = m
		}
	}
	return nil
}

// Variant returns the site path, from the site's root, of the page
// serving site path p in release rel: p itself when p is a shared source
// page (or a part of one) of a file rel renders; "" when the release has
// no page of the file.
func (set *Set) Variant(p string, rel int) string {
	m := set.ByPath[p]
	if m == nil || !slices.Contains(m.Rels, rel) {
		return ""
	}
	return p
}

// LineMaps are the Set's files' line maps, for the releases tags (newest
// first), and the file of each page's site path.
func (set *Set) LineMaps(tags []string) *linemap.Maps {
	out := &linemap.Maps{Tags: tags, Files: map[string]*linemap.File{}, Pages: map[string]string{}}
	for f, m := range set.Files {
		out.Files[f] = &linemap.File{Rels: m.Rels, IDs: m.IDs, At: m.At}
	}
	for p, m := range set.ByPath {
		out.Pages[p] = m.File
	}
	return out
}

// lineOpen and lineClose are a source line's element, as package site
// writes one on a release's own source page (code.go).
const (
	lineOpen  = "<u"
	lineClose = "\n</u>"
)

// Src is the code of one shared source page.
type Src struct {
	File string
	Rels []int // releases that render the file, newest first
	// IDs is each merged line's anchor; At, per release of Rels, the
	// merged line of each of its lines.
	IDs []string
	At  [][]int32
	// views are each merged line's renderings, the first its newest
	// release's.
	views [][]lineView
	// GH is the page's GitHub base, the newest release's: the code's
	// GitHub links name their permalinks from it on (data-g,
	// codehtml.Options.GitHub), and the page carries it once (data-gh).
	// Set it before the lines are filed (File1).
	GH string
	// Moves is, per release of Rels, where the links of the renderings it
	// shares with newer releases go for it: a rendering's href to the
	// release's (File1). Make it, a map per release, before the lines are
	// filed.
	Moves []map[string]string
	All   uint64 // the mask of every release of Rels
	// Parts are where each part of the page starts (merged lines), and
	// Paths their site paths.
	Parts []int
	Paths []string
	Lines []int // per release of Rels: its number of lines
}

// lineView is one rendering of a merged line: HTML whose in-site links
// are placeholders (Placeholder) until the page's part is written, and
// the releases showing it (a bit per release of the page's rels).
type lineView struct {
	html string
	mask uint64
}

// The hrefs this package reads link by link — placeholders, permalinks
// to a line on GitHub, and the two together as the links another
// release may send elsewhere — are read by the small exact parsers
// below (parseGHLine, movable, parsePlaceholder) rather than by regular
// expressions: they run on every link of every line of every release a
// site merges. Each says the pattern it reads, which its tests hold it
// to as a regular expression, byte for byte.

// digits is how many ASCII digits s starts with.
func digits(s string) int {
	n := 0
	for n < len(s) && '0' <= s[n] && s[n] <= '9' {
		n++
	}
	return n
}

// parseGHLine reads u as a permalink to a line on GitHub (an href as a
// line's HTML has it): what it links, base, and the line, as written
// (digits, leading zeros kept: two permalinks are to the same line when
// they write it alike). The pattern is ^(https://[^"#]*)#L([0-9]+)$:
// "https://", then anything but '"' up to the first '#', then "#L" and
// one or more digits, to the end.
func parseGHLine(u string) (base, line string, ok bool) {
	rest, ok := strings.CutPrefix(u, "https://")
	if !ok {
		return "", "", false
	}
	i := strings.IndexByte(rest, '#')
	if i < 0 || strings.IndexByte(rest[:i], '"') >= 0 {
		return "", "", false
	}
	base = u[:len("https://")+i]
	line, ok = strings.CutPrefix(rest[i:], "#L")
	if !ok || line == "" || digits(line) != len(line) {
		return "", "", false
	}
	return base, line, true
}

// movable reports whether u, the href of a link in a line's HTML (as
// linkTo gives it), is one another release's rendering of the line may
// send elsewhere: a placeholder (an in-site link, "@" then one or more
// digits, '/' and anything but '"') or a permalink to a line on GitHub
// (parseGHLine). The pattern is
// ^(?:@[0-9]+/[^"]*|https://[^"#]*#L[0-9]+)$.
func movable(u string) bool {
	if rest, ok := strings.CutPrefix(u, "@"); ok {
		n := digits(rest)
		return n > 0 && n < len(rest) && rest[n] == '/' && strings.IndexByte(rest[n+1:], '"') < 0
	}
	_, _, ok := parseGHLine(u)
	return ok
}

// linkTo is where link v of a line's HTML (as codehtml.Hrefs gives it)
// goes, attribute-escaped: its href, or a GitHub link's permalink whole,
// the page's base before its data-g. The moves between releases name
// links so, which is what their hrefs are once site.js has completed
// the GitHub links.
func (m *Src) linkTo(v codehtml.Href) string {
	if v.GitHub {
		return m.GH + codehtml.GitHubRest(v.Value)
	}
	return v.Value
}

// movables are the links in h that are movable, in order, as linkTo
// names them.
func (m *Src) movables(h string) []string {
	var out []string
	for _, v := range codehtml.Hrefs(h) {
		if u := m.linkTo(v); movable(u) {
			out = append(out, u)
		}
	}
	return out
}

// unmoved is h with every movable link emptied (href=""
// for an in-site and a GitHub link alike): what two renderings that
// differ only in where their links go have alike.
func (m *Src) unmoved(h string) string {
	return codehtml.ReplaceHrefs(h, func(v codehtml.Href) (codehtml.Href, bool) {
		return codehtml.Href{}, movable(m.linkTo(v))
	})
}

// File1 files release k's rendering h of merged line ml: under the
// rendering it shares with newer releases, or as a new one. Two
// renderings whose only difference is where their links go (a
// declaration that moved, a local variable whose declaring line changed,
// a file the site renders in one release and not the other) are one: the
// newer releases' rendering is written, and where each of its links goes
// for k is recorded in k's part of the page (moves; data-ghl and
// data-lnk), which site.js follows for the renderings k shares with
// newer releases — never for k's own. A link the page already sends
// elsewhere for k cannot go to a third place: k keeps its own rendering.
func (m *Src) File1(k, ml int, h string) {
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
func (m *Src) follow(k int, theirs, mine []string) bool {
	add := map[string]string{}
	for i, from := range theirs {
		to := mine[i]
		if strings.ContainsRune(from+to, ' ') {
			return false
		}
		if was, ok := m.Moves[k][from]; ok && was != to {
			return false
		}
		if was, ok := add[from]; ok && was != to {
			return false
		}
		add[from] = to
	}
	maps.Copy(m.Moves[k], add)
	return true
}

// GHFiles is the page's data-ghf: the links, from base on, of the
// permalinks in the code that go to another line of the same file for
// some release (moves), sorted; each release's data-ghl names them by
// their index here (GHLines).
func (m *Src) GHFiles(base string) []string {
	links := map[string]bool{}
	for k := 1; k < len(m.Moves); k++ {
		for from, to := range m.Moves[k] {
			if link, _, _, ok := ghLineMove(from, to); ok {
				links[html.UnescapeString(strings.TrimPrefix(link, base))] = true
			}
		}
	}
	return slices.Sorted(maps.Keys(links))
}

// GHLines is release k's part of the page's data-ghl: each permalink in
// the code that goes to another line of the same file for k, grouped by
// the link, named by its index in files (the page's GHFiles),
// "<index>#<line>=<k's line>,<line>=<k's line>…", the groups
// space-separated, links and lines sorted. A link is named once for all
// its lines, and once for all releases: written once per line, or named
// again by every release, it would weigh twice as much.
func (m *Src) GHLines(k int, base string, files []string) string {
	if k == 0 || m.Moves == nil {
		return ""
	}
	lines := map[int][][2]int{}
	for from, to := range m.Moves[k] {
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
	fb, fl, fok := parseGHLine(from)
	tb, tl, tok := parseGHLine(to)
	if !fok || !tok || fb != tb || fl == tl {
		return "", 0, 0, false
	}
	a, _ = strconv.Atoi(fl) // digits: parseGHLine
	b, _ = strconv.Atoi(tl)
	return fb, a, b, true
}

// LinkMoves is release k's part of the page's data-lnk, on part p: each
// other link of the code that goes elsewhere for k (a move that is not
// data-ghl's), as the two hrefs resolved from the part, "<href> <k's
// href>" pairs, space-separated, sorted; k's href is only its fragment
// ("#L12.1") when it goes to the same page, which site.js reads as on
// the first href's page.
func (m *Src) LinkMoves(set *Set, k, p int) string {
	if k == 0 || m.Moves == nil {
		return ""
	}
	from := m.Paths[p]
	href := func(h string) string { // as getAttribute gives it
		if u, ok := set.resolveHref(from, h, true); ok {
			return u
		}
		return html.UnescapeString(h)
	}
	var out []string
	for a, b := range m.Moves[k] {
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

// Placeholder is the href, in a merged line's rendering, of line n of file
// f in release r: "@<merged line>/<file>", resolved when the part holding
// the link is written (resolve). "" when the line is not in the file.
func (set *Set) Placeholder(f string, r, n int) string {
	t := set.Files[f]
	if t == nil {
		return ""
	}
	ml, ok := t.Line(r, n)
	if !ok {
		return ""
	}
	return "@" + strconv.Itoa(ml) + "/" + f
}

// Line returns the merged line of release r's line n.
func (m *Src) Line(r, n int) (int, bool) {
	for k, x := range m.Rels {
		if x == r {
			if n < 1 || n > len(m.At[k]) {
				return 0, false
			}
			return int(m.At[k][n-1]), true
		}
	}
	return 0, false
}

// Part returns the index of the part holding merged line ml.
func (m *Src) Part(ml int) int {
	p := 0
	for p+1 < len(m.Parts) && m.Parts[p+1] <= ml {
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
func (m *Src) split(set *Set, budget int) {
	size := 0
	for i, vs := range m.views {
		n := 0
		for _, v := range vs {
			// Links as resolved from the first part; one into a later
			// part of a file adds its part's number (mergedLinkCost).
			n += len(set.resolveIn(m.Paths[0], v.html, false)) + mergedLineMarkup + placeholders(v.html)*mergedLinkCost
		}
		if size > 0 && size+n > budget {
			m.Parts = append(m.Parts, i)
			m.Paths = append(m.Paths, PartPage(m.File, len(m.Parts)))
			size = 0
		}
		size += n
	}
}

// PartPage is the site path of part k (from 1) of file f's page.
func PartPage(f string, k int) string {
	if k <= 1 {
		return "src/" + f + ".html" // package site's SourcePage
	}
	return "src/" + f + "." + strconv.Itoa(k) + ".html"
}

// parsePlaceholder reads v (an href's Value as codehtml.Hrefs gives it)
// as a placeholder: its merged line, and its file, attribute-escaped.
// The pattern is ^@([0-9]+)/(.*)$: "@", one or more digits, '/', and a
// file of anything but a newline (possibly empty). A line too large
// for an int is math.MaxInt (strconv.Atoi's), past any file's lines.
func parsePlaceholder(v string) (line int, file string, ok bool) {
	rest, ok := strings.CutPrefix(v, "@")
	if !ok {
		return 0, "", false
	}
	n := digits(rest)
	if n == 0 || n == len(rest) || rest[n] != '/' || strings.IndexByte(rest[n+1:], '\n') >= 0 {
		return 0, "", false
	}
	line, _ = strconv.Atoi(rest[:n])
	return line, rest[n+1:], true
}

// placeholders is how many links of h are placeholders.
func placeholders(h string) int {
	if !hasPlaceholder(h) {
		return 0
	}
	n := 0
	for _, v := range codehtml.Hrefs(h) {
		if v.GitHub {
			continue
		}
		if _, _, ok := parsePlaceholder(v.Value); ok {
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

// Target returns the page and anchor of lines from..to of file f in
// release r: the part holding from, and the anchors of from and of to (or
// of that part's last line when to is past it).
func (set *Set) Target(f string, r, from, to int) (page, frag string, ok bool) {
	m := set.Files[f]
	if m == nil || from <= 0 {
		return "", "", false
	}
	a, ok := m.Line(r, from)
	if !ok {
		return "", "", false
	}
	p := m.Part(a)
	frag = m.IDs[a]
	if to > from {
		if z, ok := m.Line(r, to); ok && z > a {
			if p+1 < len(m.Parts) && z >= m.Parts[p+1] {
				z = m.Parts[p+1] - 1
			}
			frag += "-" + m.IDs[z]
		}
	}
	return m.Paths[p], frag, true
}

// Code writes part p of m's page: each merged line's renderings, the
// placeholders resolved from the part's path, each marked with the
// releases showing it unless all do. A line the page's newest release
// lacks (data-r even) is hidden by site.css, not by a hidden attribute
// on each: site.js shows another release's lines.
func (m *Src) Code(set *Set, p int) string {
	from := m.Paths[p]
	end := len(m.views)
	if p+1 < len(m.Parts) {
		end = m.Parts[p+1]
	}
	var sb strings.Builder
	sb.WriteString(`<pre class="code src"`)
	if len(m.Parts) > 1 {
		// Where each release's numbering of this part starts (site.js).
		sb.WriteString(` data-start="`)
		for k := range m.Rels {
			if k > 0 {
				sb.WriteByte(' ')
			}
			n := 0
			for _, ml := range m.At[k] {
				if int(ml) < m.Parts[p] {
					n++
				}
			}
			sb.WriteString(strconv.Itoa(n))
		}
		sb.WriteByte('"')
	}
	sb.WriteByte('>')
	for i := m.Parts[p]; i < end; i++ {
		for v, lv := range m.views[i] {
			sb.WriteString(lineOpen)
			if v == 0 {
				sb.WriteString(` id=` + m.IDs[i])
			}
			if lv.mask != m.All {
				sb.WriteString(` data-r=` + strconv.FormatUint(lv.mask, 16))
			}
			sb.WriteByte('>')
			sb.WriteString(set.Resolve(from, lv.html))
			sb.WriteString(lineClose)
		}
	}
	sb.WriteString(`</pre>`)
	return sb.String()
}

// Resolve replaces the placeholders in h, on the page at site path from,
// by links to the part and anchor of their merged line.
func (set *Set) Resolve(from, h string) string { return set.resolveIn(from, h, true) }

// resolveIn is resolve, with links into any file's first part unless
// parts: what split measures, the same whichever files are split first.
func (set *Set) resolveIn(from, h string, parts bool) string {
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
func (set *Set) resolveHref(from, v string, parts bool) (string, bool) {
	ml, file, ok := parsePlaceholder(v)
	if !ok {
		return "", false
	}
	t := set.Files[file]
	if t == nil || ml >= len(t.IDs) {
		// The file name went through codehtml's attribute escaping; a
		// repository path with a quote or ampersand is not in the map
		// and keeps its placeholder, which the link checker reports.
		return "", false
	}
	p := PartPage(t.File, 1)
	if parts {
		p = t.Paths[t.Part(ml)]
	}
	return NearURL(from, p, t.IDs[ml]), true
}

// NearURL is package site's relURL by the shortest way: up from the page's directory
// only as far as the two paths part, "status/status_manager.go.html#L218"
// from src/pkg/kubelet/kubelet.go.html rather than
// "../../../src/pkg/kubelet/status/status_manager.go.html#L218": the
// links between the shared source pages are many, and shorter for it.
func NearURL(from, target, fragment string) string {
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

// LinkTable factors the releases' data-lnk (moves: each release's
// LinkMoves, hrefs space-separated) into the page's data-lnt, every href
// they name once, in the order they first name it, and each release's
// data-lnk, the indexes of its hrefs there. The releases name mostly the
// same hrefs, so each is written once for all of them.
func LinkTable(moves []string) (table string, idx []string) {
	at := map[string]int{}
	var hrefs []string
	idx = make([]string, len(moves))
	for k, mv := range moves {
		var sb strings.Builder
		for _, h := range strings.Fields(mv) {
			i, ok := at[h]
			if !ok {
				i = len(hrefs)
				at[h] = i
				hrefs = append(hrefs, h)
			}
			if sb.Len() > 0 {
				sb.WriteByte(' ')
			}
			sb.WriteString(strconv.Itoa(i))
		}
		idx[k] = sb.String()
	}
	return strings.Join(hrefs, " "), idx
}

// PartsNav links the parts of a page split in parts, "" for one part.
// The links are numbers, the same in every language.
func (m *Src) PartsNav(cur int) string {
	if len(m.Parts) < 2 {
		return ""
	}
	var sb strings.Builder
	sb.WriteString(`<nav class="parts">`)
	for k, p := range m.Paths {
		n := strconv.Itoa(k + 1)
		if k == cur {
			sb.WriteString(` <strong aria-current="page">` + n + `</strong>`)
			continue
		}
		sb.WriteString(` <a href="` + html.EscapeString(url.PathEscape(path.Base(p))) + `">` + n + `</a>`)
	}
	sb.WriteString(`</nav>`)
	return sb.String()
}
