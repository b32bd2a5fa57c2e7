package site

import (
	"fmt"
	"strings"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/internal/derive/trace"
)

// Trace pages: a chain derived from the facts by internal/derive/trace
// for a resource kind — watchers, their handler, queue and sync function,
// the call path to each write, and the watchers of what it writes — laid
// out beside the walkthroughs with the same excerpts and links. The
// pipeline derives the traces; this file only renders them.

// TraceInput is one kind's trace for Input.Traces.
type TraceInput struct {
	// Kind names the page: "deployment" → traces/deployment.html.
	Kind string
	// Title is the kind as people write it: "Deployment".
	Title string
	// Trace is the derived chain; nil, or a root nobody watches, leaves
	// the kind out with a note on the home page.
	Trace *trace.Trace
}

// TracePage returns the site path of the generated trace page of a kind.
func TracePage(kind string) string { return "traces/" + kind + ".html" }

func traceEmpty(t *trace.Trace) bool { return t == nil || t.Root == nil || len(t.Root.Watchers) == 0 }

type traceStepView struct {
	Symbol, Href string
	At           locView
	Kind         string
}

type traceSiteView struct {
	Path    []traceStepView
	Via     string
	Excerpt *excerptView
}

type traceWriteView struct {
	Label string
	Sites []traceSiteView
	More  int
	Next  *traceNodeView
}

type traceWatcherView struct {
	Name, Component, Via, Status, Reason, FieldSelector string
	Expanded                                            bool
	Registration                                        traceStepView
	RegExcerpt                                          *excerptView
	Handler, Sync                                       *traceStepView
	Queue                                               []traceStepView
	Unconnected                                         []string
	Writes                                              []traceWriteView
	Other                                               []string
}

type traceNodeView struct {
	Resource, Event, Sub string
	Notes                []string
	Watchers             []traceWatcherView
}

type traceView struct {
	Title     string
	Depth     int
	APIServer []traceStepView
	Root      *traceNodeView
}

func (b *builder) tracePage(ti TraceInput) ([]byte, error) {
	p := TracePage(ti.Kind)
	v := b.views(p)
	tv := traceView{Title: ti.Title, Depth: ti.Trace.Depth}
	for _, s := range ti.Trace.APIServer {
		tv.APIServer = append(tv.APIServer, b.traceStep(v, s))
	}
	var err error
	tv.Root, err = b.traceNode(v, ti.Trace.Root)
	if err != nil {
		return nil, err
	}
	title := strings.ReplaceAll(b.t("trace.title"), "{kind}", ti.Title)
	return b.exec("trace", b.codePageData(p, title, "traces", tv))
}

func (b *builder) traceStep(v views, s trace.Step) traceStepView {
	sv := traceStepView{Symbol: b.shortName(s.Symbol, fact.Location{}), At: v.loc(s.At), Kind: s.Kind}
	if !s.Decl.IsZero() {
		sv.Href = b.srcLink(v.page, s.Decl.Path, s.Decl.StartLine, s.Decl.EndLine)
	}
	return sv
}

func (b *builder) traceSteps(v views, ss []trace.Step) []traceStepView {
	var out []traceStepView
	for _, s := range ss {
		out = append(out, b.traceStep(v, s))
	}
	return out
}

// hopExcerpt is the excerpt of decl around line at, the hop's line marked.
func (b *builder) hopExcerpt(v views, decl, at fact.Location) (*excerptView, error) {
	if decl.IsZero() || at.IsZero() || decl.Path != at.Path {
		return nil, nil
	}
	if err := checkRepoPath(decl.Path); err != nil {
		return nil, err
	}
	lines, err := b.highlighted(decl.Path, v.page)
	if err != nil {
		return nil, err
	}
	from, to := decl.StartLine, min(decl.EndLine, len(lines))
	if from < 1 || to < from || at.StartLine < from || at.StartLine > to {
		return nil, nil
	}
	n := v.lines(decl.Path, at.StartLine, 0)
	rows, stable := v.excerptRows(decl.Path, excerpt(lines, from, to, []int{at.StartLine}, 3))
	return &excerptView{
		File:   decl.Path + ":" + n.String(),
		Href:   b.srcLink(v.page, decl.Path, at.StartLine, 0),
		GitHub: b.opts.SourceURL(decl.Path, n.from, 0),
		Lines:  rows, Stable: stable,
		FileLines: n.Mark, GitHubLines: n.Mark,
	}, nil
}

func (b *builder) traceNode(v views, n *trace.Node) (*traceNodeView, error) {
	if n == nil {
		return nil, nil
	}
	nv := &traceNodeView{Resource: n.Resource.Label(), Event: n.Event, Sub: n.Subresource, Notes: b.notes(n.Notes)}
	for _, w := range n.Watchers {
		wv := traceWatcherView{
			Name: w.Name, Component: w.Component, Via: w.Via, Status: w.Status, Reason: b.note(w.Reason),
			FieldSelector: w.FieldSelector, Expanded: w.Status == "expanded",
			Registration: b.traceStep(v, w.Registration), Queue: b.traceSteps(v, w.Queue),
			Unconnected: b.notes(w.Unconnected),
		}
		if w.Handler != nil {
			s := b.traceStep(v, *w.Handler)
			wv.Handler = &s
		}
		if w.Sync != nil {
			s := b.traceStep(v, *w.Sync)
			wv.Sync = &s
		}
		var err error
		if wv.Expanded {
			if wv.RegExcerpt, err = b.hopExcerpt(v, w.Registration.Decl, w.Registration.At); err != nil {
				return nil, err
			}
		}
		for _, wh := range w.Writes {
			whv := traceWriteView{Label: writeLabel(wh.Verb, wh.APIVerb, wh.Resource, wh.Subresource), More: wh.More}
			for _, s := range wh.Sites {
				sv := traceSiteView{Path: b.traceSteps(v, s.Path), Via: s.Write.Via}
				if sv.Excerpt, err = b.hopExcerpt(v, s.Write.Caller.Decl, s.Write.At); err != nil {
					return nil, err
				}
				whv.Sites = append(whv.Sites, sv)
			}
			if whv.Next, err = b.traceNode(v, wh.Next); err != nil {
				return nil, err
			}
			wv.Writes = append(wv.Writes, whv)
		}
		for _, o := range w.Other {
			wv.Other = append(wv.Other, fmt.Sprintf("%s ×%d", writeLabel(strings.Join(o.Verbs, "/"), o.APIVerb, o.Resource, o.Subresource), o.Count))
		}
		nv.Watchers = append(nv.Watchers, wv)
	}
	return nv, nil
}

func writeLabel(verb, apiVerb string, r fact.Resource, sub string) string {
	s := r.Label()
	if sub != "" {
		s += "/" + sub
	}
	if apiVerb != "" && apiVerb != verb {
		return apiVerb + " " + s + " (" + verb + ")"
	}
	return verb + " " + s
}

// note is a trace's generated sentence in the page's language.
func (b *builder) note(n trace.Note) string {
	if n.IsZero() {
		return ""
	}
	return n.Format(b.t("trace.note." + n.ID))
}

// notes is note of each.
func (b *builder) notes(ns []trace.Note) []string {
	var out []string
	for _, n := range ns {
		if n.Diagnostic() {
			continue // the analyzer's limits are for `kubewalk trace`, not for readers
		}
		out = append(out, b.note(n))
	}
	return out
}
