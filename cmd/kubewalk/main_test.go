package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/internal/linkcheck"
	"github.com/kubewalk/kubewalk/internal/testsupport/testfs"
	"github.com/kubewalk/kubewalk/site"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// kw runs the command line in-process and returns its exit code and output.
func kw(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

func TestUsageErrorsExitTwo(t *testing.T) {
	cache := t.TempDir()
	for _, args := range [][]string{
		{"frobnicate"},
		{"build", "--no-such-flag"},
		{"build", "--lang", "fr"},
		{"build", "extra-arg"},
		{"list"},
		{"list", "pods"},
		{"list", "handlers", "-o", "xml"},
		{"fetch", "-o", "xml", "--source", "goproxy"},
		{"check", "--no-builtin"},
	} {
		code, _, stderr := kw(t, append([]string{"--cache-dir", cache}, args...)...)
		if code != exitUsage {
			t.Errorf("kubewalk %s: exit %d, want %d (stderr: %s)", strings.Join(args, " "), code, exitUsage, stderr)
		}
		if !strings.Contains(stderr, "--help") {
			t.Errorf("kubewalk %s: stderr does not point at --help: %q", strings.Join(args, " "), stderr)
		}
	}
}

// A misspelt command or argument is answered with the nearest ones.
func TestDidYouMean(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"explian"}, "Did you mean this?\n\texplain\n"},
		{[]string{"list", "event"}, "Did you mean this?\n\tevents\n"},
		{[]string{"list", "hnadlers"}, "Did you mean this?\n\thandlers\n"},
		{[]string{"list", "gate"}, "\tgates\n"},
	} {
		code, _, stderr := kw(t, tc.args...)
		if code != exitUsage || !strings.Contains(stderr, tc.want) {
			t.Errorf("kubewalk %s: exit %d, stderr %q lacks %q", strings.Join(tc.args, " "), code, stderr, tc.want)
		}
	}
	if _, _, stderr := kw(t, "frobnicate"); strings.Contains(stderr, "Did you mean") {
		t.Errorf("kubewalk frobnicate: a suggestion for nothing near: %q", stderr)
	}
}

func TestEveryCommandHelpHasExamples(t *testing.T) {
	root := newRootCmd(strings.NewReader(""), &bytes.Buffer{}, &bytes.Buffer{})
	for _, c := range root.Commands() {
		if c.Name() == "help" || c.Name() == "completion" {
			continue
		}
		if strings.TrimSpace(c.Example) == "" {
			t.Errorf("kubewalk %s --help has no examples", c.Name())
		}
		code, out, _ := kw(t, c.Name(), "--help")
		if code != exitOK || !strings.Contains(out, "Examples:") {
			t.Errorf("kubewalk %s --help: exit %d, output lacks Examples:\n%s", c.Name(), code, out)
		}
	}
}

func TestVersion(t *testing.T) {
	code, out, _ := kw(t, "version")
	if code != exitOK || !strings.Contains(out, "default tag: v1.") || !strings.Contains(out, "facts schema:") {
		t.Fatalf("version: exit %d, output %q", code, out)
	}
}

// fixtureRepo makes a git repository holding the analyzer's Kubernetes-like
// fixture tree, with a replace list naming its staging modules as the real
// go.mod does, tagged tag. It returns the repository's path.
func fixtureRepo(t *testing.T, tag string) string {
	t.Helper()
	dir := t.TempDir()
	if err := testfs.CopyTree(filepath.Join("..", "..", "analyzer", "testdata", "kubelike"), dir); err != nil {
		t.Fatal(err)
	}
	gomod := filepath.Join(dir, "go.mod")
	b, err := os.ReadFile(gomod)
	if err != nil {
		t.Fatal(err)
	}
	b = append(b, []byte("\nreplace (\n\tk8s.io/api => ./staging/src/k8s.io/api\n\tk8s.io/apimachinery => ./staging/src/k8s.io/apimachinery\n\tk8s.io/client-go => ./staging/src/k8s.io/client-go\n)\n")...)
	if err := os.WriteFile(gomod, b, 0o644); err != nil {
		t.Fatal(err)
	}
	repo, err := git.PlainInit(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	wt, err := repo.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	if err := wt.AddGlob("."); err != nil {
		t.Fatal(err)
	}
	sig := &object.Signature{Name: "test", Email: "test@example.com", When: time.Unix(1700000000, 0)}
	h, err := wt.Commit("fixture", &git.CommitOptions{Author: sig})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := repo.CreateTag(tag, h, nil); err != nil {
		t.Fatal(err)
	}
	return dir
}

const fixtureWalkthrough = `---
title: A Deployment in the fixture
summary: The fixture's deployment controller.
participants: [deployment controller, kube-apiserver]
---

The fixture mimics Kubernetes.

## The controller creates a ReplicaSet {from="deployment controller" to="kube-apiserver" label="POST replicasets"}

[getNewReplicaSet](go:k8s.io/kubernetes/pkg/controller/deployment.DeploymentController.getNewReplicaSet) creates it.

` + "```excerpt\nref: k8s.io/kubernetes/pkg/controller/deployment.DeploymentController.getNewReplicaSet\nlines: ReplicaSets\\(.*\\)\\.Create\n```\n\n```facts\nhandlers: resource=deployments\n```\n"

// TestBuildCheckListFromGitFixture drives the whole pipeline through the
// command line, offline: a go-git clone of a local repository, analysis of
// the fixture tree, a user walkthrough, the site, check and list. It
// stays one function: each command works on what the one before left.
func TestBuildCheckListFromGitFixture(t *testing.T) {
	if testing.Short() {
		t.Skip("loads packages")
	}
	const tag = "v1.99.0"
	repo, wdir := gitFixture(t, tag, fixtureWalkthrough)
	cache := t.TempDir()
	common := []string{"--cache-dir", cache, "--quiet"}
	src := []string{"--tag", tag, "--source", "git", "--repo", repo}

	code, out, stderr := kw(t, append(append(common, "fetch", "-o", "json"), src...)...)
	if code != exitOK {
		t.Fatalf("fetch: exit %d: %s", code, stderr)
	}
	var tree struct{ Dir, Tag, Commit, Backend string }
	if err := json.Unmarshal([]byte(out), &tree); err != nil {
		t.Fatalf("fetch -o json: %v\n%s", err, out)
	}
	if tree.Backend != "git" || tree.Tag != tag || len(tree.Commit) != 40 {
		t.Errorf("fetch: %+v", tree)
	}

	site1 := filepath.Join(t.TempDir(), "site")
	args := append(append(append(common, "build"), src...), "--no-builtin", "--walkthroughs", wdir, "--out", site1)
	if code, _, stderr := kw(t, args...); code != exitOK {
		t.Fatalf("build: exit %d: %s", code, stderr)
	}
	page, err := os.ReadFile(filepath.Join(site1, "en", "walkthroughs", "fixture.html")) // bilingual: English under en/
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), "pkg/controller/deployment/sync.go") {
		t.Errorf("walkthrough page does not cite sync.go")
	}
	for _, err := range linkcheck.Check(site1, site.ScriptLinks) {
		t.Error(err)
	}

	// list handlers from the (now cached) facts.
	code, out, stderr = kw(t, append(append(append(common, "list", "handlers", "-o", "json"), src...), "--no-builtin", "--walkthroughs", wdir)...)
	if code != exitOK {
		t.Fatalf("list: exit %d: %s", code, stderr)
	}
	var hs []fact.HandlerRegistration
	if err := json.Unmarshal([]byte(out), &hs); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, h := range hs {
		if h.Informer.Resource == "deployments" && h.Add != nil && strings.HasSuffix(h.Add.Symbol, "DeploymentController.addDeployment") {
			found = true
		}
	}
	if !found {
		t.Errorf("list handlers: no deployments registration with addDeployment in %d registrations", len(hs))
	}

	// check passes, then fails with file:line when a reference breaks.
	checkArgs := append(append(append(common, "check"), src...), "--no-builtin", "--walkthroughs", wdir)
	if code, out, stderr := kw(t, checkArgs...); code != exitOK {
		t.Fatalf("check: exit %d\n%s%s", code, out, stderr)
	}
	broken := strings.Replace(fixtureWalkthrough, "getNewReplicaSet\nlines", "getNewReplicaSets\nlines", 1)
	if err := os.WriteFile(filepath.Join(wdir, "fixture.md"), []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ = kw(t, checkArgs...)
	if code != exitFailure {
		t.Fatalf("check of a broken reference: exit %d, want %d\n%s", code, exitFailure, out)
	}
	if !strings.Contains(out, "fixture.md:14:6: [v1.99.0] ") || !strings.Contains(out, "getNewReplicaSet") {
		t.Errorf("check output lacks fixture.md:14:6 and a suggestion:\n%s", out)
	}

	// A failed build leaves the previous site untouched.
	before, _ := os.ReadFile(filepath.Join(site1, "index.html"))
	if code, _, _ := kw(t, args...); code != exitFailure {
		t.Fatalf("build with a broken reference: exit %d, want %d", code, exitFailure)
	}
	after, err := os.ReadFile(filepath.Join(site1, "index.html"))
	if err != nil || !bytes.Equal(before, after) {
		t.Errorf("a failed build changed the previous site (err %v)", err)
	}
}

// gitFixture turns the go command offline and returns the fixture
// repository at tag and a directory holding the walkthrough md.
func gitFixture(t *testing.T, tag, md string) (repo, wdir string) {
	t.Helper()
	t.Setenv("GOPROXY", "off")
	t.Setenv("GOFLAGS", "-mod=mod")
	return fixtureRepo(t, tag), walkthroughDir(t, md)
}

// walkthroughDir returns a directory holding md as fixture.md.
func walkthroughDir(t *testing.T, md string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "fixture.md"), []byte(md), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}
