package site

import (
	"html/template"
	"path"
	"strconv"
	"strings"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/internal/render/codehtml"
	"github.com/kubewalk/kubewalk/internal/render/diagram"
)

// This file is the one seam between site and the code and diagram
// renderers (internal/render/codehtml, internal/render/diagram). What they return is
// HTML or SVG they generated themselves, escaping every piece of source
// text and label and dropping unsafe hrefs (codehtml.SafeHref); that is why
// it may be used as template.HTML — here, nowhere else.

type seqMsg = diagram.Message
type graphNode = diagram.Node
type graphEdge = diagram.Edge

type exLine = codehtml.ExcerptLine

// highlight returns one balanced HTML fragment per line of src: Go through
// go/scanner with identifiers classed and linked by idents (nil idents —
// a file outside the analysed roots — still gets lexical highlighting),
// anything else through chroma by file name.
//
// A link that link sends to GitHub, under gh (the release's base,
// githubBase), is written in the compact form, the rest of its URL in
// data-g, and the page that shows the lines carries gh once, on its
// <body> (data-gh, pageData.GH): site.js gives every such link its href
// as the page loads. Without script the identifier is shown but not
// linked; a permalink is most of a link's markup, and the code's links
// to files the site does not render are thousands.
func highlight(name string, src []byte, idents []fact.Ident, link func(fact.Location) string, gh string) []codehtml.Line {
	if path.Ext(name) == ".go" {
		return codehtml.Go(src, idents, codehtml.Options{Link: link, GitHub: gh})
	}
	return codehtml.Text(name, src)
}

// maxCode is the most a source page's code may weigh, in bytes of HTML.
// A page much over a megabyte takes seconds to load and lay out in a
// browser, and a release's site has to stay small enough to host; the
// rest of the megabyte is left to the page's head, header and backlinks,
// several times what the largest of those takes.
const maxCode = 1<<20 - 48<<10

// sourceCode is the code of a source page and its number of lines. A
// generated file is rendered lighter (declarations classed, no links for
// uses: codehtml.Options.DeclsOnly), and so is any file whose full
// rendering would pass maxCode; one that still passes it is plain text
// (a one-release build renders no file whose plain text passes maxCode:
// unrenderOversized).
// Line anchors (#L12) are the same at every level, so links into the page
// never depend on how it was rendered.
//
// gh is the release's GitHub base (highlight). cov, when not nil, marks
// the lines a recorded scenario counted (coverage.go); its bytes count
// towards maxCode.
func sourceCode(name string, src []byte, idents []fact.Ident, link func(fact.Location) string, gh string, cov *sourceCov) (template.HTML, int) {
	var lines []codehtml.Line
	if path.Ext(name) != ".go" || !codehtml.Generated(src) {
		lines = highlight(name, src, idents, link, gh)
	}
	if lines == nil || codeSize(lines)+cov.size() > maxCode {
		lines = codehtml.Go(src, idents, codehtml.Options{DeclsOnly: true})
	}
	if codeSize(lines)+cov.size() > maxCode {
		lines = codehtml.Plain(src)
	}
	return codeTable(lines, cov), len(lines)
}

// codeTable lays out a source page's lines. It is built here rather than in
// a template because it is most of every source page (hundreds of thousands
// of lines for a real site) and html/template's per-action escaping would
// dominate the build; the markup added around each line holds only integers.
//
// Each line is a <u> with its anchor and nothing else: no class (sourceCSS
// selects the <pre>'s children), and no number: a CSS counter draws it, and
// site.js takes a click on it to the line: a link and a class on every
// line would be a large part of a release's source pages. <u> is the
// shortest element a <pre> may hold that means nothing to assistive
// technology (HTML-AAM maps it, as <span>, to a generic role); sourceCSS
// takes its underline off.
//
// With cov, the <pre> carries every scenario's counts, the default's
// first, in data-cov (covdata.Runs), and site.js marks each counted line
// with how often it ran (data-n, which sourceCSS draws in the gutter):
// a mark on each line in the markup as well would cost about as much
// as all the runs, for readers without script alone.
func codeTable(lines []codehtml.Line, cov *sourceCov) template.HTML {
	var sb strings.Builder
	sb.Grow(codeSize(lines) + cov.size() + len(`<pre class="code src"></pre>`))
	sb.WriteString(`<pre class="code src"`)
	if cov != nil {
		sb.WriteString(` data-cov="`)
		sb.WriteString(cov.runs) // scenario names ([a-z-]), digits, spaces, '.', '=' and '|'
		sb.WriteString(`"`)
	}
	sb.WriteString(`>`)
	for i, l := range lines {
		sb.WriteString(lineOpen + ` id=L`)
		sb.WriteString(strconv.Itoa(i + 1))
		sb.WriteString(`>`)
		sb.WriteString(string(l)) // balanced, escaped HTML from highlight
		sb.WriteString(lineClose)
	}
	sb.WriteString(`</pre>`)
	// Safe: integers, fixed markup and highlight's escaped output (code.go).
	return template.HTML(sb.String())
}

// lineOpen and lineClose are a source line's element (codeTable).
const (
	lineOpen  = "<u"
	lineClose = "\n</u>"
)

// lineMarkup is the bytes codeTable adds to a line besides its number.
const lineMarkup = len(lineOpen+` id=L>`) + len(lineClose)

// codeSize is the size of codeTable(lines) without the <pre> around it.
func codeSize(lines []codehtml.Line) int {
	n := 0
	for i, l := range lines {
		n += len(l) + lineMarkup + len(strconv.Itoa(i+1))
	}
	return n
}

// sourceCSS lays out a source page's lines (codeTable) as site.css does
// excerpts' .ln, and numbers them with a counter styled as excerpts' .nr,
// so the number is not text (nor copied with the code) and costs no bytes
// in the page. A line is highlighted when it is the fragment's target or
// site.js marks it (hl: a range #L10-L20, tinted, its first line hl1 as
// strong as a target). A line a recorded scenario
// counted (data-n, which site.js sets from codeTable's data-cov) has a bar in its gutter, solid where it
// ran and dashed where it did not, and shows its count on hover and on
// focus (data-t: site.js's text, in the page's language). A line of a multi-release
// page that the release shown lacks is hidden (package srcmerge), and so not
// counted.
const sourceCSS = `pre.src{counter-reset:ln}
pre.src>u{display:block;padding-right:1rem;min-height:1.5em;counter-increment:ln;text-decoration:none}
pre.src>u::before{content:counter(ln);display:inline-block;box-sizing:border-box;width:4.2em;padding-right:.9em;margin-right:.6em;text-align:right;color:var(--muted);border-right:1px solid var(--line);cursor:pointer}
pre.src>u:hover::before{color:var(--accent)}
pre.src>u.hl{background:color-mix(in srgb,var(--target) 40%,transparent);box-shadow:inset 3px 0 var(--mark-edge)}
pre.src>u.hl1,pre.src>u:target{background:var(--target);box-shadow:inset 3px 0 var(--mark-edge)}
pre.src>u[hidden]{display:none}
pre.src>u[data-n]{position:relative}
pre.src>u[data-n]::before{background:linear-gradient(to left,var(--cov-ran) 4px,transparent 4px)}
pre.src>u[data-n="0"]::before{background:repeating-linear-gradient(var(--cov-not) 0 3px,transparent 3px 6px) right/4px 100% no-repeat}
pre.src>u[data-n]:not([data-n="0"]):hover::after,pre.src>u[data-n]:focus::after{content:attr(data-n) "×";position:absolute;right:.5rem;top:0;padding:0 .4em;font-size:.8em;color:var(--fg);background:var(--panel);border:1px solid var(--line);border-radius:3px}
pre.src>u[data-t]:hover::after,pre.src>u[data-t]:focus::after{content:attr(data-t)}
pre.src>u[data-n]:focus{outline:2px solid var(--accent);outline-offset:-2px}
nav.parts{margin:.5rem 0;font-variant-numeric:tabular-nums}
nav.parts a,nav.parts strong{padding:0 .4em}
`

// highlightCode is prosehtml.Links.HighlightCode for the site: a
// walkthrough's fenced code block (YAML, shell, JSON, Go …) highlighted by
// language as source pages are, so one stylesheet covers both.
func highlightCode(lang string, code []byte) template.HTML {
	var b strings.Builder
	for i, l := range codehtml.Lang(lang, code) {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(string(l))
	}
	// Safe: codehtml escapes every token and writes only its own markup.
	return template.HTML(b.String())
}

func excerpt(lines []codehtml.Line, from, to int, hl []int, context int) []exLine {
	return codehtml.Excerpt(lines, from, to, hl, context)
}

func codeCSS() string { return codehtml.CSS() + sourceCSS }

func sequenceSVG(participants []string, msgs []seqMsg) (template.HTML, error) {
	svg, err := diagram.Sequence(participants, msgs)
	if err != nil {
		return "", err
	}
	// Safe: diagram escapes every label and checks every href (svg.go).
	return template.HTML(svg), nil
}

func graphSVG(nodes []graphNode, edges []graphEdge) (template.HTML, error) {
	svg, err := diagram.Graph(nodes, edges)
	if err != nil {
		return "", err
	}
	// Safe: diagram escapes every label and checks every href (svg.go).
	return template.HTML(svg), nil
}
