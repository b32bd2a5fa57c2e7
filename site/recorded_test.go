package site

import (
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/kubewalk/kubewalk/record"
)

// fixtureRecording is a small recorded run over the fixture's facts: the
// apply, the ReplicaSet the deployment controller writes (a write fact of
// the fixture), its ScalingReplicaSet event (an event fact), a write no
// fact explains, a watch, an event of the cluster itself, and hostile text
// wherever the cluster could put some.
func fixtureRecording() *record.Recording {
	const dc = "system:serviceaccount:kube-system:deployment-controller"
	return &record.Recording{
		Format: record.Format, Tag: fixtureTag, Scenario: "deployment", GoVersion: "go1.26.8",
		Components: []record.Component{{Name: "kube-apiserver", Version: "Kubernetes " + fixtureTag + " <b>", ReadyMillis: 3000}},
		Audit: []record.AuditEntry{
			{At: -500, Stage: "ResponseStarted", Verb: "watch", Group: "apps", Version: "v1", Resource: "deployments", User: "system:kube-controller-manager", UserAgent: "kube-controller-manager/" + fixtureTag, RequestURI: "/apis/apps/v1/deployments?watch=true"},
			{At: 0, Stage: "ResponseComplete", Verb: "create", Group: "apps", Version: "v1", Resource: "deployments", Namespace: "default", Name: "nginx-deployment", User: "kubernetes-admin", UserAgent: "kubectl/" + fixtureTag, RequestURI: "/apis/apps/v1/namespaces/default/deployments?fieldManager=kubectl-client-side-apply", Code: 201},
			{At: 61, Stage: "ResponseComplete", Verb: "create", Group: "apps", Version: "v1", Resource: "replicasets", Namespace: "default", Name: "nginx-deployment-6c5f67b5f7", User: dc, UserAgent: "kube-controller-manager/" + fixtureTag + "/" + dc, RequestURI: "/apis/apps/v1/namespaces/default/replicasets", Code: 201},
			{At: 90, Stage: "ResponseComplete", Verb: "patch", Version: "v1", Resource: "configmaps", Namespace: "default", Name: "x", User: "<script>alert(1)</script>", UserAgent: "evil\"><img src=x onerror=alert(2)>", RequestURI: "/api/v1/namespaces/default/configmaps/x?<script>alert(3)</script>", Code: 200},
		},
		Events: []record.Event{
			{At: -900, Type: "Normal", Reason: "Starting", Object: record.ObjectRef{Kind: "Node", Name: "node1"}, Component: "kubelet", Name: "node1.1", Namespace: "default", Count: 1},
			{At: 71, Type: "Normal", Reason: "ScalingReplicaSet", Object: record.ObjectRef{Kind: "Deployment", Namespace: "default", Name: "nginx-deployment"}, Message: "Scaled up replica set nginx-deployment-6c5f67b5f7 to 3 <script>alert(4)</script>", Component: "deployment-controller", Name: "nginx-deployment.1", Namespace: "default", Count: 1},
		},
		Keys: []record.Key{{Key: "/registry/deployments/default/nginx-deployment", Size: 2610, Encoding: "protobuf", APIVersion: "apps/v1", Kind: "Deployment", Prefix: `"k8s\x00\n\x0f\n\aapps/v1"`}},
	}
}

func TestRecordedRun(t *testing.T) {
	out, _ := buildFixture(t, func(in *Input) { in.Recordings = []*record.Recording{fixtureRecording()} })
	files := readTree(t, out)
	page, ok := files[RecordedPage("deployment")]
	if !ok {
		t.Fatalf("no %s", "recorded.html")
	}
	if !strings.Contains(files[homePage], `<li><a href="recorded.html">Recorded run</a> — What a real control plane`) {
		t.Error("the home page's indexes do not list the recorded run")
	}
	for _, want := range []string{
		// The write and the event are attributed to the fixture's facts.
		"written by",
		"DeploymentController.getNewReplicaSet",
		"emitted by",
		// The scenario's items are listed with their offsets
		// (html/template writes + as &#43;).
		"&#43;0 ms", "&#43;61 ms", "&#43;71 ms",
		// The watch, the etcd key, the components.
		"/apis/apps/v1/deployments?watch=true",
		"/registry/deployments/default/nginx-deployment",
		"Kubernetes " + fixtureTag + " &lt;b&gt;",
		// Hostile text from the cluster stays text.
		"&lt;script&gt;alert(1)&lt;/script&gt;",
		"&lt;script&gt;alert(4)&lt;/script&gt;",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("%s lacks %q", "recorded.html", want)
		}
	}
	for _, bad := range []string{"<script>alert", "<img src=x", fixtureTag + " <b>"} {
		if strings.Contains(page, bad) {
			t.Errorf("%s carries %q unescaped", "recorded.html", bad)
		}
	}
	// The patch of a configmap matches no write fact and no step: it is
	// listed as not attributed, never given code.
	_, unattributed, _ := strings.Cut(page, `id="unattributed"`)
	unattributed, _, _ = strings.Cut(unattributed, `id="watches"`)
	if !strings.Contains(unattributed, "patch configmaps") || strings.Contains(unattributed, "create replicasets") {
		t.Errorf("the not-attributed section does not list exactly the configmap patch:\n%s", unattributed)
	}
	// The sequence diagram is drawn from the audit log, one arrow per
	// component and write, linking to the step.
	if !strings.Contains(page, "create replicasets") || !strings.Contains(page, `href="walkthroughs/deployment.html#`) {
		t.Errorf("%s: no diagram arrow for the ReplicaSet's create linking to its step", "recorded.html")
	}

	// The step that explains the ReplicaSet's create shows it observed.
	wt := files["walkthroughs/deployment.html"]
	if n := strings.Count(wt, `class="observed"`); n == 0 {
		t.Errorf("deployment.html has no Observed panel")
	}
	if !strings.Contains(wt, "nginx-deployment-6c5f67b5f7") || !strings.Contains(wt, `href="../recorded.html"`) {
		t.Errorf("deployment.html: the panel lacks the observed ReplicaSet or the link to the run")
	}
	// Every page links the run; the explain page's example is its events.
	if !strings.Contains(files["index.html"], `href="recorded.html"`) {
		t.Error("index.html does not link the recorded run")
	}
	if !strings.Contains(files["explain.html"], "ScalingReplicaSet   deployment/nginx-deployment") {
		t.Error("explain.html's example is not the recorded events")
	}
	if strings.Contains(files["explain.html"], "Starting") {
		t.Error("explain.html's example holds an event that is not the scenario's")
	}
}

// Without a recording the site has no trace of one.
func TestNoRecordingNoRecordedRun(t *testing.T) {
	out, _ := buildFixture(t, nil)
	for name, data := range readTree(t, out) {
		if strings.HasPrefix(name, "recorded") || strings.Contains(data, `href="recorded`) || strings.Contains(data, `/recorded`) || strings.Contains(data, `class="observed"`) {
			t.Errorf("%s mentions a recorded run, without a recording", name)
		}
	}
}

// The run page and an Observed panel, opened in Chromium from file:// and
// over HTTP: the panel is open under its step, and the diagram's arrows
// lead to the steps.
func TestBrowserRecordedRun(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	out, _ := buildFixture(t, func(in *Input) { in.Recordings = []*record.Recording{fixtureRecording()} })
	art := artifacts(t)
	srv := httptest.NewServer(http.FileServer(http.Dir(out)))
	defer srv.Close()
	abs, err := filepath.Abs(out)
	if err != nil {
		t.Fatal(err)
	}
	ctx := browser(t, 1280, 900)
	for _, base := range []string{srv.URL, "file://" + filepath.ToSlash(abs)} {
		err := chromedp.Do(ctx, chromedp.Navigate(base+"/recorded.html"), chromedp.WaitVisible(chromedp.CSS(`details.phase[open] ol.timeline li`)))
		if err != nil {
			t.Fatalf("%s: %v", base, err)
		}
		n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('ol.timeline > li').length`))
		if err != nil || n != 5 {
			t.Errorf("%s: %d items in the phases, want 5 (the node's start-up event, the apply, the ReplicaSet, the event, the patch), err %v", base, n, err)
		}
		arrows, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll('figure.diagram svg a')).map(a => a.getAttribute('href'))`))
		if err != nil || len(arrows) == 0 {
			t.Fatalf("%s: diagram arrows %v, err %v", base, arrows, err)
		}
		// Follow the ReplicaSet's arrow to its step, and find it observed
		// there.
		err = chromedp.Do(ctx, chromedp.Navigate(base+"/"+arrows[len(arrows)-1]), chromedp.WaitVisible(chromedp.CSS(`details.observed[open] li`)))
		if err != nil {
			t.Fatalf("%s: following %s: %v", base, arrows[len(arrows)-1], err)
		}
		text, err := chromedp.Run(ctx, chromedp.Evaluate[string](`Array.from(document.querySelectorAll('details.observed')).map(d => d.innerText).join('\n')`))
		if err != nil || !strings.Contains(text, "create replicasets") {
			t.Errorf("%s: Observed panels %q, want the ReplicaSet's create; err %v", base, text, err)
		}
	}
	screenshot(t, ctx, art, "recorded-step.png", true)
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/recorded.html"), chromedp.WaitReady(chromedp.CSS("body"))); err != nil {
		t.Fatal(err)
	}
	screenshot(t, ctx, art, "recorded-run.png", true)
}

// Several scenarios: a page each, linked to one another; only the
// deployment scenario, which the walkthroughs follow, fills the panels.
func TestRecordedScenarios(t *testing.T) {
	scale := fixtureRecording()
	scale.Scenario = "scale"
	scale.Audit[2].Name = "only-in-scale"
	scale.FakeRuntime = &record.FakeRuntime{Exits: []record.Exit{{Image: "busybox:1.36", Code: 1, AfterMillis: 1000}}, PullFails: []string{"nginx:<no-such-tag>"}}
	out, _ := buildFixture(t, func(in *Input) { in.Recordings = []*record.Recording{fixtureRecording(), scale} })
	files := readTree(t, out)
	// What the fake runtime was told is said beside what is simulated,
	// on the page of the run it was told in only.
	for _, want := range []string{"was told that a container of busybox:1.36 exits with code 1, 1000 ms after it starts", "was told that nginx:&lt;no-such-tag&gt; does not exist"} {
		if !strings.Contains(files["recorded-scale.html"], want) || strings.Contains(files["recorded.html"], want) {
			t.Errorf("%q is not on the scale run's page alone", want)
		}
	}
	if !strings.Contains(files["recorded.html"], `href="recorded-scale.html"`) || !strings.Contains(files["recorded-scale.html"], `href="recorded.html"`) {
		t.Error("the two run pages do not link each other")
	}
	if !strings.Contains(files["recorded-scale.html"], "only-in-scale") {
		t.Error("recorded-scale.html does not show its own recording")
	}
	if strings.Contains(files["walkthroughs/deployment.html"], "only-in-scale") {
		t.Error("a step's panel shows an item of the scale scenario")
	}
	// A scenario name that is no safe page name is refused.
	bad := fixtureRecording()
	bad.Scenario = "../x"
	in, opts := fixture(t)
	in.Recordings = []*record.Recording{bad}
	opts.Out = filepath.Join(t.TempDir(), "public")
	if _, err := Build(t.Context(), in, opts); err == nil {
		t.Error("a recording named ../x was built")
	}
}
