package site

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/internal/derive/explain"
	"github.com/kubewalk/kubewalk/site/internal/explainshare"
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

// readExplainIndex reads the scripts the explain page at site path page
// of a built site (readTree) loads, explain-index.js and
// explain-steps.js (in a multi-release site, with explain-shared.js and
// explain-steps-shared.js: explainshare.Share), back into the Index they
// hold; it returns where the index is (a site path) too.
func readExplainIndex(t *testing.T, files map[string]string, page string) (*explain.Index, string) {
	t.Helper()
	var idx *explain.Index
	var at, shared string
	var steps []explain.IndexStep
	for _, m := range scriptSrc.FindAllStringSubmatch(files[page], -1) {
		p := path.Join(path.Dir(page), m[1])
		switch path.Base(p) {
		case explainshare.SharedJS:
			shared = p
		case explainIndexJS:
			at = p
		case explainStepsJS:
			readScript(t, files, p, "kubewalkExplainSteps", &steps)
		case explainshare.StepsSharedJS:
			js, ok := files[p]
			byTag, err := explainshare.ParseSharedSteps([]byte(js))
			if !ok || err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			steps = byTag[strings.SplitN(page, "/", 2)[0]]
		}
	}
	if at == "" || steps == nil {
		t.Fatalf("%s loads no explain-index.js or explain-steps.js", page)
	}
	js, ok := files[at]
	if !ok {
		t.Fatalf("no %s", at)
	}
	idx, err := explainshare.ParseIndex([]byte(js), func() ([]byte, error) {
		if d, ok := files[shared]; ok {
			return []byte(d), nil
		}
		return nil, fmt.Errorf("%s loads no %s", page, explainshare.SharedJS)
	})
	if err != nil {
		t.Fatalf("%s: %v", at, err)
	}
	idx.Steps = steps
	return idx, at
}

// scriptSrc matches a script element the templates write.
var scriptSrc = regexp.MustCompile(`<script src="([^"]+)"></script>`)

// readScript reads the value the script at site path p of files assigns
// to window.<global> into v.
func readScript(t *testing.T, files map[string]string, p, global string, v any) {
	t.Helper()
	js, ok := files[p]
	if !ok {
		t.Fatalf("no %s", p)
	}
	data, ok := strings.CutPrefix(js, "window."+global+" = ")
	data, ok2 := strings.CutSuffix(data, ";\n")
	if !ok || !ok2 {
		t.Fatalf("%s is not one assignment to %s: %.80q", p, global, js)
	}
	if err := json.Unmarshal([]byte(data), v); err != nil {
		t.Fatalf("%s: %v", p, err)
	}
}

func TestExplainIndex(t *testing.T) {
	out, _ := buildFixture(t, explainFixture)
	files := readTree(t, out)
	js := files["explain-index.js"]
	idx, _ := readExplainIndex(t, files, explainPage)
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
	// The steps are the language's: explain-index.js has none.
	if strings.Contains(js, `"steps"`) || strings.Contains(js, "rolloutRolling → getNewReplicaSet") {
		t.Errorf("explain-index.js carries the steps")
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
	events := watchEvents(t)
	out, _ := buildFixture(t, explainFixture)
	art := artifacts(t)
	srv := httptest.NewServer(http.FileServer(http.Dir(out)))
	defer srv.Close()
	ctx := browser(t, 1400, 1000)
	got := pasteExplain(t, ctx, srv.URL+"/explain.html", events)
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

// TestBrowserExplainBilingual pastes the events into each language's
// explain page of the bilingual site, opened from file://: the two load
// one explain-index.js and each its own steps, and each says what
// kubewalk explain says with that language's walkthroughs.
func TestBrowserExplainBilingual(t *testing.T) {
	events := watchEvents(t)
	out, _ := buildFixture(t, func(in *Input) { bilingual(in); explainFixture(in) })
	ctx := browser(t, 1400, 1000)
	in, opts := fixture(t)
	bilingual(&in)
	explainFixture(&in)
	for _, lang := range in.Langs {
		got := pasteExplain(t, ctx, fileURL(t, out)+lang+"/"+explainPage, events)
		want := localized(lang, goResults(explain.New(in.Facts, walkthrough.Select(in.Docs, lang), explainOptions(opts.SourceURL)), events))
		if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("%s: page differs from kubewalk explain (-go +page):\n%s", lang, diff)
		}
		if !slices.ContainsFunc(got, func(r lineResult) bool { return len(r.Steps) > 0 }) {
			t.Errorf("%s: no line explained by a step", lang)
		}
	}
}

// pasteExplain opens the explain page at url, pastes input into it and
// reads the results table back.
func pasteExplain(t *testing.T, ctx context.Context, url string, input []byte) []lineResult {
	t.Helper()
	err := chromedp.Do(ctx,
		chromedp.Navigate(url),
		chromedp.WaitVisible(chromedp.CSS(`#explain-input`)),
		// SetValue sends an input event, as pasting does.
		chromedp.SetValue(chromedp.CSS(`#explain-input`), string(input)),
		chromedp.WaitReady(chromedp.CSS(`#explain-results[data-run="1"]`)),
	)
	if err != nil {
		t.Fatal(err)
	}
	return explainTable(t, ctx)
}

// explainTable reads the explain page's results table back.
func explainTable(t *testing.T, ctx context.Context) []lineResult {
	t.Helper()
	got, err := chromedp.Run(ctx, chromedp.Evaluate[[]lineResult](pageResultsJS))
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// watchEvents is the blog post's `kubectl get events --watch` output, for
// the browser tests of the explain page, which it skips in -short mode.
func watchEvents(t *testing.T) []byte {
	t.Helper()
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	events, err := os.ReadFile(filepath.Join("testdata", "seed000-events.txt"))
	if err != nil {
		t.Fatal(err)
	}
	return events
}
