package site

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/kubewalk/kubewalk/analyzer"
)

// explainFixture adds the events seed 000 shows to the fixture's facts:
// SuccessfulCreate and Scheduled (ScalingReplicaSet is there already).
func explainFixture(in *Input) {
	w := in.Facts.Writes
	in.Facts.Events = append(in.Facts.Events,
		analyzer.Event{Caller: w[0].Caller, At: w[0].At, Recorder: "record", Method: "Eventf", Type: "Normal",
			Reason: "SuccessfulCreate", Message: "Created pod: %v"},
		analyzer.Event{Caller: w[1].Caller, At: w[1].At, Recorder: "events", Method: "Eventf", Type: "Normal",
			Reason: "Scheduled", Message: "Successfully assigned %v/%v to %v"},
	)
}

func TestExplainIndex(t *testing.T) {
	out, _ := buildFixture(t, explainFixture)
	files := readTree(t, out)
	js := files["explain-index.js"]
	for _, want := range []string{
		`window.kubewalkExplain = {"tag":"v1.31.0"`,
		`"ScalingReplicaSet":[{"f":"pkg/controller/deployment/sync.go"`,
		`"s":"src/pkg/controller/deployment/sync.go.html#L`,
		`"create pods/binding":[`,
		`"walkthroughs/deployment.html#step-3-schedule"`,
		`\u003cimg src=x onerror=alert(1)\u003e`, // the hostile reason, escaped
	} {
		if !strings.Contains(js, want) {
			t.Errorf("explain-index.js lacks %s", want)
		}
	}
	if !strings.Contains(files["explain.html"], `<script src="explain-index.js"></script>`) {
		t.Errorf("explain.html does not load its index")
	}
}

// TestBrowserExplain pastes seed 000's `kubectl get events --watch` output
// into the explain page.
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
		chromedp.SetValue(chromedp.CSS(`#explain-input`), string(events)),
		chromedp.Click(chromedp.CSS(`#explain-form button`)),
		chromedp.WaitVisible(chromedp.CSS(`#explain-results tr`)),
	)
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		Reason, Class, Code, Step string
	}
	rows, err := chromedp.Run(ctx, chromedp.Evaluate[[]row](`[...document.querySelectorAll('#explain-results tr')].map(tr => ({
		Reason: (tr.querySelector('.reason') || {}).textContent || '',
		Class: tr.className,
		Code: (tr.querySelector('a.loc') || {}).href || '',
		Step: (tr.querySelector('a.step') || {}).href || '',
	}))`))
	if err != nil {
		t.Fatal(err)
	}
	// 19 events and the "$ kubectl get event --watch" line above them,
	// listed as unexplained rather than dropped.
	if len(rows) != 20 || rows[0].Class != "unexplained" {
		t.Errorf("%d rows (first %+v), want 20, the command line unexplained", len(rows), rows[0])
	}
	got := map[string]row{}
	for _, r := range rows {
		got[r.Reason] = r
	}
	for _, reason := range []string{"ScalingReplicaSet", "SuccessfulCreate", "Scheduled"} {
		r := got[reason]
		if r.Class != "explained" || !strings.HasPrefix(r.Code, srv.URL+"/src/") || !strings.Contains(r.Code, ".go.html#L") {
			t.Errorf("%s: %+v, want explained with a link to its source page", reason, r)
		}
	}
	if r := got["ScalingReplicaSet"]; !strings.HasSuffix(r.Step, "/walkthroughs/deployment.html#step-3-schedule") {
		t.Errorf("ScalingReplicaSet: step link %q, want the step whose facts block lists it", r.Step)
	}
	if r := got["Pulling"]; r.Class != "unexplained" {
		t.Errorf("Pulling (no such fact in the fixture) is %q, want unexplained", r.Class)
	}
	screenshot(t, ctx, art, "explain.png", true)
}
