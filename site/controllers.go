package site

import (
	"fmt"
	"strings"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/internal/derive/trace"
)

// Controller pages: one page per entry of kube-controller-manager's
// controller list (the analyzer's Controllers facts), an index of them,
// and one page of the scheduler's in-tree plugins. What a page says is
// derived by internal/derive/trace from the facts (trace.Controllers);
// this file lays it out, each section opened by a sentence from the
// string table that counts what follows.

const (
	controllersPage = "controllers/index.html"
	pluginsPage     = "controllers/scheduler-plugins.html"
)

// ControllerPage returns the site path of a controller's page.
func ControllerPage(name string) string { return "controllers/" + name + ".html" }

// controllersLink is the nav link to the controllers index from page,
// "" when the facts list no controller (the page is not built).
func (b *builder) controllersLink(page string) string {
	if len(b.in.Facts.Controllers) == 0 && len(b.in.Facts.SchedulerPlugins) == 0 {
		return ""
	}
	return b.link(page, controllersPage, "")
}

// controllerData is what the controller pages share, derived once per
// build on first use.
type controllerData struct {
	views []*trace.ControllerView
	// owner maps a package directory to the controller whose page
	// describes it, for links from the watchers of what a controller writes.
	owner map[string]string
	// traces are the trace pages of the kinds the controllers sync that
	// Input.Traces lacks.
	traces []TraceInput
}

// controllerPages lists the controller, plugin and extra trace pages.
func (b *builder) controllerPages() ([]page, error) {
	data := b.rel.controllers
	if data == nil {
		return nil, nil
	}
	var ps []page
	add := func(p string, f func() ([]byte, error)) {
		ps = append(ps, page{path: p, html: true, render: f})
	}
	add(controllersPage, func() ([]byte, error) { return b.controllersIndex(data()) })
	add(pluginsPage, b.pluginsPage)
	for i, c := range b.in.Facts.Controllers {
		if err := checkID(c.Name); err != nil {
			return nil, fmt.Errorf("controller: %w", err)
		}
		add(ControllerPage(c.Name), func() ([]byte, error) { return b.controllerPage(data(), i) })
	}
	for _, ti := range data().traces {
		add(TracePage(ti.Kind), func() ([]byte, error) { return b.tracePage(ti) })
	}
	return ps, nil
}

// controllerData derives what the controller pages share, or takes it
// from the Cache: it depends on the release only. The pages only read
// it.
func (b *builder) controllerData() *controllerData {
	if b.reuse == nil {
		return b.deriveControllers()
	}
	return b.reuse.controllers.Keep("", struct{}{}, b.deriveControllers)
}

// deriveControllers derives the controllers' views from the facts and
// the traces of the kinds they sync that Input.Traces lacks.
func (b *builder) deriveControllers() *controllerData {
	in := trace.Input{Facts: b.in.Facts, Symbols: b.in.Symbols, Source: b.in.ReadFile}
	views := trace.Controllers(in, trace.Options{})
	d := &controllerData{views: views, owner: trace.Owners(views)}
	have := map[string]bool{}
	ids := map[string]bool{}
	for _, ti := range b.in.Traces {
		ids[ti.Kind] = true
		if !traceEmpty(ti.Trace) {
			r := ti.Trace.Root.Resource
			have[r.Group+"/"+r.Resource] = true
		}
	}
	var roots []fact.Resource
	for _, r := range trace.SyncedKinds(d.views) {
		if !have[r.Group+"/"+r.Resource] {
			roots = append(roots, r)
		}
	}
	for i, t := range trace.DeriveMany(in, roots, trace.Options{}) {
		id := strings.ToLower(roots[i].Kind)
		if ids[id] || checkID(id) != nil {
			id = strings.ToLower(roots[i].Resource + "." + roots[i].Group)
		}
		ids[id] = true
		d.traces = append(d.traces, TraceInput{Kind: id, Title: roots[i].Kind, Trace: t})
	}
	return d
}

// kindTraces returns the trace page of each resource with one, keyed by
// fact.Resource.Label, as links from page: Input.Traces', and with d (nil for
// none) those of the kinds the controllers sync.
func (b *builder) kindTraces(d *controllerData, page string) map[string]string {
	tis := b.in.Traces
	if d != nil {
		tis = append(append([]TraceInput(nil), tis...), d.traces...)
	}
	out := map[string]string{}
	for _, ti := range tis {
		if !traceEmpty(ti.Trace) && checkID(ti.Kind) == nil {
			out[ti.Trace.Root.Resource.Label()] = b.link(page, TracePage(ti.Kind), "")
		}
	}
	return out
}

// resourceTraces returns kindTraces for the resources page: with the
// controllers' kinds when the build has controller pages.
func (b *builder) resourceTraces(page string) map[string]string {
	if b.rel.controllers == nil {
		return b.kindTraces(nil, page)
	}
	return b.kindTraces(b.rel.controllers(), page)
}
