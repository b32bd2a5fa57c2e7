package codetour

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/walkthrough"
)

const md = `---
title: Deployment
summary: One line.
---

Intro with [sync][].

## The controller creates a ReplicaSet {from="a" to="b"}

[getNewReplicaSet](go:k8s.io/kubernetes/pkg/controller/deployment.DeploymentController.getNewReplicaSet) creates it.

` + "```excerpt\nref: k8s.io/kubernetes/pkg/controller/deployment.DeploymentController.getNewReplicaSet\nlines: Create\ncaption: Created here.\n```" + `

` + "```excerpt\nref: k8s.io/kubernetes/pkg/controller/deployment.DeploymentController.syncDeployment\n```" + `

## Events

` + "```facts\nevents: reason=ScalingReplicaSet\n```" + `

` + "```yaml\nkind: Deployment\n```" + `

## No code

Just [sync][] prose.

[sync]: go:k8s.io/kubernetes/pkg/controller/deployment.DeploymentController.syncDeployment
`

const (
	pkg  = "k8s.io/kubernetes/pkg/controller/deployment"
	file = "pkg/controller/deployment/sync.go"
)

func sym(name string, from, to int) fact.Symbol {
	return fact.Symbol{Name: pkg + "." + name, Kind: "method", Decl: fact.Location{Path: file, StartLine: from, EndLine: to}}
}

func fixtureDoc() *walkthrough.Doc {
	getNew := sym("DeploymentController.getNewReplicaSet", 190, 300)
	sync := sym("DeploymentController.syncDeployment", 10, 40)
	ref := func(text string, s fact.Symbol, matched ...int) walkthrough.Ref {
		return walkthrough.Ref{File: "deployment.md", Text: text, Resolved: fact.Resolved{Symbol: s, Matched: matched}}
	}
	return &walkthrough.Doc{
		ID: "deployment", Lang: "en", File: "deployment.md", Title: "Deployment", Summary: "One line.",
		Intro: []walkthrough.Segment{prose("Intro with [sync](x).")},
		Steps: []walkthrough.Step{
			{ID: "step-1", Title: "The controller creates a ReplicaSet", Line: 8,
				Segments: []walkthrough.Segment{
					prose("[getNewReplicaSet](x) creates it."),
					{Excerpt: &walkthrough.Excerpt{Ref: ref(pkg+".DeploymentController.getNewReplicaSet", getNew, 232), From: 190, To: 300, Highlight: []int{232}, Context: 2, Caption: "Created here."}},
					{Excerpt: &walkthrough.Excerpt{Ref: ref(pkg+".DeploymentController.syncDeployment", sync), From: 10, To: 40, Context: -1}},
				},
				Refs: []walkthrough.Ref{
					ref("go:"+pkg+".DeploymentController.getNewReplicaSet", getNew),
					ref(pkg+".DeploymentController.getNewReplicaSet", getNew, 232),
				}},
			{ID: "step-2", Title: "Events", Line: 22,
				Segments: []walkthrough.Segment{{Facts: &walkthrough.FactsBlock{Kind: "events", Query: "reason=ScalingReplicaSet", Events: []fact.Event{
					{Caller: fact.FuncRef{Symbol: getNew.Name}, At: fact.Location{Path: file, StartLine: 286, EndLine: 286}, Type: "Normal", Reason: "ScalingReplicaSet"},
				}}}}},
			{ID: "step-3", Title: "No code", Line: 32,
				Segments: []walkthrough.Segment{prose("Just [sync](x) prose &amp; more.")},
				Refs:     []walkthrough.Ref{ref("go:"+pkg+".DeploymentController.syncDeployment", sync)}},
		},
	}
}

func perma(p string, from, to int) string {
	return "https://github.com/kubernetes/kubernetes/blob/v1.36.3/" + p + "#L" + itoa(from) + "-L" + itoa(to)
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func TestFromDoc(t *testing.T) {
	opts := Options{
		Tag:       "v1.36.3",
		Markdown:  func(string) ([]byte, error) { return []byte(md), nil },
		Permalink: perma,
		LineLen:   func(p string, line int) int { return 7 },
	}
	tour := FromDoc(fixtureDoc(), opts)
	b, err := Marshal(tour)
	if err != nil {
		t.Fatal(err)
	}
	// The JSON shape CodeTour reads.
	var got map[string]any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if got["$schema"] != "https://aka.ms/codetour-schema" || got["title"] != "Deployment" || got["ref"] != "v1.36.3" || got["description"] != "One line." {
		t.Errorf("tour header: %v", got)
	}
	steps := got["steps"].([]any)
	if len(steps) != 5 {
		t.Fatalf("%d steps, want 5 (intro, step 1, its second excerpt, step 2, step 3):\n%s", len(steps), b)
	}
	s1 := steps[1].(map[string]any)
	wantSel := map[string]any{"start": map[string]any{"line": 230.0, "character": 1.0}, "end": map[string]any{"line": 234.0, "character": 8.0}}
	if s1["file"] != file || s1["line"] != 232.0 || s1["title"] != "The controller creates a ReplicaSet" || !cmp.Equal(s1["selection"], wantSel) {
		t.Errorf("step 1: %v", s1)
	}
	desc := s1["description"].(string)
	for _, want := range []string{
		"[getNewReplicaSet](https://github.com/kubernetes/kubernetes/blob/v1.36.3/pkg/controller/deployment/sync.go#L190-L300) creates it.",
		"> Created here.\n>\n> `deployment.DeploymentController.getNewReplicaSet`, [pkg/controller/deployment/sync.go lines 230–234](",
	} {
		if !strings.Contains(desc, want) {
			t.Errorf("step 1 description lacks %q:\n%s", want, desc)
		}
	}
	if strings.Contains(desc, "```excerpt") || strings.Contains(desc, "{from=") || strings.Contains(desc, "go:k8s.io") {
		t.Errorf("step 1 description keeps walkthrough syntax:\n%s", desc)
	}
	if s := steps[2].(map[string]any); s["title"] != "The controller creates a ReplicaSet (2)" || s["line"] != 10.0 {
		t.Errorf("second excerpt: %v", s)
	}
	s2 := steps[3].(map[string]any)
	if d := s2["description"].(string); !strings.Contains(d, "- event `ScalingReplicaSet` (Normal) in `deployment.DeploymentController.getNewReplicaSet` — [pkg/controller/deployment/sync.go:286](") ||
		!strings.Contains(d, "```yaml\nkind: Deployment\n```") {
		t.Errorf("facts step: %s", d)
	}
	if _, ok := s2["file"]; ok {
		t.Errorf("a step with no reference is content-only: %v", s2)
	}
	s3 := steps[4].(map[string]any)
	if d := s3["description"].(string); d != "Just [sync][] prose.\n\n[sync]: https://github.com/kubernetes/kubernetes/blob/v1.36.3/pkg/controller/deployment/sync.go#L10-L40" || s3["line"] != 10.0 {
		t.Errorf("step 3: %q %v", d, s3["line"])
	}
	if d := steps[0].(map[string]any)["description"]; d != "Intro with [sync][].\n\n[sync]: https://github.com/kubernetes/kubernetes/blob/v1.36.3/pkg/controller/deployment/sync.go#L10-L40" {
		t.Errorf("intro %q", d)
	}
}

func TestFromDocWithoutMarkdown(t *testing.T) {
	tour := FromDoc(fixtureDoc(), Options{Tag: "v1.36.3"})
	if len(tour.Steps) != 5 || tour.Steps[0].Description != "Intro with sync." || tour.Steps[4].Description != "Just sync prose & more." {
		t.Errorf("%+v", tour.Steps)
	}
	if sel := tour.Steps[1].Selection; sel == nil || sel.End != (Position{Line: 235, Character: 1}) {
		t.Errorf("selection without line lengths: %+v", sel)
	}
}

func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	d := fixtureDoc()
	p := filepath.Join(dir, FileName(d))
	tour := FromDoc(d, Options{Tag: "v1.36.3"})
	if err := WriteFile(p, tour); err != nil {
		t.Fatal(err)
	}
	a, _ := os.ReadFile(p)
	if err := WriteFile(p, FromDoc(fixtureDoc(), Options{Tag: "v1.36.3"})); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(p)
	if string(a) != string(b) || !strings.HasSuffix(string(a), "}\n") || !strings.HasPrefix(string(a), "{\n  \"$schema\": ") {
		t.Errorf("not deterministic or not formatted:\n%s", a)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 || ents[0].Name() != "deployment.tour" {
		t.Errorf("left behind: %v", ents)
	}
	d.Lang = "ko"
	if FileName(d) != "deployment.ko.tour" {
		t.Errorf("FileName %q", FileName(d))
	}
}

// prose is a segment of Markdown text as walkthrough.Load makes one, but
// without references.
func prose(src string) walkthrough.Segment {
	doc := goldmark.New().Parser().Parse(text.NewReader([]byte(src)))
	var blocks []ast.Node
	for c := doc.FirstChild(); c != nil; c = c.NextSibling() {
		blocks = append(blocks, c)
	}
	return walkthrough.Segment{Markdown: &walkthrough.Markdown{Source: []byte(src), Blocks: blocks}}
}
