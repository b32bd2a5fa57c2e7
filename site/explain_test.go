package site

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/internal/derive/explain"
	"github.com/kubewalk/kubewalk/walkthrough"
)

// explainFixture adds the events the blog post's `kubectl get events
// --watch` shows to the fixture's facts: SuccessfulCreate and Scheduled
// (ScalingReplicaSet is there already).
func explainFixture(in *Input) {
	w := in.Facts.Writes
	in.Facts.Events = append(in.Facts.Events,
		fact.Event{Caller: w[0].Caller, At: w[0].At, Recorder: "record", Method: "Eventf", Type: "Normal",
			Reason: "SuccessfulCreate", Message: "Created pod: %v"},
		fact.Event{Caller: w[1].Caller, At: w[1].At, Recorder: "events", Method: "Eventf", Type: "Normal",
			Reason: "Scheduled", Message: "Successfully assigned %v/%v to %v"},
	)
}

// readExplainIndex reads explain-index.js back into the Index it holds.
func readExplainIndex(t *testing.T, js string) *explain.Index {
	t.Helper()
	data, ok := strings.CutPrefix(js, "window.kubewalkExplain = ")
	data, ok2 := strings.CutSuffix(data, ";\n")
	if !ok || !ok2 {
		t.Fatalf("explain-index.js is not one assignment: %.80q", js)
	}
	var idx explain.Index
	if err := json.Unmarshal([]byte(data), &idx); err != nil {
		t.Fatal(err)
	}
	return &idx
}

func TestExplainIndex(t *testing.T) {
	out, _ := buildFixture(t, explainFixture)
	files := readTree(t, out)
	js := files["explain-index.js"]
	idx := readExplainIndex(t, js)
	if idx.Tag != "v1.31.0" || len(idx.Events) != 4 || len(idx.Writes) != 2 || len(idx.Handlers) != 1 {
		t.Errorf("index of %s: %d events, %d writes, %d handlers", idx.Tag, len(idx.Events), len(idx.Writes), len(idx.Handlers))
	}
	// The English walkthroughs, in walkthrough order, with links
	// relative to explain.html.
	var pages []string
	for _, s := range idx.Steps {
		pages = append(pages, s.Page)
	}
	want := []string{"walkthroughs/deployment.html#step-1-informer", "walkthroughs/deployment.html#step-2-rollout",
		"walkthroughs/deployment.html#step-3-schedule", "walkthroughs/watch.html#step-1-watch"}
	if diff := cmp.Diff(want, pages); diff != "" {
		t.Errorf("steps (-want +got):\n%s", diff)
	}
	sr := idx.Events[1]
	if sr.Reason != "ScalingReplicaSet" || sr.Path != "pkg/controller/deployment/sync.go" ||
		!strings.HasPrefix(sr.Page, "src/pkg/controller/deployment/sync.go.html#L") ||
		!strings.HasPrefix(sr.Permalink, "https://github.com/kubernetes/kubernetes/blob/v1.31.0/pkg/controller/deployment/sync.go#L") {
		t.Errorf("ScalingReplicaSet: %+v", sr)
	}
	// Step 3's facts block lists it (score 3); step 2's excerpt of
	// rolloutRolling does not reach getNewReplicaSet's lines.
	if diff := cmp.Diff([][2]int{{2, 3}}, sr.Steps); diff != "" {
		t.Errorf("ScalingReplicaSet steps (-want +got):\n%s", diff)
	}
	if b := idx.Writes[1]; b.Verb != "create" || b.Resource != "pods" || b.Subresource != "binding" {
		t.Errorf("bind: %+v", b)
	}
	// A reason with markup stays inside its JSON string.
	if !strings.Contains(js, `"reason":"\u003cimg src=x onerror=alert(1)\u003e"`) {
		t.Errorf("explain-index.js does not escape the hostile reason")
	}
	if !strings.Contains(files["explain.html"], `<script src="explain-index.js"></script>`) {
		t.Errorf("explain.html does not load its index")
	}
	// The script reads the same whatever encoding it is loaded in.
	for i, r := range files["assets/explain.js"] {
		if r > 0x7f {
			t.Errorf("assets/explain.js: %q at byte %d is not ASCII", r, i)
			break
		}
	}
}

// TestBrowserExplain pastes the blog post's `kubectl get events --watch`
// output into the explain page served over HTTP, as a reader would: the
// page explains it on the input event, and says what kubewalk explain
// says.
func TestBrowserExplain(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	events, err := os.ReadFile(filepath.Join("testdata", "seed000-events.txt"))
	if err != nil {
		t.Fatal(err)
	}
	out, _ := buildFixture(t, explainFixture)
	art := artifacts(t)
	srv := httptest.NewServer(http.FileServer(http.Dir(out)))
	defer srv.Close()
	ctx := browser(t, 1400, 1000)
	err = chromedp.Do(ctx,
		chromedp.Navigate(srv.URL+"/explain.html"),
		chromedp.WaitVisible(chromedp.CSS(`#explain-input`)),
		// SetValue sends an input event, as pasting does.
		chromedp.SetValue(chromedp.CSS(`#explain-input`), string(events)),
		chromedp.WaitReady(chromedp.CSS(`#explain-results[data-run="1"]`)),
	)
	if err != nil {
		t.Fatal(err)
	}
	got, err := chromedp.Run(ctx, chromedp.Evaluate[[]lineResult](pageResultsJS))
	if err != nil {
		t.Fatal(err)
	}
	in, opts := fixture(t)
	explainFixture(&in)
	want := goResults(explain.New(in.Facts, walkthrough.Select(in.Docs, in.Lang), explainOptions(opts.SourceURL)), events)
	if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("page differs from kubewalk explain (-go +page):\n%s", diff)
	}
	// 19 events and the "$ kubectl get event --watch" line above them,
	// listed as unexplained rather than dropped.
	if len(got) != 20 || got[0].Explained || got[0].Line != 1 {
		t.Fatalf("%d rows (first %+v), want 20, the command line unexplained", len(got), got[0])
	}
	byReason := map[string]lineResult{}
	for _, r := range got[1:] {
		byReason[strings.Fields(r.Text)[2]] = r
	}
	for _, reason := range []string{"ScalingReplicaSet", "SuccessfulCreate", "Scheduled"} {
		if r := byReason[reason]; !r.Explained || len(r.Code) != 1 {
			t.Errorf("%s: %+v, want explained by one call site", reason, r)
		}
	}
	if r := byReason["ScalingReplicaSet"]; len(r.Steps) != 1 || !strings.HasPrefix(r.Steps[0], "walkthroughs/deployment.html#step-3-schedule ") {
		t.Errorf("ScalingReplicaSet: steps %q, want the step whose facts block lists it", r.Steps)
	}
	if r := byReason["Pulling"]; r.Explained || r.Note != `no recorder call with reason "Pulling" at v1.31.0` {
		t.Errorf("Pulling (no such fact in the fixture): %+v, want unexplained", r)
	}
	// ScalingReplicaSet once, SuccessfulCreate and Scheduled three times.
	summary, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#explain-summary`)))
	if err != nil || summary != "7 / 20" {
		t.Errorf("summary %q (%v), want 7 / 20", summary, err)
	}
	screenshot(t, ctx, art, "explain.png", true)
}
