package site

import (
	"strings"
	"testing"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/internal/derive/trace"
)

func TestTracePages(t *testing.T) {
	out, _ := buildFixture(t, func(in *Input) {
		h := in.Facts.Handlers[0]
		w := in.Facts.Writes[0]
		step := func(f fact.FuncRef, at fact.Location) trace.Step {
			return trace.Step{Symbol: f.Symbol, Decl: f.Decl, At: at}
		}
		tr := &trace.Trace{Tag: in.Tag, Depth: 2, Root: &trace.Node{
			Resource: h.Informer, Event: "add",
			Watchers: []*trace.Watcher{{
				Component: h.Component, Name: "deployment <controller>", Via: "informer", Status: "expanded",
				Registration: step(h.Caller, h.At),
				Handler:      &trace.Step{Symbol: h.Add.Symbol, Decl: h.Add.Decl},
				Writes: []*trace.WriteHop{{
					Resource: w.Resource, Verb: w.Verb, APIVerb: w.APIVerb,
					Sites: []trace.WriteSite{{Write: w, Path: []trace.Step{step(w.Caller, w.At)}}},
					Next:  &trace.Node{Resource: w.Resource, Event: "add", Notes: []string{"nobody <watches>"}},
				}},
			}},
		}}
		in.Traces = []TraceInput{{Kind: "deployment", Title: "Deployment", Trace: tr}, {Kind: "service", Title: "Service"}}
	})
	files := readTree(t, out)
	page, ok := files["traces/deployment.html"]
	if !ok {
		t.Fatal("no traces/deployment.html")
	}
	for _, want := range []string{
		"deployment &lt;controller&gt;",
		"nobody &lt;watches&gt;",
		`<figure class="excerpt">`,
		`class="ln mark"`,
		`href="../src/pkg/controller/deployment/sync.go.html#L`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("trace page lacks %s", want)
		}
	}
	if _, ok := files["traces/service.html"]; ok {
		t.Errorf("an empty trace got a page")
	}
	home := files["index.html"]
	if !strings.Contains(home, `href="traces/deployment.html"`) || !strings.Contains(home, "Service") {
		t.Errorf("home page: no trace link or no note for the empty one")
	}
	for _, err := range CheckLinks(out) {
		t.Error(err)
	}
}
