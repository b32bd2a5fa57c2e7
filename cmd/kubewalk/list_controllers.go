package main

import (
	"io"
	"strconv"
	"strings"

	"github.com/kubewalk/kubewalk/analyzer"
	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/internal/derive/trace"
)

// listControllers prints kube-controller-manager's controller list, or,
// for "plugins", the scheduler's in-tree plugins. In JSON and YAML each
// controller has, besides its facts, the watches and sync functions with
// their writes that its page in the site shows (trace.Controllers, as the
// site derives them); the table has the facts.
func listControllers(w io.Writer, what, output string, res *analyzer.Result) error {
	facts := res.Facts()
	if what == "plugins" {
		return emit(w, output, facts.SchedulerPlugins, pluginRows)
	}
	if output == "table" {
		return emit(w, output, facts.Controllers, controllerRows)
	}
	var infos []controllerInfo
	for _, v := range trace.Controllers(traceInput(res), trace.Options{}) {
		infos = append(infos, newControllerInfo(v))
	}
	return emit(w, output, infos, nil)
}

// controllerInfo is a controller as `list controllers -o json` prints it:
// its facts, and what its page shows of its watches and sync functions.
type controllerInfo struct {
	fact.Controller
	// Watches are its informer handler registrations.
	Watches []controllerWatch `json:"watches"`
	// Syncs are the functions its workers call, with their writes.
	Syncs []controllerSync `json:"syncs"`
}

type controllerWatch struct {
	Resource fact.Resource `json:"resource"` // empty for a dynamic informer
	At       fact.Location `json:"at"`
	// Add, Update and Delete are the handlers' symbols, "" for none or a
	// function literal.
	Add    string `json:"add,omitempty"`
	Update string `json:"update,omitempty"`
	Delete string `json:"delete,omitempty"`
	// Sync is the function the handlers' queue leads to, "" when not found.
	Sync string `json:"sync,omitempty"`
	// Secondary is true when the sync works on another resource than this
	// watch's (the watch only enqueues owners or dependents).
	Secondary bool `json:"secondary,omitempty"`
}

type controllerSync struct {
	Sync   string            `json:"sync"`
	Decl   fact.Location     `json:"decl"`
	Writes []controllerWrite `json:"writes"`
}

// controllerWrite is one kind of write a sync function makes: At is the
// nearest site, Count the number of sites.
type controllerWrite struct {
	Verb        string        `json:"verb"`
	APIVerb     string        `json:"apiVerb"`
	Resource    fact.Resource `json:"resource"`
	Subresource string        `json:"subresource,omitempty"`
	At          fact.Location `json:"at"`
	Count       int           `json:"count"`
}

func newControllerInfo(v *trace.ControllerView) controllerInfo {
	ci := controllerInfo{Controller: v.Controller, Watches: []controllerWatch{}, Syncs: []controllerSync{}}
	sym := func(h *fact.Handler) string {
		if h == nil {
			return ""
		}
		return h.Symbol
	}
	for _, w := range v.Watches {
		r := w.Registration
		cw := controllerWatch{Resource: r.Informer, At: r.At, Add: sym(r.Add), Update: sym(r.Update), Delete: sym(r.Delete), Secondary: w.Status == "secondary"}
		if w.Sync != nil {
			cw.Sync = w.Sync.Symbol
		}
		ci.Watches = append(ci.Watches, cw)
	}
	for _, s := range v.Syncs {
		cs := controllerSync{Sync: s.Sync.Symbol, Decl: s.Sync.Decl, Writes: []controllerWrite{}}
		for _, wh := range s.Writes {
			cw := controllerWrite{Verb: wh.Verb, APIVerb: wh.APIVerb, Resource: wh.Resource, Subresource: wh.Subresource, Count: wh.More + len(wh.Sites)}
			if len(wh.Sites) > 0 {
				cw.At = wh.Sites[0].Write.At
			}
			cs.Writes = append(cs.Writes, cw)
		}
		for _, o := range s.Other {
			cs.Writes = append(cs.Writes, controllerWrite{Verb: strings.Join(o.Verbs, "/"), APIVerb: o.APIVerb, Resource: o.Resource, Subresource: o.Subresource, At: o.First.Write.At, Count: o.Count})
		}
		ci.Syncs = append(ci.Syncs, cs)
	}
	return ci
}

func controllerRows(cs []fact.Controller) [][]string {
	rows := [][]string{{"NAME", "DEFAULT", "GATES", "START", "CONSTRUCTORS", "AT"}}
	for _, c := range cs {
		def := "on"
		switch {
		case c.Special:
			def = "special"
		case c.Cloud:
			def = "cloud"
		case c.DisabledByDefault:
			def = "off"
		}
		var ctors []string
		for _, x := range c.Constructors {
			ctors = append(ctors, fact.ShortSymbol(x.Symbol))
		}
		rows = append(rows, []string{c.Name, def, orDash(strings.Join(c.FeatureGates, ",")),
			fact.ShortSymbol(c.Start.Symbol), orDash(strings.Join(ctors, ",")), at(c.At)})
	}
	return rows
}

func pluginRows(ps []fact.SchedulerPlugin) [][]string {
	rows := [][]string{{"NAME", "EXTENSION POINTS", "EVENTS", "FACTORY", "AT"}}
	for _, p := range ps {
		var eps []string
		for _, e := range p.ExtensionPoints {
			eps = append(eps, e.Name)
		}
		rows = append(rows, []string{p.Name, orDash(strings.Join(eps, ",")), strconv.Itoa(len(p.Events)),
			fact.ShortSymbol(p.Factory.Symbol), at(p.At)})
	}
	return rows
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
