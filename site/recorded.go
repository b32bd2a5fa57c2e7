package site

import (
	"fmt"
	"html/template"
	"slices"
	"strconv"
	"strings"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/internal/derive/runlog"
	"github.com/kubewalk/kubewalk/record"
	"github.com/kubewalk/kubewalk/site/internal/linediff"
)

// A recorded run (package record) puts the cluster's own words beside the
// code: each walkthrough step gets an Observed panel with the audit entries
// and events attributed to it, and the Recorded run page shows the whole
// run — its timeline, a sequence diagram drawn from the audit log, the
// watches the components opened, the etcd keys and their values revision
// by revision, and what could not be attributed. Attribution is
// explain.Attribute over the site's own facts and walkthroughs, the
// function `kubewalk record` prints with, in its two parts: the items
// matched to code, which a Cache keeps for the release (codeMatch), put
// under the build's own steps; what the pages show of it —
// items in time order, phases, repeats folded, actors, etcd revisions —
// is derived by internal/derive/runlog, and this file turns it into
// views. Without a recording (Input.Recordings empty) none of this is
// rendered.

// panelScenario is the scenario the walkthroughs follow: its recording
// gives the steps their Observed panels. The others (scaling, a rolling
// update) have their run pages only.
const panelScenario = "deployment"

// RecordedPage is the site path of the Recorded run page of a scenario.
func RecordedPage(scenario string) string {
	if scenario == panelScenario {
		return "recorded.html"
	}
	return "recorded-" + scenario + ".html"
}

// recordedRun is the attributed recording, computed once per build: the
// name build.go and the coverage panels know it by.
type recordedRun = runlog.Run

// recorded returns the attributed recording of a scenario, nil when the
// release has none.
func (b *builder) recorded(scenario string) *recordedRun {
	b.recOnce.Do(func() {
		x := b.explainer()
		for _, rec := range b.in.Recordings {
			b.recs = append(b.recs, runlog.New(rec, x.AttributeSteps(b.codeMatch(x, rec))))
		}
	})
	for _, r := range b.recs {
		if r.Rec.Scenario == scenario {
			return r
		}
	}
	return nil
}

// obsView is an item as a panel or the timeline lists it.
type obsView struct {
	At   string // "+61 ms"
	Kind string // "audit" or "event"
	// Audit: verb, resource and name, the request URI, user and user agent.
	// Event: type, reason, object, message, reporting component.
	Head, Object, URI, Who, Agent, Message string
	Warning                                bool
	Code                                   []obsCode
	// More counts the further items a panel folds into this one: the
	// same request or event by the same component from the same code
	// (a status update repeated, one event per Pod), the last at Last.
	More int
	Last string
	// Times, on the run page, is how many items More folded with this
	// one ("×7, like the first").
	Times int
	// AgentShort is a long user agent cut short (runlog.ShortAgent), the whole
	// one shown on demand; "" when Agent is short.
	AgentShort string
	// Step links the step the item belongs to (on the run page only).
	Step *navView
	// Note says why no code was found, or what to keep in mind about it
	// (explain.Explanation.Note).
	Note string
}

type obsCode struct {
	Role, Symbol, Where, Href, GitHub string
}

func offset(ms int64) string { return fmt.Sprintf("%+d ms", ms) }

// view renders an item for the page at p; withStep adds the link to its
// step.
func (b *builder) obsView(p string, it runlog.Item, withStep bool) obsView {
	ex := it.Explanation()
	v := obsView{At: offset(it.At), Note: ex.Note, Head: it.Head(), Object: it.Object(), Who: it.Who()}
	if a := it.Audit; a != nil {
		v.Kind = "audit"
		v.URI, v.Agent = a.RequestURI, a.UserAgent
	} else {
		v.Kind = "event"
		v.Warning = it.Event.Type == "Warning"
		v.Message = it.Event.Message
	}
	for i, c := range ex.Code {
		if i == 3 {
			break
		}
		v.Code = append(v.Code, obsCode{
			Role: c.Role, Symbol: b.shortName(c.Symbol, fact.Location{}), Where: c.Where(),
			Href: b.srcLink(p, c.Path, c.Line, 0), GitHub: b.opts.SourceURL(c.Path, c.Line, 0),
		})
	}
	if withStep && it.Doc != "" {
		for _, s := range ex.Steps[:1] {
			v.Step = &navView{Href: b.link(p, WalkthroughPage(s.Walkthrough), s.Step), Title: s.Title + " › " + s.StepTitle}
		}
	}
	return v
}

// stepObserved returns the Observed panel's items of a step of doc.
func (b *builder) stepObserved(p, doc, step string) []obsView {
	r := b.recorded(panelScenario)
	if r == nil {
		return nil
	}
	var vs []obsView
	for _, f := range runlog.Fold(r.ByStep[doc+"#"+step], runlog.Item.Who) {
		v := b.foldedView(p, f, false)
		// The panel is read beside the step's code: the user names the
		// component, and the first call site is the one the step shows;
		// the run page has the user agent and every call site.
		v.Agent = ""
		v.Code = v.Code[:min(len(v.Code), 1)]
		vs = append(vs, v)
	}
	return vs
}

// foldedView is obsView of an item with the repeats folded into it.
func (b *builder) foldedView(p string, f runlog.Folded, withStep bool) obsView {
	v := b.obsView(p, f.Item, withStep)
	if f.More > 0 {
		v.More, v.Last = f.More, offset(f.Last)
	}
	return v
}

type recordedView struct {
	Tag, Scenario, GoVersion string
	// Doc says what the scenario did; Others link the other scenarios'
	// pages.
	Doc        string
	Others     []navView
	Components []record.Component
	Diagram    template.HTML
	// StartupDiagram draws the start-up's writes, Phases file the whole
	// run (runPhases), Params explain the watches' parameters.
	StartupDiagram template.HTML
	// StartupAt links the start-up phase of the page that lists it item
	// by item (startupElsewhere), "" on that page; ValuesAt, likewise,
	// the etcd values of that page when this one leaves them to it.
	StartupAt, ValuesAt string
	// Told says what the fake runtime was told the scenario's
	// containers do (record.FakeRuntime), a sentence each.
	Told   []string
	Phases []phaseView
	Params []paramView
	Keys   []keyRow
	// Objects and Events are the keys' values, revision by revision
	// (etcdViews); none for a recording made before kubewalk read them.
	Objects, Events []etcdView
	Unattributed    []obsView
	NotObserved     []string
	// Rules are what kube-proxy wrote, for a scenario with a Service
	// (recordedRules); nil otherwise.
	Rules *rulesView
}

// keyRow is a row of the etcd keys' table; ID anchors the key's values
// when the recording has them.
type keyRow struct {
	record.Key
	ID string
}

func (b *builder) recordedPage(scenario string) ([]byte, error) {
	r := b.recorded(scenario)
	p := RecordedPage(scenario)
	v := recordedView{Tag: r.Rec.Tag, Scenario: r.Rec.Scenario, GoVersion: r.Rec.GoVersion, Components: r.Rec.Components, NotObserved: r.Rec.NotObserved}
	v.StartupAt = b.startupElsewhere(p, scenario)
	v.Told = b.told(r.Rec.FakeRuntime)
	v.Rules = b.recordedRules(p, r.Rec.Rules)
	// Another scenario's page lists its keys and leaves their values,
	// revision by revision, to the deployment run's page, as it leaves
	// the start-up: the values are the largest part of a run page.
	brief := v.StartupAt != ""
	for i, k := range r.Rec.Keys {
		row := keyRow{Key: k}
		if len(k.Revisions) > 0 && !brief {
			row.ID = etcdID(i)
		}
		v.Keys = append(v.Keys, row)
	}
	if brief {
		if b.recorded(panelScenario).HasValues() {
			v.ValuesAt = b.link(p, RecordedPage(panelScenario), "etcd-values")
		}
	} else {
		v.Objects, v.Events = b.etcdViews(p, r)
	}
	if slices.Contains(record.ScenarioNames(), scenario) {
		v.Doc = b.t("scenario." + scenario)
	}
	for _, o := range b.in.Recordings {
		if o.Scenario != scenario {
			v.Others = append(v.Others, navView{Href: b.link(p, RecordedPage(o.Scenario), ""), Title: o.Scenario})
		}
	}
	for _, it := range r.Items {
		if !it.Explanation().Explained {
			v.Unattributed = append(v.Unattributed, b.obsView(p, it, true))
		}
	}
	var err error
	if v.Diagram, err = b.recordedDiagram(p, r.Items); err != nil {
		return nil, err
	}
	if v.StartupAt == "" {
		if v.StartupDiagram, err = b.recordedDiagram(p, r.Startup()); err != nil {
			return nil, err
		}
	}
	v.Phases = b.runPhases(p, r, v.StartupAt != "")
	if v.StartupAt != "" {
		for i := range v.Phases {
			if v.Phases[i].Name == "startup" {
				v.Phases[i].Items, v.Phases[i].Watches, v.Phases[i].At = nil, nil, v.StartupAt
			}
		}
	}
	v.Params = b.runParams(p, r)
	return b.exec("recorded", b.pageData(p, b.t("recorded.title")+": "+scenario, "recorded", v))
}

// recordedDiagram draws the writes among items as the audit log shows
// them (runlog.Arrows): each component's requests to the API server,
// repeated requests folded into one arrow (×N), each arrow linking to the
// step its first request is attributed to.
func (b *builder) recordedDiagram(p string, items []runlog.Item) (template.HTML, error) {
	participants, arrows := runlog.Arrows(items)
	if len(arrows) == 0 {
		return "", nil
	}
	var msgs []seqMsg
	for _, ar := range arrows {
		m := seqMsg{From: ar.From, To: runlog.APIServer, Label: ar.Label}
		if ar.N > 1 {
			m.Label += fmt.Sprintf(" ×%d", ar.N)
		}
		if ar.First.Doc != "" {
			m.Href = b.link(p, WalkthroughPage(ar.First.Doc), ar.First.Step)
		}
		msgs = append(msgs, m)
	}
	return sequenceSVG(participants, msgs)
}

// recordedEvents is the recording's scenario events as `kubectl get
// events` prints them at the end of the run, for the explain page's
// example.
func (b *builder) recordedEvents() string {
	r := b.recorded(panelScenario)
	if r == nil {
		return ""
	}
	return r.EventsTable()
}

// recordedHref links the first Recorded run page from p (the deployment
// scenario's when there is one), "" without a recording.
func (b *builder) recordedHref(p string) string {
	if len(b.in.Recordings) == 0 {
		return ""
	}
	first := b.in.Recordings[0].Scenario
	if b.recorded(panelScenario) != nil {
		first = panelScenario
	}
	return relURL(p, RecordedPage(first), "")
}

// startupElsewhere links, from p, the start-up phase of the panel
// scenario's page when scenario is another and the site has that page:
// every run starts the same control plane, so the other scenarios' pages
// count their start-up's items and leave them to that page, which keeps
// a site of every scenario small. "" otherwise.
func (b *builder) startupElsewhere(p, scenario string) string {
	if scenario == panelScenario || b.recorded(panelScenario) == nil {
		return ""
	}
	return b.link(p, RecordedPage(panelScenario), startupID)
}

// startupID is the id of the start-up phase on a Recorded run page: the
// first phase.
const startupID = "phase-1"

// phaseView is a phase of the run as the Recorded run page teaches it:
// what the components wrote, reported and watched in it, repeats folded.
type phaseView struct {
	// Name is the phase's (record.Phase.Name, or "startup", "actor",
	// "quiet" for a recording without coverage).
	Name      string
	ID, Title string
	// At, when set, links the page that lists this phase's items, which
	// this one only counts.
	At string
	// From and To are its bounds, "+61 ms".
	From, To string
	// Open: shown unfolded without a click (the scenario's phases; the
	// start-up and the quiet end are folded).
	Open bool
	// Items are its writes and events, Watches its watches, each folded
	// (runlog.Fold); the counts are before folding.
	Items, Watches           []obsView
	NWrites, NEvents, NWatch int
}

// runPhases views the run's phases (runlog.Phases), each's items and
// watches folded (runlog.Fold), each item's actor named, a run of items
// of one step linking it once, on its first item (each link is written in
// both languages, and a run page repeats a step for dozens of items).
//
// brief leaves out each item's user agent, as the page of a scenario other
// than the deployment run does: its components and their agents are that
// run's, and the user shows who made a request.
func (b *builder) runPhases(p string, r *recordedRun, brief bool) []phaseView {
	var out []phaseView
	for i, ph := range r.Phases() {
		pv := phaseView{
			Name: ph.Name, ID: "phase-" + strconv.Itoa(i+1), Title: b.phaseTitle(ph),
			Open: ph.Name != "startup" && ph.Name != "quiet",
			From: offset(ph.From), To: offset(ph.To),
			NWrites: ph.NWrites, NEvents: ph.NEvents, NWatch: len(ph.Watches),
		}
		for _, f := range runlog.Fold(ph.Items, runlog.Item.Actor) {
			v := b.phaseItem(p, f, brief)
			if f.SameStep {
				v.Step = nil
			}
			pv.Items = append(pv.Items, v)
		}
		for _, f := range runlog.Fold(ph.Watches, runlog.Item.Actor) {
			v := b.phaseItem(p, f, brief)
			v.Kind = "watch"
			// A component opens dozens of watches with one user agent,
			// which its writes show: a watch shows who opened it and
			// the code that did.
			v.Agent, v.AgentShort = "", ""
			v.Code = v.Code[:min(len(v.Code), 2)]
			pv.Watches = append(pv.Watches, v)
		}
		out = append(out, pv)
	}
	return out
}

// phaseItem is an item of a phase as the run page lists it: by its actor,
// its step linked, a long user agent cut short, repeats counted.
func (b *builder) phaseItem(p string, f runlog.Folded, brief bool) obsView {
	v := b.foldedView(p, f, true)
	v.Who = f.Actor()
	v.AgentShort = runlog.ShortAgent(v.Agent)
	if brief {
		v.Agent, v.AgentShort = "", ""
	}
	if f.More > 0 {
		v.Times = f.More + 1
	}
	return v
}

// phaseTitle words a phase for readers: "startup", "<step>/<boundary>"
// (record.Phase) or a derived phase.
func (b *builder) phaseTitle(ph runlog.Phase) string {
	if ph.Name == "actor" {
		return fmt.Sprintf(b.t("phase.actor"), ph.Actor)
	}
	step, boundary, ok := strings.Cut(ph.Name, "/")
	switch {
	case !ok && (ph.Name == "startup" || ph.Name == "quiet"):
		return b.t("phase." + ph.Name)
	case ok && slices.Contains(phaseBoundaries, boundary):
		return fmt.Sprintf(b.t("phase."+boundary), step)
	}
	return ph.Name
}

// phaseBoundaries are the ends of a scenario step's phases that
// record.Phase names, each worded by phase.<boundary>.
var phaseBoundaries = []string{"kubectl", "replicaset", "job", "pods", "bound", "started", "running", "completed", "backoff", "pull-backoff", "replicasets-gone", "pods-gone", "unschedulable", "rules"}

// paramView is a watch parameter the run's watches use, explained, with
// the client-go code that sets it where explain names it (Symbol, Href).
type paramView struct{ Name, Text, Symbol, Href string }

// runParams are the watch parameters r's watches use (runlog.Params),
// each explained (recorded.param.<name>) and linked to the code explain
// says sets it in the first watch that carries it.
func (b *builder) runParams(p string, r *recordedRun) []paramView {
	var out []paramView
	for _, wp := range r.Params() {
		pv := paramView{Name: wp.Name, Text: b.t("recorded.param." + wp.Name)}
		if wp.SetBy != "" {
			if i, ok := slices.BinarySearchFunc(b.in.Symbols, wp.SetBy, func(s fact.Symbol, name string) int { return strings.Compare(s.Name, name) }); ok {
				s := b.in.Symbols[i]
				pv.Symbol, pv.Href = b.shortName(s.Name, s.Decl), b.srcLink(p, s.Decl.Path, s.Decl.StartLine, s.Decl.EndLine)
			}
		}
		out = append(out, pv)
	}
	return out
}

// etcdView is a key of the run as the etcd section shows it: its
// revisions, each beside the write that made it and with what changed
// since the one before, and its newest value in full.
type etcdView struct {
	ID, Key, Kind string
	Deleted       bool
	Revs          []revView
	// Value is the newest value stored (the last before the delete, for
	// a deleted key), at revision ValueRev.
	Value    string
	ValueRev int64
	// Compacted: etcd had compacted the key's first revisions away.
	Compacted bool
}

// revView is a revision of a key.
type revView struct {
	Revision, Version int64
	Deleted           bool
	Size              int
	Error             string
	// Write is the audited write that made it, nil when none was found;
	// ByOrder when it was found by its place among the object's writes.
	Write   *obsView
	ByOrder bool
	// Diff is the change from the revision before, nil for the first;
	// Same when only managedFields changed.
	Diff []diffLine
	Same bool
}

// diffLine is a line of a revision's change (linediff.Unified).
type diffLine = linediff.Line

// diffContext is how many unchanged lines a change shows around each
// changed line, as diff -u does.
const diffContext = 2

// etcdViews are the recording's keys with revisions (runlog.Keys), each
// revision beside the write that made it and with its change since the
// one before.
func (b *builder) etcdViews(p string, r *recordedRun) (objects, events []etcdView) {
	view := func(k runlog.Key) etcdView {
		v := etcdView{ID: etcdID(k.Index), Key: k.Key.Key, Kind: k.Kind, Deleted: k.Deleted, Compacted: k.Compacted, Value: k.Value, ValueRev: k.ValueRev}
		var prev []string
		for j, rev := range k.Revs {
			rv := revView{Revision: rev.Revision.Revision, Version: rev.Version, Deleted: rev.Deleted, Size: rev.Size, Error: rev.Error, ByOrder: rev.ByOrder}
			if a := rev.Write; a != nil {
				ov := b.obsView(p, runlog.Item{At: a.At, Audit: a}, false)
				ov.Who = runlog.Actor(a.AuditEntry)
				// The timeline has the write's every call site and step;
				// here the first call site names the code.
				ov.Code = ov.Code[:min(len(ov.Code), 1)]
				ov.Step = nil
				rv.Write = &ov
			}
			if rev.YAML != "" {
				cur := strings.SplitAfter(strings.TrimSuffix(rev.Value, "\n"), "\n")
				if j > 0 && prev != nil {
					rv.Diff = linediff.Unified(prev, cur, diffContext)
					rv.Same = len(rv.Diff) == 1 && rv.Diff[0].Op == "…"
				}
				prev = cur
			}
			v.Revs = append(v.Revs, rv)
		}
		return v
	}
	objs, evs := r.Keys()
	for _, k := range objs {
		objects = append(objects, view(k))
	}
	for _, k := range evs {
		events = append(events, view(k))
	}
	return objects, events
}

// told words what the fake runtime was told, a sentence per rule.
func (b *builder) told(f *record.FakeRuntime) []string {
	if f == nil {
		return nil
	}
	var out []string
	for _, e := range f.Exits {
		out = append(out, fmt.Sprintf(b.t("recorded.told.exit"), e.Image, e.Code, e.AfterMillis))
	}
	for _, img := range f.PullFails {
		out = append(out, fmt.Sprintf(b.t("recorded.told.pullfails"), img))
	}
	return out
}

// etcdID is the anchor of the recording's i-th key's section.
func etcdID(i int) string { return "etcd-" + strconv.Itoa(i+1) }
