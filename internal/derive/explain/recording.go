package explain

import (
	"slices"
	"strings"

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
// audit log.
func (x *Explainer) Attribute(rec *record.Recording) *Attribution {
	ns := scenarioNamespace(rec)
	at := &Attribution{Events: []AttributedEvent{}, Audit: []AttributedAudit{}}
	for i, e := range rec.Events {
		r := EventRecordOf(e)
		r.Line = i + 1
		scenario := e.At >= 0 && e.Object.Namespace == ns
		at.Events = append(at.Events, AttributedEvent{
			Event:       e,
			Scenario:    scenario,
			Phase:       phaseOf(e.At, scenario),
			Explanation: x.One(r),
		})
	}
	type key struct{ ns, name string }
	events := map[key]Explanation{}
	scenarioEvents := map[key]bool{}
	for _, e := range at.Events {
		events[key{e.Namespace, e.Name}] = e.Explanation
		scenarioEvents[key{e.Namespace, e.Name}] = e.Scenario
	}
	run := &wholeRun{}
	for _, a := range rec.Audit {
		run.perController = run.perController || strings.HasPrefix(a.User, "system:serviceaccount:kube-system:") && strings.HasPrefix(a.UserAgent, "kube-controller-manager/")
	}
	for i, a := range rec.Audit {
		r := AuditRecordOf(a)
		r.Line = i + 1
		ex := x.whole(r, run)
		if a.IsWrite() {
			c, _ := auditComponent(r.Audit)
			what := a.Verb + " " + a.Resource
			if a.Subresource != "" {
				what += "/" + a.Subresource
			}
			var callers []string
			for _, cd := range ex.Code {
				if cd.Role == "wrote" && len(callers) < 1 || cd.Role == "wrote" && !slices.Contains(callers, cd.Symbol) {
					callers = append(callers, cd.Symbol)
				}
			}
			run.hops = append(run.hops, hop{verb: a.Verb, resource: a.Resource, summary: what + " " + a.Name, comp: c.Name, callers: callers})
		}
		if ev, ok := events[key{a.Namespace, a.Name}]; ok && a.Resource == "events" && a.IsWrite() && !writtenByComponent(ex.Code) {
			eventWrite(&ex, ev)
		}
		scenario := a.At >= 0 && a.Namespace == ns && a.IsWrite()
		if a.Resource == "events" {
			// An Event object lands in the default namespace whatever it
			// is about (a Node's RegisteredNode): its write belongs to the
			// scenario when the event does.
			scenario = scenario && scenarioEvents[key{a.Namespace, a.Name}]
		}
		at.Audit = append(at.Audit, AttributedAudit{
			AuditEntry:  a,
			Scenario:    scenario,
			Phase:       phaseOf(a.At, scenario),
			Explanation: ex,
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
