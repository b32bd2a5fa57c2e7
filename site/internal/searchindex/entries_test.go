package searchindex

import (
	"html/template"
	"strings"
	"testing"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/walkthrough"
)

// testRelease is a release of one walkthrough whose step names the
// Scheduled event in its prose, with facts declared in a rendered and an
// unrendered file.
func testRelease() Release {
	prose := &walkthrough.Markdown{}
	syncFn := fact.Symbol{Name: "k8s.io/x.Controller.sync", Decl: fact.Location{Path: "x/c.go", StartLine: 10, EndLine: 20}}
	hidden := fact.FuncRef{Symbol: "k8s.io/y.gen", Decl: fact.Location{Path: "y/gen.go", StartLine: 1, EndLine: 2}}
	f := &fact.Facts{
		Events: []fact.Event{
			{Reason: "Scheduled", Type: "Normal", Message: "Successfully assigned %s to %s", Caller: hidden},
			{Reason: "Scheduled", Type: "Normal", Message: "Successfully assigned %s to %s"},
			{ReasonExpr: "reason", Type: "Warning", MessageValues: []string{"failed", "failed"}},
		},
		Writes: []fact.Write{{Resource: fact.Resource{Group: "apps", Resource: "replicasets"}, Caller: fact.FuncRef{Symbol: syncFn.Name, Decl: syncFn.Decl}}},
	}
	return Release{
		Docs: []*walkthrough.Doc{{
			ID: "w", Title: "Walk", Summary: "The `sync` loop", Topics: []string{"informer"},
			Steps: []walkthrough.Step{{ID: "step-1", Title: "Bind", Label: "bind",
				Segments: []walkthrough.Segment{{Markdown: prose}},
				Refs:     []walkthrough.Ref{{Resolved: fact.Resolved{Symbol: syncFn}}}}},
		}},
		Facts: f,
		Files: []string{"x/c.go"},
		// Two elements' words stay apart: "binds<code>Pod</code>".
		Prose:    map[*walkthrough.Markdown]template.HTML{prose: "<p>The scheduler binds<code>Pod</code>, then Scheduled.</p>"},
		Rendered: func(p string) bool { return p == "x/c.go" },
		URLs: URLs{
			Walkthrough: func(id, step string) string { return "w/" + id + ".html#" + step },
			Symbol:      func(d fact.Location) string { return "src/" + d.Path + ".html" },
			Event:       func(k string) string { return "events.html#" + k },
			Resource:    func(l string) string { return "resources.html#" + l },
			File:        func(p string) string { return "src/" + p + ".html" },
			SymbolTitle: func(sym string, _ fact.Location) string { return fact.ShortSymbol(sym) },
		},
	}
}

// TestEntries: every kind of entry, each once, sorted; a step is found
// by the message format of an event its prose names; symbols only where
// a reader can open them.
func TestEntries(t *testing.T) {
	es := Entries(testRelease())
	var kinds []string
	by := map[string]Entry{}
	for i, e := range es {
		kinds = append(kinds, e.Kind+":"+e.Title)
		by[e.Kind+":"+e.Title] = e
		if i > 0 && es[i-1].Kind == e.Kind && es[i-1].Title > e.Title {
			t.Errorf("entries not sorted: %q before %q", es[i-1].Title, e.Title)
		}
	}
	want := "event:Scheduled event:reason file:x/c.go resource:replicasets.apps step:Bind symbol:x.Controller.sync walkthrough:Walk"
	if got := strings.Join(kinds, " "); got != want {
		t.Fatalf("entries:\n got %s\nwant %s", got, want)
	}
	step := by["step:Bind"]
	for _, w := range []string{"binds Pod", "Successfully assigned %s to %s", "x.Controller.sync", "bind"} {
		if !strings.Contains(step.Body, w) {
			t.Errorf("step body %q lacks %q", step.Body, w)
		}
	}
	if e := by["event:Scheduled"]; e.Detail != "Normal — Successfully assigned %s to %s" || e.URL != "events.html#Scheduled" {
		t.Errorf("event entry = %+v", e)
	}
	if e := by["event:reason"]; e.Detail != "Warning — failed" {
		t.Errorf("event computed at run time = %+v", e)
	}
	if e := by["walkthrough:Walk"]; e.Detail != "The sync loop" || !strings.Contains(e.Body, "informer") {
		t.Errorf("walkthrough entry = %+v", e)
	}
	if e := by["symbol:x.Controller.sync"]; e.URL != "src/x/c.go.html" || e.Detail != "k8s.io/x.Controller.sync" {
		t.Errorf("symbol entry = %+v", e)
	}
}

// TestClip: a long detail is cut at a space near the limit.
func TestClip(t *testing.T) {
	s := strings.Repeat("word ", 40)
	got := clip(s, 22)
	if got != "word word word word…" {
		t.Errorf("clip = %q", got)
	}
	if clip("short", 10) != "short" {
		t.Error("a short text was clipped")
	}
}

// TestEntriesEmpty: a release with nothing to index has an empty list,
// which search-index.js writes as [] rather than null.
func TestEntriesEmpty(t *testing.T) {
	r := testRelease()
	r.Docs, r.Files, r.Facts = nil, nil, &fact.Facts{}
	if es := Entries(r); es == nil || len(es) != 0 {
		t.Errorf("Entries = %#v, want an empty list", es)
	}
}
