package pipeline

import (
	"slices"
	"testing"

	"github.com/kubewalk/kubewalk/analyzer/fact"
)

func TestDropTestSupport(t *testing.T) {
	ev := func(p string) fact.Event { return fact.Event{At: fact.Location{Path: p, StartLine: 1, EndLine: 1}} }
	f := &fact.Facts{Events: []fact.Event{
		ev("pkg/controller/deployment/sync.go"),
		ev("pkg/controller/testutil/test_utils.go"),
		ev("pkg/kubelet/container/testing/fake_runtime.go"),
		ev("pkg/controller/deployment/sync_test.go"),
		ev("staging/src/k8s.io/client-go/tools/record/fake.go"),
		ev("pkg/kubelet/images/image_manager.go"),
		ev("pkg/controller/attestation/contest.go"), // "test" inside a name is not a directory
	}}
	dropTestSupport(f)
	var got []string
	for _, e := range f.Events {
		got = append(got, e.At.Path)
	}
	want := []string{"pkg/controller/deployment/sync.go", "pkg/kubelet/images/image_manager.go", "pkg/controller/attestation/contest.go"}
	if !slices.Equal(got, want) {
		t.Errorf("kept %v, want %v", got, want)
	}
}
