package site

import (
	"path"
	"slices"
	"strings"

	"github.com/kubewalk/kubewalk/analyzer/fact"
)

// View models: what templates see. Every URL in them is already relative to
// the page being rendered, so templates never compute links.

// locView is a file:line reference with its two links.
type locView struct {
	Text   string // "pkg/controller/deployment/sync.go:120"
	Href   string // source page (or GitHub when not rendered)
	GitHub string
	// Lines is the data-l of both links: the lines' stable numbers, which
	// Text and GitHub print, on a page the releases share (lines.go).
	Lines string
}

// funcView names a function with a link to its declaration.
type funcView struct {
	Name string // short: "deployment.DeploymentController.sync"
	Full string
	Href string
	Form string
	// Lines is the link's data-l where Name and Full say where a func
	// literal is (lines.go).
	Lines string
}

type handlerRow struct {
	// ID is the row's anchor on the handlers page (handlerIDs), "" elsewhere.
	ID           string
	Component    string
	Resource     string
	InformerExpr string
	Method       string
	Resync       string
	Caller       funcView
	At           locView
	Add, Update  *funcView
	Delete       *funcView
	Filter       *funcView
	// HandlerExpr is the handler as written when none of Add, Update and
	// Delete resolved.
	HandlerExpr string
}

type wiringRow struct {
	Type, Field, Queue string
	Sync               funcView
	Worker             *funcView
	Enqueuers          []funcView
	At                 locView
}

type eventRow struct {
	Reason, ReasonExpr, Type, Message, Recorder, Method string
	// TypeExpr and MessageExpr are the arguments as written when set at
	// run time; the Values are what reaches them, as far as the code tells.
	TypeExpr, MessageExpr                   string
	TypeValues, ReasonValues, MessageValues []string
	// Fields name the struct fields some of the Values came from: every
	// value such a field is given, not only what reaches this call.
	Fields []string
	Caller funcView
	At     locView
	// Steps are the walkthrough steps that cite the call site.
	Steps []stepLink
}

// stepLink is a link to a walkthrough step.
type stepLink struct{ Title, Href string }

type writeRow struct {
	Component, Resource, Verb, Subresource, Via string
	// APIVerb is the verb the API server sees, shown when it differs from
	// Verb ("bind" is a create of pods/binding).
	APIVerb string
	Caller  funcView
	At      locView
}

// factsView is a set of facts rendered as tables (a walkthrough's facts
// block, or a group on an index page).
type factsView struct {
	Handlers []handlerRow
	Events   []eventRow
	Writes   []writeRow
	// ListWatches are raw list-watches (the resources page's watchers).
	ListWatches []listWatchRow
}

// views builds view models for the page at site path page.
type views struct {
	b    *builder
	page string
}

func (b *builder) views(page string) views { return views{b, page} }

func (v views) loc(l fact.Location) locView {
	if l.IsZero() {
		return locView{}
	}
	n := v.lines(l.Path, l.StartLine, l.EndLine)
	lv := locView{
		Text:   l.Path + ":" + n.String(),
		Href:   v.b.srcLink(v.page, l.Path, l.StartLine, l.EndLine),
		GitHub: v.b.opts.SourceURL(l.Path, n.from, n.to),
		Lines:  n.Mark,
	}
	if !v.b.rendered[l.Path] {
		lv.Href = lv.GitHub // by the stable lines, as its mark
	}
	return lv
}

// literalAt is where a func literal declared at decl is, as its name
// says ("sync.go:120", "" for nowhere), and the data-l of the link
// printing it.
func (v views) literalAt(decl fact.Location) (at, mark string) {
	if decl.IsZero() {
		return "", ""
	}
	n := v.lines(decl.Path, decl.StartLine, 0)
	return path.Base(decl.Path) + ":" + n.From, n.Mark
}

func (v views) fn(f fact.FuncRef, form string) funcView {
	at, mark := v.literalAt(f.Decl)
	fv := funcView{Name: v.b.shortNameAt(f.Symbol, at), Full: f.Symbol, Form: form}
	if fv.Name != fact.ShortSymbol(f.Symbol) {
		fv.Full = "" // a func literal: Name says where it is; its symbol's number means nothing to a reader
		fv.Lines = mark
	}
	if fv.Name == "" {
		fv.Name = "?"
	}
	if !f.Decl.IsZero() {
		fv.Href = v.b.srcLink(v.page, f.Decl.Path, f.Decl.StartLine, f.Decl.EndLine)
		if !v.b.rendered[f.Decl.Path] {
			// A permalink by the lines' stable numbers, marked, where the
			// page prints them (lines.go): the whole declaration, also for
			// a func literal whose name prints its first line only, so that
			// renumbering keeps the permalink a range.
			if n := v.lines(f.Decl.Path, f.Decl.StartLine, f.Decl.EndLine); n.Mark != "" {
				fv.Href, fv.Lines = v.b.opts.SourceURL(f.Decl.Path, n.from, n.to), n.Mark
			}
		}
	}
	return fv
}

func (v views) handler(slot string, h *fact.Handler) *funcView {
	if h == nil {
		return nil
	}
	f := v.fn(h.FuncRef, h.Form)
	at, _ := v.literalAt(h.Decl)
	f.Name = v.b.handlerName(slot, h, at)
	if h.Symbol == "" {
		f.Name, f.Lines = h.Form, ""
	}
	return &f
}

func (v views) handlerRow(h fact.HandlerRegistration) handlerRow {
	return handlerRow{
		Component:    h.Component,
		Resource:     v.b.resourceName(h),
		InformerExpr: h.InformerExpr,
		Method:       h.Method,
		Resync:       h.Resync,
		Caller:       v.fn(h.Caller, ""),
		At:           v.loc(h.At),
		Add:          v.handler("AddFunc", h.Add),
		Update:       v.handler("UpdateFunc", h.Update),
		Delete:       v.handler("DeleteFunc", h.Delete),
		Filter:       v.handler("FilterFunc", h.Filter),
		HandlerExpr:  h.HandlerExpr,
	}
}

func (v views) wiringRow(w fact.Wiring) wiringRow {
	r := wiringRow{Type: fact.ShortSymbol(w.Type), Field: w.Field, Queue: w.Queue, Sync: v.fn(w.Sync, ""), At: v.loc(w.At)}
	if w.Worker != nil {
		f := v.fn(*w.Worker, "")
		r.Worker = &f
	}
	for _, e := range w.Enqueuers {
		r.Enqueuers = append(r.Enqueuers, v.fn(e, ""))
	}
	return r
}

// listWatchRow is a raw list-watch: a component's own watch of a
// resource, through a reflector rather than an informer.
type listWatchRow struct {
	Component, Resource, Fields, Selector string
	Caller                                funcView
	At                                    locView
	// Reflector is the reflector fed; Push where its store hands objects.
	Reflector *locView
	Push      *funcView
}

func (v views) listWatchRow(lw fact.ListWatch) listWatchRow {
	r := listWatchRow{
		Component: lw.Component, Resource: lw.Resource.Label(),
		Fields: strings.Join(lw.Fields, ", "), Selector: lw.FieldSelector,
		Caller: v.fn(lw.Caller, ""), At: v.loc(lw.At),
	}
	for _, c := range lw.Consumers {
		if c.Kind != "reflector" {
			continue
		}
		at := v.loc(c.At)
		r.Reflector = &at
		if c.Push != nil {
			p := v.fn(*c.Push, "")
			r.Push = &p
		}
		break
	}
	return r
}

func (v views) eventRow(e fact.Event) eventRow {
	return eventRow{
		Reason: e.Reason, ReasonExpr: e.ReasonExpr, Type: e.Type, Message: e.Message,
		Recorder: e.Recorder, Method: e.Method,
		TypeExpr: e.TypeExpr, MessageExpr: e.MessageExpr,
		TypeValues: e.TypeValues, ReasonValues: e.ReasonValues, MessageValues: e.MessageValues,
		Fields: fieldsOf(e),
		Caller: v.fn(e.Caller, ""),
		At:     v.loc(e.At),
	}
}

func (v views) writeRow(w fact.Write) writeRow {
	return writeRow{
		Component: fact.Component(fact.SymbolPackage(w.Caller.Symbol)), Resource: w.Resource.Label(),
		Verb: w.Verb, Subresource: w.Subresource, Via: w.Via,
		APIVerb: w.APIVerb,
		Caller:  v.fn(w.Caller, ""),
		At:      v.loc(w.At),
	}
}

func (v views) facts(hs []fact.HandlerRegistration, es []fact.Event, ws []fact.Write) *factsView {
	f := &factsView{}
	for _, h := range hs {
		f.Handlers = append(f.Handlers, v.handlerRow(h))
	}
	for _, e := range es {
		f.Events = append(f.Events, v.eventRow(e))
	}
	for _, w := range ws {
		f.Writes = append(f.Writes, v.writeRow(w))
	}
	return f
}

// fieldsOf lists the struct fields an event's argument values came from
// (fact.Event.TypeField and the others), each once.
func fieldsOf(e fact.Event) []string {
	var out []string
	for _, f := range []string{e.TypeField, e.ReasonField, e.MessageField} {
		if f != "" && !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out
}
