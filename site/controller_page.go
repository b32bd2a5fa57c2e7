package site

import (
	"fmt"
	"strings"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/internal/derive/trace"
)

// One controller's page: its entry in the controller list, what it
// watches, its sync functions and their writes, who watches what it
// creates, its events, and the walkthrough steps that cite any of it.

type controllerPageView struct {
	Name, State, GitHub   string
	GitHubLines           string // GitHub's data-l (lines.go)
	Aliases, Gates, When  []string
	Packages              []string
	Start, Descriptor     *traceStepView
	Constructors          []traceStepView
	WatchIntro, SyncIntro string
	EventIntro, StepIntro string
	Watches               []ctlWatchView
	Syncs                 []ctlSyncView
	Events                *factsView
	Steps                 []stepLink
	Notes                 []string
	Index                 string
	// Ran is which of its functions ran in the recorded scenarios
	// (coverage_controller.go); nil without coverage.
	Ran *ctlRanView
}

type ctlWatchView struct {
	Resource, Trace     string
	Add, Update, Delete *traceStepView
	Registered          traceStepView
	Queue               []traceStepView
	Sync                *traceStepView
	Secondary           string
	Unconnected         []string
}

type ctlSyncView struct {
	Sync        traceStepView
	QueueField  string
	Writes      []ctlWriteView
	Unconnected []string
}

type ctlWriteView struct {
	Label     string
	Path      []traceStepView
	Via       string
	More      int
	WatchedBy []linkView
}

func (b *builder) controllerPage(d *controllerData, i int) ([]byte, error) {
	cv := d.views[i]
	c := cv.Controller
	p := ControllerPage(c.Name)
	v := b.views(p)
	pv := controllerPageView{
		Name: c.Name, State: b.controllerState(c), Aliases: c.Aliases, Gates: c.FeatureGates,
		When: c.DisabledWhen, Packages: c.Packages, Notes: b.notes(cv.Notes), Index: b.link(p, controllersPage, ""),
	}
	if !c.At.IsZero() {
		n := v.lines(c.At.Path, c.At.StartLine, c.At.EndLine)
		pv.GitHub, pv.GitHubLines = b.opts.SourceURL(c.At.Path, n.from, n.to), n.Mark
	}
	step := func(r fact.FuncRef) *traceStepView {
		s := b.traceStep(v, trace.Step{Symbol: r.Symbol, Decl: r.Decl, At: r.Decl})
		return &s
	}
	pv.Start = step(c.Start)
	if c.Descriptor != nil {
		pv.Descriptor = step(*c.Descriptor)
	}
	for _, x := range c.Constructors {
		pv.Constructors = append(pv.Constructors, *step(x))
	}
	traces := b.kindTraces(d, p)
	for _, w := range cv.Watches {
		pv.Watches = append(pv.Watches, b.ctlWatch(v, w, traces))
	}
	for _, s := range cv.Syncs {
		pv.Syncs = append(pv.Syncs, b.ctlSync(v, d, s))
	}
	pv.Events = v.facts(nil, cv.Events, nil)
	pv.Steps = b.stepsCiting(p, cv.Shown())
	pv.WatchIntro = b.count("controller.watches", len(cv.Watches))
	pv.SyncIntro = b.count("controller.syncs", len(cv.Syncs))
	pv.EventIntro = b.count("controller.events", len(cv.Events))
	pv.StepIntro = b.count("controller.steps", len(pv.Steps))
	pv.Ran = b.controllerRan(p, c.Packages)
	title := strings.ReplaceAll(b.t("controller.title"), "{name}", c.Name)
	return b.exec("controller", b.pageData(p, title, "controllers", pv))
}

// count formats the sentence of key for n items: key.none when n is 0.
func (b *builder) count(key string, n int) string {
	if n == 0 {
		return b.t(key + ".none")
	}
	return fmt.Sprintf(b.t(key), n)
}

func (b *builder) ctlWatch(v views, w trace.Watch, traces map[string]string) ctlWatchView {
	r := w.Registration
	wv := ctlWatchView{
		Resource:    r.Informer.Label(),
		Trace:       traces[r.Informer.Label()],
		Registered:  b.traceStep(v, trace.Step{Symbol: r.Caller.Symbol, Decl: r.Caller.Decl, At: r.At}),
		Queue:       b.traceSteps(v, w.Queue),
		Unconnected: b.notes(w.Unconnected),
	}
	if r.Informer.Resource == "" && r.Informer.Kind == "" {
		// A dynamic or metadata informer: any resource, told at run time.
		wv.Resource = b.t("handlers.anyresource")
	}
	hs := []**traceStepView{&wv.Add, &wv.Update, &wv.Delete}
	for i, h := range []*fact.Handler{r.Add, r.Update, r.Delete} {
		if h != nil && h.Symbol != "" {
			s := b.traceStep(v, trace.Step{Symbol: h.Symbol, Decl: h.Decl})
			*hs[i] = &s
		}
	}
	if w.Sync != nil {
		s := b.traceStep(v, *w.Sync)
		wv.Sync = &s
	}
	if w.Status == "secondary" {
		wv.Secondary = b.note(w.Reason)
	}
	return wv
}

// ctlSync lays out one sync function's writes: the followed ones with
// their first call path and who watches what they create, then the
// others.
func (b *builder) ctlSync(v views, d *controllerData, s *trace.Watcher) ctlSyncView {
	sv := ctlSyncView{Sync: b.traceStep(v, *s.Sync), QueueField: s.QueueField, Unconnected: b.notes(s.Unconnected)}
	for _, wh := range s.Writes {
		wv := ctlWriteView{Label: writeLabel(wh.Verb, wh.APIVerb, wh.Resource, wh.Subresource), More: wh.More + len(wh.Sites) - 1}
		if len(wh.Sites) > 0 {
			wv.Path = b.traceSteps(v, wh.Sites[0].Path)
			wv.Via = wh.Sites[0].Write.Via
		}
		if wh.Next != nil {
			for _, w := range wh.Next.Watchers {
				wv.WatchedBy = appendOnce(wv.WatchedBy, b.watcherLink(v.page, d, w))
			}
		}
		sv.Writes = append(sv.Writes, wv)
	}
	for _, o := range s.Other {
		wv := ctlWriteView{Label: writeLabel(strings.Join(o.Verbs, "/"), o.APIVerb, o.Resource, o.Subresource), More: o.Count - 1}
		wv.Path = b.traceSteps(v, o.First.Path)
		wv.Via = o.First.Write.Via
		sv.Writes = append(sv.Writes, wv)
	}
	return sv
}

// watcherLink names a watcher of what a controller writes, linked to the
// page describing its component: a controller's page, or the scheduler's
// plugins.
func (b *builder) watcherLink(page string, d *controllerData, w *trace.Watcher) linkView {
	l := linkView{Text: w.Name}
	if name := trace.Owner(d.owner, w.Component); name != "" {
		return linkView{Text: name, Href: b.link(page, ControllerPage(name), "")}
	}
	if w.Name == trace.ComponentName("pkg/scheduler") && len(b.in.Facts.SchedulerPlugins) > 0 {
		l.Href = b.link(page, pluginsPage, "")
	}
	return l
}

// stepsCiting returns the walkthrough steps citing any of locs, each once,
// in the order citingSteps gives them for the first location citing it.
func (b *builder) stepsCiting(page string, locs []fact.Location) []stepLink {
	steps := b.citingSteps(page)
	var out []stepLink
	seen := map[string]bool{}
	for _, l := range locs {
		if l.IsZero() {
			continue
		}
		for _, s := range steps(l) {
			if !seen[s.Href] {
				seen[s.Href] = true
				out = append(out, s)
			}
		}
	}
	return out
}
