package site

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/internal/linkcheck"
)

// withControllers gives the fixture one controller, whose start function
// is the fixture's deployment constructor (it registers the handler),
// and one scheduler plugin.
func withControllers(in *Input) {
	f := *in.Facts
	var start fact.FuncRef
	for _, h := range f.Handlers {
		if strings.HasSuffix(h.Caller.Symbol, ".NewDeploymentController") {
			start = h.Caller
		}
	}
	f.Controllers = []fact.Controller{{
		Name: "deployment-controller", Aliases: []string{"deployment"}, Manager: "cmd/kube-controller-manager/app",
		Start: start, Constructors: []fact.FuncRef{start}, Packages: []string{"pkg/controller/deployment"},
		FeatureGates: []string{"SomeGate"},
	}}
	f.SchedulerPlugins = []fact.SchedulerPlugin{{
		Name: "Binder", Factory: start, Type: "k8s.io/kubernetes/pkg/scheduler.Binder", Package: "pkg/scheduler",
		ExtensionPoints: []fact.ExtensionPoint{{Name: "Bind", Methods: []fact.FuncRef{start}}},
		Events:          []fact.PluginEvent{{Resource: "Node", ActionType: "Add|UpdateNodeLabel"}},
	}}
	// The sync function reaches the fixture's write through rolloutRolling.
	var sync fact.FuncRef
	for _, w := range f.Wirings {
		sync = w.Sync
	}
	f.Calls = append(append([]fact.Call(nil), f.Calls...), fact.Call{From: sync.Symbol, To: strings.TrimSuffix(sync.Symbol, "syncDeployment") + "rolloutRolling", At: sync.Decl, Kind: "static"})
	in.Facts = &f
}

func TestControllerPages(t *testing.T) {
	out, _ := buildFixture(t, withControllers)
	read := func(p string) string {
		b, err := os.ReadFile(filepath.Join(out, p))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	// The home page's indexes list the controllers with a line on them.
	if home := read(homePage); !strings.Contains(home, `<li><a href="controllers/index.html">Controllers</a> — kube-controller-manager&#39;s controllers`) {
		t.Error("the home page's indexes do not list the controllers")
	}
	page := read(ControllerPage("deployment-controller"))
	for _, want := range []string{
		"<h1>deployment-controller</h1>",
		"<code>deployment</code>", "<code>SomeGate</code>",
		"1 informer handler registrations are reached from the start function or the Run method of what it builds.",
		"deployments.apps",
		"DeploymentController.syncDeployment",
		`<span class="verb">create replicasets.apps</span>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("controller page lacks %q", want)
		}
	}
	index := read(controllersPage)
	if !strings.Contains(index, `deployment-controller.html">deployment-controller</a>`) || !strings.Contains(index, "registers 1 controllers") {
		t.Errorf("index does not list the controller:\n%s", index)
	}
	plugins := read(pluginsPage)
	for _, want := range []string{`id="p-Binder"`, "<dt>Bind</dt>", "<code>Add|UpdateNodeLabel</code>"} {
		if !strings.Contains(plugins, want) {
			t.Errorf("plugins page lacks %q", want)
		}
	}
	// The kind the controller syncs gets a trace page, linked from the
	// resources page.
	read(TracePage("deployment"))
	if res := read(resourcesPage); !strings.Contains(res, `href="traces/deployment.html"`) {
		t.Error("the resources page does not link the deployments trace")
	}
	if home := read(homePage); !strings.Contains(home, `href="controllers/index.html"`) {
		t.Error("no nav link to the controllers")
	}
	for _, err := range linkcheck.Check(out, ScriptLinks) {
		t.Error(err)
	}
}

// TestNoControllerPages: facts without a controller list build no
// controller page and no nav link to one.
func TestNoControllerPages(t *testing.T) {
	out, _ := buildFixture(t, nil)
	if _, err := os.Stat(filepath.Join(out, controllersPage)); !os.IsNotExist(err) {
		t.Errorf("controllers index built without controllers: %v", err)
	}
	b, err := os.ReadFile(filepath.Join(out, homePage))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "controllers/index.html") {
		t.Error("nav links a controllers page that is not built")
	}
}

func TestControllerPageKorean(t *testing.T) {
	out, _ := buildFixture(t, func(in *Input) { withControllers(in); in.Lang = "ko" })
	b, err := os.ReadFile(filepath.Join(out, ControllerPage("deployment-controller")))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "시작 함수나 그것이 만든 것의 Run 메서드에서 인포머 핸들러 등록 1개에 이릅니다.") {
		t.Error("the Korean page does not say what it watches in Korean")
	}
}

// TestControllerPagesBilingual: in a site of two languages a controller
// page is one page for both (langshare.go), and the links of and to the
// controller pages hold. (Links elsewhere are the other pages' tests'
// business: the fixture's walkthrough links its code one directory short
// in this layout.)
func TestControllerPagesBilingual(t *testing.T) {
	out, _ := buildFixture(t, func(in *Input) { withControllers(in); in.Langs = []string{"en", "ko"} })
	if _, err := os.Stat(filepath.Join(out, ControllerPage("deployment-controller"))); err != nil {
		t.Error(err)
	}
	for _, l := range []string{"en", "ko"} {
		if _, err := os.Stat(filepath.Join(out, l, ControllerPage("deployment-controller"))); err == nil {
			t.Errorf("%s has a controller page of its own", l)
		}
	}
	for _, err := range linkcheck.Check(out, ScriptLinks) {
		if strings.Contains(err.Error(), "controllers/") || strings.Contains(err.Error(), "traces/") {
			t.Error(err)
		}
	}
}
