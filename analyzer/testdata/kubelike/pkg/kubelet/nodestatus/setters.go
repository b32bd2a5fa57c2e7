// Package nodestatus is the kubelet's node status setters: they record the
// node's condition events through a func value they are given, never
// through a recorder of their own.
package nodestatus

import (
	v1 "k8s.io/api/core/v1"
	"k8s.io/kubernetes/pkg/kubelet/events"
)

// Setter sets part of a node's status.
type Setter func(node *v1.Node) error

// MemoryPressureCondition calls its func value directly, in the setter it
// returns.
func MemoryPressureCondition(pressure func() bool, recordEventFunc func(eventType, event string)) Setter {
	return func(node *v1.Node) error {
		if pressure() {
			recordEventFunc(v1.EventTypeNormal, "NodeHasInsufficientMemory") // want event "record.Eventf Normal \"NodeHasInsufficientMemory\" reasonExpr=\"NodeHasInsufficientMemory\" message=\"Node %s status is now: %s\" via=kubelet.Kubelet.recordNodeStatusEvent funcValue=pkg/kubelet/kubelet_node_status.go:29 caller=nodestatus.MemoryPressureCondition$1"
		} else {
			recordEventFunc(v1.EventTypeNormal, "NodeHasSufficientMemory") // want event "record.Eventf Normal \"NodeHasSufficientMemory\" reasonExpr=\"NodeHasSufficientMemory\" message=\"Node %s status is now: %s\" via=kubelet.Kubelet.recordNodeStatusEvent funcValue=pkg/kubelet/kubelet_node_status.go:29 caller=nodestatus.MemoryPressureCondition$1"
		}
		return nil
	}
}

// ReadyCondition hands its func value on to readyEvent: the events are
// two hand-overs away from the kubelet.
func ReadyCondition(ready func() bool, recordEventFunc func(eventType, event string)) Setter {
	return func(node *v1.Node) error {
		readyEvent(ready(), recordEventFunc)
		return nil
	}
}

func readyEvent(ready bool, record func(eventType, event string)) {
	if ready {
		record(v1.EventTypeNormal, events.NodeReady) // want event "record.Eventf Normal \"NodeReady\" reasonExpr=events.NodeReady message=\"Node %s status is now: %s\" via=kubelet.Kubelet.recordNodeStatusEvent funcValue=pkg/kubelet/kubelet_node_status.go:30 caller=nodestatus.readyEvent"
		return
	}
	record(v1.EventTypeNormal, events.NodeNotReady) // want event "record.Eventf Normal \"NodeNotReady\" reasonExpr=events.NodeNotReady message=\"Node %s status is now: %s\" via=kubelet.Kubelet.recordNodeStatusEvent funcValue=pkg/kubelet/kubelet_node_status.go:30 caller=nodestatus.readyEvent"
}

// PIDPressureCondition is given a func literal.
func PIDPressureCondition(recordEventFunc func(eventType, event string)) Setter {
	return func(node *v1.Node) error {
		recordEventFunc(v1.EventTypeNormal, "NodeHasSufficientPID") // want event "record.Event Normal \"NodeHasSufficientPID\" reasonExpr=\"NodeHasSufficientPID\" message=\"PID pressure changed\" via=kubelet.Kubelet.defaultNodeStatusFuncs$3 funcValue=pkg/kubelet/kubelet_node_status.go:31 caller=nodestatus.PIDPressureCondition$1"
		return nil
	}
}

// DiskPressureCondition is given a named function.
func DiskPressureCondition(recordEventFunc func(eventType, event string)) Setter {
	return func(node *v1.Node) error {
		recordEventFunc(v1.EventTypeNormal, "NodeHasNoDiskPressure") // want event "record.Eventf Normal \"NodeHasNoDiskPressure\" reasonExpr=\"NodeHasNoDiskPressure\" message=\"disk: %s\" via=kubelet.recordDiskEvent funcValue=pkg/kubelet/kubelet_node_status.go:34 caller=nodestatus.DiskPressureCondition$1"
		return nil
	}
}

// Recorder keeps the func value in a field and calls it later.
type Recorder struct {
	Record func(eventType, event string)
}

// Rebooted records through the field.
func (r *Recorder) Rebooted() {
	r.Record(v1.EventTypeWarning, "Rebooted") // want event "record.Eventf Warning \"Rebooted\" reasonExpr=\"Rebooted\" message=\"Node %s status is now: %s\" via=kubelet.Kubelet.recordNodeStatusEvent funcValue=pkg/kubelet/kubelet_node_status.go:39 caller=nodestatus.Recorder.Rebooted"
}
