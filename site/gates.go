package site

import (
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/internal/derive/gates"
	"github.com/kubewalk/kubewalk/site/internal/pagecache"
	"github.com/kubewalk/kubewalk/walkthrough"
)

// The feature gates page and the gate badges of walkthrough steps: the
// release's gate table (fact.Gate) and the code each gate guards
// (fact.GateCheck).

const gatesPage = "gates.html"

// gateRow is a gate on the feature gates page.
type gateRow struct {
	ID, Name string
	// Stage is the stage as the gate table says it ("beta"); Class the
	// badge's CSS class.
	Stage, Class string
	Default      bool
	Locked       bool
	Since        string
	// History is the stages the release records, oldest first, when more
	// than one.
	History string
	// Decl links the gate's constant; DeclFile names it by file and line
	// ("kube_features.go:521"), Decl.Text in full in its title.
	Decl     locView
	DeclFile string
	// Callers are the functions with code the gate guards, in the order
	// of the checks (by file and line).
	Callers []gateCallerRow
	// Steps are the walkthrough steps badged with the gate.
	Steps []navView
}

// gateCallerRow is a function and the spans of it a gate guards.
type gateCallerRow struct {
	Caller funcView
	Spans  []gateSpanRow
}

// gateSpanRow is one guarded span of code.
type gateSpanRow struct {
	// Guarded links the lines; File names them by file base and lines
	// ("config.go:409-431"), as the caller's name already says the
	// package, and Guarded.Text in full in its title.
	Guarded locView
	File    string
	// Kind is the guard's shape (fact.GateCheck.Kind); Off says the code
	// runs only when the gate is off.
	Kind string
	Off  bool
}

// gateBadge is a gate on a walkthrough excerpt or step: the lines it
// shows or cites run only when the gate is on (or off, Off).
type gateBadge struct {
	Name, Stage, Class string
	Default, Locked    bool
	Off                bool
	Href               string
}

func (b *builder) gatesPage() ([]byte, error) {
	v := b.views(gatesPage)
	checks := map[string][]fact.GateCheck{}
	for _, c := range b.in.Facts.GateChecks {
		checks[c.Gate] = append(checks[c.Gate], c)
	}
	steps := b.gateSteps(gatesPage)
	var rows []gateRow
	for _, g := range b.in.Facts.Gates {
		r := gateRow{
			ID: anchorID("g-", g.Name), Name: g.Name, Stage: g.Stage, Class: stageClass(g.Stage),
			Default: g.Default, Locked: g.LockToDefault, Since: g.Since,
			Decl: v.loc(g.Decl), Steps: steps[g.Name],
		}
		if len(g.Stages) > 1 {
			r.History = stageHistory(g.Stages, b.t)
		}
		if !g.Decl.IsZero() {
			r.DeclFile = path.Base(g.Decl.Path) + ":" + v.lines(g.Decl.Path, g.Decl.StartLine, 0).From
		}
		for _, c := range checks[g.Name] {
			// The guarded span's link is its source page, or GitHub when
			// the file has none: the page lists hundreds of spans, so
			// without the second link each row carries.
			span := gateSpanRow{Guarded: v.loc(c.Guarded), Kind: c.Kind, Off: !c.WhenEnabled}
			span.File = strings.TrimPrefix(span.Guarded.Text, path.Dir(c.Guarded.Path)+"/")
			if n := len(r.Callers); n > 0 && r.Callers[n-1].Caller.Full == c.Caller.Symbol {
				r.Callers[n-1].Spans = append(r.Callers[n-1].Spans, span)
				continue
			}
			r.Callers = append(r.Callers, gateCallerRow{Caller: v.fn(c.Caller, ""), Spans: []gateSpanRow{span}})
		}
		rows = append(rows, r)
	}
	return b.exec("gates", b.pageData(gatesPage, b.t("gates.title"), "gates", rows))
}

// stageClass is the CSS class of a stage's badge.
func stageClass(stage string) string {
	if stage == "" {
		return "gate"
	}
	return "gate gate-" + strings.ToLower(stage)
}

// stageHistory is "alpha 1.22 → beta 1.23 → GA 1.33"; where the
// default changed within a stage, the entries say it: "beta 1.33 (off)
// → beta 1.35 (on)".
func stageHistory(stages []fact.GateStage, t func(string) string) string {
	var parts []string
	for i, s := range stages {
		p := s.Stage + " " + s.Version
		same := func(j int) bool { return j >= 0 && j < len(stages) && stages[j].Stage == s.Stage }
		if s.Default != nil && (same(i-1) || same(i+1)) {
			p += " (" + t(map[bool]string{true: "gates.on", false: "gates.off"}[*s.Default]) + ")"
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, " → ")
}

// gateBadges are the badges of gs (internal/derive/gates) on page.
func (b *builder) gateBadges(page string, gs []gates.Guard) []gateBadge {
	var out []gateBadge
	for _, g := range gs {
		out = append(out, gateBadge{
			Name: g.Gate.Name, Stage: g.Gate.Stage, Class: stageClass(g.Gate.Stage),
			Default: g.Gate.Default, Locked: g.Gate.LockToDefault, Off: g.Off,
			Href: b.link(page, gatesPage, anchorID("g-", g.Gate.Name)),
		})
	}
	return out
}

// excerptGates are the badges of an excerpt: of the lines it marks, or
// of all it shows when it marks none.
func (b *builder) excerptGates(page string, e *walkthrough.Excerpt) []gateBadge {
	return b.gateBadges(page, gates.Excerpt(b.in.Facts, e))
}

// stepGates are the badges of a step's references that are not
// excerpts (an excerpt carries its own): of the lines each reference's
// regular expression matched, else of its whole declaration.
func (b *builder) stepGates(page string, s walkthrough.Step) []gateBadge {
	return b.gateBadges(page, gates.Step(b.in.Facts, s))
}

// gateSteps maps each gate to the walkthrough steps badged with it (on
// the step or on one of its excerpts), in walkthrough and step order,
// linked from page.
func (b *builder) gateSteps(page string) map[string][]navView {
	out := map[string][]navView{}
	for g, cs := range gates.Steps(b.in.Facts, b.docs) {
		for _, c := range cs {
			out[g] = append(out[g], navView{b.link(page, WalkthroughPage(c.Doc.ID), c.Step.ID), c.Doc.Title + " › " + c.Step.Title})
		}
	}
	return out
}

// gatesKey is the gates page's key (Cache): its source links depend on
// the files with a source page, its step links on the steps badged with
// each gate.
func (b *builder) gatesKey() pageKey {
	k := pagecache.NewHasher("gates")
	fk := b.filesKey()
	k.Write(fk[:])
	steps := b.gateSteps(gatesPage)
	for _, g := range slices.Sorted(maps.Keys(steps)) {
		k.Add(g)
		for _, s := range steps[g] {
			k.Add(s.Href)
			k.Add(s.Title)
		}
	}
	return k.Sum()
}
