package site

import (
	"cmp"
	"fmt"
	"html/template"
	"slices"
	"strings"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/internal/derive/explain"
	"github.com/kubewalk/kubewalk/record"
)

// A recorded run (package record) puts the cluster's own words beside the
// code: each walkthrough step gets an Observed panel with the audit entries
// and events attributed to it, and the Recorded run page shows the whole
// run — its timeline, a sequence diagram drawn from the audit log, the
// watches the components opened, the etcd keys, and what could not be
// attributed. Attribution is explain.Attribute over the site's own facts
// and walkthroughs, the function `kubewalk record` prints with. Without a
// recording (Input.Recordings empty) none of this is rendered.

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

// attributed explains every item of rec and files the scenario's items
// by the step each is attributed to first.
func attributed(x *explain.Explainer, rec *record.Recording) *recordedRun {
	r := &recordedRun{rec: rec, at: x.Attribute(rec), byStep: map[string][]obsItem{}}
	for i := range r.at.Audit {
		a := &r.at.Audit[i]
		if a.Scenario {
			r.items = append(r.items, obsItem{At: a.At, Audit: a})
		}
	}
	for i := range r.at.Events {
		e := &r.at.Events[i]
		if e.Scenario {
			r.items = append(r.items, obsItem{At: e.At, Event: e})
		}
	}
	slices.SortStableFunc(r.items, func(a, b obsItem) int { return cmp.Compare(a.At, b.At) })
	for i := range r.items {
		it := &r.items[i]
		if s := it.explanation().Steps; len(s) > 0 {
			it.Doc, it.Step = s[0].Walkthrough, s[0].Step
			r.byStep[it.Doc+"#"+it.Step] = append(r.byStep[it.Doc+"#"+it.Step], *it)
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
	// Step links the step the item belongs to (on the run page only).
	Step *navView
}

type obsCode struct {
	Role, Symbol, Where, Href, GitHub string
}

func offset(ms int64) string { return fmt.Sprintf("%+d ms", ms) }

// view renders an item for the page at p; withStep adds the link to its
// step.
func (b *builder) obsView(p string, it obsItem, withStep bool) obsView {
	v := obsView{At: offset(it.At)}
	ex := it.explanation()
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
			v.Step = &navView{Href: relURL(p, WalkthroughPage(s.Walkthrough), s.Step), Title: s.Title + " › " + s.StepTitle}
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
	var out []obsView
	at := map[string]int{}
	for _, it := range r.byStep[doc+"#"+step] {
		v := b.obsView(p, it, false)
		// The panel is read beside the step's code: the user names the
		// component, and the first call site is the one the step shows;
		// the run page has the user agent and every call site.
		v.Agent = ""
		v.Code = v.Code[:min(len(v.Code), 1)]
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
	Doc          string
	Others       []navView
	Components   []record.Component
	Diagram      template.HTML
	Items        []obsView
	Watches      []watchView
	Keys         []record.Key
	Unattributed []obsView
	NotObserved  []string
	// Background counts the audited writes and events outside the
	// scenario (the cluster starting and running by itself).
	Background int
}

type watchView struct{ At, Who, Resource, URI string }

func (b *builder) recordedPage(scenario string) ([]byte, error) {
	r := b.recorded(scenario)
	p := RecordedPage(scenario)
	v := recordedView{Tag: r.rec.Tag, Scenario: r.rec.Scenario, GoVersion: r.rec.GoVersion, Components: r.rec.Components, Keys: r.rec.Keys, NotObserved: r.rec.NotObserved}
	for _, s := range record.Scenarios {
		if s.Name == scenario {
			v.Doc = s.Doc
		}
	}
	for _, o := range b.in.Recordings {
		if o.Scenario != scenario {
			v.Others = append(v.Others, navView{Href: relURL(p, RecordedPage(o.Scenario), ""), Title: o.Scenario})
		}
	}
	for _, it := range r.items {
		ov := b.obsView(p, it, true)
		v.Items = append(v.Items, ov)
		if !it.explanation().Explained {
			v.Unattributed = append(v.Unattributed, ov)
		}
	}
	for i := range r.at.Audit {
		a := &r.at.Audit[i]
		switch {
		case a.Verb == "watch" && a.User != "system:apiserver":
			res := a.Resource
			if a.Group != "" {
				res += "." + a.Group
			}
			v.Watches = append(v.Watches, watchView{At: offset(a.At), Who: actor(a.AuditEntry), Resource: res, URI: a.RequestURI})
		case !a.Scenario:
			v.Background++
		}
	}
	for _, e := range r.at.Events {
		if !e.Scenario {
			v.Background++
		}
	}
	var err error
	if v.Diagram, err = b.recordedDiagram(p, r); err != nil {
		return nil, err
	}
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
func (b *builder) recordedDiagram(p string, r *recordedRun) (template.HTML, error) {
	const api = "kube-apiserver"
	participants := []string{}
	type arrow struct {
		from, label, href string
		n                 int
	}
	var arrows []*arrow
	byKey := map[string]*arrow{}
	for _, it := range r.items {
		a := it.Audit
		if a == nil || a.Resource == "events" {
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
			ar.href = relURL(p, WalkthroughPage(it.Doc), it.Step)
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
