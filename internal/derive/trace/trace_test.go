package trace

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/kubewalk/kubewalk/analyzer/fact"
)

// A hand-made facts fixture in the shape of the real controllers: the
// whole chain a Deployment sets off, Deployment → ReplicaSet → Pod →
// binding → the kubelet's API-server pod source, with the detours the
// real code takes (a func literal handler, a helper reached through an
// interface edge, a worker loop with no sync-handler field, a list-watch
// whose reflector runs in a goroutine).

const (
	kk     = "k8s.io/kubernetes/"
	depPkg = kk + "pkg/controller/deployment."
	rsPkg  = kk + "pkg/controller/replicaset."
	ctlPkg = kk + "pkg/controller."
	schPkg = kk + "pkg/scheduler."
	binPkg = kk + "pkg/scheduler/framework/plugins/defaultbinder."
	cfgPkg = kk + "pkg/kubelet/config."
	jobPkg = kk + "pkg/controller/job."
)

var (
	deployments = fact.Resource{Group: "apps", Version: "v1", Kind: "Deployment", Resource: "deployments"}
	replicasets = fact.Resource{Group: "apps", Version: "v1", Kind: "ReplicaSet", Resource: "replicasets"}
	pods        = fact.Resource{Version: "v1", Kind: "Pod", Resource: "pods"}
	jobs        = fact.Resource{Group: "batch", Version: "v1", Kind: "Job", Resource: "jobs"}
)

func at(path string, line int) fact.Location {
	return fact.Location{Path: path, StartLine: line, EndLine: line}
}

func fref(sym, path string, line int) fact.FuncRef {
	return fact.FuncRef{Symbol: sym, Decl: fact.Location{Path: path, StartLine: line, EndLine: line + 5}}
}

func handler(sym, path string, line int, form string, calls ...string) *fact.Handler {
	return &fact.Handler{FuncRef: fref(sym, path, line), Form: form, Calls: calls}
}

func call(from, to, path string, line int, kind string) fact.Call {
	return fact.Call{From: from, To: to, At: at(path, line), Kind: kind}
}

const (
	depFile = "pkg/controller/deployment/deployment_controller.go"
	syncGo  = "pkg/controller/deployment/sync.go"
	rsFile  = "pkg/controller/replicaset/replica_set.go"
	ctlFile = "pkg/controller/controller_utils.go"
	schFile = "pkg/scheduler/schedule_one.go"
	evFile  = "pkg/scheduler/eventhandlers.go"
	binFile = "pkg/scheduler/framework/plugins/defaultbinder/default_binder.go"
	cfgFile = "pkg/kubelet/config/apiserver.go"
	jobFile = "pkg/controller/job/job_controller.go"
)

func chainFacts() *fact.Facts {
	return &fact.Facts{
		Tag: "v0.0.0",
		Handlers: []fact.HandlerRegistration{
			{Component: "pkg/controller/deployment", Caller: fref(depPkg+"NewDeploymentController", depFile, 100), At: at(depFile, 110), Method: "AddEventHandler", Informer: deployments,
				Add: handler(depPkg+"NewDeploymentController$1", depFile, 111, "func literal", depPkg+"DeploymentController.addDeployment")},
			{Component: "pkg/controller/deployment", Caller: fref(depPkg+"NewDeploymentController", depFile, 100), At: at(depFile, 120), Method: "AddEventHandler", Informer: replicasets,
				Add: handler(depPkg+"DeploymentController.addReplicaSet", depFile, 300, "method value")},
			{Component: "pkg/controller/replicaset", Caller: fref(rsPkg+"NewBaseController", rsFile, 200), At: at(rsFile, 210), Method: "AddEventHandler", Informer: replicasets,
				Add: handler(rsPkg+"NewBaseController$1", rsFile, 211, "func literal", rsPkg+"ReplicaSetController.addRS")},
			{Component: "pkg/controller/replicaset", Caller: fref(rsPkg+"NewBaseController", rsFile, 200), At: at(rsFile, 230), Method: "AddEventHandler", Informer: pods,
				Add: handler(rsPkg+"ReplicaSetController.addPod", rsFile, 400, "method value")},
			{Component: "pkg/scheduler", Caller: fref(schPkg+"addAllEventHandlers", evFile, 400), At: at(evFile, 410), Method: "AddEventHandler", Informer: pods,
				Add: handler(schPkg+"Scheduler.addPod", evFile, 100, "method value"), Update: handler(schPkg+"Scheduler.updatePod", evFile, 120, "method value")},
			// A secondary watcher: the job controller watches pods to requeue their Job.
			{Component: "pkg/controller/job", Caller: fref(jobPkg+"NewController", jobFile, 100), At: at(jobFile, 110), Method: "AddEventHandler", Informer: pods,
				Add: handler(jobPkg+"Controller.addPod", jobFile, 300, "method value")},
			{Component: "pkg/controller/job", Caller: fref(jobPkg+"NewController", jobFile, 100), At: at(jobFile, 120), Method: "AddEventHandler", Informer: jobs,
				Add: handler(jobPkg+"Controller.addJob", jobFile, 320, "method value")},
		},
		Wirings: []fact.Wiring{
			{Type: depPkg + "DeploymentController", Field: "syncHandler", Sync: fref(depPkg+"DeploymentController.syncDeployment", depFile, 500), At: at(depFile, 130), Queue: "queue",
				Enqueuers: []fact.FuncRef{fref(depPkg+"DeploymentController.enqueue", depFile, 400)}, Worker: &fact.FuncRef{Symbol: depPkg + "DeploymentController.processNextWorkItem", Decl: at(depFile, 450)}},
			{Type: depPkg + "DeploymentController", Field: "enqueueDeployment", Sync: fref(depPkg+"DeploymentController.enqueue", depFile, 400), At: at(depFile, 131), Queue: "queue",
				Enqueuers: []fact.FuncRef{fref(depPkg+"DeploymentController.enqueue", depFile, 400)}},
			{Type: rsPkg + "ReplicaSetController", Field: "syncHandler", Sync: fref(rsPkg+"ReplicaSetController.syncReplicaSet", rsFile, 700), At: at(rsFile, 240), Queue: "queue",
				Enqueuers: []fact.FuncRef{fref(rsPkg+"ReplicaSetController.enqueueRS", rsFile, 350)}, Worker: &fact.FuncRef{Symbol: rsPkg + "ReplicaSetController.processNextWorkItem", Decl: at(rsFile, 650)}},
			{Type: jobPkg + "Controller", Field: "syncHandler", Sync: fref(jobPkg+"Controller.syncJob", jobFile, 900), At: at(jobFile, 130), Queue: "queue",
				Enqueuers: []fact.FuncRef{fref(jobPkg+"Controller.enqueueJob", jobFile, 600)}, Worker: &fact.FuncRef{Symbol: jobPkg + "Controller.processNextWorkItem", Decl: at(jobFile, 650)}},
			{Type: schPkg + "Scheduler", Field: "SchedulePod", Sync: fref(schPkg+"Scheduler.schedulePod", schFile, 500), At: at("pkg/scheduler/scheduler.go", 128)},
		},
		Writes: []fact.Write{
			{Caller: fref(depPkg+"DeploymentController.getNewReplicaSet", syncGo, 200), At: at(syncGo, 232), Resource: replicasets, Verb: "create", APIVerb: "create", Via: "AppsV1().ReplicaSets().Create"},
			{Caller: fref(depPkg+"DeploymentController.syncDeployment", depFile, 500), At: at(depFile, 520), Resource: deployments, Verb: "updatestatus", APIVerb: "update", Subresource: "status", Via: "AppsV1().Deployments().UpdateStatus"},
			{Caller: fref(depPkg+"DeploymentController.scale", syncGo, 400), At: at(syncGo, 410), Resource: replicasets, Verb: "update", APIVerb: "update", Via: "AppsV1().ReplicaSets().Update"},
			{Caller: fref(ctlPkg+"RealPodControl.createPods", ctlFile, 590), At: at(ctlFile, 596), Resource: pods, Verb: "create", APIVerb: "create", Via: "CoreV1().Pods().Create"},
			{Caller: fref(binPkg+"DefaultBinder.Bind", binFile, 60), At: at(binFile, 70), Resource: pods, Verb: "bind", APIVerb: "create", Subresource: "binding", Via: "CoreV1().Pods().Bind"},
			// A write in another component's directory, reachable only
			// through a stray interface edge: it must not be attributed.
			{Caller: fref(jobPkg+"Controller.createPod", jobFile, 700), At: at(jobFile, 710), Resource: pods, Verb: "create", APIVerb: "create", Via: "CoreV1().Pods().Create"},
		},
		ListWatches: []fact.ListWatch{{
			Component: "pkg/kubelet/config",
			Caller:    fref(cfgPkg+"NewSourceApiserver", cfgFile, 36),
			At:        at(cfgFile, 37),
			Func:      "NewListWatchFromClient",
			Resource:  pods,
			Fields:    []string{"spec.nodeName"},
			Consumers: []fact.ListWatchConsumer{{
				Kind: "reflector", Func: "NewReflector",
				Caller:   fref(cfgPkg+"newSourceApiserverFromLW", cfgFile, 56),
				At:       at(cfgFile, 65),
				Resource: pods,
				Push:     &fact.FuncRef{Symbol: cfgPkg + "newSourceApiserverFromLW$1", Decl: fact.Location{Path: cfgFile, StartLine: 58, EndLine: 63}},
			}},
		}},
		Calls: []fact.Call{
			call(depPkg+"NewDeploymentController$1", depPkg+"DeploymentController.addDeployment", depFile, 112, "static"),
			call(depPkg+"DeploymentController.syncDeployment", depPkg+"DeploymentController.rolloutRolling", depFile, 510, "static"),
			call(depPkg+"DeploymentController.syncDeployment", depPkg+"DeploymentController.scale", depFile, 515, "static"),
			call(depPkg+"DeploymentController.rolloutRolling", depPkg+"DeploymentController.getNewReplicaSet", "pkg/controller/deployment/rolling.go", 30, "static"),
			call(rsPkg+"NewBaseController$1", rsPkg+"ReplicaSetController.addRS", rsFile, 212, "static"),
			call(rsPkg+"ReplicaSetController.addRS", rsPkg+"ReplicaSetController.enqueueRS", rsFile, 300, "static"),
			call(rsPkg+"ReplicaSetController.syncReplicaSet", rsPkg+"ReplicaSetController.manageReplicas", rsFile, 720, "static"),
			call(rsPkg+"ReplicaSetController.manageReplicas", ctlPkg+"RealPodControl.CreatePods", rsFile, 680, "interface"),
			call(rsPkg+"ReplicaSetController.manageReplicas", jobPkg+"Controller.createPod", rsFile, 681, "interface"),
			call(ctlPkg+"RealPodControl.CreatePods", ctlPkg+"RealPodControl.createPods", ctlFile, 541, "static"),
			call(schPkg+"Scheduler.addPod", schPkg+"Scheduler.addPodToSchedulingQueue", evFile, 101, "static"),
			call(schPkg+"Scheduler.Run", schPkg+"Scheduler.ScheduleOne", "pkg/scheduler/scheduler.go", 560, "method value"),
			call(schPkg+"Scheduler.ScheduleOne", schPkg+"Scheduler.bind", schFile, 100, "static"),
			call(schPkg+"Scheduler.bind", binPkg+"DefaultBinder.Bind", schFile, 1158, "interface"),
			call(cfgPkg+"NewSourceApiserver", "k8s.io/client-go/tools/cache.NewListWatchFromClient", cfgFile, 37, "static"),
			call(cfgPkg+"NewSourceApiserver", cfgPkg+"NewSourceApiserver$1", cfgFile, 42, "func literal"),
			call(cfgPkg+"NewSourceApiserver$1", cfgPkg+"newSourceApiserverFromLW", cfgFile, 52, "static"),
			call(cfgPkg+"newSourceApiserverFromLW", cfgPkg+"newSourceApiserverFromLW$1", cfgFile, 58, "func literal"),
			call(cfgPkg+"newSourceApiserverFromLW", "k8s.io/client-go/tools/cache.NewReflector", cfgFile, 65, "static"),
		},
	}
}

func chainSource(path string) ([]byte, error) {
	if path == cfgFile {
		lines := make([]string, 70)
		lines[36] = `	lw := cache.NewListWatchFromClient(c.CoreV1().RESTClient(), "pods", metav1.NamespaceAll, fields.OneTermEqualSelector("spec.nodeName", string(nodeName)))`
		lines[64] = `	r := cache.NewReflector(lw, &v1.Pod{}, cache.NewUndeltaStore(send, cache.MetaNamespaceKeyFunc), 0)`
		return []byte(strings.Join(lines, "\n")), nil
	}
	return nil, fmt.Errorf("%s: not in the fixture", path)
}

var chainSymbols = []fact.Symbol{
	{Name: "k8s.io/apiserver/pkg/registry/generic/registry.Store.Create", Kind: "method", Decl: at("staging/src/k8s.io/apiserver/pkg/registry/generic/registry/store.go", 450)},
}

// inOrder checks that each of want occurs in got, in order. A want of
// alternatives "a | b" is met by either.
func inOrder(t *testing.T, got, want []string) {
	t.Helper()
	i := 0
	for _, g := range got {
		if i < len(want) && slices.Contains(strings.Split(want[i], " | "), g) {
			i++
		}
	}
	if i < len(want) {
		t.Errorf("hops do not reach %q (after %q) in order; got:\n%s", want[i], want[:i], strings.Join(got, "\n"))
	}
}

// deploymentChain is the chain a Deployment sets off, as the blog posts
// and the deployment walkthrough tell it, as hops.
var deploymentChain = []string{
	"watch deployments deployment controller expanded",
	"write replicasets deployment.DeploymentController.getNewReplicaSet",
	"watch replicasets replicaset controller expanded",
	"write pods controller.RealPodControl.createPods",
	"watch pods kube-scheduler expanded",
	// v1.37 moved the binding's POST into util.BindPod, which retries it.
	"write pods/binding defaultbinder.DefaultBinder.Bind | write pods/binding util.BindPod$1",
	"watch pods kubelet unconnected",
}

// TestDeriveChain checks the chain a Deployment sets off and then each
// hop's details in turn; it stays one function so the checks read in the
// chain's order.
func TestDeriveChain(t *testing.T) {
	in := Input{Facts: chainFacts(), Symbols: chainSymbols, Source: chainSource}
	root, err := FindKind(in.Facts, "Deployment")
	if err != nil {
		t.Fatal(err)
	}
	tr := Derive(in, root, Options{})
	got := tr.Hops()
	inOrder(t, got, deploymentChain)
	for _, h := range got {
		if strings.Contains(h, "job.Controller.createPod") {
			t.Errorf("a write in another component's directory was attributed: %s", h)
		}
	}
	for _, want := range []string{
		"watch replicasets deployment controller ancestor",
		"watch pods job controller secondary",
		"watch pods kubelet after-binding",
	} {
		if !contains(got, want) {
			t.Errorf("missing hop %q; got:\n%s", want, strings.Join(got, "\n"))
		}
	}
	if len(tr.APIServer) != 1 || tr.APIServer[0].Decl.StartLine != 450 {
		t.Errorf("APIServer = %+v, want the registry's Store.Create", tr.APIServer)
	}

	dc := tr.Root.Watchers[0]
	if dc.Sync == nil || dc.Sync.Symbol != depPkg+"DeploymentController.syncDeployment" {
		t.Errorf("deployment controller sync = %+v", dc.Sync)
	}
	// The handler calls dc.enqueueDeployment, a func field: assumed, and said so.
	if len(dc.Queue) != 1 || dc.Queue[0].Symbol != depPkg+"DeploymentController.enqueue" || !strings.Contains(fmt.Sprint(dc.Unconnected), "func field enqueueDeployment") {
		t.Errorf("deployment controller queue = %+v, unconnected %q", dc.Queue, dc.Unconnected)
	}
	// Writes not followed: the ReplicaSet update (another resource) before
	// the Deployment's own status.
	if len(dc.Other) != 2 || dc.Other[0].Resource.Resource != "replicasets" || dc.Other[1].Same != true {
		t.Errorf("deployment controller other writes = %+v", dc.Other)
	}
	// The call path to the ReplicaSet, with the call sites.
	path := dc.Writes[0].Sites[0].Path
	var steps []string
	for _, s := range path {
		steps = append(steps, fmt.Sprintf("%s@%d", funcName(s.Symbol), s.At.StartLine))
	}
	if got, want := strings.Join(steps, " "), "syncDeployment@510 rolloutRolling@30 getNewReplicaSet@232"; got != want {
		t.Errorf("path = %s, want %s", got, want)
	}

	rs := dc.Writes[0].Next.Watchers[0]
	if rs.Name != "replicaset controller" || len(rs.Queue) != 3 || rs.Queue[2].Symbol != rsPkg+"ReplicaSetController.enqueueRS" {
		t.Errorf("replicaset controller queue = %+v", rs.Queue)
	}
	pn := rs.Writes[0].Next
	var sched, kubelet *Watcher
	for _, w := range pn.Watchers {
		switch w.Name {
		case "kube-scheduler":
			sched = w
		}
	}
	if sched == nil || sched.Sync == nil || sched.Sync.Symbol != schPkg+"Scheduler.Run" {
		t.Fatalf("scheduler watcher = %+v", sched)
	}
	bn := sched.Writes[0].Next
	if bn.Subresource != "binding" || bn.Event != "update" {
		t.Errorf("binding node = %+v", bn)
	}
	for _, w := range bn.Watchers {
		if w.Via == "reflector" {
			kubelet = w
		}
	}
	if kubelet == nil || kubelet.FieldSelector != "spec.nodeName" || kubelet.Registration.At.StartLine != 37 ||
		kubelet.Handler == nil || kubelet.Handler.Symbol != cfgPkg+"newSourceApiserverFromLW" ||
		len(kubelet.Queue) != 1 || kubelet.Queue[0].Symbol != cfgPkg+"newSourceApiserverFromLW$1" || len(kubelet.Unconnected) == 0 {
		t.Errorf("kubelet watcher = %+v", kubelet)
	}

	// Deterministic: the same trace twice marshals the same.
	a, _ := json.Marshal(tr)
	b, _ := json.Marshal(Derive(in, root, Options{}))
	if !bytes.Equal(a, b) {
		t.Error("two derivations differ")
	}
}

func TestDeriveDepth(t *testing.T) {
	in := Input{Facts: chainFacts(), Symbols: chainSymbols, Source: chainSource}
	tr := Derive(in, deployments, Options{Depth: 1})
	got := tr.Hops()
	inOrder(t, got, []string{
		"write replicasets deployment.DeploymentController.getNewReplicaSet",
		"watch replicasets replicaset controller depth",
	})
	for _, h := range got {
		if strings.HasPrefix(h, "write pods") {
			t.Errorf("depth 1 followed a second hop: %s", h)
		}
	}
}

func TestNoSource(t *testing.T) {
	// The list-watch's resource and selector are facts: no source text is
	// needed to match the kubelet.
	in := Input{Facts: chainFacts()}
	tr := Derive(in, deployments, Options{})
	if !contains(tr.Hops(), "watch pods kubelet unconnected") {
		t.Errorf("kubelet not matched without source:\n%s", strings.Join(tr.Hops(), "\n"))
	}
}

func TestUnknownListWatch(t *testing.T) {
	// A list-watch whose resource the analyzer could not tell is not
	// matched, and the root says so.
	f := chainFacts()
	f.ListWatches[0].Resource = fact.Resource{}
	tr := Derive(Input{Facts: f}, deployments, Options{})
	for _, h := range tr.Hops() {
		if strings.Contains(h, "kubelet") {
			t.Errorf("kubelet matched without a resource: %s", h)
		}
	}
	if !strings.Contains(fmt.Sprint(tr.Root.Notes), "could not tell the list-watch's resource") {
		t.Errorf("root notes = %q", tr.Root.Notes)
	}
}

func TestFindKind(t *testing.T) {
	f := chainFacts()
	for _, q := range []string{"Deployment", "deployments", "DEPLOYMENTS", "deployments.apps", "deploy", "Deploy", "deploy.apps"} {
		r, err := FindKind(f, q)
		if err != nil || r != deployments {
			t.Errorf("FindKind(%q) = %+v, %v", q, r, err)
		}
	}
	if _, err := FindKind(f, "deployments.batch"); err == nil {
		t.Error("deployments.batch found")
	}
	if _, err := FindKind(f, "widgets"); err == nil || !strings.Contains(err.Error(), "known: deployments") {
		t.Errorf("FindKind(widgets) error = %v", err)
	}
}

func TestWriteText(t *testing.T) {
	in := Input{Facts: chainFacts(), Symbols: chainSymbols, Source: chainSource}
	var b bytes.Buffer
	if err := WriteText(&b, Derive(in, deployments, Options{})); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"registry.Store.Create  staging/src/k8s.io/apiserver/pkg/registry/generic/registry/store.go:450",
		"→ deployment.DeploymentController.getNewReplicaSet  pkg/controller/deployment/sync.go:232",
		"→ controller.RealPodControl.createPods  pkg/controller/controller_utils.go:596",
		"→ defaultbinder.DefaultBinder.Bind  pkg/scheduler/framework/plugins/defaultbinder/default_binder.go:70",
		"kubelet (reflector, field selector spec.nodeName) [unconnected]",
		"registered  config.NewSourceApiserver  pkg/kubelet/config/apiserver.go:37",
		"also watched by (their sync works on another resource; not followed): job controller",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("text output lacks %q:\n%s", want, out)
		}
	}
	// The API server is named once, not at every hop.
	if n := strings.Count(out, "Store.Create"); n != 1 {
		t.Errorf("Store.Create named %d times", n)
	}
}

func TestPrimaryKinds(t *testing.T) {
	for _, c := range []struct {
		names, kinds []string
		want         string
	}{
		{[]string{"syncDeployment"}, []string{"Deployment", "Pod", "ReplicaSet"}, "Deployment"},
		{[]string{"Run", "StatefulSetController"}, []string{"Pod", "StatefulSet"}, "StatefulSet"},
		{[]string{"syncPodGroup"}, []string{"Pod", "PodGroup"}, "PodGroup"},
		{[]string{"Run", "Controller", "disruption"}, []string{"Pod", "PodDisruptionBudget"}, ""},
	} {
		got, _ := primaryKinds(c.names, c.kinds)
		if strings.Join(got, ",") != c.want {
			t.Errorf("primaryKinds(%q, %q) = %q, want %q", c.names, c.kinds, got, c.want)
		}
	}
}
