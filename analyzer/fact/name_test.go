package fact

import "testing"

func TestSymbolNames(t *testing.T) {
	for _, c := range []struct {
		sym, pkg, name string
		ok             bool
		short, dir     string
	}{
		{"k8s.io/kubernetes/pkg/scheduler.Scheduler.ScheduleOne", "k8s.io/kubernetes/pkg/scheduler", "Scheduler.ScheduleOne", true,
			"scheduler.Scheduler.ScheduleOne", "pkg/scheduler"},
		{"k8s.io/client-go/tools/cache.NewInformer$1", "k8s.io/client-go/tools/cache", "NewInformer$1", true,
			"cache.NewInformer$1", "staging/src/k8s.io/client-go/tools/cache"},
		// A dotted last element is split at its first dot: a guess the
		// resolver corrects.
		{"gopkg.in/yaml.v3.Marshal", "gopkg.in/yaml", "v3.Marshal", true, "yaml.v3.Marshal", "gopkg.in/yaml"},
		{"fmt.Println", "fmt", "Println", true, "fmt.Println", "fmt"},
		{"k8s.io/kubernetes/pkg/scheduler", "", "", false, "scheduler", "pkg/scheduler"},
		{"k8s.io/x/.T", "", "", false, ".T", "staging/src/k8s.io/x/"},
		{"", "", "", false, "", ""},
	} {
		pkg, name, ok := SplitSymbol(c.sym)
		if pkg != c.pkg || name != c.name || ok != c.ok {
			t.Errorf("SplitSymbol(%q) = %q, %q, %v; want %q, %q, %v", c.sym, pkg, name, ok, c.pkg, c.name, c.ok)
		}
		if got := ShortSymbol(c.sym); got != c.short {
			t.Errorf("ShortSymbol(%q) = %q, want %q", c.sym, got, c.short)
		}
		if got := SymbolDir(c.sym); got != c.dir {
			t.Errorf("SymbolDir(%q) = %q, want %q", c.sym, got, c.dir)
		}
	}
	if got := Component("k8s.io/kubernetes/pkg/controller/deployment"); got != "pkg/controller/deployment" {
		t.Errorf("Component of a kubernetes package = %q", got)
	}
	if got := Component("k8s.io/client-go/tools/cache"); got != "k8s.io/client-go/tools/cache" {
		t.Errorf("Component of a staging package = %q", got)
	}
}

func TestReadableSymbol(t *testing.T) {
	for sym, want := range map[string]string{
		"k8s.io/kubernetes/pkg/controller/deployment.NewDeploymentController$1": "func literal in deployment.NewDeploymentController",
		"k8s.io/kubernetes/pkg/scheduler/util.BindPod$1$2":                      "func literal in util.BindPod",
		"k8s.io/kubernetes/pkg/controller.RealPodControl.createPods":            "controller.RealPodControl.createPods",
	} {
		if got := ReadableSymbol(sym); got != want {
			t.Errorf("ReadableSymbol(%q) = %q, want %q", sym, got, want)
		}
	}
}

// TestEventKeyResourceLabel: the names pages and search give events and
// resources.
func TestEventKeyResourceLabel(t *testing.T) {
	for _, c := range []struct {
		e    Event
		want string
	}{
		{Event{Reason: "Pulling", ReasonExpr: "events.PullingImage"}, "Pulling"},
		{Event{ReasonExpr: "reason"}, "reason"},
	} {
		if got := c.e.Key(); got != c.want {
			t.Errorf("%+v.Key() = %q, want %q", c.e, got, c.want)
		}
	}
	for _, c := range []struct {
		r    Resource
		want string
	}{
		{Resource{Group: "apps", Kind: "Deployment", Resource: "deployments"}, "deployments.apps"},
		{Resource{Kind: "Pod", Resource: "pods"}, "pods"},
		{Resource{Group: "batch", Kind: "CronJob"}, "cronjob.batch"},
		{Resource{}, "?"},
	} {
		if got := c.r.Label(); got != c.want {
			t.Errorf("%+v.Label() = %q, want %q", c.r, got, c.want)
		}
	}
}
