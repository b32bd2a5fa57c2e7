package main

import (
	"io"
	"strconv"
	"strings"

	"github.com/kubewalk/kubewalk/analyzer/fact"
)

// listControllers prints kube-controller-manager's controller list, or,
// for "plugins", the scheduler's in-tree plugins.
func listControllers(w io.Writer, what, output string, facts *fact.Facts) error {
	if what == "plugins" {
		return emit(w, output, facts.SchedulerPlugins, pluginRows)
	}
	return emit(w, output, facts.Controllers, controllerRows)
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
