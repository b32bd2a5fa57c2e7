package explain

import "fmt"

// Phases of a recorded run: an item belongs to the control plane's
// start-up (before the scenario's first write), to the scenario (its
// namespace, from that write on), or to the cluster running by itself
// meanwhile (leases renewed, node status reported).
const (
	PhaseStartup    = "start-up"
	PhaseScenario   = "scenario"
	PhaseBackground = "background"
)

// Kinds of recorded items, as Summary counts them.
const (
	ItemEvent = "events"
	ItemWrite = "writes"
	ItemWatch = "watches"
	ItemRead  = "reads" // lists and gets, from an audit log
)

// Summary counts what an Attribution attributed.
type Summary struct {
	// Items is every event and audit entry; Attributed those matched
	// to code or a step. NotAttributable is the rest, each of which
	// says why in its Explanation.Note.
	Items           int `json:"items"`
	Attributed      int `json:"attributed"`
	NotAttributable int `json:"notAttributable"`
	// Kinds break the counts down by kind of item and phase, in the
	// order of itemKinds and phases, leaving out pairs with no items.
	Kinds []KindSummary `json:"kinds"`
}

// KindSummary is the count of one kind of item in one phase.
type KindSummary struct {
	Kind       string `json:"kind"`
	Phase      string `json:"phase"`
	Items      int    `json:"items"`
	Attributed int    `json:"attributed"`
}

var (
	itemKinds = []string{ItemEvent, ItemWrite, ItemWatch, ItemRead}
	phases    = []string{PhaseStartup, PhaseScenario, PhaseBackground}
)

// String is the closing line of explain on a recording or an audit log.
func (s Summary) String() string {
	return fmt.Sprintf("%d of %d items attributed; %d listed as not attributable, with reasons", s.Attributed, s.Items, s.NotAttributable)
}

// summarize counts at's items.
func summarize(at *Attribution) Summary {
	type key struct{ kind, phase string }
	counts := map[key]*KindSummary{}
	var s Summary
	add := func(kind, phase string, ok bool) {
		k := key{kind, phase}
		c := counts[k]
		if c == nil {
			c = &KindSummary{Kind: kind, Phase: phase}
			counts[k] = c
		}
		c.Items++
		s.Items++
		if ok {
			c.Attributed++
			s.Attributed++
		}
	}
	for _, e := range at.Events {
		add(ItemEvent, e.Phase, e.Explanation.Explained)
	}
	for _, a := range at.Audit {
		add(auditKind(a.Verb), a.Phase, a.Explanation.Explained)
	}
	s.NotAttributable = s.Items - s.Attributed
	s.Kinds = []KindSummary{}
	for _, k := range itemKinds {
		for _, p := range phases {
			if c := counts[key{k, p}]; c != nil {
				s.Kinds = append(s.Kinds, *c)
			}
		}
	}
	return s
}

// auditKind is the kind of item an audit entry of verb is.
func auditKind(verb string) string {
	switch {
	case writeVerbs[verb]:
		return ItemWrite
	case verb == "watch":
		return ItemWatch
	}
	return ItemRead
}

// phaseOf is the phase of an item at time at (milliseconds from the
// scenario's first write) that the scenario did or did not cause.
func phaseOf(at int64, scenario bool) string {
	switch {
	case scenario:
		return PhaseScenario
	case at < 0:
		return PhaseStartup
	}
	return PhaseBackground
}
