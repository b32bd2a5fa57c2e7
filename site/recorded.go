package site

import (
	"cmp"
	"fmt"
	"html/template"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/internal/derive/explain"
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
// function `kubewalk record` prints with. Without a recording
// (Input.Recordings empty) none of this is rendered.

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

// recordedRun is the attributed recording, computed once per build.
type recordedRun struct {
	rec *record.Recording
	at  *explain.Attribution
	// items are the scenario's items in time order.
	items []obsItem
	// byStep lists the items by the step they are attributed to first,
	// keyed "doc#step".
	byStep map[string][]obsItem
}

// obsItem is one recorded audit entry or event, as the pages show it.
type obsItem struct {
	At    int64
	Audit *explain.AttributedAudit
	Event *explain.AttributedEvent
	// Doc and Step are the walkthrough step it is attributed to first.
	Doc, Step string
}

// recorded returns the attributed recording of a scenario, nil when the
// release has none.
func (b *builder) recorded(scenario string) *recordedRun {
	b.recOnce.Do(func() {
		x := b.explainer()
		for _, rec := range b.in.Recordings {
			b.recs = append(b.recs, attributed(x, rec))
		}
	})
	for _, r := range b.recs {
		if r.rec.Scenario == scenario {
			return r
		}
	}
	return nil
}

// attributed explains every item of rec, keeps the scenario's in items
// and files every item — the control plane's start-up and what it does by
// itself too, which the steps about them explain — by the step each is
// attributed to first.
func attributed(x *explain.Explainer, rec *record.Recording) *recordedRun {
	r := &recordedRun{rec: rec, at: x.Attribute(rec), byStep: map[string][]obsItem{}}
	var all []obsItem
	for i := range r.at.Audit {
		a := &r.at.Audit[i]
		all = append(all, obsItem{At: a.At, Audit: a})
	}
	for i := range r.at.Events {
		e := &r.at.Events[i]
		all = append(all, obsItem{At: e.At, Event: e})
	}
	slices.SortStableFunc(all, func(a, b obsItem) int { return cmp.Compare(a.At, b.At) })
	for i := range all {
		it := &all[i]
		if s := it.explanation().Steps; len(s) > 0 {
			it.Doc, it.Step = s[0].Walkthrough, s[0].Step
			r.byStep[it.Doc+"#"+it.Step] = append(r.byStep[it.Doc+"#"+it.Step], *it)
		}
		if it.scenario() {
			r.items = append(r.items, *it)
		}
	}
	return r
}

func (it obsItem) explanation() explain.Explanation {
	if it.Audit != nil {
		return it.Audit.Explanation
	}
	return it.Event.Explanation
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
	// AgentShort is a long user agent cut short (shortAgent), the whole
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
func (b *builder) obsView(p string, it obsItem, withStep bool) obsView {
	ex := it.explanation()
	v := obsView{At: offset(it.At), Note: ex.Note}
	if a := it.Audit; a != nil {
		v.Kind = "audit"
		res := a.Resource
		if a.Subresource != "" {
			res += "/" + a.Subresource
		}
		v.Head = a.Verb + " " + res
		v.Object = a.Name
		v.URI, v.Who, v.Agent = a.RequestURI, a.User, a.UserAgent
	} else {
		e := it.Event
		v.Kind = "event"
		v.Head = e.Type + " " + e.Reason
		v.Warning = e.Type == "Warning"
		v.Object = strings.ToLower(e.Object.Kind) + "/" + e.Object.Name
		v.Who, v.Message = e.Component, e.Message
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
	for _, it := range r.byStep[doc+"#"+step] {
		v := b.obsView(p, it, false)
		// The panel is read beside the step's code: the user names the
		// component, and the first call site is the one the step shows;
		// the run page has the user agent and every call site.
		v.Agent = ""
		v.Code = v.Code[:min(len(v.Code), 1)]
		vs = append(vs, v)
	}
	return fold(vs)
}

// fold folds each item into the first before it of the same kind, head
// and component made by the same code (a status update repeated, one
// event per Pod): that one counts it in More and ends at its time.
func fold(vs []obsView) []obsView {
	var out []obsView
	at := map[string]int{}
	for _, v := range vs {
		key := v.Kind + "\x00" + v.Head + "\x00" + v.Who
		if len(v.Code) > 0 {
			key += "\x00" + v.Code[0].Where
		}
		if i, ok := at[key]; ok {
			out[i].More++
			out[i].Last = v.At
			continue
		}
		at[key] = len(out)
		out = append(out, v)
	}
	return out
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
	v := recordedView{Tag: r.rec.Tag, Scenario: r.rec.Scenario, GoVersion: r.rec.GoVersion, Components: r.rec.Components, NotObserved: r.rec.NotObserved}
	v.StartupAt = b.startupElsewhere(p, scenario)
	v.Told = b.told(r.rec.FakeRuntime)
	v.Rules = b.recordedRules(p, r.rec.Rules)
	// Another scenario's page lists its keys and leaves their values,
	// revision by revision, to the deployment run's page, as it leaves
	// the start-up: the values are the largest part of a run page.
	brief := v.StartupAt != ""
	for i, k := range r.rec.Keys {
		row := keyRow{Key: k}
		if len(k.Revisions) > 0 && !brief {
			row.ID = etcdID(i)
		}
		v.Keys = append(v.Keys, row)
	}
	if brief {
		if b.recorded(panelScenario).hasValues() {
			v.ValuesAt = b.link(p, RecordedPage(panelScenario), "etcd-values")
		}
	} else {
		v.Objects, v.Events = b.etcdViews(p, r)
	}
	for _, s := range record.Scenarios {
		if s.Name == scenario {
			v.Doc = s.Doc
		}
	}
	for _, o := range b.in.Recordings {
		if o.Scenario != scenario {
			v.Others = append(v.Others, navView{Href: b.link(p, RecordedPage(o.Scenario), ""), Title: o.Scenario})
		}
	}
	for _, it := range r.items {
		if !it.explanation().Explained {
			v.Unattributed = append(v.Unattributed, b.obsView(p, it, true))
		}
	}
	var err error
	if v.Diagram, err = b.recordedDiagram(p, r.items); err != nil {
		return nil, err
	}
	// The start-up's writes: the cluster's own, before kubectl's first.
	var startup []obsItem
	for i := range r.at.Audit {
		if a := &r.at.Audit[i]; a.At < 0 && !a.Scenario {
			startup = append(startup, obsItem{At: a.At, Audit: a})
		}
	}
	if v.StartupAt == "" {
		if v.StartupDiagram, err = b.recordedDiagram(p, startup); err != nil {
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

// actor names who made a request, as the walkthroughs' diagrams name the
// components: a controller by its service account, the scheduler, the
// kubelet, kubectl.
func actor(a record.AuditEntry) string {
	switch {
	case strings.HasPrefix(a.UserAgent, "kubectl/"):
		return "kubectl"
	case strings.HasPrefix(a.User, "system:serviceaccount:kube-system:"):
		return strings.ReplaceAll(strings.TrimPrefix(a.User, "system:serviceaccount:kube-system:"), "-", " ")
	case a.User == "system:kube-scheduler":
		return "kube-scheduler"
	case strings.HasPrefix(a.User, "system:node:"):
		return "kubelet"
	case a.User == "system:kube-controller-manager":
		return "kube-controller-manager"
	}
	return a.User
}

// recordedDiagram draws the scenario's writes as the audit log shows them:
// each component's requests to the API server, repeated requests folded
// into one arrow (×N), each arrow linking to the step its first request is
// attributed to.
func (b *builder) recordedDiagram(p string, items []obsItem) (template.HTML, error) {
	const api = "kube-apiserver"
	participants := []string{}
	type arrow struct {
		from, label, href string
		n                 int
	}
	var arrows []*arrow
	byKey := map[string]*arrow{}
	for _, it := range items {
		a := it.Audit
		if a == nil || a.Resource == "events" || !a.IsWrite() {
			continue
		}
		from := actor(a.AuditEntry)
		res := a.Resource
		if a.Subresource != "" {
			res += "/" + a.Subresource
		}
		key := from + " " + a.Verb + " " + res
		if ar, ok := byKey[key]; ok {
			ar.n++
			continue
		}
		if !slices.Contains(participants, from) {
			participants = append(participants, from)
		}
		ar := &arrow{from: from, label: a.Verb + " " + res, n: 1}
		if it.Doc != "" {
			ar.href = b.link(p, WalkthroughPage(it.Doc), it.Step)
		}
		byKey[key] = ar
		arrows = append(arrows, ar)
	}
	if len(arrows) == 0 {
		return "", nil
	}
	// The API server stands second, after the client that starts it all.
	participants = slices.Insert(participants, min(1, len(participants)), api)
	var msgs []seqMsg
	for _, ar := range arrows {
		label := ar.label
		if ar.n > 1 {
			label += fmt.Sprintf(" ×%d", ar.n)
		}
		msgs = append(msgs, seqMsg{From: ar.from, To: api, Label: label, Href: ar.href})
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
	var end int64
	for _, e := range r.at.Events {
		end = max(end, e.Last)
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "%-11s %-8s %-19s %-45s %s\n", "LAST SEEN", "TYPE", "REASON", "OBJECT", "MESSAGE")
	for _, e := range r.at.Events {
		if !e.Scenario {
			continue
		}
		age := fmt.Sprintf("%ds", (end-e.Last)/1000)
		obj := strings.ToLower(e.Object.Kind) + "/" + e.Object.Name
		fmt.Fprintf(&sb, "%-11s %-8s %-19s %-45s %s\n", age, e.Type, e.Reason, obj, e.Message)
	}
	return sb.String()
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
	// (fold); the counts are before folding.
	Items, Watches           []obsView
	NWrites, NEvents, NWatch int
}

// runPhase is a phase's name and bounds while items are filed.
type runPhase struct {
	name       string
	start, end int64
	// actor, for a phase derived without coverage: the component whose
	// requests and events it holds.
	actor string
}

// runPhases files every audited write, watch and event of r into the
// run's phases: the recording's Coverage phases when it has them (by
// time), else derived from the audit log and events: the start-up
// (before kubectl's first write), kubectl's requests, then one phase per
// component of the scenario in the order it first acted (the hops of the
// chain), and last what the cluster did by itself meanwhile.
//
// brief leaves out each item's user agent, as the page of a scenario other
// than the deployment run does: its components and their agents are that
// run's, and the user shows who made a request.
//
// It is long because it is the three steps of a run page's middle, in
// order, over the same lists: the items merged by time, the phases (the
// recording's or derived from the items), then each phase's items viewed
// and folded.
func (b *builder) runPhases(p string, r *recordedRun, brief bool) []phaseView {
	var all []obsItem
	for i := range r.at.Audit {
		a := &r.at.Audit[i]
		if a.IsWrite() || a.Verb == "watch" {
			all = append(all, obsItem{At: a.At, Audit: a})
		}
	}
	for i := range r.at.Events {
		all = append(all, obsItem{At: r.at.Events[i].At, Event: &r.at.Events[i]})
	}
	slices.SortStableFunc(all, func(x, y obsItem) int { return cmp.Compare(x.At, y.At) })
	// The step each scenario item is attributed to first (attributed).
	for i := range all {
		if s := all[i].explanation().Steps; len(s) > 0 && all[i].scenario() {
			all[i].Doc, all[i].Step = s[0].Walkthrough, s[0].Step
		}
	}
	var phases []runPhase
	var of func(it obsItem) int
	if c := r.rec.Coverage; c != nil && len(c.Phases) > 0 {
		for _, ph := range c.Phases {
			phases = append(phases, runPhase{name: ph.Name, start: ph.Start, end: ph.End})
		}
		of = func(it obsItem) int {
			for i, ph := range phases {
				if it.At < ph.end || i == len(phases)-1 {
					return i
				}
			}
			return 0
		}
	} else {
		phases = []runPhase{{name: "startup"}}
		at := map[string]int{}
		for _, it := range all {
			if !it.scenario() {
				continue
			}
			who := it.actor()
			if _, ok := at[who]; !ok {
				at[who] = len(phases)
				phases = append(phases, runPhase{name: "actor", actor: who})
			}
		}
		quiet := len(phases)
		phases = append(phases, runPhase{name: "quiet"})
		of = func(it obsItem) int {
			switch {
			case it.scenario():
				return at[it.actor()]
			case it.At < 0:
				return 0
			}
			return quiet
		}
	}
	views := make([]phaseView, len(phases))
	items := make([][]obsView, len(phases))
	watches := make([][]obsView, len(phases))
	first := make([]bool, len(phases))
	for _, it := range all {
		i := of(it)
		pv := &views[i]
		if !first[i] {
			first[i] = true
			pv.From = offset(it.At)
		}
		pv.To = offset(it.At)
		v := b.obsView(p, it, true)
		v.Who = it.actor()
		v.AgentShort = shortAgent(v.Agent)
		if brief {
			v.Agent, v.AgentShort = "", ""
		}
		switch {
		case it.Audit != nil && it.Audit.Verb == "watch":
			pv.NWatch++
			v.Kind = "watch"
			// A component opens dozens of watches with one user agent,
			// which its writes show: a watch shows who opened it and
			// the code that did.
			v.Agent, v.AgentShort = "", ""
			v.Code = v.Code[:min(len(v.Code), 2)]
			watches[i] = append(watches[i], v)
		case it.Audit != nil:
			pv.NWrites++
			items[i] = append(items[i], v)
		default:
			pv.NEvents++
			items[i] = append(items[i], v)
		}
	}
	var out []phaseView
	for i, ph := range phases {
		pv := views[i]
		if pv.NWrites+pv.NEvents+pv.NWatch == 0 {
			continue
		}
		pv.Name = ph.name
		pv.ID = "phase-" + strconv.Itoa(len(out)+1)
		pv.Title = b.phaseTitle(ph)
		pv.Open = ph.name != "startup" && ph.name != "quiet"
		if c := r.rec.Coverage; c != nil && len(c.Phases) > 0 {
			pv.From, pv.To = offset(ph.start), offset(ph.end)
		}
		pv.Items, pv.Watches = sameStep(fold(items[i])), fold(watches[i])
		for _, vs := range [][]obsView{pv.Items, pv.Watches} {
			for k := range vs {
				if vs[k].More > 0 {
					vs[k].Times = vs[k].More + 1
				}
			}
		}
		out = append(out, pv)
	}
	return out
}

// sameStep drops the step link of an item whose step is the one before
// it links: in a phase, a run of items of one step links it once, on its
// first item (each link is written in both languages, and a run page
// repeats a step for dozens of items).
func sameStep(vs []obsView) []obsView {
	var prev string
	for k := range vs {
		if vs[k].Step == nil {
			prev = ""
			continue
		}
		if vs[k].Step.Href == prev {
			vs[k].Step = nil
			continue
		}
		prev = vs[k].Step.Href
	}
	return vs
}

// scenario reports whether the item is one the scenario caused.
func (it obsItem) scenario() bool {
	if it.Audit != nil {
		return it.Audit.Scenario
	}
	return it.Event.Scenario
}

// actor names who made the request or reported the event, events'
// reporting components named as their requests' actors are
// ("deployment-controller" as "deployment controller", the
// default-scheduler as kube-scheduler), so a hop holds both.
func (it obsItem) actor() string {
	if it.Audit != nil {
		return actor(it.Audit.AuditEntry)
	}
	switch c := it.Event.Component; {
	case c == "default-scheduler":
		return "kube-scheduler"
	case strings.HasSuffix(c, "-controller"):
		return strings.ReplaceAll(c, "-", " ")
	default:
		return c
	}
}

// phaseTitle words a phase for readers: "startup", "<step>/<boundary>"
// (record.Phase) or a derived phase.
func (b *builder) phaseTitle(ph runPhase) string {
	if ph.name == "actor" {
		return fmt.Sprintf(b.t("phase.actor"), ph.actor)
	}
	step, boundary, ok := strings.Cut(ph.name, "/")
	switch {
	case !ok && (ph.name == "startup" || ph.name == "quiet"):
		return b.t("phase." + ph.name)
	case ok && slices.Contains(phaseBoundaries, boundary):
		return fmt.Sprintf(b.t("phase."+boundary), step)
	}
	return ph.name
}

// phaseBoundaries are the ends of a scenario step's phases that
// record.Phase names, each worded by phase.<boundary>.
var phaseBoundaries = []string{"kubectl", "replicaset", "job", "pods", "bound", "started", "running", "completed", "backoff", "pull-backoff", "replicasets-gone", "pods-gone", "unschedulable", "rules"}

// shortAgent is a long user agent cut after its program and version
// ("kube-controller-manager/v1.37.2"), "" when it is short enough to
// show whole.
func shortAgent(ua string) string {
	const most = 40
	if len(ua) <= most {
		return ""
	}
	short, _, _ := strings.Cut(ua, " ")
	if prog, rest, ok := strings.Cut(short, "/"); ok {
		version, _, _ := strings.Cut(rest, "/")
		short = prog + "/" + version
	}
	if len(short) > most {
		short = short[:most]
	}
	return short + " …"
}

// watchParams are the watch parameters a reader of the audit log meets,
// each explained once on the Recorded run page (recorded.param.<name>).
var watchParams = []string{"allowWatchBookmarks", "sendInitialEvents", "resourceVersionMatch", "resourceVersion", "timeoutSeconds", "timeout", "labelSelector", "fieldSelector"}

// paramView is a watch parameter the run's watches use, explained, with
// the client-go code that sets it where explain names it (Symbol, Href).
type paramView struct{ Name, Text, Symbol, Href string }

// runParams are the watch parameters r's watches use, in watchParams
// order, each linked to the code explain says sets it in the first watch
// that carries it.
func (b *builder) runParams(p string, r *recordedRun) []paramView {
	used := map[string]bool{}
	setBy := map[string]string{}
	for _, a := range r.at.Audit {
		if a.Verb != "watch" {
			continue
		}
		if u, err := url.Parse(a.RequestURI); err == nil {
			for k := range u.Query() {
				used[k] = true
			}
		}
		if w := a.Explanation.Watch; w != nil {
			for _, wp := range w.Params {
				if setBy[wp.Name] == "" {
					setBy[wp.Name] = wp.Symbol
				}
			}
		}
	}
	var out []paramView
	for _, k := range watchParams {
		if !used[k] {
			continue
		}
		pv := paramView{Name: k, Text: b.t("recorded.param." + k)}
		if sym := setBy[k]; sym != "" {
			for _, s := range b.in.Symbols {
				if s.Name == sym {
					pv.Symbol, pv.Href = b.shortName(s.Name, s.Decl), b.srcLink(p, s.Decl.Path, s.Decl.StartLine, s.Decl.EndLine)
					break
				}
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

// etcdViews are the recording's keys with revisions: the objects first,
// then the Event objects, each in key order.
func (b *builder) etcdViews(p string, r *recordedRun) (objects, events []etcdView) {
	for i, k := range r.rec.Keys {
		if len(k.Revisions) == 0 {
			continue
		}
		v := etcdView{ID: etcdID(i), Key: k.Key, Kind: k.Kind, Deleted: k.Deleted, Compacted: k.Revisions[0].Version > 1}
		writes := r.rec.RevisionWrites(k)
		var prev []string
		for j, rev := range k.Revisions {
			rv := revView{Revision: rev.Revision, Version: rev.Version, Deleted: rev.Deleted, Size: rev.Size, Error: rev.Error, ByOrder: writes[j].ByOrder}
			if w := writes[j].Audit; w >= 0 {
				a := &r.at.Audit[w]
				ov := b.obsView(p, obsItem{At: a.At, Audit: a}, false)
				ov.Who = actor(a.AuditEntry)
				// The timeline has the write's every call site and step;
				// here the first call site names the code.
				ov.Code = ov.Code[:min(len(ov.Code), 1)]
				ov.Step = nil
				rv.Write = &ov
			}
			if rev.YAML != "" {
				value := withoutManagedFields(rev.YAML)
				cur := strings.SplitAfter(strings.TrimSuffix(value, "\n"), "\n")
				if j > 0 && prev != nil {
					rv.Diff = linediff.Unified(prev, cur, diffContext)
					rv.Same = len(rv.Diff) == 1 && rv.Diff[0].Op == "…"
				}
				prev = cur
				v.Value, v.ValueRev = value, rev.Revision
			}
			v.Revs = append(v.Revs, rv)
		}
		if strings.HasPrefix(k.Key, "/registry/events/") {
			events = append(events, v)
		} else {
			objects = append(objects, v)
		}
	}
	return objects, events
}

// withoutManagedFields is an object's YAML without metadata.managedFields,
// as kubectl get -o yaml prints objects: which manager set which fields,
// rewritten by every write, would be most of each change.
func withoutManagedFields(y string) string {
	lines := strings.SplitAfter(y, "\n")
	var sb strings.Builder
	in := false
	for _, l := range lines {
		switch {
		case l == "  managedFields:\n":
			in = true
			continue
		case in && (strings.HasPrefix(l, "  - ") || strings.HasPrefix(l, "    ")):
			continue
		}
		in = false
		sb.WriteString(l)
	}
	return sb.String()
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

// hasValues reports whether r's recording holds etcd values.
func (r *recordedRun) hasValues() bool {
	if r == nil {
		return false
	}
	for _, k := range r.rec.Keys {
		if len(k.Revisions) > 0 {
			return true
		}
	}
	return false
}

// etcdID is the anchor of the recording's i-th key's section.
func etcdID(i int) string { return "etcd-" + strconv.Itoa(i+1) }
