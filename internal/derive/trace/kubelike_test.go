package trace

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/kubewalk/kubewalk/internal/testsupport/testfs"

	"github.com/kubewalk/kubewalk/analyzer"
	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/walkthrough"
)

// The analyzer's own fixture, analyzer/testdata/kubelike: a small tree in
// Kubernetes' layout with the deployment and replicaset controllers, the
// RealPodControl helper behind an interface and the scheduler's handlers.
// It has no scheduler worker loop and no kubelet pod source, so the trace
// there ends at the scheduler's pod handler; the hand-made fixture in
// trace_test.go and the e2e test carry the chain on.

var kubelike struct {
	once sync.Once
	res  *analyzer.Result
	err  error
	dir  string // the expanded fixture, removed by TestMain
}

func TestMain(m *testing.M) {
	code := m.Run()
	if kubelike.dir != "" {
		os.RemoveAll(kubelike.dir)
	}
	os.Exit(code)
}

func kubelikeResult(t testing.TB) *analyzer.Result {
	t.Helper()
	kubelike.once.Do(func() {
		dir, err := os.MkdirTemp("", "kubelike-")
		if err != nil {
			kubelike.err = err
			return
		}
		kubelike.dir = dir
		if kubelike.err = testfs.CopyTree("../../../analyzer/testdata/kubelike", dir); kubelike.err != nil {
			return
		}
		kubelike.res, kubelike.err = analyzer.Analyze(context.Background(), analyzer.Config{
			Dir:   dir,
			Env:   []string{"GOWORK=" + filepath.Join(dir, "go.work"), "GOFLAGS=-mod=readonly", "GOPROXY=off"},
			Roots: []string{"./pkg/..."},
			Tag:   "kubelike",
		})
	})
	if kubelike.err != nil {
		t.Fatal(kubelike.err)
	}
	return kubelike.res
}

func resultInput(res *analyzer.Result) Input {
	return Input{Facts: res.Facts(), Symbols: res.Symbols, Source: func(p string) ([]byte, error) {
		return os.ReadFile(filepath.Join(res.Dir(), filepath.FromSlash(p)))
	}}
}

func TestKubelike(t *testing.T) {
	res := kubelikeResult(t)
	in := resultInput(res)
	root, err := FindKind(in.Facts, "deployments")
	if err != nil {
		t.Fatal(err)
	}
	tr := Derive(in, root, Options{})
	got := tr.Hops()
	inOrder(t, got, []string{
		"watch deployments deployment controller expanded",
		"write replicasets deployment.DeploymentController.getNewReplicaSet",
		"watch replicasets replicaset controller expanded",
		"write pods controller.RealPodControl.createPods",
		"watch pods kube-scheduler expanded",
	})
	// The kubelet's pod source, a raw reflector found by the analyzer's
	// listwatches pass, watches the pods the scheduler binds.
	if !contains(got, "watch pods kubelet unconnected") && !contains(got, "watch pods kubelet after-binding") {
		t.Errorf("the kubelet's reflector is not among the pods' watchers:\n%s", strings.Join(got, "\n"))
	}
	if !contains(got, "watch replicasets deployment controller ancestor") {
		t.Errorf("the deployment controller's watch of its ReplicaSets is not marked as feedback:\n%s", strings.Join(got, "\n"))
	}
	// The path into the helper goes through the interface edge
	// manageReplicas → RealPodControl.CreatePods.
	rs := tr.Root.Watchers[0].Writes[0].Next.Watchers[0]
	var steps []string
	for _, s := range rs.Writes[0].Sites[0].Path {
		steps = append(steps, fact.ShortSymbol(s.Symbol)+"/"+s.Kind)
	}
	if want := "replicaset.ReplicaSetController.syncReplicaSet/ replicaset.ReplicaSetController.manageReplicas/static controller.RealPodControl.CreatePods/interface controller.RealPodControl.createPods/static"; strings.Join(steps, " ") != want {
		t.Errorf("pod creation path = %s\nwant %s", strings.Join(steps, " "), want)
	}
	// The Deployment's own status update is summarised, not followed.
	dc := tr.Root.Watchers[0]
	if len(dc.Other) != 1 || !dc.Other[0].Same || dc.Other[0].Subresource != "status" {
		t.Errorf("deployment controller other writes = %+v", dc.Other)
	}
}

// TestKubelikeMarkdown checks that the draft walkthrough resolves: every
// excerpt's symbol and lines: pattern, every go: link.
func TestKubelikeMarkdown(t *testing.T) {
	res := kubelikeResult(t)
	in := resultInput(res)
	tr := Derive(in, deployments, Options{})
	var b bytes.Buffer
	if err := WriteMarkdown(&b, tr, in.Source); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	for _, want := range []string{
		"participants: [\"kube-apiserver\", \"deployment controller\", \"replicaset controller\", \"kube-scheduler\"]",
		"## The deployment controller creates a ReplicaSet {from=\"deployment controller\" to=\"kube-apiserver\" label=\"POST replicasets\"}",
		"ref: k8s.io/kubernetes/pkg/controller.RealPodControl.createPods\nlines: ",
		"_Prompt:",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "deployment-trace.md"), b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, e := range walkthrough.Check(os.DirFS(dir), ".", walkthrough.Options{Resolver: res}) {
		t.Errorf("check: %v", e)
	}
	if t.Failed() {
		t.Log(md)
	}
}
