package events

import "k8s.io/apimachinery/pkg/runtime"

// EventRecorder records events.k8s.io/v1 events.
type EventRecorder interface {
	Eventf(regarding runtime.Object, related runtime.Object, eventtype, reason, action, note string, args ...interface{})
}

type EventRecorderLogger interface {
	EventRecorder
	WithLogger(logger interface{}) EventRecorderLogger
}
