package e2e

// What compareWithKept (record_test.go, build tag e2e) decides about a
// fresh recording and the kept one, apart from the runs: this file has no
// build tag, so `go test` checks those decisions on recordings made in the
// test (compare_unit_test.go).

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/kubewalk/kubewalk/record"
)

// scenarioEvent reports whether an event is the scenario's: written
// after its first request, in the default namespace, and not the node's
// own (RegisteredNode when it comes late is the start-up's, whenever it
// lands).
func scenarioEvent(e record.Event) bool {
	return e.At >= 0 && e.Object.Namespace == "default" && e.Object.Kind != "Node"
}

// notRegistered is the kubelet's FailedMount message when a volume's
// ConfigMap or Secret is read before the pod registered it: the volume
// manager's "MountVolume.SetUp failed" (operationexecutor) around the
// watch-based manager's error (pkg/kubelet/util/manager).
var notRegistered = regexp.MustCompile(`^MountVolume\.SetUp failed for volume "[^"]+" : object "([^"]*)"/"[^"]+" not registered$`)

// mountRace reports whether e is the kubelet's start-up race of a pod's
// volume, which compareWithKept leaves out of the comparison: a
// FailedMount of a pod, from the kubelet, saying that an object of the
// pod's namespace is "not registered", with the pod's container Started
// after it.
//
// Why it is tolerated: the kubelet reads a pod's ConfigMaps and Secrets
// only once the pod worker's SyncPod has registered the pod with its
// ConfigMap and Secret managers, while the volume manager's populator and
// reconciler, on loops of their own, may mount the pod's volumes first
// (kube-api-access-… projects kube-root-ca.crt). The mount then fails with
// `object "default"/"kube-root-ca.crt" not registered`, and the
// reconciler's next try succeeds. Nothing kubewalk could wait for closes
// it: the ConfigMap exists before the scenario starts (Run waits for it),
// and the registration is the pod's own, made after the pod reached the
// node. Real clusters show the same transient event
// (kubernetes/kubernetes#140037, #105204). A recording that has it shows
// the release's kubelet as it is and stays as it was recorded; only the
// comparison passes over it. Any other FailedMount, or this one without
// the container starting after it, still fails the comparison.
func mountRace(rec *record.Recording, e record.Event) bool {
	if e.Reason != "FailedMount" || e.Type != "Warning" || e.Component != "kubelet" || e.Object.Kind != "Pod" {
		return false
	}
	m := notRegistered.FindStringSubmatch(e.Message)
	if m == nil || m[1] != e.Object.Namespace {
		return false
	}
	for _, s := range rec.Events {
		if s.Reason == "Started" && s.Component == "kubelet" && s.Object == e.Object && s.At > e.At {
			return true
		}
	}
	return false
}

// comparedReasons counts the scenario's events by reason, as reasons
// does, less those of the kubelet's start-up race (mountRace), which it
// returns apart.
func comparedReasons(rec *record.Recording) (map[string]int, []record.Event) {
	out := map[string]int{}
	var raced []record.Event
	for _, e := range rec.Events {
		switch {
		case !scenarioEvent(e):
		case mountRace(rec, e):
			raced = append(raced, e)
		default:
			out[e.Reason]++
		}
	}
	return out, raced
}

// reasonEvents lists the scenario's events of reason in the fresh
// recording and in the kept one, each with its object, count and
// message: what a failure of compareWithKept prints, so that it says
// which events differ and what they said.
func reasonEvents(now, kept *record.Recording, reason string) string {
	var b strings.Builder
	for _, r := range []struct {
		name string
		rec  *record.Recording
	}{{"now", now}, {"kept", kept}} {
		n := 0
		for _, e := range r.rec.Events {
			if !scenarioEvent(e) || e.Reason != reason {
				continue
			}
			if n == 0 {
				fmt.Fprintf(&b, "  %s:\n", r.name)
			}
			n++
			fmt.Fprintf(&b, "    %s", describeEvent(e))
			if mountRace(r.rec, e) {
				b.WriteString(" (the kubelet's start-up race, not compared)")
			}
			b.WriteString("\n")
		}
		if n == 0 {
			fmt.Fprintf(&b, "  %s: no %s event\n", r.name, reason)
		}
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// describeEvent is an event on one line: when, what, about which object,
// from whom, how often, and its message.
func describeEvent(e record.Event) string {
	return fmt.Sprintf("%d ms (last %d ms) %s %s %s/%s by %s, count %d: %s", e.At, e.Last, e.Type, e.Reason, e.Object.Kind, e.Object.Name, e.Component, e.Count, e.Message)
}
