package site

import (
	"fmt"
	"html/template"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/internal/derive/reldiff"
)

// The changes page, changes.html: every reference whose code changed
// since the previous release, grouped by the step that cites it first
// (reldiff.Group), each with its diff.

// changesLink is the link from the page at site path p of b's to the
// changes page, at fragment frag ("" for none). In a bilingual site the
// page is one for the release's languages (changesPage): its query names
// b's language, but the first's, which the page shows without one.
func (b *builder) changesLink(p, frag string) string {
	u := relURL(b.full(p), b.full(changesPage), "") // in the release: no need to leave it
	if !b.firstLang() {
		u += "?lang=" + url.QueryEscape(b.in.Lang)
	}
	if frag != "" {
		u += "#" + frag
	}
	return u
}

type changeEntry struct {
	changeView
	// Pattern is the part of the reference's key after the symbol (a
	// /pattern/ of lines), "" for a symbol alone.
	Pattern string
	// From and To are where the declaration is in each release,
	// "path:a-b", the symbol first ("symbol · path:a-b") where it is not
	// the one the entry names.
	From, To string
	// SameAs links the entry above with the same diff (#dN), which is
	// shown once: references to one declaration by several patterns
	// share it, a third of the nine releases' changes pages.
	SameAs string
	// Langs is what each language says of the entry: its badge and the
	// steps citing it.
	Langs []changeText
}

// changeText is one language's badge of a change and the steps of its
// walkthroughs that cite the reference but its group's (changeGroup).
type changeText struct {
	*changesLang
	Label string
	Also  []navView
}

// changeGroup is the changed references a step cites first: the page
// lists the references by the step of the first walkthrough that cites
// each, the step named once in each language (its heading), rather than
// each reference naming the steps citing it, in every language, which
// was a quarter of the changes pages. The last group, of no step, holds
// the references no step cites.
type changeGroup struct {
	Langs []groupText
	Refs  []changeEntry
}

// groupText is one language's heading of a changeGroup: the step, or
// "" for the references no step cites (Other).
type groupText struct {
	*changesLang
	Step navView
}

// changesLang is one language's text of the changes page. In a bilingual
// site each is a language block (Block), shown by site.js when ?lang=
// names it, the first language's without it (Hide on the others): the
// page is one for every language, the diffs written once, as the source
// pages' code is (langs.go).
type changesLang struct {
	Lang        string
	Block, Hide bool
	// The page's text in the language.
	Title, Intro, Refs, None, SameDiff, AlsoBy, Other, NoJS string
	Facts, NoFacts, Kind, Change, Fact, At                  string
	Footer                                                  string
}

// changesBody is the changes page's own data.
type changesBody struct {
	Since  string
	Groups []changeGroup
	Facts  []factChangeRow
	Langs  []*changesLang
	// Chrome, in a bilingual site, is each language's header (the
	// "changeschrome" template), LangJS the link to lang.js, which gives
	// the page the title of the language shown.
	Chrome []template.HTML
	LangJS string
}

type factChangeRow struct {
	Kind, Change, Label string
	At                  locView
}

// changeSteps links from site path p, by key (reldiff.Cites), each step
// of b's walkthroughs that cs says cites a changed reference.
func (b *builder) changeSteps(p string, cs reldiff.Cites) map[string]navView {
	out := map[string]navView{}
	for _, d := range b.docs {
		for _, s := range d.Steps {
			if sk := d.ID + "#" + s.ID; slices.Contains(cs.Steps, sk) {
				out[sk] = navView{relURL(b.full(p), b.full(WalkthroughPage(d.ID)), s.ID), d.Title + " · " + s.Title}
			}
		}
	}
	return out
}

// changesPage renders the release's changes page. In a bilingual site it
// is one page for every language (sharedPage): what is code — the
// references, their declarations' places and diffs, the facts — once,
// what is text once per language (changesLang), each language's header
// too.
//
// It is long because it fills one view (changesBody) field by field,
// code once and text per language, from the same loop over the
// release's changes in the order reldiff.Groups gives them.
func (b *builder) changesPage() ([]byte, error) {
	p := changesPage
	body := changesBody{Since: b.in.Since}
	lbs := b.rel.langs
	cites := make([]reldiff.Cites, len(lbs))
	steps := make([]map[string]navView, len(lbs))
	for i, lb := range lbs {
		t := func(k string) string { return strings.ReplaceAll(lb.t(k), "{since}", b.in.Since) }
		body.Langs = append(body.Langs, &changesLang{
			Lang: lb.in.Lang, Block: b.bilingual(), Hide: i > 0,
			Title: t("changes.title"), Intro: t("changes.intro"), Refs: t("changes.refs"), None: t("changes.none"),
			SameDiff: t("changes.samediff"), AlsoBy: t("changes.alsocitedby"), Other: t("changes.other"), NoJS: strings.ReplaceAll(t("changes.nojs"), "{tag}", b.in.Tag), Facts: t("changes.facts"), NoFacts: t("changes.nofacts"),
			Kind: t("changes.kind"), Change: t("changes.change"), Fact: t("changes.fact"), At: t("handlers.at"), Footer: t("footer"),
		})
		cites[i] = reldiff.StepCites(lb.docs, func(k string) bool { return lb.changeN[k] > 0 })
		steps[i] = lb.changeSteps(p, cites[i])
	}
	side := func(s reldiff.Side, named string) string {
		if s.Symbol == "" {
			return "—"
		}
		if sym := fact.ShortSymbol(s.Symbol); sym != named {
			return sym + " · " + s.At()
		}
		return s.At()
	}
	for _, g := range reldiff.Groups(b.in.Changes, b.changeKeys, cites) {
		var cg changeGroup
		for _, e := range g.Entries {
			rc := b.in.Changes[e.Key]
			cv := b.changeOf(p, e.Key)
			ce := changeEntry{changeView: *cv, Pattern: rc.Pattern(), From: side(rc.From, cv.Symbol), To: side(rc.To, cv.Symbol)}
			ce.Href = "#d" + strconv.Itoa(cv.N)
			if e.SameAs != "" {
				ce.SameAs = "#d" + strconv.Itoa(b.changeN[e.SameAs])
			}
			for i, lb := range lbs {
				label := strings.ReplaceAll(lb.t("change."+cv.Class), "{since}", b.in.Since)
				var also []navView
				for _, sk := range cites[i].Of[e.Key] {
					if sk != g.Step {
						also = append(also, steps[i][sk])
					}
				}
				ce.Langs = append(ce.Langs, changeText{changesLang: body.Langs[i], Label: label, Also: also})
			}
			cg.Refs = append(cg.Refs, ce)
		}
		for i := range lbs {
			st, ok := steps[i][g.Step]
			if !ok && g.Step != "" {
				st = steps[0][g.Step] // a step the language's walkthrough lacks
				for j := 1; st.Href == "" && j < len(steps); j++ {
					st = steps[j][g.Step]
				}
			}
			cg.Langs = append(cg.Langs, groupText{changesLang: body.Langs[i], Step: st})
		}
		body.Groups = append(body.Groups, cg)
	}
	v := b.views(p)
	for _, f := range b.in.FactChanges {
		r := factChangeRow{Kind: string(f.Kind), Change: string(f.Change), Label: f.Label}
		if f.Change == reldiff.Added {
			r.At = v.loc(f.At)
		} else if !f.At.IsZero() {
			r.At = locView{Text: fmt.Sprintf("%s:%d", f.At.Path, f.At.StartLine)}
		}
		body.Facts = append(body.Facts, r)
	}
	if b.bilingual() {
		body.LangJS = b.asset(p, "lang.js")
		for _, lb := range lbs {
			c, err := lb.changesChrome(p)
			if err != nil {
				return nil, fmt.Errorf("changes page, %s: %w", lb.in.Lang, err)
			}
			body.Chrome = append(body.Chrome, c)
		}
	}
	return b.exec("changes", b.pageData(p, body.Langs[0].Title, "changes", body))
}

// changesChrome is b's language's header of the bilingual changes page at
// site path p, hidden but the first language's, with the page's title in
// that language for lang.js.
func (b *builder) changesChrome(p string) (template.HTML, error) {
	title := strings.ReplaceAll(b.t("changes.title"), "{since}", b.in.Since)
	d := b.pageData(p, title, "changes", nil)
	hide := !b.firstLang()
	// The switcher's changes pages are, like this one, every language's:
	// the language rides in the query, as on the language switch.
	for i, v := range d.Versions {
		if hide && !v.Current && !v.Home {
			d.Versions[i].Href += "?lang=" + url.QueryEscape(b.in.Lang)
		}
	}
	h, err := b.exec("changeschrome", struct {
		pageData
		Hide      bool
		FullTitle string
	}{d, hide, title + " · " + b.t("site.name") + " · " + b.in.Tag})
	// Safe: a whole fragment html/template wrote from our templates,
	// starting and ending in HTML text, where it is put.
	return template.HTML(h), err
}
