// Package eventshapes holds the shapes in which Kubernetes writes an
// event's type, reason and message, each with what the events pass tells
// of it.
package eventshapes

import (
	"errors"
	"fmt"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/events"
	"k8s.io/client-go/tools/record"
)

const reasonSynced = "Synced"

const messageSynced = "Synced " + "successfully"

type Controller struct {
	recorder record.EventRecorder
	events   events.EventRecorder
	cond     condition
}

type condition struct{ Reason string }

func (c *Controller) shapes(obj runtime.Object, name string, err error, failed bool) {
	// A constant, and a concatenation of constants.
	c.recorder.Event(obj, v1.EventTypeNormal, reasonSynced, messageSynced) // want event "record.Event Normal \"Synced\" reasonExpr=reasonSynced message=\"Synced successfully\" caller=eventshapes.Controller.shapes"
	// A variable given one value.
	msg := fmt.Sprintf("Object %s synced", name)
	c.recorder.Event(obj, v1.EventTypeNormal, reasonSynced, msg) // want event "record.Event Normal \"Synced\" reasonExpr=reasonSynced message=\"Object %s synced\" caller"
	// A concatenation with a part known at run time, and an error's text.
	c.recorder.Event(obj, v1.EventTypeWarning, "Failed", "Error: "+err.Error())                        // want event "record.Event Warning \"Failed\" reasonExpr=\"Failed\" message=\"Error: %v\" caller"
	c.recorder.Event(obj, v1.EventTypeWarning, "Failed", err.Error())                                  // want event "record.Event Warning \"Failed\" reasonExpr=\"Failed\" message=\"\" dynamic=message types=[] reasons=[] messages=[] caller"
	c.recorder.Event(obj, v1.EventTypeWarning, "Failed", fmt.Errorf("sync %s: %w", name, err).Error()) // want event "message=\"sync %s: %w\" caller"
	c.recorder.Event(obj, v1.EventTypeWarning, "Failed", errors.New("no sync").Error())                // want event "message=\"no sync\" caller"
	// A variable given two values: the type is dynamic, with both listed.
	eventType := v1.EventTypeNormal
	if failed {
		eventType = v1.EventTypeWarning
	}
	c.recorder.Eventf(obj, eventType, reasonSynced, "%s", msg) // want event "record.Eventf  \"Synced\" reasonExpr=reasonSynced message=\"Object %s synced\" dynamic=type types=[\"Normal\" \"Warning\"] reasons=[] messages=[] caller"
	// A field: the values assigned to it anywhere in the roots, whichever
	// object holds it; reasonField says so.
	c.recorder.Event(obj, v1.EventTypeWarning, c.cond.Reason, fmt.Sprint("Condition ", c.cond.Reason)) // want event "record.Event Warning \"\" reasonExpr=c.cond.Reason message=\"Condition %v\" dynamic=reason types=[] reasons=[\"Backoff\" \"DeadlineExceeded\"] messages=[] reasonField=condition.Reason caller"
	// events/v1: regarding, related, type, reason, action, note.
	c.events.Eventf(obj, nil, v1.EventTypeNormal, "Scheduled", "Binding", "Assigned %s", name) // want event "events.Eventf Normal \"Scheduled\" reasonExpr=\"Scheduled\" message=\"Assigned %s\" action=Binding caller"
}

// A root function's result: what its return statements give, here a
// named result returned bare.
func (c *Controller) met(obj runtime.Object) {
	m, _ := conditionMessage()
	c.recorder.Event(obj, v1.EventTypeNormal, "Met", m) // want event "record.Event Normal \"Met\" reasonExpr=\"Met\" message=\"Condition %s met\" caller=eventshapes.Controller.met"
}

func conditionMessage() (msg string, ok bool) {
	msg = fmt.Sprintf("Condition %s met", "x")
	return
}

func (c *Controller) fail(deadline bool) {
	c.cond = condition{Reason: "Backoff"}
	if deadline {
		c.cond.Reason = "DeadlineExceeded"
	}
}

// recordEvent is a helper of the kubelet's recordEvent shape: type,
// reason and message are its parameters, reported at each call with the
// values passed there; its own recorder call lists them.
func (c *Controller) recordEvent(obj runtime.Object, eventType, reason, message string, args ...interface{}) {
	c.recorder.Eventf(obj, eventType, reason, message, args...) // want event "record.Eventf  \"\" reasonExpr=reason message=\"\" dynamic=type,reason,message types=[\"Normal\" \"Warning\"] reasons=[\"Ready\" \"Stuck\"] messages=[\"Ready after %v\" \"Stuck for %v\"] caller=eventshapes.Controller.recordEvent"
}

func (c *Controller) report(obj runtime.Object, ready bool) {
	if ready {
		c.recordEvent(obj, v1.EventTypeNormal, "Ready", "Ready after %v", 3) // want event "record.Eventf Normal \"Ready\" reasonExpr=\"Ready\" message=\"Ready after %v\" via=eventshapes.Controller.recordEvent caller=eventshapes.Controller.report"
		return
	}
	c.warn(obj, "Stuck", "Stuck for %v") // want event "record.Eventf Warning \"Stuck\" reasonExpr=\"Stuck\" message=\"Stuck for %v\" via=eventshapes.Controller.warn caller=eventshapes.Controller.report"
}

// warn is a helper of a helper: its call in report is reported too.
func (c *Controller) warn(obj runtime.Object, reason, format string) {
	c.recordEvent(obj, v1.EventTypeWarning, reason, format, 1) // want event "record.Eventf Warning \"\" reasonExpr=reason message=\"\" via=eventshapes.Controller.recordEvent dynamic=reason,message types=[] reasons=[\"Stuck\"] messages=[\"Stuck for %v\"] caller=eventshapes.Controller.warn"
}

// wrapper implements record.EventRecorder by passing each call on: its
// recorder calls forward their arguments.
type wrapper struct{ inner record.EventRecorder }

func (w *wrapper) Event(object runtime.Object, eventtype, reason, message string) {
	w.inner.Event(object, eventtype, reason, message) // want event "record.Event  \"\" reasonExpr=reason message=\"\" dynamic=type,reason,message types=[] reasons=[] messages=[] forwards caller=eventshapes.wrapper.Event"
}

func (w *wrapper) Eventf(object runtime.Object, eventtype, reason, messageFmt string, args ...interface{}) {
}

func (w *wrapper) AnnotatedEventf(object runtime.Object, annotations map[string]string, eventtype, reason, messageFmt string, args ...interface{}) {
}

// finished has the job controller's shape: a local reason assigned in
// several branches. Only the assignments that reach the recorder call on
// some path are its values: "Suspended" is returned before the call,
// "Skipped" continues the loop, and "Pending" is assigned again on every
// path to the call.
func (c *Controller) finished(obj runtime.Object, suspended, deadline bool, pods []string) {
	reason := "Pending"
	for _, p := range pods {
		if p == "" {
			reason = "Skipped"
			continue
		}
	}
	if suspended {
		reason = "Suspended"
		c.recorder.Event(obj, v1.EventTypeNormal, reason, "Job suspended") // want event "record.Event Normal \"Suspended\" reasonExpr=reason message=\"Job suspended\" caller"
		return
	}
	if deadline {
		reason = "DeadlineExceeded"
	} else {
		reason = "BackoffLimitExceeded"
	}
	c.recorder.Event(obj, v1.EventTypeWarning, reason, "Job failed") // want event "record.Event Warning \"\" reasonExpr=reason message=\"Job failed\" dynamic=reason types=[] reasons=[\"BackoffLimitExceeded\" \"DeadlineExceeded\"] messages=[] caller"
}

// jobCondition, newJobCondition, ensureSuspended and recordFinished have
// the job controller's own shape (recordJobFinished): the failed-job
// event's reason is a field of the condition it is handed, and the
// values listed are every reason any jobCondition is given, the
// suspended condition's among them; reasonField says they are the
// field's, not those that reach the call.
type jobCondition struct {
	Type   string
	Reason string
}

func newJobCondition(typ, reason string) *jobCondition {
	return &jobCondition{Type: typ, Reason: reason}
}

func ensureSuspended(conds []jobCondition) []jobCondition {
	return append(conds, *newJobCondition("Suspended", "JobSuspended"))
}

func (c *Controller) syncJob(obj runtime.Object, deadline bool) {
	finished := newJobCondition("Complete", "CompletionsReached")
	if deadline {
		finished = newJobCondition("Failed", "DeadlineExceeded")
	}
	c.recordFinished(obj, finished)
}

func (c *Controller) recordFinished(obj runtime.Object, finishedCond *jobCondition) {
	if finishedCond.Type != "Complete" {
		c.recorder.Event(obj, v1.EventTypeWarning, finishedCond.Reason, "Job failed") // want event "record.Event Warning \"\" reasonExpr=finishedCond.Reason message=\"Job failed\" dynamic=reason types=[] reasons=[\"CompletionsReached\" \"DeadlineExceeded\" \"JobSuspended\"] messages=[] reasonField=jobCondition.Reason caller"
	}
}

// retried assigns its reason after the call in a loop: the next turn's
// call sees it, so both values reach.
func (c *Controller) retried(obj runtime.Object, pods []string) {
	reason := "FirstTry"
	for range pods {
		c.recorder.Event(obj, v1.EventTypeWarning, reason, "Retrying") // want event "record.Event Warning \"\" reasonExpr=reason message=\"Retrying\" dynamic=reason types=[] reasons=[\"FirstTry\" \"Retried\"] messages=[] caller"
		reason = "Retried"
	}
}
