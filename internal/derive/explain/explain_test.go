package explain

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/walkthrough"
)

func readFile(name string) ([]byte, error) { return os.ReadFile("testdata/corpus/" + name) }

func read(t testing.TB, name string) []byte {
	t.Helper()
	b, err := readFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func loc(path string, line int) fact.Location {
	return fact.Location{Path: path, StartLine: line, EndLine: line}
}

const kk = "k8s.io/kubernetes/"

// fixtureFacts is a hand-made slice of v1.36.3's facts: enough call sites
// sharing reasons and resources to exercise the ranking.
func fixtureFacts() *fact.Facts {
	fn := func(sym, path string, line int) fact.FuncRef {
		return fact.FuncRef{Symbol: kk + sym, Decl: fact.Location{Path: path, StartLine: line, EndLine: line + 40}}
	}
	createPods := fn("pkg/controller.RealPodControl.createPods", "pkg/controller/controller_utils.go", 580)
	manage := fn("pkg/controller/replicaset.ReplicaSetController.manageReplicas", "pkg/controller/replicaset/replica_set.go", 590)
	getNewRS := fn("pkg/controller/deployment.DeploymentController.getNewReplicaSet", "pkg/controller/deployment/sync.go", 200)
	scale := fn("pkg/controller/deployment.DeploymentController.scaleReplicaSet", "pkg/controller/deployment/sync.go", 410)
	syncCron := fn("pkg/controller/cronjob.ControllerV2.syncCronJob", "pkg/controller/cronjob/cronjob_controllerv2.go", 420)
	finish := fn("pkg/scheduler.Scheduler.finishBinding", "pkg/scheduler/schedule_one.go", 1170)
	bind := fn("pkg/scheduler/framework/plugins/defaultbinder.DefaultBinder.Bind", "pkg/scheduler/framework/plugins/defaultbinder/default_binder.go", 55)
	mirror := fn("pkg/kubelet/pod.basicMirrorClient.CreateMirrorPod", "pkg/kubelet/pod/mirror_client.go", 70)
	return &fact.Facts{
		Tag: "v1.36.3",
		Events: []fact.Event{
			{Caller: createPods, At: loc("pkg/controller/controller_utils.go", 614), Recorder: "record", Method: "Eventf", Type: "Normal", Reason: "SuccessfulCreate", ReasonExpr: "SuccessfulCreatePodReason", Message: "Created pod: %v"},
			{Caller: syncCron, At: loc("pkg/controller/cronjob/cronjob_controllerv2.go", 649), Recorder: "record", Method: "Eventf", Type: "Normal", Reason: "SuccessfulCreate", ReasonExpr: "\"SuccessfulCreate\"", Message: "Created job %v"},
			{Caller: getNewRS, At: loc("pkg/controller/deployment/sync.go", 286), Recorder: "record", Method: "Eventf", Type: "Normal", Reason: "ScalingReplicaSet", Message: "Scaled up replica set %s from 0 to %d"},
			{Caller: scale, At: loc("pkg/controller/deployment/sync.go", 433), Recorder: "record", Method: "Eventf", Type: "Normal", Reason: "ScalingReplicaSet", Message: "Scaled %s replica set %s from %d to %d"},
			{Caller: finish, At: loc("pkg/scheduler/schedule_one.go", 1186), Recorder: "events", Method: "Eventf", Type: "Normal", Reason: "Scheduled", Message: "Successfully assigned %v/%v to %v", Action: "Binding"},
		},
		Writes: []fact.Write{
			{Caller: createPods, At: loc("pkg/controller/controller_utils.go", 596), Resource: fact.Resource{Version: "v1", Kind: "Pod", Resource: "pods"}, Verb: "create", APIVerb: "create", Via: "CoreV1().Pods().Create"},
			{Caller: mirror, At: loc("pkg/kubelet/pod/mirror_client.go", 90), Resource: fact.Resource{Version: "v1", Kind: "Pod", Resource: "pods"}, Verb: "create", APIVerb: "create", Via: "CoreV1().Pods().Create"},
			{Caller: getNewRS, At: loc("pkg/controller/deployment/sync.go", 232), Resource: fact.Resource{Group: "apps", Version: "v1", Kind: "ReplicaSet", Resource: "replicasets"}, Verb: "create", APIVerb: "create", Via: "AppsV1().ReplicaSets().Create"},
			{Caller: bind, At: loc("pkg/scheduler/framework/plugins/defaultbinder/default_binder.go", 70), Resource: fact.Resource{Version: "v1", Kind: "Pod", Resource: "pods"}, Verb: "bind", Subresource: "binding", APIVerb: "create", Via: "CoreV1().Pods().Bind"},
		},
		Handlers: []fact.HandlerRegistration{
			{Component: "pkg/controller/deployment", Caller: fn("pkg/controller/deployment.NewDeploymentController", "pkg/controller/deployment/deployment_controller.go", 100),
				At: loc("pkg/controller/deployment/deployment_controller.go", 123), Method: "AddEventHandler", InformerExpr: "dInformer.Informer()",
				Informer: fact.Resource{Group: "apps", Version: "v1", Kind: "Deployment", Resource: "deployments"},
				Add:      &fact.Handler{FuncRef: fn("pkg/controller/deployment.DeploymentController.addDeployment", "pkg/controller/deployment/deployment_controller.go", 200), Form: "method value"}},
			{Component: "pkg/controller/replicaset", Caller: fn("pkg/controller/replicaset.NewBaseController", "pkg/controller/replicaset/replica_set.go", 200),
				At: loc("pkg/controller/replicaset/replica_set.go", 223), Method: "AddEventHandler", InformerExpr: "rsInformer.Informer()",
				Informer: fact.Resource{Group: "apps", Version: "v1", Kind: "ReplicaSet", Resource: "replicasets"},
				Add:      &fact.Handler{FuncRef: fn("pkg/controller/replicaset.ReplicaSetController.addRS", "pkg/controller/replicaset/replica_set.go", 300), Form: "method value"}},
		},
		Calls: []fact.Call{
			{From: manage.Symbol, To: kk + "pkg/controller.RealPodControl.CreatePods", Kind: "interface"},
			{From: kk + "pkg/controller.RealPodControl.CreatePods", To: createPods.Symbol, Kind: "static"},
		},
	}
}

// fixtureDocs is a walkthrough with a facts block naming ScalingReplicaSet
// and an excerpt covering createPods.
func fixtureDocs(f *fact.Facts) []*walkthrough.Doc {
	return []*walkthrough.Doc{{
		ID: "deployment", File: "deployment.md", Title: "What happens when you create a Deployment",
		Steps: []walkthrough.Step{
			{ID: "step-1-new-rs", Title: "getNewReplicaSet creates the ReplicaSet", Line: 159,
				Refs:     []walkthrough.Ref{{Resolved: fact.Resolved{Symbol: fact.Symbol{Name: f.Writes[2].Caller.Symbol, Decl: f.Writes[2].Caller.Decl}}}},
				Segments: []walkthrough.Segment{{Facts: &walkthrough.FactsBlock{Kind: "events", Query: "reason=ScalingReplicaSet", Events: f.Events[2:4]}}}},
			{ID: "step-2-pods", Title: "manageReplicas creates the Pods", Line: 215,
				Refs: []walkthrough.Ref{{Resolved: fact.Resolved{Symbol: fact.Symbol{Name: f.Events[0].Caller.Symbol, Decl: f.Events[0].Caller.Decl}}}}},
			{ID: "step-3-bind", Title: "The scheduler binds the Pod", Line: 289,
				Segments: []walkthrough.Segment{{Facts: &walkthrough.FactsBlock{Kind: "writes", Writes: f.Writes[3:4]}}}},
		},
	}}
}

func permalink(path string, from, to int) string {
	return "https://github.com/kubernetes/kubernetes/blob/v1.36.3/" + path + "#L" + itoa(from)
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func newFixture() *Explainer {
	f := fixtureFacts()
	return New(f, fixtureDocs(f), Options{Permalink: permalink})
}

func TestParseSeedWatch(t *testing.T) {
	recs := Parse(read(t, "seed000-watch.txt"))
	if len(recs) != 20 {
		t.Fatalf("got %d records, want 20 (the prompt line and 19 events)", len(recs))
	}
	if recs[0].Kind != KindUnknown || recs[0].Line != 1 {
		t.Errorf("prompt line: %+v", recs[0])
	}
	want := &EventRecord{Type: "Normal", Reason: "SuccessfulCreate", Kind: "replicaset", Name: "nginx-deployment-cbdccf466", Message: "Created pod: nginx-deployment-cbdccf466-26lvf"}
	if diff := cmp.Diff(want, recs[2].Event); diff != "" {
		t.Errorf("line 3 (-want +got):\n%s", diff)
	}
	for _, r := range recs[1:] {
		if r.Kind != KindEvent || r.Event.Reason == "" || r.Event.Kind != "replicaset" && r.Event.Kind != "pod" && r.Event.Kind != "deployment" {
			t.Errorf("line %d: %+v %+v", r.Line, r, r.Event)
		}
	}
	if got := recs[11].Event.Message; got != `Successfully pulled image "nginx:1.14.2" in 9.578950755s (9.579033879s including waiting)` {
		t.Errorf("line 12 message = %q", got)
	}
}

func TestParseLayouts(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     []EventRecord
	}{
		{"default", `LAST SEEN   TYPE     REASON              OBJECT                             MESSAGE
2m10s       Normal   ScalingReplicaSet   deployment/nginx-deployment        Scaled up replica set nginx-deployment-cbdccf466 to 3
2m9s        Normal   Scheduled           pod/nginx-deployment-cbdccf466-x   Successfully assigned default/nginx-deployment-cbdccf466-x to node-1
`, []EventRecord{
			{Type: "Normal", Reason: "ScalingReplicaSet", Kind: "deployment", Name: "nginx-deployment", Message: "Scaled up replica set nginx-deployment-cbdccf466 to 3"},
			{Type: "Normal", Reason: "Scheduled", Kind: "pod", Name: "nginx-deployment-cbdccf466-x", Message: "Successfully assigned default/nginx-deployment-cbdccf466-x to node-1"},
		}},
		{"all namespaces", `NAMESPACE     LAST SEEN   TYPE      REASON      OBJECT           MESSAGE
kube-system   5m          Warning   Unhealthy   pod/coredns-1    Readiness probe failed: HTTP probe failed with statuscode: 503
default       <unknown>   Normal    Pulled      pod/nginx-2      Container image "nginx:1.14.2" already present on machine
`, []EventRecord{
			{Namespace: "kube-system", Type: "Warning", Reason: "Unhealthy", Kind: "pod", Name: "coredns-1", Message: "Readiness probe failed: HTTP probe failed with statuscode: 503"},
			{Namespace: "default", Type: "Normal", Reason: "Pulled", Kind: "pod", Name: "nginx-2", Message: `Container image "nginx:1.14.2" already present on machine`},
		}},
		{"wide", `LAST SEEN   TYPE     REASON             OBJECT                      SUBOBJECT                SOURCE                    MESSAGE                                FIRST SEEN   COUNT   NAME
10s         Normal   ScalingReplicaSet  deployment/nginx                                     deployment-controller     Scaled up replica set nginx-1 to 3     10s          1       nginx.17cb4a1f0a1b2c3d
8s          Normal   Pulling            pod/nginx-1-a               spec.containers{nginx}   kubelet, docker-desktop   Pulling image "nginx:1.14.2"           8s           1       nginx-1-a.17cb4a1f0b
`, []EventRecord{
			{Type: "Normal", Reason: "ScalingReplicaSet", Kind: "deployment", Name: "nginx", Message: "Scaled up replica set nginx-1 to 3", Component: "deployment-controller"},
			{Type: "Normal", Reason: "Pulling", Kind: "pod", Name: "nginx-1-a", Message: `Pulling image "nginx:1.14.2"`, Component: "kubelet", Host: "docker-desktop"},
		}},
		{"before 1.14", `LAST SEEN   FIRST SEEN   COUNT     NAME               KIND         SUBOBJECT   TYPE      REASON              SOURCE                  MESSAGE
1m          1m           1         nginx-deployment   Deployment               Normal    ScalingReplicaSet   deployment-controller   Scaled up replica set nginx-deployment-5c689d88bb to 3
`, []EventRecord{
			{Type: "Normal", Reason: "ScalingReplicaSet", Kind: "deployment", Name: "nginx-deployment", Message: "Scaled up replica set nginx-deployment-5c689d88bb to 3", Component: "deployment-controller"},
		}},
		{"watch -A without header", `default   0s   Normal   Killing   pod/nginx-1   Stopping container nginx
`, []EventRecord{
			{Namespace: "default", Type: "Normal", Reason: "Killing", Kind: "pod", Name: "nginx-1", Message: "Stopping container nginx"},
		}},
		{"watch after a header", `LAST SEEN   TYPE     REASON    OBJECT        MESSAGE
0s          Normal   Killing   pod/nginx-1   Stopping container nginx
0s          Normal   SuccessfulDelete   replicaset/nginx-2   Deleted pod: nginx-2-abc
`, []EventRecord{
			{Type: "Normal", Reason: "Killing", Kind: "pod", Name: "nginx-1", Message: "Stopping container nginx"},
			{Type: "Normal", Reason: "SuccessfulDelete", Kind: "replicaset", Name: "nginx-2", Message: "Deleted pod: nginx-2-abc"},
		}},
		{"wide watch without header", `0s    Normal   Pulling   pod/nginx-1-a   spec.containers{nginx}   kubelet, node-1   Pulling image "nginx"   0s    1     nginx-1-a.17cb4a1f0b
`, []EventRecord{
			{Type: "Normal", Reason: "Pulling", Kind: "pod", Name: "nginx-1-a", Message: `Pulling image "nginx"`, Component: "kubelet", Host: "node-1"},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []EventRecord
			for _, r := range Parse([]byte(tc.in)) {
				if r.Kind != KindEvent {
					t.Errorf("line %d not read: %q", r.Line, r.Text)
					continue
				}
				got = append(got, *r.Event)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseEventList(t *testing.T) {
	recs := Parse(read(t, "events-list.json"))
	if len(recs) != 3 {
		t.Fatalf("got %d records, want 3: %+v", len(recs), recs)
	}
	e := recs[0].Event
	if recs[0].Format != "json" || e.Reason != "ScalingReplicaSet" || e.Kind != "deployment" || e.Component != "deployment-controller" || e.Namespace != "default" {
		t.Errorf("first item: %+v", e)
	}
	if e := recs[1].Event; e.Component != "default-scheduler" || e.Action != "Binding" {
		t.Errorf("second item: %+v", e)
	}
	if recs[2].Kind != KindUnknown {
		t.Errorf("a ConfigMap is not an event: %+v", recs[2])
	}
	// One event a line, as `kubectl get events -w -o json` prints them
	// compacted by jq -c, and a mixed stream.
	var one bytes.Buffer
	one.WriteString("not json\n")
	one.WriteString(`{"kind":"Event","reason":"Pulled","type":"Normal","involvedObject":{"kind":"Pod","name":"p"},"message":"m"}` + "\n")
	recs = Parse(one.Bytes())
	if len(recs) != 2 || recs[0].Kind != KindUnknown || recs[1].Kind != KindEvent || recs[1].Line != 2 {
		t.Errorf("mixed: %+v", recs)
	}
}

func TestParseAudit(t *testing.T) {
	recs := Parse(read(t, "audit.jsonl"))
	if len(recs) != 7 {
		t.Fatalf("got %d records, want 7", len(recs))
	}
	want := &AuditRecord{Verb: "create", RequestURI: "/api/v1/namespaces/default/pods/nginx-5cfbf748d-wwnzv/binding",
		Resource: "pods", Subresource: "binding", Namespace: "default", Name: "nginx-5cfbf748d-wwnzv",
		Username: "system:kube-scheduler", UserAgent: "kube-scheduler/v1.25.8 (linux/amd64) kubernetes/83fe90d/scheduler",
		Stage: "ResponseComplete", Code: 201}
	if diff := cmp.Diff(want, recs[3].Audit); diff != "" {
		t.Errorf("line 4 (-want +got):\n%s", diff)
	}
	if recs[6].Kind != KindUnknown || recs[6].Line != 7 {
		t.Errorf("last line: %+v", recs[6])
	}

	recs = Parse(read(t, "audit-fields.txt"))
	var audits []*AuditRecord
	for _, r := range recs {
		if r.Kind == KindAudit {
			audits = append(audits, r.Audit)
		}
	}
	if len(audits) != 2 || audits[0].Resource != "replicasets" || audits[0].Name != "nginx-5cfbf748d" ||
		audits[1].Resource != "pods" || audits[1].Subresource != "binding" || audits[1].Username != "system:kube-scheduler" {
		t.Errorf("field blocks: %+v", audits)
	}
	if only := ParseAudit(read(t, "audit.jsonl")); len(only) != 7 || only[0].Kind != KindAudit {
		t.Errorf("ParseAudit: %+v", only)
	}
}

func TestExplainEvents(t *testing.T) {
	x := newFixture()
	exs := x.Explain(Parse(read(t, "seed000-watch.txt")))
	byReason := map[string]Explanation{}
	for _, ex := range exs {
		if ex.Event != nil {
			byReason[ex.Event.Reason] = ex
		}
	}
	// Two call sites record SuccessfulCreate; the object's kind names the
	// replicaset controller, which reaches createPods through the call
	// graph, and the message matches its format, not the cronjob's.
	sc := byReason["SuccessfulCreate"]
	if len(sc.Code) != 1 || sc.Code[0].Symbol != kk+"pkg/controller.RealPodControl.createPods" || sc.Code[0].Line != 614 {
		t.Errorf("SuccessfulCreate code: %+v", sc.Code)
	}
	if sc.Component == nil || sc.Component.Name != "replicaset-controller" {
		t.Errorf("SuccessfulCreate component: %+v", sc.Component)
	}
	if len(sc.Steps) != 1 || sc.Steps[0].Step != "step-2-pods" || sc.Steps[0].Page != "walkthroughs/deployment.html#step-2-pods" {
		t.Errorf("SuccessfulCreate steps: %+v", sc.Steps)
	}
	if sc.Code[0].Permalink != "https://github.com/kubernetes/kubernetes/blob/v1.36.3/pkg/controller/controller_utils.go#L614" {
		t.Errorf("permalink %q", sc.Code[0].Permalink)
	}
	// The blog post's message predates "from 0 to": neither format matches,
	// both call sites are shown, the facts block names the step.
	sr := byReason["ScalingReplicaSet"]
	if len(sr.Code) != 2 || len(sr.Steps) != 1 || sr.Steps[0].Step != "step-1-new-rs" {
		t.Errorf("ScalingReplicaSet: %+v", sr)
	}
	if s := byReason["Scheduled"]; len(s.Code) != 1 || s.Component.Name != "default-scheduler" {
		t.Errorf("Scheduled: %+v %+v", s.Code, s.Component)
	}
	// Reasons the facts do not hold are listed, not dropped.
	p := byReason["Pulling"]
	if p.Explained || !strings.Contains(p.Note, `no recorder call with reason "Pulling"`) {
		t.Errorf("Pulling: %+v", p)
	}
	if len(exs) != 20 || exs[0].Explained || exs[0].Kind != KindUnknown {
		t.Errorf("every line is listed: %d, first %+v", len(exs), exs[0])
	}
	var buf bytes.Buffer
	if err := WriteText(&buf, exs); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"3: 0s          Normal   SuccessfulCreate",
		"   emitted    pkg/controller/controller_utils.go:614  controller.RealPodControl.createPods",
		"   step       deployment.md:215  What happens when you create a Deployment › manageReplicas creates the Pods",
		"   UNEXPLAINED: no recorder call with reason \"Pulling\"",
		"\n7 of 20 explained\n",
	} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("text output lacks %q:\n%s", want, buf.String())
		}
	}
}

func TestExplainEventMessageDecides(t *testing.T) {
	x := newFixture()
	// No kind hint (a cronjob is not in kindController … it is; use a
	// pod-less object) — the message alone picks the cronjob's call site.
	ex := x.One(Record{Kind: KindEvent, Event: &EventRecord{Type: "Normal", Reason: "SuccessfulCreate", Kind: "thing", Message: "Created job hello-28512345"}})
	if len(ex.Code) != 1 || !strings.HasSuffix(ex.Code[0].Symbol, "cronjob.ControllerV2.syncCronJob") {
		t.Errorf("code: %+v", ex.Code)
	}
	if ex.Component == nil || ex.Component.Name != "cronjob-controller" || ex.Component.From != "code" {
		t.Errorf("component: %+v", ex.Component)
	}
}

func TestExplainAudit(t *testing.T) {
	x := newFixture()
	exs := x.Explain(Parse(read(t, "audit.jsonl")))
	type row struct {
		Component string
		Code      []string
		Steps     []string
		Explained bool
	}
	var got []row
	for _, ex := range exs {
		r := row{Explained: ex.Explained}
		if ex.Component != nil {
			r.Component = ex.Component.Name
		}
		for _, c := range ex.Code {
			r.Code = append(r.Code, c.Role+" "+c.Where())
		}
		for _, s := range ex.Steps {
			r.Steps = append(r.Steps, s.Step)
		}
		got = append(got, r)
	}
	want := []row{
		// kubectl's write is not a typed-client call; the deployment
		// controller's handler is what reacts, and the line is explained
		// by no step of the fixture.
		{Component: "kubectl"},
		{Component: "deployment-controller", Code: []string{"wrote pkg/controller/deployment/sync.go:232"}, Steps: []string{"step-1-new-rs"}, Explained: true},
		// The replicaset controller reaches RealPodControl; the kubelet's
		// mirror pod create is another component's.
		{Component: "replicaset-controller", Code: []string{"wrote pkg/controller/controller_utils.go:596"}, Steps: []string{"step-2-pods"}, Explained: true},
		{Component: "kube-scheduler", Code: []string{"wrote pkg/scheduler/framework/plugins/defaultbinder/default_binder.go:70"}, Steps: []string{"step-3-bind"}, Explained: true},
		{Component: "kubelet"},
		{Component: "replicaset-controller", Code: []string{"watches pkg/controller/replicaset/replica_set.go:223"}, Explained: true},
		{},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if h := exs[0].Handlers; len(h) != 1 || !strings.HasSuffix(h[0].Symbol, "addDeployment") {
		t.Errorf("kubectl create deployments reaches: %+v", h)
	}
	if !strings.Contains(exs[0].Note, "no client write of create deployments by kubectl") {
		t.Errorf("note %q", exs[0].Note)
	}
	// With kubectl's own writes among the facts (resource.Helper: any
	// resource), kubectl's create maps to its Create, and the deployment
	// controller's typed create still to its own line.
	f := fixtureFacts()
	f.Writes = append(f.Writes,
		fact.Write{Caller: fact.FuncRef{Symbol: "k8s.io/kubectl/pkg/cmd/apply.ApplyOptions.applyOneObject"}, At: fact.Location{Path: "staging/src/k8s.io/kubectl/pkg/cmd/apply/apply.go", StartLine: 699, EndLine: 699},
			Verb: "create", APIVerb: "create", ResourceDynamic: true, Via: "resource.Helper.Create"},
		fact.Write{Caller: fact.FuncRef{Symbol: "k8s.io/kubectl/pkg/cmd/apply.ApplyOptions.applyOneObject"}, At: fact.Location{Path: "staging/src/k8s.io/kubectl/pkg/cmd/apply/apply.go", StartLine: 636, EndLine: 636},
			Verb: "patch", APIVerb: "patch", ResourceDynamic: true, Via: "resource.Helper.Patch"})
	exs = New(f, fixtureDocs(f), Options{}).Explain(Parse(read(t, "audit.jsonl")))
	if c := exs[0].Code; len(c) != 1 || c[0].Where() != "staging/src/k8s.io/kubectl/pkg/cmd/apply/apply.go:699" || exs[0].Note != "" {
		t.Errorf("kubectl create deployments with kubectl's writes: %+v, note %q", c, exs[0].Note)
	}
	if c := exs[1].Code; len(c) != 1 || c[0].Where() != "pkg/controller/deployment/sync.go:232" {
		t.Errorf("the deployment controller's create with kubectl's writes: %+v", c)
	}
}

func TestAuditComponent(t *testing.T) {
	for _, tc := range []struct{ user, agent, want string }{
		{"system:serviceaccount:kube-system:deployment-controller", "", "deployment-controller"},
		{"system:serviceaccount:kube-system:daemonset-controller", "", "daemonset-controller"},
		{"system:serviceaccount:kube-system:generic-garbage-collector", "", "generic-garbage-collector"},
		{"system:kube-controller-manager", "kube-controller-manager/v1.31.0 (linux/amd64) kubernetes/abc/system:serviceaccount:kube-system:job-controller", "job-controller"},
		{"system:kube-controller-manager", "kube-controller-manager/v1.31.0 (linux/amd64) kubernetes/abc/shared-informers", "kube-controller-manager"},
		{"system:node:worker-1", "kubelet/v1.31.0 (linux/amd64) kubernetes/abc", "kubelet"},
		{"alice", "kubectl/v1.26.1 (darwin/arm64) kubernetes/8f94681", "kubectl"},
		{"alice", "curl/8.0", "curl"},
		{"", "", ""},
	} {
		c, _ := auditComponent(&AuditRecord{Username: tc.user, UserAgent: tc.agent})
		if c.Name != tc.want {
			t.Errorf("%s / %s: got %q, want %q", tc.user, tc.agent, c.Name, tc.want)
		}
	}
	// The service accounts kube-controller-manager gives controllers name
	// them as their packages do not: each still leads to its package.
	for user, want := range map[string]string{
		"daemon-set-controller":             "pkg/controller/daemon",
		"pod-garbage-collector":             "pkg/controller/podgc",
		"storage-version-garbage-collector": "pkg/controller/storageversiongc",
		"tokens-controller":                 "pkg/controller/serviceaccount",
		"podcertificaterequestcleaner":      "pkg/controller/certificates/cleaner",
		"deployment-controller":             "pkg/controller/deployment",
	} {
		c, ok := auditComponent(&AuditRecord{Username: "system:serviceaccount:kube-system:" + user})
		if !ok || !slices.Contains(c.Dirs, want) {
			t.Errorf("%s: component %+v, want its code in %s", user, c, want)
		}
	}
}

func TestFormatRegexp(t *testing.T) {
	for _, tc := range []struct {
		format, msg string
		want        bool
	}{
		{"Created pod: %v", "Created pod: nginx-1", true},
		{"Created job %v", "Created pod: nginx-1", false},
		{"Scaled up replica set %s from 0 to %d", "Scaled up replica set nginx-1 from 0 to 3", true},
		{"%s probe failed: %s", "Readiness probe failed: HTTP 503", true},
		{"100%% done (%d)", "100% done (3)", true},
		{"a.b*c %-5.2f", "a.b*c 1.00", true},
		// Verb-aware: %d prints digits, %q a quoted string.
		{"Scaled up replica set %s from 0 to %d", "Scaled up replica set nginx-1 from 0 to many", false},
		{"Pulling image %q", `Pulling image "nginx:1.14.2"`, true},
		{"Pulling image %q", "Pulling image nginx:1.14.2", false},
		{"Back-off %v restarting %q", `Back-off 10s restarting "a \"b\""`, true},
	} {
		re := formatRegexp(tc.format)
		if got := re.MatchString(tc.msg); got != tc.want {
			t.Errorf("%q ~ %q = %v", tc.format, tc.msg, got)
		}
	}
}

// A list on one line (`kubectl get events -o json | jq -c .` after other
// text) gives every item, and a value reads the same whether it is the
// whole input or one line of a mixed one.
func TestParseJSONOnOneLine(t *testing.T) {
	list := `{"kind":"List","items":[{"kind":"Event","reason":"Pulled","involvedObject":{"kind":"Pod","name":"a"}},{"kind":"Event","reason":"Started","involvedObject":{"kind":"Pod","name":"b"}},7]}`
	recs := Parse([]byte("not json\n" + list + "\n"))
	var got []string
	for _, r := range recs {
		got = append(got, fmt.Sprintf("%d %s %s", r.Line, r.Kind, r.Text))
	}
	want := []string{"1 unknown not json", "2 event Pulled  pod/a", "2 event Started  pod/b", "2 unknown 7"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	audit := `{"verb":"create","objectRef":{"resource":"pods","name":1e2,"namespace":-0}}`
	alone, mixed := Parse([]byte(audit)), Parse([]byte("x\n"+audit))
	if len(alone) != 1 || len(mixed) != 2 || alone[0].Audit == nil || mixed[1].Audit == nil {
		t.Fatalf("alone %+v, mixed %+v", alone, mixed)
	}
	if a, m := *alone[0].Audit, *mixed[1].Audit; a != m || a.Name != "100" || a.Namespace != "-0" {
		t.Errorf("alone %+v, mixed %+v; want both name 100, namespace -0", a, m)
	}
}

// Index carries what Explain decides from: each site's code, the steps
// that explain it with their scores, and where it is reached from.
func TestIndex(t *testing.T) {
	x := New(fixtureFacts(), fixtureDocs(fixtureFacts()), Options{
		Permalink:  permalink,
		SourcePage: func(p string, line int) string { return "src/" + p + ".html#L" + itoa(line) },
	})
	idx := x.Index()
	if len(idx.Steps) != 3 || idx.Steps[1].Page != "walkthroughs/deployment.html#step-2-pods" {
		t.Errorf("steps: %+v", idx.Steps)
	}
	create := idx.Events[0]
	if create.Reason != "SuccessfulCreate" || create.Line != 614 || create.Page != "src/pkg/controller/controller_utils.go.html#L614" ||
		create.Detail != `Eventf(Normal, SuccessfulCreatePodReason, "Created pod: %v")` {
		t.Errorf("event: %+v", create)
	}
	if diff := cmp.Diff([][2]int{{1, 2}}, create.Steps); diff != "" {
		t.Errorf("createPods is covered by step 2's reference (-want +got):\n%s", diff)
	}
	var reach []string
	for _, i := range create.Reach {
		reach = append(reach, idx.Dirs[i])
	}
	// createPods ← CreatePods (pkg/controller) ← manageReplicas.
	if diff := cmp.Diff([]string{"pkg/controller", "pkg/controller/replicaset"}, reach); diff != "" {
		t.Errorf("reach (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string][]int{"ScalingReplicaSet": {0}}, idx.Reasons); diff != "" {
		t.Errorf("reasons (-want +got):\n%s", diff)
	}
	bind := idx.Writes[3]
	if bind.Verb != "create" || bind.Resource != "pods" || bind.Subresource != "binding" || fmt.Sprint(bind.Steps) != "[[2 3]]" {
		t.Errorf("bind: %+v", bind)
	}
	h := idx.Handlers[0]
	if h.Resource != "deployments" || h.Add == nil || *h.Add != kk+"pkg/controller/deployment.DeploymentController.addDeployment" || h.Update != nil ||
		h.Detail != "AddEventHandler on dInformer.Informer()" || h.Handles != "pkg/controller/deployment: AddEventHandler on dInformer.Informer()" {
		t.Errorf("handler: %+v", h)
	}
}

func TestNameable(t *testing.T) {
	for p, want := range map[string]bool{
		"pkg/controller": true, "pkg/controller/replicaset": true, "pkg/scheduler/framework": true,
		"staging/src/k8s.io/cloud-provider/controllers/service": true,
		"pkg/apis/core": false, "staging/src/k8s.io/client-go/tools/record": false, "pkg/controllerx": false,
	} {
		if got := nameable(p); got != want {
			t.Errorf("nameable(%q) = %v", p, got)
		}
	}
}

// Steps are ranked in walkthrough order whatever order the docs come in
// (the command line loads user walkthroughs after the built-in ones, the
// site sorts them).
func TestStepOrder(t *testing.T) {
	doc := func(id string, order int) *walkthrough.Doc {
		return &walkthrough.Doc{ID: id, Order: order, Steps: []walkthrough.Step{{ID: "s"}}}
	}
	var got []string
	for _, s := range New(nil, []*walkthrough.Doc{doc("b", 2), nil, doc("c", 1), doc("a", 2)}, Options{}).Index().Steps {
		got = append(got, s.Page)
	}
	want := []string{"walkthroughs/c.html#s", "walkthroughs/a.html#s", "walkthroughs/b.html#s"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestCorpusListsEveryLine reads every case of testdata/corpus (which the
// site's explain page is held to as well) and checks that no line is
// dropped: read line by line, each non-blank line starts a record, is a
// table header, or is an audit field gathered into the record of its
// block.
func TestCorpusListsEveryLine(t *testing.T) {
	ents, err := os.ReadDir("testdata/corpus")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		in := read(t, e.Name())
		recs := Parse(in)
		checkRecords(t, in, recs)
		if len(recs) == 0 {
			t.Errorf("%s: no records", e.Name())
		}
		trim := bytes.TrimLeft(in, " \t\r\n\ufeff")
		if _, ok := parseJSONStream(in); ok && (trim[0] == '{' || trim[0] == '[') {
			continue // a JSON stream: a record per value (or list item)
		}
		starts := map[int]bool{}
		for _, r := range recs {
			starts[r.Line] = true
		}
		var kv kvBlock
		forLines(in, func(n int, line string) {
			s := strings.TrimSpace(line)
			switch {
			case s == "" || starts[n] || parseHeader(line) != nil:
			case kv.add(n, s):
			default:
				t.Errorf("%s:%d: %q is not listed", e.Name(), n, line)
			}
		})
	}
}

// A call whose reason is set at run time explains a record whose reason
// reaches it, after the calls that name the reason; a message set at run
// time is matched against the formats that reach it; a format of verbs
// alone matches anything, less surely than one with words.
func TestExplainDynamicEvents(t *testing.T) {
	at := func(line int) fact.Location {
		return fact.Location{Path: "pkg/controller/job/job_controller.go", StartLine: line, EndLine: line}
	}
	facts := &fact.Facts{Tag: "v1.37.2", Events: []fact.Event{
		{Caller: fact.FuncRef{Symbol: "k8s.io/kubernetes/pkg/controller/job.Controller.recordJobFinished"}, At: at(10), Recorder: "record", Method: "Event",
			Type: "Warning", ReasonExpr: "finishedCond.Reason", Dynamic: []string{"reason", "message"},
			ReasonValues: []string{"BackoffLimitExceeded", "DeadlineExceeded"}, MessageValues: []string{"Job has reached the specified backoff limit", "Job was active longer than specified deadline"}},
		{Caller: fact.FuncRef{Symbol: "k8s.io/kubernetes/pkg/controller/job.Controller.other"}, At: at(20), Recorder: "record", Method: "Event",
			Type: "Warning", Reason: "DeadlineExceeded", ReasonExpr: `"DeadlineExceeded"`, Message: "%v"},
		{Caller: fact.FuncRef{Symbol: "k8s.io/kubernetes/pkg/controller/job.Controller.third"}, At: at(30), Recorder: "record", Method: "Event",
			Type: "Warning", Reason: "DeadlineExceeded", ReasonExpr: `"DeadlineExceeded"`, Message: "Deadline of %d s passed"},
	}}
	x := New(facts, nil, Options{})
	lines := func(ex Explanation) []int {
		var ls []int
		for _, c := range ex.Code {
			ls = append(ls, c.Line)
		}
		return ls
	}
	for _, tc := range []struct {
		reason, msg string
		want        []int
	}{
		{"BackoffLimitExceeded", "Job has reached the specified backoff limit", []int{10}},
		{"DeadlineExceeded", "Job was active longer than specified deadline", []int{10, 20}},
		{"DeadlineExceeded", "Deadline of 30 s passed", []int{30}},
		{"DeadlineExceeded", "Deadline of thirty s passed", []int{20}},
	} {
		ex := x.One(Record{Kind: KindEvent, Event: &EventRecord{Type: "Warning", Reason: tc.reason, Kind: "thing", Message: tc.msg}})
		if got := lines(ex); !slices.Equal(got, tc.want) {
			t.Errorf("%s %q: lines %v, want %v", tc.reason, tc.msg, got, tc.want)
		}
		if strings.Contains(ex.Note, "another release") {
			t.Errorf("%s %q: note %q", tc.reason, tc.msg, ex.Note)
		}
	}
	// Worded as no call site of the release words it: said so.
	ex := x.One(Record{Kind: KindEvent, Event: &EventRecord{Type: "Warning", Reason: "BackoffLimitExceeded", Kind: "thing", Message: "Job hit its backoff limit"}})
	if !slices.Equal(lines(ex), []int{10}) || ex.Note != "no call site at v1.37.2 words the message so: it may come from another release" {
		t.Errorf("a message worded otherwise: lines %v, note %q", lines(ex), ex.Note)
	}
}

// A message no format prints whole (an older release's wording) is
// explained by the call sites whose format begins as it does, not by
// every call site of its reason: pullImage's, not the two that say the
// image was already present.
func TestExplainRewordedTail(t *testing.T) {
	at := func(line int) fact.Location {
		return fact.Location{Path: "pkg/kubelet/images/image_manager.go", StartLine: line, EndLine: line}
	}
	ev := func(caller string, line int, msg string) fact.Event {
		return fact.Event{Caller: fact.FuncRef{Symbol: "k8s.io/kubernetes/pkg/kubelet/images.imageManager." + caller}, At: at(line),
			Recorder: "record", Method: "Event", Type: "Normal", Reason: "Pulled", ReasonExpr: "events.PulledImage", Message: msg}
	}
	facts := &fact.Facts{Tag: "v1.37.2", Events: []fact.Event{
		ev("EnsureImageExists", 252, "Container image %q already present on machine"),
		ev("EnsureImageExists", 265, "Container image %q already present on machine and can be accessed by the pod"),
		ev("pullImage", 381, "Successfully pulled image %q in %v (%v including waiting). Image size: %v bytes."),
	}}
	x := New(facts, nil, Options{})
	for _, tc := range []struct {
		msg  string
		want []int
	}{
		{`Successfully pulled image "nginx:1.14.2" in 9.57s (9.57s including waiting)`, []int{381}},
		{`Successfully pulled image "nginx:1.14.2" in 9.57s (9.57s including waiting). Image size: 0 bytes.`, []int{381}},
		{`(combined from similar events): Successfully pulled image "nginx" in 1s (1s including waiting)`, []int{381}},
		{`Container image "nginx:1.14.2" already present on machine`, []int{252}},
		// Worded as no format begins: every call site of the reason.
		{`Image pulled`, []int{252, 265, 381}},
	} {
		ex := x.One(Record{Kind: KindEvent, Event: &EventRecord{Type: "Normal", Reason: "Pulled", Kind: "Pod", Message: tc.msg}})
		var got []int
		for _, c := range ex.Code {
			got = append(got, c.Line)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%q: lines %v, want %v", tc.msg, got, tc.want)
		}
	}
}
