package main

import (
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/kubewalk/kubewalk/analyzer/fact"
)

// gateInfo is what `list gates` prints of a gate: its entry in the
// release's table and the checks of it in the analysed code.
type gateInfo struct {
	fact.Gate
	Checks []fact.GateCheck `json:"checks"`
}

// gateInfos joins the table and the checks by gate name, sorted by name.
// A gate checked in the code but declared in a package the analysis did
// not load has checks and no stage.
func gateInfos(f *fact.Facts) []gateInfo {
	byName := map[string]*gateInfo{}
	var out []*gateInfo
	get := func(name string) *gateInfo {
		if gi := byName[name]; gi != nil {
			return gi
		}
		gi := &gateInfo{Gate: fact.Gate{Name: name}, Checks: []fact.GateCheck{}}
		byName[name] = gi
		out = append(out, gi)
		return gi
	}
	for _, g := range f.Gates {
		get(g.Name).Gate = g
	}
	for _, c := range f.GateChecks {
		gi := get(c.Gate)
		gi.Checks = append(gi.Checks, c)
	}
	slices.SortFunc(out, func(a, b *gateInfo) int { return strings.Compare(a.Name, b.Name) })
	infos := make([]gateInfo, len(out))
	for i, gi := range out {
		infos[i] = *gi
	}
	return infos
}

// listGates prints the gates of the release: the table, or JSON or YAML
// with each gate's checks.
func listGates(w io.Writer, output string, f *fact.Facts) error {
	return emit(w, output, gateInfos(f), gateRows)
}

func gateRows(gs []gateInfo) [][]string {
	rows := [][]string{{"GATE", "STAGE", "DEFAULT", "LOCKED", "SINCE", "CHECKS", "FIRST CHECK"}}
	for _, g := range gs {
		stage, def, locked, since, first := g.Stage, "off", "-", g.Since, "-"
		if stage == "" {
			stage, def = "?", "?"
		} else if g.Default {
			def = "on"
		}
		if g.LockToDefault {
			locked = "locked"
		}
		if since == "" {
			since = "-"
		}
		// A call guarding two spans (an if's body and its else) is one check.
		calls := map[fact.Location]bool{}
		for _, c := range g.Checks {
			calls[c.At] = true
		}
		if len(g.Checks) > 0 {
			first = at(g.Checks[0].At)
		}
		rows = append(rows, []string{g.Name, stage, def, locked, since, strconv.Itoa(len(calls)), first})
	}
	return rows
}
