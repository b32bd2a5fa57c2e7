package site

// Line numbers on the pages a multi-release site's releases share
// (package pageshare).
//
// Two releases' renderings of a walkthrough, an index or a trace differ
// mostly by the line numbers they print — "x.go:136" in one is "x.go:129"
// in the other — where the code is the same. So a page of a
// kind the releases share prints each location in a file with a shared
// source page by the lines' stable anchors (package srcmerge: "L136" is line 136
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
	"html/template"
	"strconv"
	"strings"

	"github.com/kubewalk/kubewalk/site/internal/linemap"
	"github.com/kubewalk/kubewalk/site/internal/pageshare"
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
	n, ok := linemap.AnchorLine(s)
	if !ok || n < 1 {
		return 1
	}
	return n
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
	return v.b.set != nil && !v.b.tune.ownReleasePages && pageshare.Shares(v.page)
}

// stableLine returns line n of file f of b's release as its shared source
// page's anchor numbers it ("12", "12.1"); ok is false when the release
// has no shared source page of f or f no line n.
func (b *builder) stableLine(f string, n int) (string, bool) {
	m := b.set.src.Files[f]
	if m == nil {
		return "", false
	}
	ml, ok := m.Line(b.self, n)
	if !ok {
		return "", false
	}
	return strings.TrimPrefix(m.IDs[ml], "L"), true
}

// lineMaps is what numbering lines on the pages the releases share
// (package pageshare, linemap) needs of set: the releases' tags and the source
// pages' alignments, without their code and the releases' builders.
// Given it instead of set, pageshare.Share lets them go, most of a
// multi-release build's heap (the stage keeps nothing else of Prepared
// while it runs). nil for nil.
func (set *releaseSet) lineMaps() *linemap.Maps {
	if set == nil {
		return nil
	}
	var tags []string
	for _, r := range set.rels {
		tags = append(tags, r.Tag)
	}
	return set.src.LineMaps(tags)
}

// ghBlob is the start of a GitHub permalink at a tag.
const ghBlob = linemap.GitHubBlob
