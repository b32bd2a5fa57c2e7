package site

import (
	"fmt"
	"maps"
	"slices"

	"github.com/kubewalk/kubewalk/analyzer/fact"
)

// The index of the controller pages: a row per controller, with its
// state, gates, watches, syncs and counts of writes and events.

// controllerRow is one controller's row of the index.
type controllerRow struct {
	Name, Href, State string
	Gates             []string
	Watches           []string
	Syncs             []traceStepView
	Writes, Events    int
}

// linkView is a link as a template writes it.
type linkView struct{ Text, Href string }

// controllersIndex is the index page of the controllers d lists.
func (b *builder) controllersIndex(d *controllerData) ([]byte, error) {
	p := controllersPage
	v := b.views(p)
	body := struct {
		Intro   string
		Rows    []controllerRow
		Plugins string
		Traces  []linkView
	}{Plugins: b.link(p, pluginsPage, "")}
	for _, cv := range d.views {
		c := cv.Controller
		row := controllerRow{Name: c.Name, Href: b.link(p, ControllerPage(c.Name), ""), State: b.controllerState(c), Gates: c.FeatureGates, Events: len(cv.Events)}
		for _, w := range cv.Watches {
			row.Watches = appendOnce(row.Watches, w.Registration.Informer.Label())
		}
		for _, s := range cv.Syncs {
			row.Syncs = append(row.Syncs, b.traceStep(v, *s.Sync))
			row.Writes += len(s.Writes) + len(s.Other)
		}
		body.Rows = append(body.Rows, row)
	}
	body.Intro = fmt.Sprintf(b.t("controllers.intro"), len(d.views))
	traces := b.kindTraces(d, p)
	for _, k := range slices.Sorted(maps.Keys(traces)) {
		body.Traces = append(body.Traces, linkView{Text: k, Href: traces[k]})
	}
	return b.exec("controllers", b.pageData(p, b.t("controllers.title"), "controllers", body))
}

// appendOnce appends x to s unless s has it.
func appendOnce[T comparable](s []T, x T) []T {
	if slices.Contains(s, x) {
		return s
	}
	return append(s, x)
}

// controllerState says, from the string table, when the manager starts
// the controller.
func (b *builder) controllerState(c fact.Controller) string {
	switch {
	case c.Special:
		return b.t("controllers.special")
	case c.Cloud:
		return b.t("controllers.cloud")
	case c.DisabledByDefault:
		return b.t("controllers.off")
	}
	return b.t("controllers.on")
}
