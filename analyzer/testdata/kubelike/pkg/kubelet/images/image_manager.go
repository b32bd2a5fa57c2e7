package images

import (
	"fmt"

	v1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/record"
	"k8s.io/kubernetes/pkg/kubelet/events"
)

type imageManager struct {
	recorder record.EventRecorder
}

// logIt forwards its reason to the recorder: the events pass reports the
// calls of logIt, where the reason is a constant.
func (m *imageManager) logIt(objRef *v1.ObjectReference, eventtype, event, msg string) {
	if objRef != nil {
		m.recorder.Event(objRef, eventtype, event, msg) // want event "record.Event  \"\" reasonExpr=event message=\"\" dynamic=type,reason,message types=[\"Normal\"] reasons=[\"Pulled\" \"Pulling\"] messages=[\"Pulling image %q\" \"Successfully pulled image\"] caller=images.imageManager.logIt"
	}
}

func (m *imageManager) EnsureImageExists(ref *v1.ObjectReference, image string) {
	m.logIt(ref, v1.EventTypeNormal, events.PullingImage, fmt.Sprintf("Pulling image %q", image)) // want event "record.Event Normal \"Pulling\" reasonExpr=events.PullingImage message=\"Pulling image %q\" via=images.imageManager.logIt caller=images.imageManager.EnsureImageExists"
	m.logIt(ref, v1.EventTypeNormal, events.PulledImage, "Successfully pulled image")             // want event "record.Event Normal \"Pulled\" reasonExpr=events.PulledImage message=\"Successfully pulled image\" via=images.imageManager.logIt caller=images.imageManager.EnsureImageExists"
}
