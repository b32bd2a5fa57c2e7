package site

import (
	"fmt"
	"html/template"
	"slices"
	"strconv"

	"github.com/kubewalk/kubewalk/internal/render/prosehtml"
	"github.com/kubewalk/kubewalk/walkthrough"
)

type segView struct {
	HTML    template.HTML
	Facts   *factsView
	Excerpt *excerptView
}

type excerptView struct {
	Caption string
	Symbol  string
	File    string // "pkg/x.go:12-30": the lines Href goes to
	Href    string // source page at the lines
	GitHub  string
	// FileLines and GitHubLines are the data-l of the links to the file
	// and to GitHub, on a page the releases share (lines.go).
	FileLines, GitHubLines string
	// Lines are the excerpt's lines. Their numbers are not links (site.js
	// makes them go to Href's page at the line): a link per line would
	// weigh much of a walkthrough page. Stable says they are stable numbers
	// (lines.go: data-l on the code).
	Lines  []excerptRow
	Stable bool
	// Change is the badge of the excerpt's reference since the previous
	// release, with the declaration's diff; nil for none.
	Change *changeView
	// Gates are the feature gates guarding the lines it marks (gates.go).
	Gates []gateBadge
	// Ran says how often its code ran in the recorded run (coverage_steps.go).
	Ran *covBadge
}

type stepView struct {
	ID, Title string
	Num       int
	Text      []segView
	Code      []segView
	// Changes are the badges of the step's other references, Gates the
	// feature gates guarding what they cite (gates.go).
	Changes             []changeView
	Gates               []gateBadge
	PrevHref, PrevTitle string
	NextHref, NextTitle string
	// Observed are the recorded run's items attributed to the step
	// (recorded.go); none without a recording.
	Observed []obsView
	// CovRefs are the badges of the symbols it cites outside its
	// excerpts, PhaseCode the cited code that ran while its requests
	// were made (coverage_steps.go); none without coverage.
	CovRefs   []covRefView
	PhaseCode *phaseCodeView
	// Rules are the rules the step's proxier code wrote in a recorded
	// run (recorded_rules.go).
	Rules *stepRulesView
	// Stale marks a translated step older than its English step; Original
	// links the English step when the site has that language.
	Stale    bool
	Original string
}

type navView struct{ Href, Title string }

type walkthroughView struct {
	Title, Summary string
	Topics         []string
	Diagram        template.HTML
	Intro          []segView
	Steps          []stepView
	Prev, Next     *navView
	// Lang is the walkthrough's language; Fallback says it is not the
	// site's (not translated yet).
	Lang     string
	Fallback bool
	// Runs link the recorded runs in which code the walkthrough cites
	// ran (docRuns).
	Runs []navView
}

func (b *builder) walkthroughPage(i int) ([]byte, error) {
	d := b.docs[i]
	p := WalkthroughPage(d.ID)
	v := b.views(p)
	w := walkthroughView{Title: d.Title, Summary: d.Summary, Topics: d.Topics, Lang: d.Lang, Fallback: d.Lang != b.in.Lang}
	var err error
	w.Intro, _, err = b.segments(v, d.Intro, false)
	if err != nil {
		return nil, err
	}
	var msgs []seqMsg
	phaseSteps := map[string]*stepView{}
	code := b.docCode(d)
	w.Runs = b.docRuns(p, code)
	for j, s := range d.Steps {
		sv := stepView{ID: s.ID, Title: s.Title, Num: j + 1, Stale: s.Stale}
		if s.Stale {
			sv.Original = b.originalStep(p, s.ID)
		}
		sv.Text, sv.Code, err = b.segments(v, s.Segments, true)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", d.File, s.Line, err)
		}
		sv.Changes = b.stepChanges(p, s)
		sv.Gates = b.stepGates(p, s)
		sv.Observed = b.stepObserved(p, d.ID, s.ID)
		sv.CovRefs = b.stepCovRefs(p, s)
		sv.PhaseCode = b.stepPhaseCode(p, d, code, s.ID)
		if sv.Observed == nil {
			sv.PhaseCode = b.stepOwnCode(p, code, s)
		}
		sv.Rules = b.stepRules(p, s)
		samePhases(&sv, phaseSteps)
		if j > 0 {
			sv.PrevHref, sv.PrevTitle = "#"+d.Steps[j-1].ID, d.Steps[j-1].Title
		}
		if j+1 < len(d.Steps) {
			sv.NextHref, sv.NextTitle = "#"+d.Steps[j+1].ID, d.Steps[j+1].Title
		}
		w.Steps = append(w.Steps, sv)
		if s.From != "" && s.To != "" {
			label := s.Label
			if label == "" {
				label = s.Title
			}
			msgs = append(msgs, seqMsg{From: s.From, To: s.To, Label: strconv.Itoa(j+1) + ". " + label, Href: "#" + s.ID})
		}
	}
	if len(msgs) > 0 && len(d.Participants) > 0 {
		w.Diagram, err = sequenceSVG(d.Participants, msgs)
		if err != nil {
			return nil, fmt.Errorf("%s: sequence diagram: %w", d.File, err)
		}
	}
	if i > 0 {
		w.Prev = &navView{relURL(p, WalkthroughPage(b.docs[i-1].ID), ""), b.docs[i-1].Title}
	}
	if i+1 < len(b.docs) {
		w.Next = &navView{relURL(p, WalkthroughPage(b.docs[i+1].ID), ""), b.docs[i+1].Title}
	}
	return b.exec("walkthrough", b.codePageData(p, d.Title, "walkthroughs", w))
}

// segments turns a step's segments into views; with split, excerpts go to
// the code column and everything else to the narrative column.
func (b *builder) segments(v views, segs []walkthrough.Segment, split bool) (text, code []segView, err error) {
	var prose *prosehtml.Renderer
	for _, s := range segs {
		switch {
		case s.Excerpt != nil:
			ev, err := b.excerpt(v, s.Excerpt)
			if err != nil {
				return nil, nil, err
			}
			if split {
				code = append(code, segView{Excerpt: ev})
			} else {
				text = append(text, segView{Excerpt: ev})
			}
		case s.Facts != nil:
			text = append(text, segView{Facts: v.facts(s.Facts.Handlers, s.Facts.Events, s.Facts.Writes)})
		default:
			if prose == nil {
				prose = prosehtml.NewRenderer(v.proseLinks())
			}
			// prosehtml.Renderer's output: goldmark with raw HTML off.
			h, err := prose.HTML(s.Markdown)
			if err != nil {
				return nil, nil, err
			}
			text = append(text, segView{HTML: h})
		}
	}
	return text, code, nil
}

func (b *builder) excerpt(v views, e *walkthrough.Excerpt) (*excerptView, error) {
	p := e.Resolved.Symbol.Decl.Path
	lines, err := b.highlighted(p, v.page)
	if err != nil {
		return nil, err
	}
	if e.From < 1 || e.To < e.From || e.To > len(lines) {
		return nil, fmt.Errorf("excerpt of %s: lines %d-%d outside the file's %d lines", p, e.From, e.To, len(lines))
	}
	// The file link goes to the lines the excerpt marks, or to all it
	// shows when it marks none; its label names those same lines, so a
	// reader who follows it finds highlighted what the label promised.
	from, to := e.From, e.To
	if len(e.Highlight) > 0 {
		from, to = slices.Min(e.Highlight), slices.Max(e.Highlight)
	}
	label, gh := v.lines(p, from, to), v.lines(p, e.From, e.To)
	rows, stable := v.excerptRows(p, excerpt(lines, e.From, e.To, e.Highlight, e.Context))
	// A cited file has a source page unless it would pass the page budget
	// (unrenderOversized): then the link goes to GitHub at the tag.
	href := b.opts.SourceURL(p, label.from, label.to)
	if b.rendered[p] {
		href = b.link(v.page, SourcePage(p), lineFragment(from, to))
	}
	return &excerptView{
		Caption:     e.Caption,
		Symbol:      e.Resolved.Symbol.Name,
		File:        p + ":" + label.String(),
		FileLines:   label.Mark,
		Href:        href,
		GitHub:      b.opts.SourceURL(p, gh.from, gh.to),
		GitHubLines: gh.Mark,
		Lines:       rows,
		Stable:      stable,
		Change:      b.change(v.page, e.Ref.Ref),
		Gates:       b.excerptGates(v.page, e),
		Ran:         b.excerptBadge(e),
	}, nil
}
