//go:build e2e

package analyzer

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/source"
)

// The e2e tests run on real Kubernetes trees:
//
//   - KUBEWALK_E2E_TREE (a tree root) with KUBEWALK_E2E_ENV (blank-separated
//     environment for the go command; default GOWORK=<tree>/../go.work,
//     as source's cache lays trees out, and GOFLAGS=-mod=readonly): that
//     tree only;
//   - else KUBEWALK_E2E_CACHE (`make e2e` sets it): source.DefaultTag and
//     e2eOlderTag, fetched through the module proxy into that cache.
//
// Without either they skip. Each release is analyzed once per test binary
// (e2eResults).
//
// This test stays here, not in the e2e package with the passes' accuracy
// tests, because it holds the load itself to account: its counters (type
// errors, missing roots, packages, files) and the symbol and
// cross-reference indexes are the Result's own, which no kubewalk command
// prints.

// e2eOlderTag is the older release checked beside the default one.
const e2eOlderTag = "v1.31.0"

type e2eRelease struct {
	Tag string
	Res *Result
}

var e2e struct {
	once sync.Once
	rels []e2eRelease
	err  error
}

// e2eResults returns the analyzed releases, or skips.
func e2eResults(t *testing.T) []e2eRelease {
	t.Helper()
	tree, cache := os.Getenv("KUBEWALK_E2E_TREE"), os.Getenv("KUBEWALK_E2E_CACHE")
	if tree == "" && cache == "" {
		t.Skip("neither KUBEWALK_E2E_TREE nor KUBEWALK_E2E_CACHE set")
	}
	e2e.once.Do(func() {
		ctx := context.Background()
		var cfgs []Config
		if tree != "" {
			cfgs = append(cfgs, Config{Dir: tree, Env: treeEnv(tree, os.Getenv("KUBEWALK_E2E_ENV")), Tag: os.Getenv("KUBEWALK_E2E_TAG")})
		} else {
			for _, tag := range []string{source.DefaultTag, e2eOlderTag} {
				tr, err := source.Fetch(ctx, source.Options{Tag: tag, Source: "goproxy", CacheDir: cache})
				if err != nil {
					e2e.err = err
					return
				}
				cfgs = append(cfgs, Config{Dir: tr.Dir, Env: tr.Env, Tag: tr.Tag, Commit: tr.Commit})
			}
		}
		for _, cfg := range cfgs {
			cfg.Logf = t.Logf
			res, err := Analyze(ctx, cfg)
			if err != nil {
				e2e.err = err
				return
			}
			e2e.rels = append(e2e.rels, e2eRelease{Tag: cfg.Tag, Res: res})
		}
	})
	if e2e.err != nil {
		t.Fatal(e2e.err)
	}
	return e2e.rels
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

// TestE2ELoad checks that the default roots load cleanly and that a
// walkthrough-style reference resolves.
func TestE2ELoad(t *testing.T) {
	for _, rel := range e2eResults(t) {
		t.Run(rel.Tag, func(t *testing.T) {
			res := rel.Res
			st := res.stats
			t.Logf("%d packages (%d roots, %d files), %d symbols, %d xref files; load %v",
				st.Packages, st.RootPackages, st.Files, len(res.Symbols), len(res.Xrefs), st.Total)
			if st.TypeErrors != 0 {
				t.Errorf("%d unfiltered errors loading the default roots, want 0", st.TypeErrors)
			}
			if st.MissingRoots != 0 {
				t.Errorf("%d default roots missing", st.MissingRoots)
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
			ref, err := fact.ParseRef(`k8s.io/kubernetes/pkg/controller/deployment.DeploymentController.getNewReplicaSet /ReplicaSets\(.*\)\.Create/`)
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
			if r.Symbol.Body.IsZero() || len(r.Matched) > 0 && (r.Matched[0] < r.Symbol.Body.StartLine || r.Matched[0] > r.Symbol.Body.EndLine) {
				t.Errorf("matched lines %v outside the body %+v", r.Matched, r.Symbol.Body)
			}
			// A symbol of an in-tree dependency (client-go) is indexed too.
			if _, ok := res.Lookup("k8s.io/client-go/tools/cache.sharedIndexInformer.AddEventHandler"); !ok {
				t.Error("client-go's sharedIndexInformer.AddEventHandler is not indexed")
			}
			ref, _ = fact.ParseRef("k8s.io/kubernetes/pkg/controller/deployment.DeploymentController.getNewReplicaSets")
			_, err = res.Resolve(ref)
			if nf, ok := err.(*fact.NotFoundError); !ok || len(nf.Suggestions) == 0 ||
				nf.Suggestions[0] != "k8s.io/kubernetes/pkg/controller/deployment.DeploymentController.getNewReplicaSet" {
				t.Errorf("a misspelt reference: %v, want getNewReplicaSet suggested first", err)
			}
		})
	}
}

// TestE2EWholeRun checks, at each release, the facts that attribute what
// a recorded cluster does besides the scenario: the kubelet's
// node-condition events (recorded through func values), the writes the
// control plane makes while it starts, the informer requests behind the
// kubelet's own-node watch, and the client-go code that adds a watch's
// parameters, linked by symbol.
func TestE2EWholeRun(t *testing.T) {
	for _, rel := range e2eResults(t) {
		t.Run(rel.Tag, func(t *testing.T) {
			f := rel.Res.Facts()
			for _, reason := range []string{"NodeHasSufficientMemory", "NodeHasNoDiskPressure", "NodeHasSufficientPID", "NodeReady"} {
				found := false
				for _, e := range f.Events {
					if e.Reason == reason && e.FuncValue != nil && e.At.Path == "pkg/kubelet/nodestatus/setters.go" &&
						strings.HasPrefix(e.Via, "k8s.io/kubernetes/pkg/kubelet.Kubelet.") && e.Type == "Normal" && e.Message != "" {
						found = true
					}
				}
				if !found {
					t.Errorf("no %s event at pkg/kubelet/nodestatus/setters.go through a func value of the kubelet", reason)
				}
			}
			writes := map[string]bool{}
			for _, w := range f.Writes {
				res := w.Resource.Resource
				if w.Subresource != "" {
					res += "/" + w.Subresource
				}
				writes[w.APIVerb+" "+res] = true
			}
			for _, w := range []string{
				"create clusterroles", "create clusterrolebindings", "create roles", "create rolebindings",
				"create flowschemas", "create prioritylevelconfigurations", "patch flowschemas/status",
				"create apiservices", "create priorityclasses", "create namespaces", "create services",
				"create endpoints", "create leases", "update leases", "create serviceaccounts/token",
				"create events", "patch events", "create nodes", "patch nodes/status", "create configmaps",
			} {
				if !writes[w] {
					t.Errorf("no write %q", w)
				}
			}
			nodeWatch := false
			for _, r := range f.InformerRequests {
				if r.Component == "pkg/kubelet" && r.Resource.Resource == "nodes" && slices.Contains(r.Fields, "metadata.name") {
					nodeWatch = true
				}
			}
			if !nodeWatch {
				t.Error("no informer request of the kubelet for its own node (nodes by metadata.name)")
			}
			for _, ref := range []string{
				`k8s.io/client-go/tools/cache.Reflector.ListAndWatch`,
				`k8s.io/client-go/tools/cache.Reflector.list`,
				`k8s.io/client-go/tools/cache.Reflector.watch /AllowWatchBookmarks/`,
				`k8s.io/client-go/tools/cache.Reflector.watch /TimeoutSeconds:/`,
				`k8s.io/client-go/tools/cache.Reflector.watch /rand\.Float64/`,
				`k8s.io/client-go/tools/cache.Reflector.watchList /SendInitialEvents/`,
				`k8s.io/client-go/tools/cache.Reflector.watchList /ResourceVersionMatch:/`,
			} {
				r, err := fact.ParseRef(ref)
				if err != nil {
					t.Fatal(err)
				}
				got, err := rel.Res.Resolve(r)
				if err != nil {
					t.Errorf("%s: %v", ref, err)
					continue
				}
				t.Logf("%s: %s lines %v", ref, got.Symbol.Decl.Path, got.Matched)
			}
		})
	}
}
