package record

import "k8s.io/apimachinery/pkg/runtime"

// EventRecorder records core/v1 events.
type EventRecorder interface {
	Event(object runtime.Object, eventtype, reason, message string)
	Eventf(object runtime.Object, eventtype, reason, messageFmt string, args ...interface{})
	AnnotatedEventf(object runtime.Object, annotations map[string]string, eventtype, reason, messageFmt string, args ...interface{})
}

// EventRecorderLogger adds contextual logging.
type EventRecorderLogger interface {
	EventRecorder
	WithLogger(logger interface{}) EventRecorderLogger
}
