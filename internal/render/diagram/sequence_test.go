package diagram

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata")

// golden compares got with testdata/name, or rewrites it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s mismatch (-want +got):\n%s", name, diff)
	}
}

var deploymentParticipants = []string{"kubectl", "kube-apiserver", "deployment controller", "replicaset controller", "kube-scheduler", "kubelet"}

var deploymentMsgs = []Message{
	{"kubectl", "kube-apiserver", "POST /apis/apps/v1/namespaces/default/deployments", "#create"},
	{"kube-apiserver", "deployment controller", "watch: Deployment added", "#informer"},
	{"deployment controller", "deployment controller", "syncDeployment: getNewReplicaSet", "#sync"},
	{"deployment controller", "kube-apiserver", "create ReplicaSet", "#create-rs"},
	{"kube-apiserver", "replicaset controller", "watch: ReplicaSet added", "#rs"},
	{"replicaset controller", "kube-apiserver", "create Pods (slow start batches)", "#pods"},
	{"kube-apiserver", "kube-scheduler", "watch: unscheduled Pod", "#schedule"},
	{"kube-scheduler", "kube-scheduler", "ScheduleOne: filter, score, reserve, permit", "#cycle"},
	{"kube-scheduler", "kube-apiserver", "bind Pod to node", "#bind"},
	{"kube-apiserver", "kubelet", "watch: Pod bound to this node", "#kubelet"},
	{"kubelet", "kubelet", "SyncPod: sandbox, containers", "#syncpod"},
	{"kubelet", "kube-apiserver", "patch Pod status", "#status"},
}

func TestSequenceGolden(t *testing.T) {
	got, err := Sequence(deploymentParticipants, deploymentMsgs)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "sequence.svg", got)

	ko, err := Sequence([]string{"kubectl", "API 서버", "디플로이먼트 컨트롤러", "kubelet"}, []Message{
		{"kubectl", "API 서버", "디플로이먼트 생성 요청 (POST)", "#1"},
		{"API 서버", "디플로이먼트 컨트롤러", "인포머가 추가 이벤트를 전달하고 워크큐에 키를 넣는다", "#2"},
		{"디플로이먼트 컨트롤러", "디플로이먼트 컨트롤러", "syncDeployment 로 레플리카셋을 맞춘다", "#3"},
		{"디플로이먼트 컨트롤러", "kubelet", "파드가 노드에 바인딩되면 kubelet 이 컨테이너를 시작한다", "#4"},
	})
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "sequence_ko.svg", ko)
}

func TestSequenceErrors(t *testing.T) {
	if _, err := Sequence(nil, nil); err != ErrEmpty {
		t.Errorf("no participants: err = %v, want ErrEmpty", err)
	}
	if _, err := Sequence([]string{"a", "a"}, nil); err == nil {
		t.Error("duplicate participant: no error")
	}
	_, err := Sequence([]string{"a"}, []Message{{From: "a", To: "b", Label: "x"}})
	if err == nil || !strings.Contains(err.Error(), `"b"`) {
		t.Errorf("unknown participant: err = %v", err)
	}
	if _, err := Sequence([]string{"only"}, nil); err != nil {
		t.Errorf("participants without messages: %v", err)
	}
}

func TestSequenceDeterministic(t *testing.T) {
	a, _ := Sequence(deploymentParticipants, deploymentMsgs)
	b, _ := Sequence(deploymentParticipants, deploymentMsgs)
	if !bytes.Equal(a, b) {
		t.Error("two runs differ")
	}
	if len(a) > 16<<10 {
		t.Errorf("12-message diagram is %d bytes, want under 16 KB", len(a))
	}
}
