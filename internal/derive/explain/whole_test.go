package explain

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/record"
)

// factoryFacts are the facts of a shared informer factory with two
// requesters of the Pods informer (the deployment and replicaset
// controllers' descriptors, as kube-controller-manager asks for them),
// a handler registered on it, a garbage collector asking for resources
// chosen at run time, the kubelet's own list-watch of its node's pods,
// and the scheduler's pod informer with its own field selector.
func factoryFacts() *fact.Facts {
	fn := func(sym, path string, line int) fact.FuncRef {
		return fact.FuncRef{Symbol: kk + sym, Decl: fact.Location{Path: path, StartLine: line, EndLine: line + 30}}
	}
	pods := fact.Resource{Version: "v1", Kind: "Pod", Resource: "pods"}
	req := func(caller fact.FuncRef, at fact.Location, method, expr string, res fact.Resource) fact.InformerRequest {
		return fact.InformerRequest{Component: pkgDir(at.Path), Caller: caller, At: at, Method: method, Factory: "k8s.io/client-go/informers", Resource: res, Expr: expr}
	}
	gc := req(fn("pkg/controller/garbagecollector.GraphBuilder.controllerFor", "pkg/controller/garbagecollector/graph_builder.go", 200), loc("pkg/controller/garbagecollector/graph_builder.go", 225), "ForResource", "gb.sharedInformers", fact.Resource{})
	gc.ResourceDynamic = true
	schedPods := req(fn("pkg/scheduler.newPodInformer", "pkg/scheduler/scheduler.go", 590), loc("pkg/scheduler/scheduler.go", 600), "InformerFor", "informerFactory", pods)
	schedPods.FieldSelector, schedPods.Fields = `"status.phase!=" + string(v1.PodSucceeded) + ",status.phase!=" + string(v1.PodFailed)`, []string{"status.phase"}
	nodes := fact.Resource{Version: "v1", Kind: "Node", Resource: "nodes"}
	ownNode := req(fn("pkg/kubelet.NewMainKubelet", "pkg/kubelet/kubelet.go", 400), loc("pkg/kubelet/kubelet.go", 480), "Lister", "kubeInformers.Core().V1().Nodes()", nodes)
	ownNode.FieldSelector, ownNode.Fields = "fields.Set{metav1.ObjectNameField: string(nodeName)}.String()", []string{"metadata.name"}
	allNodes := req(fn("pkg/kubelet.NewMainKubelet", "pkg/kubelet/kubelet.go", 400), loc("pkg/kubelet/kubelet.go", 520), "Informer", "allInformers.Core().V1().Nodes()", nodes)
	return &fact.Facts{
		Tag:   "v1.37.2",
		Roots: []string{"./cmd/kube-controller-manager/app", "./pkg/controller/...", "./pkg/kubelet/...", "./pkg/scheduler/..."},
		InformerRequests: []fact.InformerRequest{
			req(fn("cmd/kube-controller-manager/app.newDeploymentController", "cmd/kube-controller-manager/app/apps.go", 80), loc("cmd/kube-controller-manager/app/apps.go", 90), "Informer", "controllerContext.InformerFactory.Core().V1().Pods()", pods),
			req(fn("cmd/kube-controller-manager/app.newReplicaSetController", "cmd/kube-controller-manager/app/apps.go", 110), loc("cmd/kube-controller-manager/app/apps.go", 120), "Lister", "controllerContext.InformerFactory.Core().V1().Pods()", pods),
			gc, schedPods, ownNode, allNodes,
			req(fn("pkg/scheduler/framework/plugins/volumebinding.New", "pkg/scheduler/framework/plugins/volumebinding/volume_binding.go", 480), loc("pkg/scheduler/framework/plugins/volumebinding/volume_binding.go", 500), "Lister", "fh.SharedInformerFactory().Storage().V1().StorageClasses()",
				fact.Resource{Group: "storage.k8s.io", Version: "v1", Kind: "StorageClass", Resource: "storageclasses"}),
		},
		Handlers: []fact.HandlerRegistration{{
			Component: "pkg/controller/deployment", Caller: fn("pkg/controller/deployment.NewDeploymentController", "pkg/controller/deployment/deployment_controller.go", 100),
			At: loc("pkg/controller/deployment/deployment_controller.go", 140), Method: "AddEventHandler", InformerExpr: "podInformer.Informer()",
			Informer: fact.Resource{Version: "v1", Kind: "Pod", Resource: "pods"},
			Delete:   &fact.Handler{FuncRef: fn("pkg/controller/deployment.DeploymentController.deletePod", "pkg/controller/deployment/deployment_controller.go", 360), Form: "method value"},
		}},
		Calls: []fact.Call{
			{From: kk + "pkg/controller/certificates/clustertrustbundlepublisher.NewGAClusterTrustBundlePublisher", To: "k8s.io/client-go/informers/certificates/v1.NewFilteredClusterTrustBundleInformer",
				At: loc("pkg/controller/certificates/clustertrustbundlepublisher/publisher.go", 207), Kind: "static"},
			{From: kk + "pkg/controller/certificates/clustertrustbundlepublisher.NewBetaClusterTrustBundlePublisher", To: "k8s.io/client-go/informers/certificates/v1beta1.NewFilteredClusterTrustBundleInformer",
				At: loc("pkg/controller/certificates/clustertrustbundlepublisher/publisher.go", 233), Kind: "static"},
		},
		ListWatches: []fact.ListWatch{{
			Component: "pkg/kubelet/config", Caller: fn("pkg/kubelet/config.NewSourceApiserver", "pkg/kubelet/config/apiserver.go", 35),
			At: loc("pkg/kubelet/config/apiserver.go", 37), Func: "NewListWatchFromClient",
			Resource: fact.Resource{Version: "v1", Kind: "Pod", Resource: "pods"},
			Fields:   []string{"spec.nodeName"}, FieldSelector: `fields.OneTermEqualSelector("spec.nodeName", string(nodeName))`,
			Consumers: []fact.ListWatchConsumer{{Kind: "reflector", Func: "NewReflector", Caller: fn("pkg/kubelet/config.newSourceApiserverFromLW", "pkg/kubelet/config/apiserver.go", 57), At: loc("pkg/kubelet/config/apiserver.go", 65)}},
		}},
	}
}

const watchQuery = "?allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan&sendInitialEvents=true&timeout=6m18s&timeoutSeconds=378&watch=true"

func watchEntry(at int64, user, agent, group, res, uri string) record.AuditEntry {
	return record.AuditEntry{At: at, Stage: "ResponseStarted", Verb: "watch", Group: group, Resource: res, User: user, UserAgent: agent, RequestURI: uri}
}

// Every watch names the code that opened it, by the rule that found it.
func TestAttributeWatches(t *testing.T) {
	const kcm = "kube-controller-manager/v1.37.2 (linux/amd64) kubernetes/unknown/shared-informers"
	rec := &record.Recording{
		Format: record.Format, Tag: "v1.37.2", Scenario: "deployment",
		Audit: []record.AuditEntry{
			watchEntry(-900, "system:kube-controller-manager", kcm, "", "pods", "/api/v1/pods"+watchQuery),
			watchEntry(-900, "system:node:node1", "kubelet/v1.37.2 (linux/amd64) kubernetes/unknown", "", "pods", "/api/v1/pods?fieldSelector=spec.nodeName%3Dnode1&watch=true&allowWatchBookmarks=true&timeoutSeconds=492"),
			watchEntry(-900, "system:kube-controller-manager", kcm, "", "podtemplates", "/api/v1/podtemplates"+watchQuery),
			watchEntry(-900, "system:kube-scheduler", "kube-scheduler/v1.37.2 (linux/amd64) kubernetes/unknown/scheduler", "", "pods", "/api/v1/pods?fieldSelector=status.phase%21%3DSucceeded%2Cstatus.phase%21%3DFailed&watch=true"),
			watchEntry(-900, "system:kube-scheduler", "kube-scheduler/v1.37.2 (linux/amd64) kubernetes/unknown/scheduler", "storage.k8s.io", "storageclasses", "/apis/storage.k8s.io/v1/storageclasses"+watchQuery),
			watchEntry(-900, "system:apiserver", "kube-apiserver/v1.37.2 (linux/amd64) kubernetes/unknown", "flowcontrol.apiserver.k8s.io", "flowschemas", "/apis/flowcontrol.apiserver.k8s.io/v1/flowschemas"+watchQuery),
			watchEntry(-900, "system:kube-scheduler", "kube-scheduler/v1.37.2 (linux/amd64) kubernetes/unknown", "", "configmaps", "/api/v1/namespaces/kube-system/configmaps?fieldSelector=metadata.name%3Dextension-apiserver-authentication&watch=true"),
			watchEntry(-900, "system:node:node1", "kubelet/v1.37.2 (linux/amd64) kubernetes/unknown", "", "nodes", "/api/v1/nodes?fieldSelector=metadata.name%3Dnode1&watch=true"),
			watchEntry(-900, "system:node:node1", "kubelet/v1.37.2 (linux/amd64) kubernetes/unknown", "", "nodes", "/api/v1/nodes?watch=true"),
			watchEntry(-900, "system:serviceaccount:kube-system:kube-apiserver-serving-clustertrustbundle-publisher", "kube-controller-manager/v1.37.2 (linux/amd64) kubernetes/unknown/system:serviceaccount:kube-system:kube-apiserver-serving-clustertrustbundle-publisher",
				"certificates.k8s.io", "clustertrustbundles", "/apis/certificates.k8s.io/v1/clustertrustbundles?fieldSelector=spec.signerName%3Dkubernetes.io%2Fkube-apiserver-serving&watch=true"),
			watchEntry(-900, "system:kube-controller-manager", kcm, "certificates.k8s.io", "clustertrustbundles", "/apis/certificates.k8s.io/v1/clustertrustbundles"+watchQuery),
		},
	}
	at := New(factoryFacts(), nil, Options{}).Attribute(rec)
	type got struct {
		Explained bool
		Code      []string // role symbol@line
		Rule      string
	}
	view := func(ex Explanation) got {
		g := got{Explained: ex.Explained}
		for _, c := range ex.Code {
			g.Code = append(g.Code, c.Role+" "+strings.TrimPrefix(c.Symbol, kk)+"@"+c.Where())
		}
		if i := strings.Index(ex.Rule, ":"); i >= 0 {
			g.Rule = ex.Rule[:i]
		} else {
			g.Rule = ex.Rule
		}
		return g
	}
	want := []got{
		{true, []string{
			"requested cmd/kube-controller-manager/app.newDeploymentController@cmd/kube-controller-manager/app/apps.go:90",
			"requested cmd/kube-controller-manager/app.newReplicaSetController@cmd/kube-controller-manager/app/apps.go:120",
			"watches pkg/controller/deployment.NewDeploymentController@pkg/controller/deployment/deployment_controller.go:140",
		}, "the component's requests to an informer factory for pods"},
		{true, []string{
			"opened pkg/kubelet/config.NewSourceApiserver@pkg/kubelet/config/apiserver.go:37",
			"opened pkg/kubelet/config.newSourceApiserverFromLW@pkg/kubelet/config/apiserver.go:65",
		}, "a list-watch of pods the component makes itself, with the request's field selector"},
		{true, []string{
			"requested pkg/controller/garbagecollector.GraphBuilder.controllerFor@pkg/controller/garbagecollector/graph_builder.go:225",
		}, "no code of the component asks for podtemplates by name; these ask an informer factory for resources chosen at run time"},
		{true, []string{
			"requested pkg/scheduler.newPodInformer@pkg/scheduler/scheduler.go:600",
		}, "the component's requests to an informer factory for pods"},
		{true, []string{
			"requested pkg/scheduler/framework/plugins/volumebinding.New@pkg/scheduler/framework/plugins/volumebinding/volume_binding.go:500",
		}, "the component's requests to an informer factory for storageclasses"},
		{false, nil, ""},
		{false, nil, ""},
		// The kubelet's own node, and every node: each watch by the
		// factory whose selector it carries.
		{true, []string{"requested pkg/kubelet.NewMainKubelet@pkg/kubelet/kubelet.go:480"}, "the component's requests to an informer factory for nodes"},
		{true, []string{"requested pkg/kubelet.NewMainKubelet@pkg/kubelet/kubelet.go:520"}, "the component's requests to an informer factory for nodes"},
		// The publisher's own filtered informer, of the watch's version;
		// not a watch without a selector, which it does not make.
		{true, []string{"opened pkg/controller/certificates/clustertrustbundlepublisher.NewGAClusterTrustBundlePublisher@pkg/controller/certificates/clustertrustbundlepublisher/publisher.go:207"},
			"an informer of clustertrustbundles the component builds itself, outside an informer factory; its options set the field selector"},
		{true, []string{"requested pkg/controller/garbagecollector.GraphBuilder.controllerFor@pkg/controller/garbagecollector/graph_builder.go:225"},
			"no code of the component asks for clustertrustbundles by name; these ask an informer factory for resources chosen at run time"},
	}
	for i, a := range at.Audit {
		if diff := cmp.Diff(want[i], view(a.Explanation)); diff != "" {
			t.Errorf("watch %d (%s %s by %s) (-want +got):\n%s", i, a.Verb, a.Resource, a.User, diff)
		}
	}
	if r := at.Audit[3].Explanation.Rule; !strings.HasSuffix(r, ", with a factory made with the request's field selector") {
		t.Errorf("the scheduler's filtered pods watch: rule %q does not say its selector was matched", r)
	}
	// What the analysis does not load is said, with its package.
	for i, pkg := range map[int]string{5: "k8s.io/kubernetes/pkg/controlplane/apiserver", 6: "k8s.io/apiserver/pkg/server/dynamiccertificates"} {
		if n := at.Audit[i].Explanation.Note; !strings.Contains(n, "(package "+pkg+")") || !strings.Contains(n, "not one of them at v1.37.2") {
			t.Errorf("watch %d: note %q, want the package %s named as not analysed", i, n, pkg)
		}
	}

	// The watch's parameters, each with its meaning and the function
	// that sets it: a streaming list's come from watchList.
	w := at.Audit[0].Explanation.Watch
	if w == nil {
		t.Fatal("the shared informer's watch has no Watch")
	}
	var names []string
	for _, p := range w.Params {
		names = append(names, p.Name+"="+p.Value)
		if p.Meaning == "" || p.Symbol == "" {
			t.Errorf("param %s: meaning %q, symbol %q", p.Name, p.Meaning, p.Symbol)
		}
	}
	if want := []string{"sendInitialEvents=true", "resourceVersionMatch=NotOlderThan", "allowWatchBookmarks=true", "timeoutSeconds=378", "timeout=6m18s"}; !slices.Equal(names, want) {
		t.Errorf("params %v, want %v", names, want)
	}
	if w.Params[2].Symbol != "k8s.io/client-go/tools/cache.Reflector.watchList" {
		t.Errorf("allowWatchBookmarks of a streaming list is set by %s", w.Params[2].Symbol)
	}
	kw := at.Audit[1].Explanation.Watch
	if kw.FieldSelector != "spec.nodeName=node1" || kw.Params[0].Symbol != "k8s.io/client-go/tools/cache.Reflector.watch" {
		t.Errorf("the kubelet's watch after a LIST: %+v", kw)
	}

	// Once the package is a root, the facts should have shown the code:
	// the note no longer blames the roots.
	f := factoryFacts()
	f.Roots = append(f.Roots, "./pkg/controlplane/...")
	at = New(f, nil, Options{}).Attribute(rec)
	if n := at.Audit[5].Explanation.Note; strings.Contains(n, "root packages") || !strings.Contains(n, "no list-watch or informer request of flowschemas found in kube-apiserver") {
		t.Errorf("with pkg/controlplane analysed: note %q", n)
	}
}

// A library several components link (the delegated authentication's
// config map informer) counts for each component that links it, and for
// no other.
func TestAttributeLinkedLibraryWatches(t *testing.T) {
	const uri = "/api/v1/namespaces/kube-system/configmaps?fieldSelector=metadata.name%3Dextension-apiserver-authentication" + watchQuery
	rec := &record.Recording{
		Format: record.Format, Tag: "v1.37.2", Scenario: "deployment",
		Audit: []record.AuditEntry{
			watchEntry(-900, "system:kube-scheduler", "kube-scheduler/v1.37.2 (linux/amd64) kubernetes/unknown", "", "configmaps", uri),
			watchEntry(-900, "system:kube-controller-manager", "kube-controller-manager/v1.37.2 (linux/amd64) kubernetes/unknown", "", "configmaps", uri),
			watchEntry(-900, "system:kube-proxy", "kube-proxy/v1.37.2 (linux/amd64) kubernetes/unknown", "", "configmaps", uri),
		},
	}
	f := factoryFacts()
	f.Roots = append(f.Roots, "k8s.io/apiserver/pkg/server/dynamiccertificates")
	const ctor = "k8s.io/apiserver/pkg/server/dynamiccertificates.NewDynamicCAFromConfigMapController"
	f.Calls = append(f.Calls, fact.Call{From: ctor, To: "k8s.io/client-go/informers/core/v1.NewFilteredConfigMapInformer",
		At: loc("staging/src/k8s.io/apiserver/pkg/server/dynamiccertificates/configmap_cafile_content.go", 92), Kind: "static"})
	at := New(f, nil, Options{}).Attribute(rec)
	for i, want := range []bool{true, true, false} {
		ex := at.Audit[i].Explanation
		if ex.Explained != want {
			t.Errorf("watch by %s: explained %v, want %v (note %q)", at.Audit[i].User, ex.Explained, want, ex.Note)
			continue
		}
		if want && (len(ex.Code) != 1 || ex.Code[0].Symbol != ctor || ex.Code[0].Role != "opened") {
			t.Errorf("watch by %s: code %+v, want the delegated authentication's informer", at.Audit[i].User, ex.Code)
		}
	}
	if n := at.Audit[2].Explanation.Note; !strings.Contains(n, "no list-watch or informer request of configmaps found in kube-proxy") {
		t.Errorf("kube-proxy, which does not link it: note %q", n)
	}

	// A write too: the kubelet's CSINode, created by the volume plugins'
	// node info manager outside pkg/kubelet.
	const create = kk + "pkg/volume/csi/nodeinfomanager.nodeInfoManager.CreateCSINode"
	f.Roots = append(f.Roots, "./pkg/volume/csi/nodeinfomanager")
	f.Writes = append(f.Writes, fact.Write{
		Caller: fact.FuncRef{Symbol: create, Decl: loc("pkg/volume/csi/nodeinfomanager/nodeinfomanager.go", 509)},
		At:     loc("pkg/volume/csi/nodeinfomanager/nodeinfomanager.go", 535), Verb: "create", APIVerb: "create",
		Resource: fact.Resource{Group: "storage.k8s.io", Version: "v1", Kind: "CSINode", Resource: "csinodes"},
	})
	rec.Audit = []record.AuditEntry{{At: -900, Stage: "ResponseComplete", Verb: "create", Group: "storage.k8s.io", Resource: "csinodes", Name: "node1",
		User: "system:node:node1", UserAgent: "kubelet/v1.37.2 (linux/amd64) kubernetes/unknown", RequestURI: "/apis/storage.k8s.io/v1/csinodes", Code: 201}}
	at = New(f, nil, Options{}).Attribute(rec)
	if ex := at.Audit[0].Explanation; !ex.Explained || len(ex.Code) != 1 || ex.Code[0].Symbol != create {
		t.Errorf("the kubelet's CSINode create: explained %v, code %+v, note %q", ex.Explained, ex.Code, ex.Note)
	}
}

// The summary counts every item by kind and phase, and its line says how
// many were attributed.
func TestAttributionSummary(t *testing.T) {
	rec := &record.Recording{
		Format: record.Format, Tag: "v1.37.2", Scenario: "deployment",
		Events: []record.Event{
			{At: -10, Type: "Normal", Reason: "NodeReady", Object: record.ObjectRef{Kind: "Node", Name: "node1"}, Component: "kubelet", Name: "node1.1", Namespace: "default"},
		},
		Audit: []record.AuditEntry{
			watchEntry(-900, "system:kube-controller-manager", "kube-controller-manager/v1.37.2 (linux/amd64) kubernetes/unknown/shared-informers", "", "pods", "/api/v1/pods"+watchQuery),
			{At: -800, Stage: "ResponseComplete", Verb: "create", Resource: "events", Namespace: "default", Name: "node1.1", User: "system:node:node1"},
			{At: -700, Stage: "ResponseComplete", Verb: "create", Resource: "clusterroles", Name: "admin", User: "system:apiserver"},
			watchEntry(50, "system:kube-controller-manager", "kube-controller-manager/v1.37.2 (linux/amd64) kubernetes/unknown/shared-informers", "", "pods", "/api/v1/pods"+watchQuery),
		},
	}
	at := New(factoryFacts(), nil, Options{}).Attribute(rec)
	want := Summary{Items: 5, Attributed: 2, NotAttributable: 3, Kinds: []KindSummary{
		{Kind: ItemEvent, Phase: PhaseStartup, Items: 1},
		{Kind: ItemWrite, Phase: PhaseStartup, Items: 2},
		{Kind: ItemWatch, Phase: PhaseStartup, Items: 1, Attributed: 1},
		{Kind: ItemWatch, Phase: PhaseBackground, Items: 1, Attributed: 1},
	}}
	if diff := cmp.Diff(want, at.Summary); diff != "" {
		t.Errorf("summary (-want +got):\n%s", diff)
	}
	if s := at.Summary.String(); s != "2 of 5 items attributed; 3 listed as not attributable, with reasons" {
		t.Errorf("line %q", s)
	}
	// Every item not attributed says why; the event's write says which
	// event it wrote, and the RBAC bootstrap's write which package.
	for _, a := range at.Audit {
		if !a.Explanation.Explained && a.Explanation.Note == "" {
			t.Errorf("%s %s: no reason", a.Verb, a.Resource)
		}
	}
	if n := at.Audit[1].Explanation.Note; !strings.Contains(n, "for the event NodeReady  node/node1") {
		t.Errorf("the event's write: %q", n)
	}
	if n := at.Audit[2].Explanation.Note; !strings.Contains(n, "RBAC bootstrap") || !strings.Contains(n, "k8s.io/kubernetes/pkg/registry/rbac/rest") {
		t.Errorf("the bootstrap write: %q", n)
	}

	var b bytes.Buffer
	if err := WriteAttribution(&b, at); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, s := range []string{
		"\nevents:\n", "\naudit entries:\n", "   phase      start-up\n",
		"   params     sendInitialEvents=true resourceVersionMatch=NotOlderThan allowWatchBookmarks=true timeoutSeconds=378 timeout=6m18s\n",
		"\nwatch parameters:\n  sendInitialEvents ", "set by cache.Reflector.watchList\n",
		"  watches  background    1 of    1\n",
		"\n2 of 5 items attributed; 3 listed as not attributable, with reasons\n",
	} {
		if !strings.Contains("\n"+out, s) {
			t.Errorf("the text lacks %q:\n%s", s, out)
		}
	}
	if strings.Count(out, "  sendInitialEvents ") != 1 {
		t.Errorf("a parameter's meaning is written more than once:\n%s", out)
	}
}

// ReadAuditLog keeps each request once, where it is whole, leaves gets
// out, and times what it keeps from kubectl's first write.
func TestReadAuditLog(t *testing.T) {
	const log = `{"kind":"Event","apiVersion":"audit.k8s.io/v1","stage":"RequestReceived","verb":"create","requestURI":"/api/v1/namespaces","user":{"username":"system:apiserver"},"userAgent":"kube-apiserver/v1.37.2","objectRef":{"resource":"namespaces","apiVersion":"v1"},"requestReceivedTimestamp":"2026-11-27T10:00:00.000000Z"}
{"kind":"Event","apiVersion":"audit.k8s.io/v1","stage":"ResponseComplete","verb":"create","requestURI":"/api/v1/namespaces","user":{"username":"system:apiserver"},"userAgent":"kube-apiserver/v1.37.2","objectRef":{"resource":"namespaces","apiVersion":"v1"},"responseStatus":{"code":201},"requestObject":{"kind":"Namespace","metadata":{"name":"kube-system"}},"requestReceivedTimestamp":"2026-11-27T10:00:00.000000Z"}
{"kind":"Event","apiVersion":"audit.k8s.io/v1","stage":"ResponseComplete","verb":"get","requestURI":"/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/kube-scheduler","user":{"username":"system:kube-scheduler"},"objectRef":{"resource":"leases","namespace":"kube-system","name":"kube-scheduler","apiGroup":"coordination.k8s.io","apiVersion":"v1"},"responseStatus":{"code":200},"requestReceivedTimestamp":"2026-11-27T10:00:00.500000Z"}
{"kind":"Event","apiVersion":"audit.k8s.io/v1","stage":"ResponseStarted","verb":"watch","requestURI":"/api/v1/pods?watch=true","user":{"username":"system:kube-scheduler"},"userAgent":"kube-scheduler/v1.37.2","objectRef":{"resource":"pods","apiVersion":"v1"},"responseStatus":{"code":200},"requestReceivedTimestamp":"2026-11-27T10:00:01.000000Z"}
{"kind":"Event","apiVersion":"audit.k8s.io/v1","stage":"ResponseComplete","verb":"watch","requestURI":"/api/v1/pods?watch=true","user":{"username":"system:kube-scheduler"},"userAgent":"kube-scheduler/v1.37.2","objectRef":{"resource":"pods","apiVersion":"v1"},"responseStatus":{"code":200},"requestReceivedTimestamp":"2026-11-27T10:00:01.000000Z"}

{"kind":"Event","apiVersion":"audit.k8s.io/v1","stage":"ResponseComplete","verb":"create","requestURI":"/apis/apps/v1/namespaces/default/deployments?fieldManager=kubectl-client-side-apply","user":{"username":"kubernetes-admin"},"userAgent":"kubectl/v1.37.2 (linux/amd64) kubernetes/unknown","objectRef":{"resource":"deployments","namespace":"default","name":"nginx","apiGroup":"apps","apiVersion":"v1"},"responseStatus":{"code":201},"requestReceivedTimestamp":"2026-11-27T10:00:02.500000Z"}
`
	got, err := ReadAuditLog(strings.NewReader(log))
	if err != nil {
		t.Fatal(err)
	}
	want := []record.AuditEntry{
		{At: -2500, Stage: "ResponseComplete", Verb: "create", Version: "v1", Resource: "namespaces", Name: "kube-system", User: "system:apiserver", UserAgent: "kube-apiserver/v1.37.2", RequestURI: "/api/v1/namespaces", Code: 201, ObjectKind: "Namespace"},
		{At: -1500, Stage: "ResponseStarted", Verb: "watch", Version: "v1", Resource: "pods", User: "system:kube-scheduler", UserAgent: "kube-scheduler/v1.37.2", RequestURI: "/api/v1/pods?watch=true", Code: 200},
		{At: 0, Stage: "ResponseComplete", Verb: "create", Group: "apps", Version: "v1", Resource: "deployments", Namespace: "default", Name: "nginx", User: "kubernetes-admin", UserAgent: "kubectl/v1.37.2 (linux/amd64) kubernetes/unknown", RequestURI: "/apis/apps/v1/namespaces/default/deployments?fieldManager=kubectl-client-side-apply", Code: 201},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("entries (-want +got):\n%s", diff)
	}
	if _, err := ReadAuditLog(strings.NewReader("{\"verb\":\"list\",\"requestURI\":\"/api/v1/nodes\",\"stage\":\"ResponseComplete\"}\nLAST SEEN TYPE\n")); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("a line that is not an audit event: err %v, want one naming line 2", err)
	}
}

// An Event's write whose only write site is client-go's event sink is
// the recorder call's: the sink writes what any recorder call of the
// component was given, so the call that emitted the event is named.
func TestAttributeEventWriteToRecorderCall(t *testing.T) {
	fn := func(sym, path string, line int) fact.FuncRef {
		return fact.FuncRef{Symbol: sym, Decl: fact.Location{Path: path, StartLine: line, EndLine: line + 40}}
	}
	const sinkPath = "staging/src/k8s.io/client-go/tools/record/event.go"
	f := &fact.Facts{
		Tag:   "v1.37.2",
		Roots: []string{"./pkg/controller/...", "k8s.io/client-go/tools/record"},
		Events: []fact.Event{{
			Caller: fn(kk+"pkg/controller/deployment.DeploymentController.scaleReplicaSet", "pkg/controller/deployment/sync.go", 400),
			At:     loc("pkg/controller/deployment/sync.go", 420), Recorder: "record.EventRecorder", Method: "Eventf",
			Type: "Normal", Reason: "ScalingReplicaSet", ReasonExpr: `"ScalingReplicaSet"`, Message: "Scaled %s replica set %s from %d to %d",
		}},
		Writes: []fact.Write{{
			Caller: fn("k8s.io/client-go/tools/record.recordEvent", sinkPath, 300), At: loc(sinkPath, 320),
			Resource: fact.Resource{Version: "v1", Kind: "Event", Resource: "events"}, Verb: "create", APIVerb: "create", Via: "record.EventSink",
		}},
		// The controller reaches the sink (through the broadcaster it
		// starts), so the sink's write counts as the controller manager's.
		Calls: []fact.Call{{From: kk + "pkg/controller/deployment.DeploymentController.scaleReplicaSet", To: "k8s.io/client-go/tools/record.recordEvent",
			At: loc("pkg/controller/deployment/sync.go", 421), Kind: "static"}},
	}
	const agent = "kube-controller-manager/v1.37.2 (linux/amd64) kubernetes/unknown/system:serviceaccount:kube-system:deployment-controller"
	rec := &record.Recording{
		Format: record.Format, Tag: "v1.37.2", Scenario: "deployment",
		Events: []record.Event{{
			At: 10, Type: "Normal", Reason: "ScalingReplicaSet", Component: "deployment-controller", Count: 1,
			Object:  record.ObjectRef{Kind: "Deployment", Namespace: "default", Name: "nginx-deployment"},
			Message: "Scaled up replica set nginx-deployment-54fd4d6d4c from 0 to 3", Name: "nginx-deployment.1", Namespace: "default",
		}},
		Audit: []record.AuditEntry{{
			At: 10, Stage: "ResponseComplete", Verb: "create", Version: "v1", Resource: "events", Namespace: "default", Name: "nginx-deployment.1",
			User: "system:serviceaccount:kube-system:deployment-controller", UserAgent: agent,
			RequestURI: "/api/v1/namespaces/default/events", Code: 201, ObjectKind: "Event",
		}},
	}
	at := New(f, nil, Options{}).Attribute(rec)
	ex := at.Audit[0].Explanation
	i := slices.IndexFunc(ex.Code, func(c Code) bool { return c.Role == "emitted" })
	if i < 0 || ex.Code[i].Path != "pkg/controller/deployment/sync.go" || ex.Code[i].Line != 420 {
		t.Fatalf("the event's write is attributed to %+v, want the recorder call at pkg/controller/deployment/sync.go:420", ex.Code)
	}
	if !ex.Explained {
		t.Error("the event's write is not explained")
	}
}
