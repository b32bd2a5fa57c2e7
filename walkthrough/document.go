package walkthrough

import (
	"github.com/kubewalk/kubewalk/analyzer/fact"
)

// Resolver resolves symbol references and answers facts queries at one
// tag. *analyzer.Result implements it.
type Resolver interface {
	// Resolve resolves ref; its error for a name that does not exist is an
	// *fact.NotFoundError carrying suggestions.
	Resolve(ref fact.Ref) (fact.Resolved, error)
	// Facts returns the discovered facts.
	Facts() *fact.Facts
}

// Doc is a walkthrough parsed from Markdown with every reference resolved.
// It is plain data: its text is parsed Markdown (Markdown), which whoever
// shows it renders with its own link rules (the site:
// internal/render/prosehtml).
type Doc struct {
	// ID is the walkthrough's identifier, the file name without ".md" and
	// without a language suffix: "deployment" for deployment.ko.md.
	ID string `json:"id"`
	// Lang is the language the content is in, "en" or "ko". Load falls
	// back to English for a walkthrough not translated into the language
	// asked for, so Lang may differ from what was asked.
	Lang string `json:"lang"`
	// File is the name diagnostics use: "walkthroughs/deployment.md".
	File    string   `json:"file"`
	Title   string   `json:"title"`
	Summary string   `json:"summary,omitempty"`
	Topics  []string `json:"topics,omitempty"`
	// Order sorts walkthroughs on the home page (then ID).
	Order int `json:"order"`
	// Participants are the sequence diagram's lifelines, left to right
	// (translated names in a translation, in the same order).
	Participants []string `json:"participants,omitempty"`
	// Intro is what comes before the first step.
	Intro []Segment `json:"intro,omitempty"`
	Steps []Step    `json:"steps"`
}

// Step is one step of a walkthrough: a heading and what follows it.
type Step struct {
	// ID is the step's anchor, unique in the document:
	// "step-3-getnewreplicaset", or the heading's {id=…}. A translation's
	// steps have their English original's IDs.
	ID string `json:"id"`
	// Title is the heading as plain text.
	Title string `json:"title"`
	// Line is the heading's line in File.
	Line int `json:"line"`
	// From, To and Label are the step's message in the sequence diagram;
	// empty From means the step draws no message. From and To are names
	// from Doc.Participants.
	From  string `json:"from,omitempty"`
	To    string `json:"to,omitempty"`
	Label string `json:"label,omitempty"`
	// Stale marks a translation's step translated from an older text of
	// its English step (StepInfo.Stale).
	Stale bool `json:"stale,omitempty"`
	// Segments are the step's content in order.
	Segments []Segment `json:"segments,omitempty"`
	// Refs are every reference resolved in the step, in source order, for
	// backlinks from source pages, search and release diffs.
	Refs []Ref `json:"refs,omitempty"`
}

// Segment is a piece of a step, in order: exactly one field is set.
type Segment struct {
	// Markdown is a run of Markdown blocks, references resolved, as
	// data.
	Markdown *Markdown `json:"markdown,omitempty"`
	// Excerpt is a code block embedding part of a declaration.
	Excerpt *Excerpt `json:"excerpt,omitempty"`
	// Facts is a block embedding discovered facts.
	Facts *FactsBlock `json:"facts,omitempty"`
}

// Ref is one resolved reference as written in the Markdown.
type Ref struct {
	// File is the file the reference is written in: the English original
	// for a translation's use: excerpt, else the Doc's File.
	File string `json:"file"`
	// Text is the reference as written: a link destination, or an
	// excerpt's ref: value.
	Text string `json:"text"`
	// Line is its line in File.
	Line     int           `json:"line"`
	Ref      fact.Ref      `json:"ref"`
	Resolved fact.Resolved `json:"resolved"`
	// NotRun is the reason the author gave for the code not to run in
	// the recorded scenarios ({notrun="…"} after a link, an excerpt's
	// notrun:), in the Doc's language; "" when the reference is not so
	// marked.
	NotRun string `json:"notrun,omitempty"`
}

// Excerpt is a code block showing lines of a declaration.
type Excerpt struct {
	Ref
	// Name is the excerpt's name: (or the name a use: block showed), or "".
	Name string `json:"name,omitempty"`
	// From and To are the lines shown (inclusive): the declaration, or
	// what its from: and to: regexps cut.
	From int `json:"from"`
	To   int `json:"to"`
	// Highlight lists the lines to mark (those Ref.Lines matched between
	// From and To).
	Highlight []int `json:"highlight,omitempty"`
	// Context, when >= 0, elides lines further than Context lines from any
	// highlighted line; -1 shows every line.
	Context int `json:"context"`
	// Caption is optional text shown above the code (plain text).
	Caption string `json:"caption,omitempty"`
}

// FactsBlock embeds facts selected by a query written in the Markdown.
type FactsBlock struct {
	// Kind is "handlers", "events" or "writes".
	Kind string `json:"kind"`
	// Query is the selector as written ("resource=deployments", "reason=Pulling").
	Query string `json:"query"`
	// Line is the block's opening fence in the Doc's File.
	Line     int                        `json:"line"`
	Handlers []fact.HandlerRegistration `json:"handlers,omitempty"`
	Events   []fact.Event               `json:"events,omitempty"`
	Writes   []fact.Write               `json:"writes,omitempty"`
}

// Ranges returns the runs of lines to show, in order, after eliding lines
// further than Context from every highlighted line: the site draws an
// elision mark between runs. With Context < 0 or nothing highlighted it
// is the one run From..To.
func (e *Excerpt) Ranges() [][2]int {
	if e.Context < 0 || len(e.Highlight) == 0 {
		return [][2]int{{e.From, e.To}}
	}
	var out [][2]int
	for _, h := range e.Highlight {
		a, b := max(e.From, h-e.Context), min(e.To, h+e.Context)
		if n := len(out); n > 0 && a <= out[n-1][1]+1 {
			out[n-1][1] = max(out[n-1][1], b)
			continue
		}
		out = append(out, [2]int{a, b})
	}
	return out
}
