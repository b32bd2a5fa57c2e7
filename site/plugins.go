package site

import (
	"fmt"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/internal/derive/trace"
)

// The scheduler plugins page: one section per plugin of the in-tree
// registry, with the extension points its type implements (each with the
// methods that make it one) and the cluster events it asks to be told of.

type pluginView struct {
	ID, Name, Type, Package string
	Factory, Registered     traceStepView
	Points                  []pointView
	EventIntro              string
	Events                  []pluginEventView
	Steps                   []stepLink
}

type pointView struct {
	Name    string
	Methods []traceStepView
}

type pluginEventView struct {
	Resource, Action string
	Hint             *traceStepView
	At               locView
}

func (b *builder) pluginsPage() ([]byte, error) {
	p := pluginsPage
	v := b.views(p)
	body := struct {
		Intro   string
		Plugins []pluginView
		Index   string
	}{Intro: fmt.Sprintf(b.t("plugins.intro"), len(b.in.Facts.SchedulerPlugins)), Index: b.link(p, controllersPage, "")}
	ref := func(r fact.FuncRef) traceStepView {
		return b.traceStep(v, trace.Step{Symbol: r.Symbol, Decl: r.Decl, At: r.Decl})
	}
	for _, pl := range b.in.Facts.SchedulerPlugins {
		pv := pluginView{ID: anchorID("p-", pl.Name), Name: pl.Name, Type: fact.ShortSymbol(pl.Type), Package: pl.Package,
			Factory: ref(pl.Factory), Registered: b.traceStep(v, trace.Step{Symbol: pl.Registry.Symbol, Decl: pl.Registry.Decl, At: pl.At})}
		cited := []fact.Location{pl.Factory.Decl}
		for _, ep := range pl.ExtensionPoints {
			pt := pointView{Name: ep.Name}
			for _, m := range ep.Methods {
				pt.Methods = append(pt.Methods, ref(m))
				cited = append(cited, m.Decl)
			}
			pv.Points = append(pv.Points, pt)
		}
		for _, e := range pl.Events {
			ev := pluginEventView{Resource: e.Resource, Action: e.ActionType, At: v.loc(e.At)}
			if e.Hint != nil {
				h := ref(*e.Hint)
				ev.Hint = &h
			}
			pv.Events = append(pv.Events, ev)
		}
		pv.EventIntro = b.count("plugins.events", len(pl.Events))
		pv.Steps = b.stepsCiting(p, cited)
		body.Plugins = append(body.Plugins, pv)
	}
	return b.exec("plugins", b.pageData(p, b.t("plugins.title"), "controllers", body))
}
