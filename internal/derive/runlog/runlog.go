// Package runlog derives what a recorded run's pages show from a
// record.Recording and its attribution (explain.Attribute): the audited
// requests and events merged in time order and filed by the walkthrough
// step each is attributed to first; the run's phases and what happened in
// each (Phases); repeats folded into one item (Fold); who acted, named as
// the walkthroughs' diagrams name the components (Actor); the writes of a
// sequence diagram (Arrows); the watch parameters the run's watches use
// (Params); the etcd keys' revisions beside the writes that made them
// (Keys); the events as kubectl prints them (EventsTable); and the names
// of the ruleset kube-proxy wrote with the proxier constants that make
// them (RuleNames).
//
// It is kept apart from the site so that what a run page says can be
// derived, and tested, without a builder: it returns plain data — items,
// offsets in milliseconds, names — and the site turns it into views,
// links and words in the page's language.
//
//	run := runlog.New(rec, explainer.Attribute(rec))
//	for _, ph := range run.Phases() {
//		for _, f := range runlog.Fold(ph.Items, runlog.Item.Actor) {
//			// f.Head(), f.Actor(), f.More, f.Last …
//		}
//	}
package runlog

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/kubewalk/kubewalk/internal/derive/explain"
	"github.com/kubewalk/kubewalk/record"
)

// Run is a recording, its attribution, and its items filed.
type Run struct {
	Rec *record.Recording
	At  *explain.Attribution
	// Items are the scenario's audit entries and events in time order.
	Items []Item
	// ByStep lists every item — the control plane's start-up and what
	// it does by itself too, which the steps about them explain — by the
	// step it is attributed to first, keyed "doc#step".
	ByStep map[string][]Item
}

// Item is one recorded audit entry or event.
type Item struct {
	At    int64
	Audit *explain.AttributedAudit
	Event *explain.AttributedEvent
	// Doc and Step are the walkthrough step it is attributed to first,
	// "" when none.
	Doc, Step string
}

// New files the items of rec, whose attribution is at.
func New(rec *record.Recording, at *explain.Attribution) *Run {
	r := &Run{Rec: rec, At: at, ByStep: map[string][]Item{}}
	for _, it := range merged(at, func(*explain.AttributedAudit) bool { return true }) {
		if s := it.Explanation().Steps; len(s) > 0 {
			it.Doc, it.Step = s[0].Walkthrough, s[0].Step
			r.ByStep[it.Doc+"#"+it.Step] = append(r.ByStep[it.Doc+"#"+it.Step], it)
		}
		if it.Scenario() {
			r.Items = append(r.Items, it)
		}
	}
	return r
}

// merged is the audit entries of at that keep takes and every event, in
// time order (the audit entries first at the same time), without steps.
func merged(at *explain.Attribution, keep func(*explain.AttributedAudit) bool) []Item {
	var all []Item
	for i := range at.Audit {
		if a := &at.Audit[i]; keep(a) {
			all = append(all, Item{At: a.At, Audit: a})
		}
	}
	for i := range at.Events {
		all = append(all, Item{At: at.Events[i].At, Event: &at.Events[i]})
	}
	slices.SortStableFunc(all, func(x, y Item) int { return cmp.Compare(x.At, y.At) })
	return all
}

// Explanation is what explain found for the item.
func (it Item) Explanation() explain.Explanation {
	if it.Audit != nil {
		return it.Audit.Explanation
	}
	return it.Event.Explanation
}

// Scenario reports whether the item is one the scenario caused.
func (it Item) Scenario() bool {
	if it.Audit != nil {
		return it.Audit.Scenario
	}
	return it.Event.Scenario
}

// IsWatch reports whether the item is an audited watch.
func (it Item) IsWatch() bool { return it.Audit != nil && it.Audit.Verb == "watch" }

// Head is the item in a few words: an audit entry's verb and resource
// ("update replicasets/status"), an event's type and reason ("Normal
// ScalingReplicaSet").
func (it Item) Head() string {
	if a := it.Audit; a != nil {
		return a.Verb + " " + resource(a.AuditEntry)
	}
	return it.Event.Type + " " + it.Event.Reason
}

// resource is an audit entry's resource, with its subresource.
func resource(a record.AuditEntry) string {
	if a.Subresource != "" {
		return a.Resource + "/" + a.Subresource
	}
	return a.Resource
}

// Object names what the item is about: an audit entry's object's name,
// an event's object as kind/name ("deployment/nginx-deployment").
func (it Item) Object() string {
	if it.Audit != nil {
		return it.Audit.Name
	}
	return eventObject(it.Event.Event)
}

func eventObject(e record.Event) string {
	return strings.ToLower(e.Object.Kind) + "/" + e.Object.Name
}

// Who is who made the request (its user) or reported the event (its
// reporting component), as the cluster names them.
func (it Item) Who() string {
	if it.Audit != nil {
		return it.Audit.User
	}
	return it.Event.Component
}

// Actor names who made the request or reported the event, events'
// reporting components named as their requests' actors are
// ("deployment-controller" as "deployment controller", the
// default-scheduler as kube-scheduler), so a phase of one actor holds
// both.
func (it Item) Actor() string {
	if it.Audit != nil {
		return Actor(it.Audit.AuditEntry)
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

// Actor names who made a request, as the walkthroughs' diagrams name the
// components: a controller by its service account, the scheduler, the
// kubelet, kubectl.
func Actor(a record.AuditEntry) string {
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

// ShortAgent is a long user agent cut after its program and version
// ("kube-controller-manager/v1.37.2 …"), "" when it is short enough to
// show whole.
func ShortAgent(ua string) string {
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

// Folded is an item with the repeats folded into it.
type Folded struct {
	Item
	// More counts the later items folded into this one, the last at
	// Last.
	More int
	Last int64
	// SameStep: the item is attributed to the step of the folded item
	// before it, which a list links once, on the first of the run.
	SameStep bool
}

// Fold folds each item into the first before it of the same kind and
// head, by the same who, made by the same code (a status update
// repeated, one event per Pod): that one counts it in More and ends at
// its time. who is Item.Who where the list names the user, Item.Actor
// where it names the component.
func Fold(items []Item, who func(Item) string) []Folded {
	var out []Folded
	at := map[string]int{}
	for _, it := range items {
		key := fmt.Sprint(it.Audit != nil) + "\x00" + it.Head() + "\x00" + who(it)
		if c := it.Explanation().Code; len(c) > 0 {
			key += "\x00" + c[0].Where()
		}
		if i, ok := at[key]; ok {
			out[i].More++
			out[i].Last = it.At
			continue
		}
		at[key] = len(out)
		out = append(out, Folded{Item: it})
	}
	var prev string
	for k := range out {
		step := out[k].Doc + "#" + out[k].Step
		switch {
		case out[k].Doc == "":
			prev = ""
		case step == prev:
			out[k].SameStep = true
		default:
			prev = step
		}
	}
	return out
}

// Startup is the start-up's writes: the cluster's own, before kubectl's
// first.
func (r *Run) Startup() []Item {
	var out []Item
	for i := range r.At.Audit {
		if a := &r.At.Audit[i]; a.At < 0 && !a.Scenario {
			out = append(out, Item{At: a.At, Audit: a})
		}
	}
	return out
}

// APIServer is the participant every arrow of a run's sequence diagram
// goes to.
const APIServer = "kube-apiserver"

// Arrow is a sequence diagram's arrow: an actor's writes of one verb and
// resource.
type Arrow struct {
	From, Label string
	// N counts the writes; First is the first of them.
	N     int
	First Item
}

// Arrows are the writes among items, events' own left out, as a sequence
// diagram draws them: each actor's requests to the API server, repeated
// requests (by actor, verb and resource) one arrow, in the order of
// their first. The participants are the actors in the order they first
// write, the API server second, after the client that starts it all;
// none without a write.
func Arrows(items []Item) (participants []string, arrows []Arrow) {
	byKey := map[string]int{}
	for _, it := range items {
		a := it.Audit
		if a == nil || a.Resource == "events" || !a.IsWrite() {
			continue
		}
		from := Actor(a.AuditEntry)
		key := from + " " + it.Head()
		if i, ok := byKey[key]; ok {
			arrows[i].N++
			continue
		}
		if !slices.Contains(participants, from) {
			participants = append(participants, from)
		}
		byKey[key] = len(arrows)
		arrows = append(arrows, Arrow{From: from, Label: it.Head(), N: 1, First: it})
	}
	if len(arrows) == 0 {
		return nil, nil
	}
	return slices.Insert(participants, min(1, len(participants)), APIServer), arrows
}

// EventsTable is the scenario's events as `kubectl get events` prints
// them at the end of the run.
func (r *Run) EventsTable() string {
	var end int64
	for _, e := range r.At.Events {
		end = max(end, e.Last)
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "%-11s %-8s %-19s %-45s %s\n", "LAST SEEN", "TYPE", "REASON", "OBJECT", "MESSAGE")
	for _, e := range r.At.Events {
		if !e.Scenario {
			continue
		}
		age := fmt.Sprintf("%ds", (end-e.Last)/1000)
		fmt.Fprintf(&sb, "%-11s %-8s %-19s %-45s %s\n", age, e.Type, e.Reason, eventObject(e.Event), e.Message)
	}
	return sb.String()
}
