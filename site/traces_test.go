package site

import (
	"regexp"
	"strings"
	"testing"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/internal/derive/trace"
	"github.com/kubewalk/kubewalk/internal/linkcheck"
)

// traceFixture gives the fixture a deployment trace, with a note whose
// argument is hostile, and an empty service trace.
func traceFixture(in *Input) {
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
			Handler:      &trace.Step{Symbol: h.Add.Symbol, Decl: h.Add.Decl, At: h.Add.Decl},
			Writes: []*trace.WriteHop{{
				Resource: w.Resource, Verb: w.Verb, APIVerb: w.APIVerb,
				Sites: []trace.WriteSite{{Write: w, Path: []trace.Step{step(w.Caller, w.At)}}},
				Next:  &trace.Node{Resource: w.Resource, Event: "add", Notes: []trace.Note{{ID: "no-watcher", Args: []string{"<watches>"}}}},
			}},
		}},
		Notes: []trace.Note{{ID: "unknown-lw", Args: []string{"1", "kubelet.NewSourceApiserver (pkg/kubelet/config/apiserver.go:40)"}}},
	}}
	in.Traces = []TraceInput{{Kind: "deployment", Title: "Deployment", Trace: tr}, {Kind: "service", Title: "Service"}}
}

func TestTracePages(t *testing.T) {
	out, _ := buildFixture(t, traceFixture)
	files := readTree(t, out)
	page, ok := files["traces/deployment.html"]
	if !ok {
		t.Fatal("no traces/deployment.html")
	}
	for _, want := range []string{
		"deployment &lt;controller&gt;",
		"no watcher of &lt;watches&gt; found",
		`<figure class="excerpt">`,
		`class="ln mark"`,
		`href="../src/pkg/controller/deployment/sync.go.html#L`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("trace page lacks %s", want)
		}
	}
	// A step whose symbol and location go to the same place is one link.
	if !strings.Contains(page, `<a class="tstep" href="../src/pkg/controller/deployment/deployment_controller.go.html#L`) {
		t.Error("trace page: the handler step is not one link")
	}
	for _, m := range regexp.MustCompile(`<a class="sym" href="([^"]*)">[^<]*</a> <a class="loc" href="([^"]*)"`).FindAllStringSubmatch(page, -1) {
		if m[1] == m[2] {
			t.Errorf("trace page: two links to %s for one step", m[1])
		}
	}
	// The analyzer's limits are the terminal's (`kubewalk trace`), not a reader's.
	if strings.Contains(page, "raw list-watches") || strings.Contains(page, "NewSourceApiserver") {
		t.Error("trace page carries the analyzer's note on raw list-watches")
	}
	if _, ok := files["traces/service.html"]; ok {
		t.Errorf("an empty trace got a page")
	}
	home := files["index.html"]
	if !strings.Contains(home, `href="traces/deployment.html"`) || !strings.Contains(home, "Service") {
		t.Errorf("home page: no trace link or no note for the empty one")
	}
	for _, err := range linkcheck.Check(out, ScriptLinks) {
		t.Error(err)
	}
}

// TestTraceNotesTranslated: a trace's generated sentences come out in the
// page's language, and every translation fills the same arguments.
func TestTraceNotesTranslated(t *testing.T) {
	for id, en := range trace.NoteText {
		ko, ok := messages["ko"]["trace.note."+id]
		if !ok {
			t.Errorf("no Korean for the trace note %q", id)
			continue
		}
		if a, b := strings.Count(en, "%s"), strings.Count(ko, "%s"); a != b || strings.Count(ko, "%") != b {
			t.Errorf("trace note %q: English fills %d arguments, Korean %d (%q)", id, a, b, ko)
		}
	}
	out, _ := buildFixture(t, func(in *Input) {
		bilingual(in)
		traceFixture(in)
	})
	files := readTree(t, out)
	// One page for both languages, each note marked with its language
	// (data-lg: English 1, Korean 2; langshare.go).
	p := files["traces/deployment.html"]
	if !regexp.MustCompile(`data-lg="2" hidden="">[^<]*분석한 루트에서 &lt;watches&gt;의 감시자를 찾지 못했습니다`).MatchString(p) {
		t.Errorf("the trace page does not carry the note in Korean")
	}
	if !regexp.MustCompile(`data-lg="1">[^<]*no watcher of &lt;watches&gt; found`).MatchString(p) {
		t.Errorf("the trace page does not carry the note in English")
	}
}
