package site

import (
	"fmt"
	"html/template"

	"github.com/kubewalk/kubewalk/walkthrough"
)

// renderProse makes HTML of the Markdown of b's walkthroughs with the
// site's link rules: inline references to the symbols' source pages
// (relative to a walkthrough page, in its language's directory in a
// bilingual site; retarget points them at a multi-release site's shared
// pages), their permalinks beside them, links between walkthroughs to
// their pages, and fenced code highlighted as the source pages are. The
// pages and the search index read b.prose.
func (b *builder) renderProse() error {
	links := walkthrough.Links{
		SymbolURL:      symbolURLWalkthrough,
		Permalink:      b.opts.SourceURL,
		WalkthroughURL: walkthroughURL,
		HighlightCode:  highlightCode,
	}
	if b.langDir != "" {
		links.SymbolURL = symbolURLLang
	}
	r := walkthrough.NewRenderer(links)
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
