package site

import (
	"fmt"
	"maps"
	"slices"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/site/internal/pagecache"
)

func (b *builder) eventsPage() ([]byte, error) {
	v := b.views(eventsPage)
	by := map[string][]fact.Event{}
	for _, e := range b.in.Facts.Events {
		by[e.Key()] = append(by[e.Key()], e)
	}
	steps := b.citingSteps(eventsPage)
	var groups []groupView
	for _, k := range slices.Sorted(maps.Keys(by)) {
		g := groupView{ID: anchorID("e-", k), Title: k, Facts: v.facts(nil, by[k], nil)}
		for i, e := range by[k] {
			g.Facts.Events[i].Steps = steps(e.At)
		}
		if by[k][0].Reason == "" {
			g.Sub = b.t("events.nonconst")
		}
		groups = append(groups, g)
	}
	return b.exec("events", b.pageData(eventsPage, b.t("events.title"), "events", groups))
}

// eventsKey is the events page's key: its links depend on the files with
// a source page and on the steps citing each call site.
func (b *builder) eventsKey() pageKey {
	k := pagecache.NewHasher("events")
	fk := b.filesKey()
	k.Write(fk[:])
	for _, d := range b.docs {
		k.Add(d.ID)
		k.Add(d.Title)
		for _, st := range d.Steps {
			k.Add(st.ID)
			k.Add(st.Title)
			for _, seg := range st.Segments {
				if seg.Facts != nil {
					for _, e := range seg.Facts.Events {
						k.Add(fmt.Sprintf("%s:%d", e.At.Path, e.At.StartLine))
					}
				}
			}
		}
	}
	for _, p := range slices.Sorted(maps.Keys(b.cites)) {
		for _, c := range b.cites[p] {
			k.Add(fmt.Sprintf("%s %s %d %d-%d", p, c.doc.ID, c.step, c.from, c.to))
		}
	}
	return k.Sum()
}

// citingSteps returns a function listing the walkthrough steps that cite
// a call site, as links from page: steps whose excerpts or references
// cover its line, or whose facts blocks show it; in walkthrough and step
// order, each once.
func (b *builder) citingSteps(page string) func(at fact.Location) []stepLink {
	type stepAt struct{ doc, step int }
	inFacts := map[fact.Location][]stepAt{}
	for di, d := range b.docs {
		for si, st := range d.Steps {
			for _, seg := range st.Segments {
				if seg.Facts != nil {
					for _, e := range seg.Facts.Events {
						inFacts[e.At] = append(inFacts[e.At], stepAt{di, si})
					}
				}
			}
		}
	}
	docIndex := map[string]int{}
	for i, d := range b.docs {
		docIndex[d.ID] = i
	}
	return func(at fact.Location) []stepLink {
		seen := map[stepAt]bool{}
		var found []stepAt
		add := func(s stepAt) {
			if !seen[s] {
				seen[s] = true
				found = append(found, s)
			}
		}
		for _, c := range b.cites[at.Path] {
			if c.step >= 0 && c.from <= at.StartLine && at.StartLine <= c.to {
				add(stepAt{docIndex[c.doc.ID], c.step})
			}
		}
		for _, s := range inFacts[at] {
			add(s)
		}
		slices.SortFunc(found, func(a, c stepAt) int {
			if a.doc != c.doc {
				return a.doc - c.doc
			}
			return a.step - c.step
		})
		var out []stepLink
		for _, s := range found {
			d := b.docs[s.doc]
			out = append(out, stepLink{Title: d.Title + " › " + d.Steps[s.step].Title, Href: b.link(page, WalkthroughPage(d.ID), d.Steps[s.step].ID)})
		}
		return out
	}
}
