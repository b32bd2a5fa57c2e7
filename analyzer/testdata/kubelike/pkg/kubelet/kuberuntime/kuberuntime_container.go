package kuberuntime

import (
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/record"
	"k8s.io/kubernetes/pkg/kubelet/events"
)

type kubeGenericRuntimeManager struct {
	recorder record.EventRecorderLogger
	wrapped  eventWrapper
	mine     *myRecorder
}

// eventWrapper embeds the recorder interface.
type eventWrapper struct{ record.EventRecorder }

// myRecorder implements record.EventRecorder without embedding it.
type myRecorder struct{}

func (r *myRecorder) Event(object runtime.Object, eventtype, reason, message string) {}
func (r *myRecorder) Eventf(object runtime.Object, eventtype, reason, messageFmt string, args ...interface{}) {
}
func (r *myRecorder) AnnotatedEventf(object runtime.Object, annotations map[string]string, eventtype, reason, messageFmt string, args ...interface{}) {
}

// notARecorder has an Eventf that is not an event.
type notARecorder struct{}

func (notARecorder) Eventf(format string, args ...interface{}) {}

func (m *kubeGenericRuntimeManager) recordContainerEvent(pod *v1.Pod, containerName, eventType, reason, message string, args ...interface{}) {
	m.recorder.WithLogger(nil).Eventf(pod, eventType, reason, message, args...) // want event "record.Eventf  \"\" reasonExpr=reason message=\"\" dynamic=type,reason,message types=[\"Normal\"] reasons=[\"Created\" \"Started\"] messages=[\"Created container %s\" \"Started container %s\"] caller=kuberuntime.kubeGenericRuntimeManager.recordContainerEvent"
}

func (m *kubeGenericRuntimeManager) startContainer(pod *v1.Pod, name string, reasonFromStatus string) {
	m.recordContainerEvent(pod, name, v1.EventTypeNormal, events.CreatedContainer, "Created container %s", name) // want event "record.Eventf Normal \"Created\" reasonExpr=events.CreatedContainer message=\"Created container %s\" via=kuberuntime.kubeGenericRuntimeManager.recordContainerEvent caller=kuberuntime.kubeGenericRuntimeManager.startContainer" // want call "static kuberuntime.kubeGenericRuntimeManager.startContainer -> kuberuntime.kubeGenericRuntimeManager.recordContainerEvent"
	m.recordContainerEvent(pod, name, v1.EventTypeNormal, events.StartedContainer, "Started container %s", name) // want event "record.Eventf Normal \"Started\" reasonExpr=events.StartedContainer message=\"Started container %s\" via=kuberuntime.kubeGenericRuntimeManager.recordContainerEvent caller=kuberuntime.kubeGenericRuntimeManager.startContainer" // want call "static kuberuntime.kubeGenericRuntimeManager.startContainer -> kuberuntime.kubeGenericRuntimeManager.recordContainerEvent"
	m.wrapped.Eventf(pod, v1.EventTypeWarning, "BackOff", "Back-off restarting")                                 // want event "record.Eventf Warning \"BackOff\" reasonExpr=\"BackOff\" message=\"Back-off restarting\" caller=kuberuntime.kubeGenericRuntimeManager.startContainer"
	m.mine.AnnotatedEventf(pod, nil, v1.EventTypeNormal, "Annotated", "with annotations")                        // want event "record.AnnotatedEventf Normal \"Annotated\" reasonExpr=\"Annotated\" message=\"with annotations\" caller=kuberuntime.kubeGenericRuntimeManager.startContainer"
	m.recorder.Event(pod, v1.EventTypeWarning, reasonFromStatus, "computed reason")                              // want event "record.Event Warning \"\" reasonExpr=reasonFromStatus message=\"computed reason\" dynamic=reason types=[] reasons=[] messages=[] caller=kuberuntime.kubeGenericRuntimeManager.startContainer"
	notARecorder{}.Eventf("not an event")
}
