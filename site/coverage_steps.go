package site

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/internal/derive/chain"
	"github.com/kubewalk/kubewalk/internal/derive/cited"
	"github.com/kubewalk/kubewalk/walkthrough"
)

// A walkthrough step shows the coverage in three places: a badge on each
// excerpt, a badge on each symbol the step cites besides its excerpts,
// and in its Observed panel the cited functions that ran in the phases
// the step's requests fell in.

// covBadge says how often a reference's code ran in the walkthroughs'
// scenario, or that it did not and in which other scenarios it did, or,
// for code its author marked as not meant to run that ran in none, why.
type covBadge struct {
	Ran    bool
	Text   string // "ran 3× in the recorded run", "did not run in this scenario"
	RunsIn string // "runs in: rollout", "" for none
	// Why is the reason the walkthrough gives for the code not to run
	// (walkthrough.Ref.NotRun), in its language; Text then says it ran in
	// no recorded scenario.
	Why string
}

// covBadge returns the coverage badge of the code at locs, nil when the
// walkthroughs' scenario did not count it (or there is no coverage).
// notRun is the reference's not-run mark, "" for none: the badge gives
// it when the code ran in no scenario.
func (b *builder) covBadge(locs []fact.Location, notRun string) *covBadge {
	c := b.coverage()
	if c == nil {
		return nil
	}
	bd, ok := c.Badge(locs)
	switch {
	case !ok:
		return nil
	case bd.Count > 0:
		return &covBadge{Ran: true, Text: fmt.Sprintf(b.t("cov.ran"), bd.Count)}
	}
	v := &covBadge{Text: b.t("cov.notran")}
	switch {
	case len(bd.RunsIn) > 0:
		v.RunsIn = fmt.Sprintf(b.t("cov.runsin"), strings.Join(bd.RunsIn, ", "))
	case notRun != "":
		v.Text, v.Why = b.t("cov.intended"), notRun
	}
	return v
}

// excerptBadge is an excerpt's badge: its marked lines', else its
// reference's.
func (b *builder) excerptBadge(e *walkthrough.Excerpt) *covBadge {
	if b.coverage() == nil {
		return nil
	}
	return b.covBadge(cited.Counted(e.Resolved, e.Highlight), e.NotRun)
}

// covRefView is a symbol a step cites, with its badge.
type covRefView struct {
	Symbol, Href string
	Badge        *covBadge
}

// stepCovRefs are the badges of the symbols step s cites outside its
// excerpts (which carry their own), once each, in the order cited.
func (b *builder) stepCovRefs(p string, s walkthrough.Step) []covRefView {
	if b.coverage() == nil {
		return nil
	}
	var out []covRefView
	for _, r := range cited.Text(s) {
		bd := b.covBadge(cited.Counted(r.Resolved, nil), r.NotRun)
		if bd == nil {
			continue
		}
		d := r.Resolved.Symbol.Decl
		out = append(out, covRefView{Symbol: b.shortName(r.Resolved.Symbol.Name, d), Href: b.srcLink(p, d.Path, d.StartLine, d.EndLine), Badge: bd})
	}
	return out
}

// phaseCodeView is the Observed panel's code that ran in a step's
// phases: per component, the functions the walkthrough cites in the
// order of the chain (handler, queue, worker, sync, write:
// internal/derive/chain), each with how often it was entered; the components
// in the order of their first function.
type phaseCodeView struct {
	Phases     []string
	Components []componentCode
	// Same links the earlier step of the walkthrough whose requests fell
	// in the same phases, which lists the same code; Components is then
	// empty.
	Same *navView
	// Own: the step has no request in the audit log, and the panel lists
	// only the functions it cites, in the phases they ran in.
	Own bool
}

// samePhases points sv's code that ran to the first earlier step with the
// same phases (seen, by phases), rather than listing it again.
func samePhases(sv *stepView, seen map[string]*stepView) {
	pc := sv.PhaseCode
	if pc == nil || pc.Own {
		return
	}
	key := strings.Join(pc.Phases, "\x00")
	first, ok := seen[key]
	if !ok {
		seen[key] = sv
		return
	}
	pc.Components = nil
	pc.Same = &navView{Href: "#" + first.ID, Title: strconv.Itoa(first.Num) + ". " + first.Title}
}

type componentCode struct {
	Name  string
	Funcs []funcRan
}

type funcRan struct {
	Symbol, Href string
	N            int64
}

// docCode is what the Observed panels of a walkthrough list from: the
// functions it cites, in citation order, and their places in the chain.
type docCode struct {
	funcs []fact.Symbol
	keys  map[string]chain.Key
}

// docCode returns d's docCode, nil when the recording has no coverage.
func (b *builder) docCode(d *walkthrough.Doc) *docCode {
	if b.coverage() == nil {
		return nil
	}
	funcs := cited.Funcs(d.Steps...)
	return &docCode{funcs: funcs, keys: chain.Keys(b.in.Facts, funcs)}
}

// stepPhaseCode returns step's code that ran, nil when the step has no
// observed item or the recording no coverage. dc is d's docCode.
func (b *builder) stepPhaseCode(p string, d *walkthrough.Doc, dc *docCode, step string) *phaseCodeView {
	c, r := b.coverage(), b.recorded(panelScenario)
	if c == nil || dc == nil || r == nil || c.Names[0] != panelScenario {
		return nil
	}
	// The phases the step's observed items fell in.
	var at []int64
	for _, it := range r.ByStep[d.ID+"#"+step] {
		at = append(at, it.At)
	}
	phases := c.PhasesAt(at)
	if len(phases) == 0 {
		return nil
	}
	return b.phaseCode(p, dc, dc.funcs, phases, false)
}

// stepOwnCode returns the Observed panel of a step none of whose requests
// reach the audit log — the API server's own start-up, its traffic to
// etcd, an informer's machinery in a process: the functions s cites that
// ran, in the phases they ran in. nil when none ran or there is no
// coverage.
func (b *builder) stepOwnCode(p string, dc *docCode, s walkthrough.Step) *phaseCodeView {
	c := b.coverage()
	if c == nil || dc == nil || c.Names[0] != panelScenario {
		return nil
	}
	funcs := cited.Funcs(s)
	phases := c.PhasesRan(funcs)
	if len(phases) == 0 {
		return nil
	}
	return b.phaseCode(p, dc, funcs, phases, true)
}

// phaseCode lists, per component, the functions among funcs that ran in
// phases (ordered as the recording's), in the order of the chain. own
// says the functions are the step's own (stepOwnCode).
func (b *builder) phaseCode(p string, dc *docCode, funcs []fact.Symbol, phases []string, own bool) *phaseCodeView {
	progs := b.coverage().PhaseCode(funcs, phases, func(x, y string) int { return dc.keys[x].Compare(dc.keys[y]) })
	if len(progs) == 0 {
		return nil
	}
	v := &phaseCodeView{Phases: phases, Own: own}
	for _, prog := range progs {
		cc := componentCode{Name: prog.Name}
		for _, fn := range prog.Funcs {
			dl := fact.Location{Path: fn.Path, StartLine: fn.Start, EndLine: fn.End}
			cc.Funcs = append(cc.Funcs, funcRan{Symbol: b.shortName(fn.Symbol, dl), Href: b.covHref(p, dl), N: fn.N})
		}
		v.Components = append(v.Components, cc)
	}
	return v
}

// docRuns links, from p, the run page of every recorded scenario in which
// a function of dc ran, in the site's order of scenarios; nil without
// coverage.
func (b *builder) docRuns(p string, dc *docCode) []navView {
	c := b.coverage()
	if c == nil || dc == nil {
		return nil
	}
	var out []navView
	for _, name := range c.RanIn(dc.funcs) {
		out = append(out, navView{Href: b.link(p, RecordedPage(name), ""), Title: name})
	}
	return out
}

// covHref links a function that ran to its source page, "" when the site
// has none: the lists of code that ran name hundreds of functions, and a
// GitHub link each would weigh more than the rest of the list.
func (b *builder) covHref(p string, l fact.Location) string {
	if !b.rendered[l.Path] {
		return ""
	}
	return b.srcLink(p, l.Path, l.StartLine, l.EndLine)
}
