package site

import (
	"fmt"
	"strings"
)

type homeDoc struct {
	Title, Summary, Href string
	Topics               []string
	Steps                int
	// Fallback: not translated into the site's language (shown in English).
	Fallback bool
}

func (b *builder) homePage() ([]byte, error) {
	var docs []homeDoc
	for _, d := range b.docs {
		docs = append(docs, homeDoc{Title: d.Title, Summary: d.Summary, Href: relURL(homePage, WalkthroughPage(d.ID), ""), Topics: d.Topics, Steps: len(d.Steps), Fallback: d.Lang != b.in.Lang})
	}
	body := struct {
		Docs     []homeDoc
		Files    int
		Changes  *homeChanges
		Traces   []navView
		NoTraces []string
		// FactsSize is facts.json's size, as byteSize writes it, so a reader knows what
		// the one link to it costs before following it.
		FactsSize string
		// FactsNewest is the release whose facts the file is compressed
		// against (factsfile.go), "" for none: the way to open it differs.
		FactsNewest string
		// Platform is the GOOS/GOARCH the facts describe ("" when they
		// do not say): a reader learns other platforms' files are not in
		// them.
		Platform string
	}{Docs: docs, Files: len(b.files), Changes: b.homeChanges(), Platform: b.in.Facts.Platform}
	if nb := b.factsNewest(); nb != nil {
		body.FactsNewest = nb.tag
	}
	n, err := b.factsSize()
	if err != nil {
		return nil, err
	}
	body.FactsSize = byteSize(n)
	for _, ti := range b.in.Traces {
		if traceEmpty(ti.Trace) {
			body.NoTraces = append(body.NoTraces, ti.Title)
		} else {
			body.Traces = append(body.Traces, navView{b.link(homePage, TracePage(ti.Kind), ""), ti.Title})
		}
	}
	return b.exec("home", b.pageData(homePage, b.t("site.name"), "home", body))
}

// homeChanges summarises what changed since the previous release.
type homeChanges struct {
	Since, Href string
	Refs        int
	Facts       []string // "3 handlers added", …
}

func (b *builder) homeChanges() *homeChanges {
	if b.in.Since == "" {
		return nil
	}
	hc := &homeChanges{Since: b.in.Since, Href: b.changesLink(homePage, ""), Refs: len(b.changeKeys)}
	count := map[string]int{}
	for _, f := range b.in.FactChanges {
		count[string(f.Kind)+"s."+string(f.Change)]++
	}
	for _, k := range []string{"handlers", "events", "writes"} {
		for _, c := range []string{"added", "removed"} {
			if n := count[k+"."+c]; n > 0 {
				hc.Facts = append(hc.Facts, fmt.Sprintf("%d %s %s", n, strings.ToLower(b.t("facts."+k)), b.t("home.facts."+c)))
			}
		}
	}
	return hc
}
