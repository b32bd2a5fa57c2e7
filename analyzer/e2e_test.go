//go:build e2e

package analyzer

import (
	"context"
	"os"
	"path/filepath"
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
