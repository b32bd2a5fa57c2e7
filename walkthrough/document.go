package walkthrough

import (
	"html/template"

	"github.com/kubewalk/kubewalk/analyzer"
)

// Resolver resolves symbol references and answers facts queries at one
// tag. *analyzer.Result implements it.
type Resolver interface {
	// Resolve resolves ref; its error for a name that does not exist is an
	// *analyzer.NotFoundError carrying suggestions.
	Resolve(ref analyzer.Ref) (analyzer.Resolved, error)
	// Facts returns the discovered facts.
	Facts() *analyzer.Facts
}

// Doc is a walkthrough parsed from Markdown with every reference resolved.
// It is plain data: the site lays it out, it never renders whole pages.
type Doc struct {
	// ID is the walkthrough's identifier, the file name without ".md" and
	// without a language suffix: "deployment" for deployment.ko.md.
	ID string
	// Lang is the language, "en" or "ko".
	Lang string
	// File is the name diagnostics use: "walkthroughs/deployment.md".
	File    string
	Title   string
	Summary string
	Topics  []string
	// Order sorts walkthroughs on the home page (then ID).
	Order int
	// Participants are the sequence diagram's lifelines, left to right.
	Participants []string
	// Intro is what comes before the first step.
	Intro []Segment
	Steps []Step
}

// Step is one step of a walkthrough: a heading and what follows it.
type Step struct {
	// ID is the step's anchor, unique in the document: "step-3-getnewreplicaset".
	ID    string
	Title string
	// Line is the heading's line in File.
	Line int
	// From, To and Label are the step's message in the sequence diagram;
	// empty From means the step draws no message.
	From, To, Label string
	Segments        []Segment
	// Refs are every reference resolved in the step, in source order, for
	// backlinks from source pages, search and release diffs.
	Refs []Ref
}

// Segment is a piece of a step, in order: exactly one field is set.
type Segment struct {
	// HTML is rendered Markdown: goldmark with raw HTML off, so it holds
	// only markup goldmark itself generated and escaped text.
	HTML template.HTML
	// Excerpt is a code block embedding part of a declaration.
	Excerpt *Excerpt
	// Facts is a block embedding discovered facts.
	Facts *FactsBlock
}

// Ref is one resolved reference as written in the Markdown.
type Ref struct {
	// Text is the reference as written.
	Text string
	// Line is its line in the Markdown file.
	Line     int
	Ref      analyzer.Ref
	Resolved analyzer.Resolved
}

// Excerpt is a code block showing lines of a declaration.
type Excerpt struct {
	Ref
	// From and To are the lines shown (inclusive).
	From, To int
	// Highlight lists the lines to mark (those Ref.Lines matched).
	Highlight []int
	// Context, when >= 0, elides lines further than Context lines from any
	// highlighted line; -1 shows every line.
	Context int
	// Caption is optional text shown above the code.
	Caption string
}

// FactsBlock embeds facts selected by a query written in the Markdown.
type FactsBlock struct {
	// Kind is "handlers", "events" or "writes".
	Kind string
	// Query is the selector as written ("resource=deployments", "reason=Pulling").
	Query    string
	Line     int
	Handlers []analyzer.HandlerRegistration
	Events   []analyzer.Event
	Writes   []analyzer.Write
}
