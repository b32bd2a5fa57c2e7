// Package kubelet records node-condition events through helpers it hands
// to the nodestatus setters as func values: a method value, a func literal
// and a named function.
package kubelet

import (
	"k8s.io/client-go/tools/record"

	v1 "k8s.io/api/core/v1"
	"k8s.io/kubernetes/pkg/kubelet/nodestatus"
)

// Kubelet is the node agent.
type Kubelet struct {
	recorder record.EventRecorder
	nodeRef  *v1.ObjectReference
	nodeName string
}

var diskRecorder record.EventRecorder

// recordNodeStatusEvent records an event for this node.
func (kl *Kubelet) recordNodeStatusEvent(eventType, event string) {
	kl.recorder.Eventf(kl.nodeRef, eventType, event, "Node %s status is now: %s", kl.nodeName, event) // want event "record.Eventf  \"\" reasonExpr=event message=\"Node %s status is now: %s\" dynamic=type,reason types=[\"Normal\" \"Warning\"] reasons=[\"NodeHasInsufficientMemory\" \"NodeHasSufficientMemory\" \"NodeNotReady\" \"NodeReady\" \"Rebooted\"] messages=[] caller=kubelet.Kubelet.recordNodeStatusEvent"
}

func (kl *Kubelet) defaultNodeStatusFuncs() []nodestatus.Setter {
	return []nodestatus.Setter{
		nodestatus.MemoryPressureCondition(func() bool { return false }, kl.recordNodeStatusEvent),
		nodestatus.ReadyCondition(func() bool { return true }, kl.recordNodeStatusEvent),
		nodestatus.PIDPressureCondition(func(eventType, event string) {
			kl.recorder.Event(kl.nodeRef, eventType, event, "PID pressure changed") // want event "record.Event  \"\" reasonExpr=event message=\"PID pressure changed\" dynamic=type,reason types=[\"Normal\"] reasons=[\"NodeHasSufficientPID\"] messages=[] caller=kubelet.Kubelet.defaultNodeStatusFuncs$3"
		}),
		nodestatus.DiskPressureCondition(recordDiskEvent),
	}
}

func (kl *Kubelet) rebooted() {
	r := &nodestatus.Recorder{Record: kl.recordNodeStatusEvent} // want wiring "nodestatus.Recorder.Record = kubelet.Kubelet.recordNodeStatusEvent"
	r.Rebooted()
}

func recordDiskEvent(eventType, event string) {
	diskRecorder.Eventf(nil, eventType, event, "disk: %s", event) // want event "record.Eventf  \"\" reasonExpr=event message=\"disk: %s\" dynamic=type,reason types=[\"Normal\"] reasons=[\"NodeHasNoDiskPressure\"] messages=[] caller=kubelet.recordDiskEvent"
}
