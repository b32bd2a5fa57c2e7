package explain

import (
	"testing"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/record"
)

// Attribute marks what the scenario caused, attributes an event's write
// to the recorder call that emitted it, and leaves a write no fact
// explains unattributed.
func TestAttribute(t *testing.T) {
	const dc = "system:serviceaccount:kube-system:deployment-controller"
	sync := fact.Location{Path: "pkg/controller/deployment/sync.go", StartLine: 286, EndLine: 286}
	facts := &fact.Facts{
		Tag: "v1.37.2",
		Events: []fact.Event{{
			Caller: fact.FuncRef{Symbol: "k8s.io/kubernetes/pkg/controller/deployment.DeploymentController.getNewReplicaSet", Decl: sync},
			At:     sync, Recorder: "record", Method: "Eventf", Type: "Normal",
			Reason: "ScalingReplicaSet", ReasonExpr: `"ScalingReplicaSet"`, Message: "Scaled up replica set %s from %d to %d",
		}},
	}
	rec := &record.Recording{
		Format: record.Format, Tag: "v1.37.2", Scenario: "deployment",
		Events: []record.Event{
			{At: 20, Type: "Normal", Reason: "RegisteredNode", Object: record.ObjectRef{Kind: "Node", Name: "node1"}, Component: "node-controller", Name: "node1.1", Namespace: "default"},
			{At: 176, Type: "Normal", Reason: "ScalingReplicaSet", Object: record.ObjectRef{Kind: "Deployment", Namespace: "default", Name: "nginx-deployment"}, Message: "Scaled up replica set nginx-deployment-54fd4d6d4c from 0 to 3", Component: "deployment-controller", Name: "nginx-deployment.1", Namespace: "default"},
		},
		Audit: []record.AuditEntry{
			{At: -300, Stage: "ResponseComplete", Verb: "create", Resource: "configmaps", Namespace: "kube-system", Name: "x", User: "system:apiserver"},
			{At: 20, Stage: "ResponseComplete", Verb: "create", Resource: "events", Namespace: "default", Name: "node1.1", User: "system:serviceaccount:kube-system:node-controller"},
			{At: 176, Stage: "ResponseComplete", Verb: "create", Resource: "events", Namespace: "default", Name: "nginx-deployment.1", User: dc},
			{At: 200, Stage: "ResponseComplete", Verb: "patch", Resource: "configmaps", Namespace: "default", Name: "y", User: dc},
		},
	}
	at := New(facts, nil, Options{}).Attribute(rec)
	if got := []bool{at.Events[0].Scenario, at.Events[1].Scenario}; got[0] || !got[1] {
		t.Errorf("events' Scenario = %v, want the Node's out and the Deployment's in", got)
	}
	wantScenario := []bool{false, false, true, true}
	for i, a := range at.Audit {
		if a.Scenario != wantScenario[i] {
			t.Errorf("audit %d (%s %s %s): Scenario = %v, want %v", i, a.Verb, a.Resource, a.Name, a.Scenario, wantScenario[i])
		}
	}
	ev := at.Audit[2].Explanation
	if !ev.Explained || len(ev.Code) == 0 || ev.Code[0].Role != "emitted" || ev.Code[0].Line != 286 {
		t.Errorf("the event's write: %+v, want it attributed to the Eventf at sync.go:286", ev)
	}
	if cm := at.Audit[3].Explanation; cm.Explained || len(cm.Code) > 0 {
		t.Errorf("a write no fact explains was attributed: %+v", cm)
	}
}
