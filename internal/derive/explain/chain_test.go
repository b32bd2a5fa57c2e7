package explain

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/record"
	"github.com/kubewalk/kubewalk/walkthrough"
)

// chainFacts are a deployment controller with three write sites of
// deployments/status — in getNewReplicaSet (which also creates the
// ReplicaSet), in syncStatusOnly, and in rollback, which syncDeployment
// does not reach — a ReplicaSet handler that feeds syncDeployment's queue,
// and the controller manager's client builder creating service accounts.
func chainFacts() *fact.Facts {
	const dc = "pkg/controller/deployment/"
	fn := func(sym string, line int) fact.FuncRef {
		return fact.FuncRef{Symbol: kk + "pkg/controller/deployment.DeploymentController." + sym, Decl: fact.Location{Path: dc + "sync.go", StartLine: line, EndLine: line + 20}}
	}
	deployments := fact.Resource{Group: "apps", Version: "v1", Kind: "Deployment", Resource: "deployments"}
	replicasets := fact.Resource{Group: "apps", Version: "v1", Kind: "ReplicaSet", Resource: "replicasets"}
	status := func(caller fact.FuncRef, line int) fact.Write {
		return fact.Write{Caller: caller, At: loc(dc+"sync.go", line), Resource: deployments, Verb: "update", Subresource: "status", APIVerb: "update", Via: "AppsV1().Deployments().UpdateStatus"}
	}
	getNewRS, statusOnly, rollback, sync := fn("getNewReplicaSet", 100), fn("syncStatusOnly", 200), fn("rollback", 300), fn("syncDeployment", 400)
	enqueue := fn("enqueue", 500)
	sa := fact.FuncRef{Symbol: kk + "pkg/controller/serviceaccount.ServiceAccountsController.syncNamespace", Decl: loc("pkg/controller/serviceaccount/serviceaccounts_controller.go", 200)}
	return &fact.Facts{
		Tag: "v1.37.2",
		Writes: []fact.Write{
			{Caller: getNewRS, At: loc(dc+"sync.go", 110), Resource: replicasets, Verb: "create", APIVerb: "create", Via: "AppsV1().ReplicaSets().Create"},
			status(getNewRS, 115), status(statusOnly, 210), status(rollback, 310),
			{Caller: sa, At: loc("pkg/controller/serviceaccount/serviceaccounts_controller.go", 223), Resource: fact.Resource{Version: "v1", Kind: "ServiceAccount", Resource: "serviceaccounts"}, Verb: "create", APIVerb: "create", Via: "CoreV1().ServiceAccounts().Create"},
		},
		Handlers: []fact.HandlerRegistration{{
			Component: "pkg/controller/deployment", Caller: fn("NewDeploymentController", 600), At: loc(dc+"deployment_controller.go", 135),
			Method: "AddEventHandler", InformerExpr: "rsInformer.Informer()", Informer: replicasets,
			Update: &fact.Handler{FuncRef: fact.FuncRef{Symbol: kk + "pkg/controller/deployment.NewDeploymentController$5"}, Form: "func literal", Calls: []string{kk + "pkg/controller/deployment.DeploymentController.updateReplicaSet"}},
		}},
		Wirings: []fact.Wiring{{Type: kk + "pkg/controller/deployment.DeploymentController", Field: "syncHandler", Sync: sync, At: loc(dc+"deployment_controller.go", 152),
			Queue: "queue", Enqueuers: []fact.FuncRef{enqueue}, Worker: &fact.FuncRef{Symbol: kk + "pkg/controller/deployment.DeploymentController.processNextWorkItem"}}},
		Calls: []fact.Call{
			{From: kk + "pkg/controller/deployment.DeploymentController.updateReplicaSet", To: enqueue.Symbol, At: loc(dc+"deployment_controller.go", 260), Kind: "static"},
			{From: sync.Symbol, To: getNewRS.Symbol, At: loc(dc+"sync.go", 410), Kind: "static"},
			{From: sync.Symbol, To: statusOnly.Symbol, At: loc(dc+"sync.go", 412), Kind: "static"},
			{From: kk + "cmd/kube-controller-manager/app.newServiceAccountsController", To: sa.Symbol, At: loc("cmd/kube-controller-manager/app/core.go", 300), Kind: "static"},
		},
	}
}

// The chain chooses among a component's write sites, and the
// attribution says which rule did; a write no step cites goes under the
// step that explains its caller, not under an informer's.
func TestAttributeNarrowsByChain(t *testing.T) {
	f := chainFacts()
	docs := []*walkthrough.Doc{{ID: "deployment", Title: "Deployment", Steps: []walkthrough.Step{
		{ID: "informer", Title: "The informer sees the ReplicaSet",
			Segments: []walkthrough.Segment{{Facts: &walkthrough.FactsBlock{Kind: "handlers", Handlers: f.Handlers}}}},
		{ID: "sync", Title: "syncDeployment reconciles",
			Refs: []walkthrough.Ref{{Resolved: fact.Resolved{Symbol: fact.Symbol{Name: f.Wirings[0].Sync.Symbol, Decl: f.Wirings[0].Sync.Decl}}}}},
	}}}
	const dcUser = "system:serviceaccount:kube-system:deployment-controller"
	write := func(at int64, user, verb, res, sub, name string) record.AuditEntry {
		return record.AuditEntry{At: at, Stage: "ResponseComplete", Verb: verb, Group: "apps", Resource: res, Subresource: sub, Namespace: "default", Name: name, User: user,
			UserAgent: "kube-controller-manager/v1.37.2 (linux/amd64) kubernetes/unknown/system:serviceaccount:kube-system:" + strings.TrimPrefix(user, "system:serviceaccount:kube-system:")}
	}
	rec := &record.Recording{Format: record.Format, Tag: "v1.37.2", Scenario: "deployment", Audit: []record.AuditEntry{
		write(10, dcUser, "create", "replicasets", "", "nginx-1"),
		write(20, dcUser, "update", "deployments", "status", "nginx"),
		write(30, "system:serviceaccount:kube-system:replicaset-controller", "update", "replicasets", "status", "nginx-1"),
		write(40, dcUser, "update", "deployments", "status", "nginx"),
		{At: -500, Stage: "ResponseComplete", Verb: "create", Resource: "serviceaccounts", Namespace: "kube-system", Name: "deployment-controller",
			User: "system:kube-controller-manager", UserAgent: "kube-controller-manager/v1.37.2 (linux/amd64) kubernetes/unknown/kube-controller-manager"},
	}}
	at := New(f, docs, Options{}).Attribute(rec)
	lines := func(ex Explanation) []int {
		var out []int
		for _, c := range ex.Code {
			if c.Role == "wrote" {
				out = append(out, c.Line)
			}
		}
		return out
	}
	// Right after the create in getNewReplicaSet: its own status update.
	if ex := at.Audit[1].Explanation; !cmp.Equal(lines(ex), []int{115}) || !strings.Contains(ex.Rule, "write before it, create replicasets nginx-1, was made by deployment.DeploymentController.getNewReplicaSet") {
		t.Errorf("the status update after the create: lines %v, rule %q", lines(ex), ex.Rule)
	}
	// After the replicaset controller's write: its handler feeds
	// syncDeployment, which does not reach rollback.
	if ex := at.Audit[3].Explanation; !cmp.Equal(lines(ex), []int{115, 210}) ||
		!strings.Contains(ex.Rule, "after update replicasets/status nginx-1 (replicaset-controller), deployment-controller's handler deployment.DeploymentController.updateReplicaSet feeds deployment.DeploymentController.syncDeployment, which reaches 2 of the 3 write sites") {
		t.Errorf("the status update after the ReplicaSet's: lines %v, rule %q", lines(ex), ex.Rule)
	}
	// No step cites the writes' lines: the step citing syncDeployment,
	// which calls their functions, explains them; not the informer's.
	for _, i := range []int{0, 1, 3} {
		if s := at.Audit[i].Explanation.Steps; len(s) != 1 || s[0].Step != "sync" {
			t.Errorf("write %d: steps %+v, want the sync step only", i, s)
		}
	}
	// The controller manager writing as itself, while its controllers
	// have credentials of their own, is not the serviceaccounts
	// controller: its client builder, which the facts do not hold.
	if ex := at.Audit[4].Explanation; ex.Explained || !strings.Contains(ex.Note, "k8s.io/controller-manager/pkg/clientbuilder") {
		t.Errorf("the client builder's create: %+v", ex)
	}
	// Without per-controller credentials every controller is the
	// controller manager: the serviceaccounts controller's create stands.
	rec.Audit = rec.Audit[4:]
	if ex := New(f, docs, Options{}).Attribute(rec).Audit[0].Explanation; !ex.Explained || lines(ex)[0] != 223 {
		t.Errorf("without per-controller credentials: %+v", ex)
	}
}
