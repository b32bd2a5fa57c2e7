package explain

import (
	"slices"
	"strings"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/record"
)

// Attribution is what Explain says of every item of a recorded run: each
// event matched to its emission site, each audited write to the write site
// that made it, each watch to the informers of its resource, and each to
// the walkthrough steps that explain it. The lists are the recording's,
// in its order.
type Attribution struct {
	Events []AttributedEvent `json:"events"`
	Audit  []AttributedAudit `json:"audit"`
	// Summary counts what was attributed, by kind and phase.
	Summary Summary `json:"summary"`
}

// AttributedEvent is a recorded event and its explanation.
type AttributedEvent struct {
	record.Event
	// Scenario is true for the events the scenario caused (in its
	// namespace, from the apply on); the others came from the cluster
	// starting up or running by itself.
	Scenario bool `json:"scenario"`
	// Phase is PhaseStartup, PhaseScenario or PhaseBackground.
	Phase       string      `json:"phase"`
	Explanation Explanation `json:"explanation"`
}

// AttributedAudit is a recorded audit entry and its explanation.
type AttributedAudit struct {
	record.AuditEntry
	Scenario    bool        `json:"scenario"`
	Phase       string      `json:"phase"`
	Explanation Explanation `json:"explanation"`
}

// Attribute explains every event and audit entry of rec, by the rules
// Explain applies to pasted input: the recording is turned into the same
// Records Parse would read from `kubectl get events -o json` and the
// audit log. It is AttributeSteps(MatchCode(rec)).
func (x *Explainer) Attribute(rec *record.Recording) *Attribution {
	return x.AttributeSteps(x.MatchCode(rec))
}

// CodeMatch is a recording attributed to code: each item's explanation
// as far as the facts decide it — the call sites, the handlers, the code
// that opened a watch, the notes and rules — and what its steps are to
// be found from, without the steps. It depends on the recording, the
// facts and Options.Permalink only, never on the walkthroughs, so a
// caller that builds the same release again after a walkthrough edit
// (the site's Cache, for kubewalk serve) keeps it and has AttributeSteps
// of an Explainer over the new walkthroughs finish it: matching a run's
// thousands of items to the facts is most of Attribute's work, and none
// of it changes with a step. A CodeMatch is never modified after
// MatchCode: one may be finished by several Explainers at once.
type CodeMatch struct {
	facts  *fact.Facts
	rec    *record.Recording
	events []matchedItem
	audit  []matchedItem
}

// matchedItem is an item of a CodeMatch: what it is of the run, and its
// explanation before the steps.
type matchedItem struct {
	scenario bool
	phase    string
	p        pending
}

// MatchCode matches every event and audit entry of rec to the code that
// made it: the part of Attribute that reads the facts only.
func (x *Explainer) MatchCode(rec *record.Recording) *CodeMatch {
	ns := scenarioNamespace(rec)
	m := &CodeMatch{facts: x.facts, rec: rec, events: make([]matchedItem, 0, len(rec.Events)), audit: make([]matchedItem, 0, len(rec.Audit))}
	// events are the events by their Event object, the last of a name.
	type key struct{ ns, name string }
	events := map[key]int{}
	for i, e := range rec.Events {
		r := EventRecordOf(e)
		r.Line = i + 1
		scenario := e.At >= 0 && e.Object.Namespace == ns
		m.events = append(m.events, matchedItem{scenario: scenario, phase: phaseOf(e.At, scenario), p: x.oneCode(r)})
		events[key{e.Namespace, e.Name}] = i
	}
	run := &wholeRun{}
	for _, a := range rec.Audit {
		run.perController = run.perController || strings.HasPrefix(a.User, "system:serviceaccount:kube-system:") && strings.HasPrefix(a.UserAgent, "kube-controller-manager/")
	}
	for i, a := range rec.Audit {
		r := AuditRecordOf(a)
		r.Line = i + 1
		p := x.wholeCode(r, run)
		if a.IsWrite() {
			c, _ := auditComponent(r.Audit)
			what := a.Verb + " " + a.Resource
			if a.Subresource != "" {
				what += "/" + a.Subresource
			}
			var callers []string
			for _, cd := range p.ex.Code {
				if cd.Role == "wrote" && len(callers) < 1 || cd.Role == "wrote" && !slices.Contains(callers, cd.Symbol) {
					callers = append(callers, cd.Symbol)
				}
			}
			run.hops = append(run.hops, hop{verb: a.Verb, resource: a.Resource, summary: what + " " + a.Name, comp: c.Name, callers: callers})
		}
		ev, isEvent := events[key{a.Namespace, a.Name}]
		if isEvent && a.Resource == "events" && a.IsWrite() && !writtenByComponent(p.ex.Code) {
			p.event = ev + 1
		}
		scenario := a.At >= 0 && a.Namespace == ns && a.IsWrite()
		if a.Resource == "events" {
			// An Event object lands in the default namespace whatever it
			// is about (a Node's RegisteredNode): its write belongs to the
			// scenario when the event does.
			scenario = scenario && isEvent && m.events[ev].scenario
		}
		m.audit = append(m.audit, matchedItem{scenario: scenario, phase: phaseOf(a.At, scenario), p: p})
	}
	return m
}

// AttributeSteps finishes m with the walkthrough steps of x: each item's
// Steps, and what follows from them (Explained, the order of the
// handlers, the note of an item nothing explains, an Event's write by the
// steps of its event), and the Summary. x's facts are to be m's; with
// other facts, the recording is matched again.
func (x *Explainer) AttributeSteps(m *CodeMatch) *Attribution {
	if m.facts != x.facts {
		m = x.MatchCode(m.rec)
	}
	at := &Attribution{Events: make([]AttributedEvent, 0, len(m.events)), Audit: make([]AttributedAudit, 0, len(m.audit))}
	for i, it := range m.events {
		at.Events = append(at.Events, AttributedEvent{
			Event:       m.rec.Events[i],
			Scenario:    it.scenario,
			Phase:       it.phase,
			Explanation: x.withSteps(it.p, nil),
		})
	}
	for i, it := range m.audit {
		var ev *Explanation
		if it.p.event > 0 {
			ev = &at.Events[it.p.event-1].Explanation
		}
		at.Audit = append(at.Audit, AttributedAudit{
			AuditEntry:  m.rec.Audit[i],
			Scenario:    it.scenario,
			Phase:       it.phase,
			Explanation: x.withSteps(it.p, ev),
		})
	}
	at.Summary = summarize(at)
	return at
}

// eventWrite explains the write of an Event object by the recorder call
// that emitted it. Components do not write events through a typed client
// call of their own: client-go's broadcaster (tools/record, tools/events)
// writes what the recorder call was given, so the call is where the
// write comes from, and the event's steps are the write's.
func eventWrite(ex *Explanation, ev Explanation) {
	if len(ev.Code) == 0 && len(ev.Steps) == 0 {
		ex.Note = "written by the event broadcaster for the event " + summary(Record{Event: &EventRecord{Reason: ev.Event.Reason, Kind: ev.Event.Kind, Name: ev.Event.Name}}) + "; " + ev.Note
		return
	}
	ex.Code = nil
	for _, c := range ev.Code {
		c.Role = "emitted"
		ex.Code = append(ex.Code, c)
	}
	ex.Steps = ev.Steps
	ex.Note = "written by the event broadcaster for the recorder call that emitted " + ev.Summary
	ex.Explained = true
}

// writtenByComponent reports whether an Event object's write has a write
// site of the component's own: a typed client call outside client-go's
// event broadcasters. A write found only in the broadcasters' sinks
// (tools/record's EventSink, tools/events) is the recorder call's, which
// eventWrite names instead — the sink writes whatever any recorder call
// of the component was given.
func writtenByComponent(cs []Code) bool {
	for _, c := range cs {
		if c.Role == "wrote" && !isEventSink(c.Path) {
			return true
		}
	}
	return false
}

// isEventSink reports whether path is a file of client-go's event
// broadcasters.
func isEventSink(path string) bool {
	for _, d := range []string{"k8s.io/client-go/tools/record/", "k8s.io/client-go/tools/events/"} {
		if strings.Contains(path, d) {
			return true
		}
	}
	return false
}

// scenarioNamespace is the namespace of the scenario's objects.
func scenarioNamespace(rec *record.Recording) string {
	for _, s := range record.Scenarios {
		if s.Name == rec.Scenario {
			return s.Namespace
		}
	}
	return "default"
}

// EventRecordOf is the Record of a recorded event, as Parse reads an event
// of `kubectl get events -o json`.
func EventRecordOf(e record.Event) Record {
	return Record{
		Kind:   KindEvent,
		Format: "recording",
		Text:   e.Type + " " + e.Reason + " " + strings.ToLower(e.Object.Kind) + "/" + e.Object.Name + " " + e.Message,
		Event: &EventRecord{
			Namespace: e.Namespace,
			Type:      e.Type,
			Reason:    e.Reason,
			Kind:      strings.ToLower(e.Object.Kind),
			Name:      e.Object.Name,
			Message:   e.Message,
			Component: e.Component,
			Host:      e.Host,
			Action:    e.Action,
		},
	}
}

// AuditRecordOf is the Record of a recorded audit entry, as Parse reads an
// audit log line.
func AuditRecordOf(a record.AuditEntry) Record {
	return Record{
		Kind:   KindAudit,
		Format: "recording",
		Text:   a.Verb + " " + a.RequestURI,
		Audit: &AuditRecord{
			Verb:        a.Verb,
			RequestURI:  a.RequestURI,
			Group:       a.Group,
			Resource:    a.Resource,
			Subresource: a.Subresource,
			Namespace:   a.Namespace,
			Name:        a.Name,
			Username:    a.User,
			UserAgent:   a.UserAgent,
			Stage:       a.Stage,
			Code:        a.Code,
		},
	}
}
