//go:build e2e

package analyzer

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// realTree returns the Config of a real Kubernetes tree: KUBEWALK_E2E_TREE
// (the tree root) and KUBEWALK_E2E_ENV (blank-separated environment for the
// go command; default: GOWORK=<tree>/../go.work, as source's cache lays
// trees out, and GOFLAGS=-mod=readonly). It skips without a tree.
func realTree(t testing.TB, treeVar, envVar string) Config {
	dir := os.Getenv(treeVar)
	if dir == "" {
		t.Skipf("%s not set", treeVar)
	}
	return Config{Dir: dir, Env: treeEnv(dir, os.Getenv(envVar)), Logf: t.Logf}
}

func treeEnv(dir, env string) []string {
	if env != "" {
		return strings.Fields(env)
	}
	work := filepath.Join(filepath.Dir(dir), "go.work")
	if _, err := os.Stat(work); err != nil {
		work = filepath.Join(dir, "go.work")
	}
	return []string{"GOWORK=" + work, "GOFLAGS=-mod=readonly"}
}

// TestE2ELoad checks that the default roots load cleanly from a real tree
// and that a walkthrough-style reference resolves.
func TestE2ELoad(t *testing.T) {
	cfg := realTree(t, "KUBEWALK_E2E_TREE", "KUBEWALK_E2E_ENV")
	res, err := Analyze(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	st := res.stats
	t.Logf("%d packages (%d roots, %d files), %d symbols, %d xref files; load %v",
		st.Packages, st.RootPackages, st.Files, len(res.Symbols), len(res.Xrefs), st.Total)
	if st.TypeErrors != 0 {
		t.Errorf("%d unfiltered errors loading the default roots, want 0", st.TypeErrors)
	}
	if st.RootPackages < 250 || st.Packages < 2000 {
		t.Errorf("%d root packages of %d, want ≥ 250 of ≥ 2000", st.RootPackages, st.Packages)
	}
	if len(res.Symbols) < 50000 {
		t.Errorf("%d symbols, want ≥ 50000", len(res.Symbols))
	}
	if len(res.Xrefs) < 800 {
		t.Errorf("xrefs of %d files, want ≥ 800", len(res.Xrefs))
	}
	ref, err := ParseRef(`k8s.io/kubernetes/pkg/controller/deployment.DeploymentController.getNewReplicaSet /ReplicaSets\(.*\)\.Create/`)
	if err != nil {
		t.Fatal(err)
	}
	r, err := res.Resolve(ref)
	if err != nil {
		t.Fatal(err)
	}
	if r.Symbol.Decl.Path != "pkg/controller/deployment/sync.go" || len(r.Matched) != 1 {
		t.Errorf("getNewReplicaSet resolved to %+v, want one matched line in pkg/controller/deployment/sync.go", r)
	}
	if r.Symbol.Body.IsZero() || r.Matched[0] < r.Symbol.Body.StartLine || r.Matched[0] > r.Symbol.Body.EndLine {
		t.Errorf("matched line %v outside the body %+v", r.Matched, r.Symbol.Body)
	}
	// A symbol of an in-tree dependency (client-go) is indexed too.
	if _, ok := res.Lookup("k8s.io/client-go/tools/cache.sharedIndexInformer.AddEventHandler"); !ok {
		t.Error("client-go's sharedIndexInformer.AddEventHandler is not indexed")
	}
	ref, _ = ParseRef("k8s.io/kubernetes/pkg/controller/deployment.DeploymentController.getNewReplicaSets")
	if _, err := res.Resolve(ref); err == nil || !strings.Contains(err.Error(), "getNewReplicaSet,") && !strings.HasSuffix(err.Error(), "getNewReplicaSet?") {
		t.Errorf("a misspelt reference: %v, want a suggestion of getNewReplicaSet", err)
	}
}
