package site

import (
	"html/template"
	"path"
	"slices"
	"strconv"
	"strings"
)

type citeView struct {
	Doc, Step, Href, Lines string
}

type sourceView struct {
	Path   string
	Dir    string
	Name   string
	Lines  int
	GitHub string
	Cites  []citeView
	// Cov is the scenario choice of a page with coverage marks.
	Cov  *covHeadView
	Code template.HTML
}

func (b *builder) sourcePage(f string) ([]byte, error) {
	p := SourcePage(f)
	src, err := b.in.ReadFile(f)
	if err != nil {
		return nil, err
	}
	cov := b.sourceCoverage(f)
	code, n := sourceCode(path.Base(f), src, b.xrefs[f], b.linkFor(p), b.githubBase(), cov)
	if b.bilingual() {
		return b.sourcePageLangs(f, code, n, b.covHead(f, cov))
	}
	sv := sourceView{Path: f, Dir: path.Dir(f), Name: path.Base(f), Lines: n, GitHub: b.opts.SourceURL(f, 0, 0), Cites: b.citeViews(f), Cov: b.covHead(f, cov)}
	sv.Code = code
	return b.exec("source", b.codePageData(p, f, "", sv))
}

// citeViews are the backlinks of file f's source page: one entry per step
// citing it, listing the line spans the step cites.
func (b *builder) citeViews(f string) []citeView {
	p := SourcePage(f)
	var out []citeView
	for _, c := range b.cites[f] {
		cv := citeView{Doc: c.doc.Title, Lines: lineFragment(c.from, c.to)}
		frag := ""
		if c.step >= 0 {
			cv.Step = strconv.Itoa(c.step+1) + ". " + c.doc.Steps[c.step].Title
			frag = c.doc.Steps[c.step].ID
		}
		cv.Href = b.link(p, WalkthroughPage(c.doc.ID), frag)
		if n := len(out); n > 0 && out[n-1].Href == cv.Href {
			if !slices.Contains(strings.Split(out[n-1].Lines, ", "), cv.Lines) {
				out[n-1].Lines += ", " + cv.Lines
			}
			continue
		}
		out = append(out, cv)
	}
	return out
}
