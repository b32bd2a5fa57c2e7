package e2e

import (
	"maps"
	"strings"
	"testing"

	"github.com/kubewalk/kubewalk/record"
)

// raceMessage is the FailedMount the kubelet gives when its volume
// manager mounts a pod's kube-api-access volume before the pod worker
// registered the pod (as kubernetes/kubernetes#140037 shows it).
const raceMessage = `MountVolume.SetUp failed for volume "kube-api-access-7x2kq" : object "default"/"kube-root-ca.crt" not registered`

func pod(name string) record.ObjectRef {
	return record.ObjectRef{Kind: "Pod", Namespace: "default", Name: name}
}

func kubeletEvent(at int64, typ, reason, name, message string) record.Event {
	return record.Event{At: at, Last: at, Type: typ, Reason: reason, Object: pod(name), Message: message, Component: "kubelet", Count: 1, Namespace: "default"}
}

// started is a pod's run as the kubelet reports it, from the pull to the
// start of its container.
func started(at int64, name string) []record.Event {
	return []record.Event{
		kubeletEvent(at, "Normal", "Pulled", name, `Container image "nginx:1.14.2" already present on machine`),
		kubeletEvent(at+5, "Normal", "Created", name, "Container created"),
		kubeletEvent(at+10, "Normal", "Started", name, "Container started"),
	}
}

func TestMountRace(t *testing.T) {
	race := kubeletEvent(300, "Warning", "FailedMount", "web-1", raceMessage)
	for _, tc := range []struct {
		name   string
		events []record.Event
		e      record.Event
		want   bool
	}{
		{"not registered, then the container started", started(900, "web-1"), race, true},
		{"repeated, then started", started(2500, "web-1"), func() record.Event { e := race; e.Count, e.Last = 3, 2100; return e }(), true},
		{"a secret's volume, then started", started(900, "web-1"), kubeletEvent(300, "Warning", "FailedMount", "web-1", `MountVolume.SetUp failed for volume "creds" : object "default"/"regcred" not registered`), true},
		{"the container never started", nil, race, false},
		{"only another pod's container started", started(900, "web-2"), race, false},
		{"the container started before, not after", started(100, "web-1"), race, false},
		{"another error of the same mount", started(900, "web-1"), kubeletEvent(300, "Warning", "FailedMount", "web-1", `MountVolume.SetUp failed for volume "kube-api-access-7x2kq" : failed to sync configmap cache: timed out waiting for the condition`), false},
		{"a missing object", started(900, "web-1"), kubeletEvent(300, "Warning", "FailedMount", "web-1", `MountVolume.SetUp failed for volume "config" : configmap "app-config" not found`), false},
		{"an object of another namespace", started(900, "web-1"), kubeletEvent(300, "Warning", "FailedMount", "web-1", `MountVolume.SetUp failed for volume "kube-api-access-7x2kq" : object "kube-system"/"kube-root-ca.crt" not registered`), false},
		{"words around the message", started(900, "web-1"), kubeletEvent(300, "Warning", "FailedMount", "web-1", "Unable to attach or mount volumes: "+raceMessage), false},
		{"not from the kubelet", started(900, "web-1"), func() record.Event { e := race; e.Component = "attachdetach-controller"; return e }(), false},
		{"another reason", started(900, "web-1"), kubeletEvent(300, "Warning", "FailedAttachVolume", "web-1", raceMessage), false},
		{"not a warning", started(900, "web-1"), kubeletEvent(300, "Normal", "FailedMount", "web-1", raceMessage), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := &record.Recording{Events: append([]record.Event{tc.e}, tc.events...)}
			if got := mountRace(rec, tc.e); got != tc.want {
				t.Errorf("mountRace(%s) = %v, want %v", describeEvent(tc.e), got, tc.want)
			}
		})
	}
}

// A recording with the race compares as the same recording without it;
// another FailedMount beside it still counts, and so does one the race
// would be without its pod's start.
func TestComparedReasons(t *testing.T) {
	base := append(append([]record.Event{
		{At: 95, Type: "Normal", Reason: "ScalingReplicaSet", Object: record.ObjectRef{Kind: "Deployment", Namespace: "default", Name: "web"}, Component: "deployment-controller", Count: 1},
		// The start-up's, left out as reasons leaves them out.
		{At: -5000, Type: "Normal", Reason: "NodeReady", Object: record.ObjectRef{Kind: "Node", Name: "node1"}, Component: "kubelet", Count: 1},
	}, started(600, "web-1")...), started(700, "web-2")...)
	want, raced := comparedReasons(&record.Recording{Events: base})
	if len(raced) != 0 {
		t.Fatalf("the recording without the race has raced events %v", raced)
	}
	if w := map[string]int{"ScalingReplicaSet": 1, "Pulled": 2, "Created": 2, "Started": 2}; !maps.Equal(want, w) {
		t.Fatalf("comparedReasons = %v, want %v", want, w)
	}

	withRace := append(append([]record.Event(nil), base...),
		kubeletEvent(300, "Warning", "FailedMount", "web-1", raceMessage),
		kubeletEvent(310, "Warning", "FailedMount", "web-2", strings.ReplaceAll(raceMessage, "7x2kq", "9dd4m")))
	got, raced := comparedReasons(&record.Recording{Events: withRace})
	if !maps.Equal(got, want) || len(raced) != 2 {
		t.Errorf("with the race: %v (%d raced), want %v (2 raced)", got, len(raced), want)
	}

	other := append(append([]record.Event(nil), withRace...),
		kubeletEvent(320, "Warning", "FailedMount", "web-2", `MountVolume.SetUp failed for volume "kube-api-access-9dd4m" : failed to fetch token: serviceaccounts "default" is forbidden`))
	if got, _ := comparedReasons(&record.Recording{Events: other}); got["FailedMount"] != 1 {
		t.Errorf("another FailedMount beside the race counts %d, want 1", got["FailedMount"])
	}

	// web-3's container never started: its FailedMount is compared.
	stuck := append(append([]record.Event(nil), base...), kubeletEvent(300, "Warning", "FailedMount", "web-3", raceMessage))
	if got, raced := comparedReasons(&record.Recording{Events: stuck}); got["FailedMount"] != 1 || len(raced) != 0 {
		t.Errorf("a FailedMount of a pod that never started: counted %d, raced %d; want 1 and 0", got["FailedMount"], len(raced))
	}
}

// A reason that differs is shown with every event of it in both
// recordings: object, count and message.
func TestReasonEvents(t *testing.T) {
	now := &record.Recording{Events: append([]record.Event{
		kubeletEvent(300, "Warning", "FailedMount", "web-1", raceMessage),
		kubeletEvent(320, "Warning", "FailedMount", "web-2", `MountVolume.SetUp failed for volume "config" : configmap "app-config" not found`),
	}, started(900, "web-1")...)}
	kept := &record.Recording{Events: started(900, "web-1")}
	got := reasonEvents(now, kept, "FailedMount")
	for _, want := range []string{
		"  now:\n",
		"300 ms (last 300 ms) Warning FailedMount Pod/web-1 by kubelet, count 1: " + raceMessage + " (the kubelet's start-up race, not compared)\n",
		`Pod/web-2 by kubelet, count 1: MountVolume.SetUp failed for volume "config" : configmap "app-config" not found` + "\n",
		"  kept: no FailedMount event",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("reasonEvents lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, `"app-config" not found (the kubelet`) {
		t.Errorf("reasonEvents marks a missing ConfigMap as the race:\n%s", got)
	}
}
