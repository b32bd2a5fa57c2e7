package sitebuild

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kubewalk/kubewalk/analyzer"
	"github.com/kubewalk/kubewalk/cmd/kubewalk/internal/pipeline"
	"github.com/kubewalk/kubewalk/internal/testsupport/testfs"
	"github.com/kubewalk/kubewalk/source"
)

const (
	// controllerMD stays as it is; deploymentMD is edited.
	controllerMD = `---
title: The fixture's deployment controller
---

## Handlers

[NewDeploymentController](go:k8s.io/kubernetes/pkg/controller/deployment.NewDeploymentController) registers them.

` + "```facts\nhandlers: resource=deployments\n```\n"
	deploymentMD = `---
title: A Deployment in the fixture
participants: [deployment controller, kube-apiserver]
---

The fixture mimics Kubernetes.

## The controller creates a ReplicaSet {from="deployment controller" to="kube-apiserver" label="POST replicasets"}

[getNewReplicaSet](go:k8s.io/kubernetes/pkg/controller/deployment.DeploymentController.getNewReplicaSet) creates it.

` + "```excerpt\nref: k8s.io/kubernetes/pkg/controller/deployment.DeploymentController.getNewReplicaSet\nlines: ReplicaSets\\(.*\\)\\.Create\n```\n"
)

// A serve session on the analyzer's kubelike fixture: after each edit of
// a walkthrough, Rebuild, into three directories in turn as serve uses
// them, writes exactly what Build writes into a new one, and a failed
// rebuild changes nothing of what the next one writes.
func TestRebuildIsBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("loads packages")
	}
	dir := t.TempDir()
	if err := testfs.CopyTree("../../../../analyzer/testdata/kubelike", dir); err != nil {
		t.Fatal(err)
	}
	res, err := analyzer.Analyze(context.Background(), analyzer.Config{
		Dir:   dir,
		Env:   []string{"GOWORK=" + filepath.Join(dir, "go.work"), "GOFLAGS=-mod=readonly", "GOPROXY=off"},
		Roots: []string{"./pkg/..."},
		Tag:   "v1.99.0",
	})
	if err != nil {
		t.Fatal(err)
	}
	rel := &pipeline.Release{Tree: &source.Tree{Dir: dir, Tag: "v1.99.0", Backend: "dir"}, Result: res}
	fixed, edited := t.TempDir(), t.TempDir()
	write := func(dir, name, content string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(fixed, "controller.md", controllerMD)
	sets := []pipeline.WalkSet{{Name: fixed, FS: os.DirFS(fixed), Dir: "."}, {Name: edited, FS: os.DirFS(edited), Dir: "."}}
	rebuild := Rebuild(rel, sets, "en", nil)
	slots := t.TempDir()
	var served []string // the last two directories that built, newest last
	for n, md := range []string{
		deploymentMD,
		strings.Replace(deploymentMD, "creates it.", "creates it, as the excerpt shows.", 1),
		strings.Replace(deploymentMD, "## The controller creates", "## The deployment controller creates", 1),
		// Another file gets a source page.
		deploymentMD + "\n## A fake\n\n[CreatePods](go:k8s.io/kubernetes/pkg/controller/testutil.FakePodControl.CreatePods) records pods.\n",
		strings.Replace(deploymentMD, "getNewReplicaSet)", "getNewReplicaSetX)", 1), // does not resolve
		deploymentMD,
		deploymentMD,
	} {
		write(edited, "deployment.md", md)
		var out string
		for i := range 3 {
			if d := filepath.Join(slots, "site-"+strconv.Itoa(i)); !slices.Contains(served, d) {
				out = d
				break
			}
		}
		_, err := rebuild(context.Background(), out)
		want := filepath.Join(t.TempDir(), "site")
		_, werr := Build(context.Background(), rel, sets, "en", want, nil)
		if (err == nil) != (werr == nil) {
			t.Fatalf("edit %d: Rebuild: %v; Build: %v", n, err, werr)
		}
		if err != nil {
			if !strings.Contains(err.Error(), "getNewReplicaSetX") {
				t.Errorf("edit %d: %v", n, err)
			}
			continue
		}
		if diff := cmp.Diff(testfs.Tree(t, want), testfs.Tree(t, out)); diff != "" {
			t.Fatalf("edit %d: Rebuild wrote what Build does not (-Build +Rebuild):\n%s", n, diff)
		}
		served = append(served, out)
		if len(served) > 2 {
			served = served[1:]
		}
	}
}
