package site

import (
	"fmt"
	"html/template"
	"strconv"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/internal/render/prosehtml"
	"github.com/kubewalk/kubewalk/walkthrough"
)

// proseLinks are the site's link rules for the Markdown of a walkthrough
// shown on page v.page (prosehtml.Links): an inline reference goes to
// its symbol's source page at the lines it names (refTarget), a link to
// another walkthrough to that walkthrough's page, and fenced code is
// highlighted as the source pages are.
func (v views) proseLinks() prosehtml.Links {
	return prosehtml.Links{
		RefTarget:      v.refTarget,
		WalkthroughURL: walkthroughURL,
		HighlightCode:  highlightCode,
	}
}

// refTarget is where an inline reference on v's page links: the source
// page of its symbol's file at the lines it names — in a site of several
// releases, the shared page serving b's release, the lines printed by
// their stable numbers on a page the releases share (lines.go) — with
// its GitHub permalink beside it. A file the release does not render
// (unrenderRegenerated, unrenderOversized) is linked on GitHub.
func (v views) refTarget(r fact.Resolved) prosehtml.RefTarget {
	b, f := v.b, r.Symbol.Decl.Path
	from, to := resolvedLines(r)
	frag := lineFragment(from, to)
	t := prosehtml.RefTarget{
		Href:      relURL(b.full(v.page), SourcePage(f), frag),
		Title:     f + ":" + strconv.Itoa(from),
		Permalink: b.opts.SourceURL(f, from, to),
	}
	if to != from {
		t.Title += "-" + strconv.Itoa(to)
	}
	// The lines as the fragment names them (lt 0 for one line), as
	// GitHub's permalink and the stable numbers take them; not ok for a
	// declaration without lines.
	lf, lt, ok := parseLines(frag)
	switch {
	case b.set != nil && b.set.src.Variant(SourcePage(f), b.self) != "":
		t.Href = b.link(v.page, SourcePage(f), frag)
	case !b.rendered[f] && ok:
		t.Href = b.opts.SourceURL(f, lf, lt)
	}
	if n := v.lines(f, lf, lt); ok && n.Mark != "" {
		t.Title, t.Permalink, t.Mark = f+":"+n.String(), b.opts.SourceURL(f, n.from, n.to), n.Mark
	}
	return t
}

// renderProse makes HTML of the Markdown of b's walkthroughs, for the
// search index's text (searchindex.Entries); a walkthrough's page
// renders its own, with the page's links (proseLinks). The index reads
// the HTML rather than walkthrough.Markdown.Text because the HTML keeps
// the words of two elements apart: a Korean particle written right after
// a code span ("`Pod`를") stays a term of its own, so the code's name is
// found too.
func (b *builder) renderProse() error {
	r := prosehtml.NewRenderer(prosehtml.Links{
		SymbolURL:      symbolURLFor(WalkthroughPage("x")),
		Permalink:      b.opts.SourceURL,
		WalkthroughURL: walkthroughURL,
		HighlightCode:  highlightCode,
	})
	b.prose = map[*walkthrough.Markdown]template.HTML{}
	render := func(d *walkthrough.Doc, segs []walkthrough.Segment) error {
		for _, s := range segs {
			if s.Markdown == nil {
				continue
			}
			h, err := r.HTML(s.Markdown)
			if err != nil {
				return fmt.Errorf("%s: render: %w", d.File, err)
			}
			b.prose[s.Markdown] = h
		}
		return nil
	}
	for _, d := range b.docs {
		if err := render(d, d.Intro); err != nil {
			return err
		}
		for _, st := range d.Steps {
			if err := render(d, st.Segments); err != nil {
				return err
			}
		}
	}
	return nil
}
