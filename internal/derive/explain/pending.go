package explain

import (
	"slices"

	"github.com/kubewalk/kubewalk/analyzer/fact"
)

// An explanation is found in two parts. The first matches the record to
// code — call sites, handlers, a watch's opener, the notes and rules
// that say how — and reads nothing but the facts (and the run's items
// before it): a pending. The second, withSteps, puts the pending under
// the walkthrough steps that explain the code it found: it reads the
// steps, and what it reads of the pending is its stepQuery. One runs
// both; a recorded run's attribution keeps the first (CodeMatch), so
// that new walkthroughs of the same release redo only the second.

// pending is an Explanation before its steps: Steps and Explained are
// not set, and the Note may be replaced (stepQuery.unexplained); the
// rest is final.
type pending struct {
	ex Explanation
	q  stepQuery
	// handlers are where ex.Handlers are registered, in their order:
	// withSteps puts those a step explains first (rankHandlers).
	handlers []fact.Location
	// event is, for the write of an Event object, 1 + the position in
	// the run's events of the event it carries, when the recorder call
	// that emitted that event explains the write (eventWrite); 0 for
	// none.
	event int
}

// stepQuery is what an item's steps are found from: the steps that
// explain sites, or whose facts blocks name reason; when they are none,
// those of each orElse in turn. Each rule that sets Explanation.Steps
// says so as a stepQuery, and withSteps is where they are found.
type stepQuery struct {
	sites  []fact.Location
	reason string
	// orElse are the sites tried next, in order, while no step is
	// found: a write's handlers (One), the functions that made a write
	// and their callers, a level of calls each (callerSites).
	orElse [][]fact.Location
	// unexplained is the Note of an item that neither code nor a step
	// explains, when its code says why (notAnalyzed); "" keeps the Note.
	unexplained string
}

// withSteps completes p with the steps of x: Steps, the order of the
// Handlers, Explained, the Note of an item nothing explains, and the
// Event write's explanation by the event (ev, when p.event is set). p
// is left as it was: a CodeMatch's pendings are completed again for
// other steps.
func (x *Explainer) withSteps(p pending, ev *Explanation) Explanation {
	ex := p.ex
	ex.Steps = x.stepsFor(p.q.sites, p.q.reason)
	for _, sites := range p.q.orElse {
		if len(ex.Steps) > 0 {
			break
		}
		ex.Steps = x.stepsFor(sites, "")
	}
	if len(p.handlers) > 1 {
		ex.Handlers = x.rankHandlers(ex.Handlers, p.handlers)
	}
	ex.Explained = len(ex.Code) > 0 || len(ex.Steps) > 0
	if !ex.Explained && p.q.unexplained != "" {
		ex.Note = p.q.unexplained
	}
	if p.event > 0 && ev != nil {
		eventWrite(&ex, *ev)
	}
	return ex
}

// rankHandlers returns hs, registered at handled, those a walkthrough
// explains first, in a new slice: of the dozens of pod handlers, those
// are the ones a reader follows next.
func (x *Explainer) rankHandlers(hs []Code, handled []fact.Location) []Code {
	var first, rest []Code
	for i, h := range hs {
		if len(x.siteSteps(handled[i])) > 0 {
			first = append(first, h)
		} else {
			rest = append(rest, h)
		}
	}
	return append(slices.Clip(first), rest...)
}
