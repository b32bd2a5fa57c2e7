package pipeline

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/kubewalk/kubewalk/analyzer"
	"github.com/kubewalk/kubewalk/internal/testsupport/testfs"
	"github.com/kubewalk/kubewalk/source"
	"github.com/kubewalk/kubewalk/walkthrough"
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
	if err := testfs.CopyTree("../../../analyzer/testdata/kubelike", dir); err != nil {
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
	rel := &Release{Tree: &source.Tree{Dir: dir, Tag: "v1.99.0", Backend: "dir"}, Result: res}
	fixed, edited := t.TempDir(), t.TempDir()
	write := func(dir, name, content string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(fixed, "controller.md", controllerMD)
	sets := []WalkSet{{Name: fixed, FS: os.DirFS(fixed), Dir: "."}, {Name: edited, FS: os.DirFS(edited), Dir: "."}}
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

// The memo loads a set again only when a file of it changed, appeared or
// went, or when the last load failed.
func TestDocsMemo(t *testing.T) {
	fsys := fstest.MapFS{"w/a.md": {Data: []byte("a")}, "w/b.ko.md": {Data: []byte("b")}, "w/sub/c.md": {Data: []byte("c")}}
	set := WalkSet{Name: "user", FS: fsys, Dir: "w"}
	memo := &docsMemo{sets: map[string]memoSet{}}
	loads := 0
	var fail error
	load := func() ([]*walkthrough.Doc, error) {
		loads++
		return []*walkthrough.Doc{{ID: strconv.Itoa(loads)}}, fail
	}
	step := func(what string, wantLoads int, wantID string) {
		t.Helper()
		docs, err := memo.load(set, "en", nil, load)
		if loads != wantLoads || (err == nil && docs[0].ID != wantID) {
			t.Errorf("%s: %d loads, docs %s; want %d loads, docs %s", what, loads, docs[0].ID, wantLoads, wantID)
		}
	}
	step("first", 1, "1")
	step("unchanged", 1, "1")
	fsys["w/sub/c.md"] = &fstest.MapFile{Data: []byte("c2")}
	step("a subdirectory changed (Load does not read it)", 1, "1")
	fsys["w/a.md"] = &fstest.MapFile{Data: []byte("a2")}
	step("a file changed", 2, "2")
	fsys["w/b.md"] = &fstest.MapFile{Data: []byte("")}
	step("a file appeared", 3, "3")
	delete(fsys, "w/b.ko.md")
	step("a file went", 4, "4")
	fail = errors.New("broken")
	fsys["w/a.md"] = &fstest.MapFile{Data: []byte("a3")}
	step("a broken file", 5, "")
	fail = nil
	step("the same file, loading now", 6, "6")
	if _, err := memo.load(set, "ko", nil, load); err != nil || loads != 7 {
		t.Errorf("another language: %d loads", loads)
	}
	// The set's links are checked against the other sets' walkthroughs:
	// when those change, the set loads again.
	also := walkthrough.LinkTargets{"deployment": {"step-1-create"}}
	if _, err := memo.load(set, "ko", also, load); err != nil || loads != 8 {
		t.Errorf("other walkthroughs changed: %d loads", loads)
	}
	if _, err := memo.load(set, "ko", walkthrough.LinkTargets{"deployment": {"step-1-create"}}, load); err != nil || loads != 8 {
		t.Errorf("the same other walkthroughs: %d loads", loads)
	}
}
