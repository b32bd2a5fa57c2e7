//go:build e2e

package trace_test

// Accuracy on real Kubernetes, through the Go module proxy (`make e2e`):
// the trace from Deployment reaches, in order, getNewReplicaSet's
// ReplicaSets().Create, the replicaset controller's pod creation
// (RealPodControl.createPods, reached through the interface edge
// manageReplicas → CreatePods), the scheduler's pods/binding
// (DefaultBinder.Bind) and the kubelet's API-server pod source — at the
// default tag and an older one. KUBEWALK_E2E_CACHE shares fetched trees and
// facts with the other e2e tests.

import (
	"bytes"
	"context"
	"github.com/kubewalk/kubewalk/internal/derive/trace"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kubewalk/kubewalk/internal/app/pipeline"
	"github.com/kubewalk/kubewalk/source"
	"github.com/kubewalk/kubewalk/walkthrough"
)

// TestE2EDeploymentChain derives the Deployment chain from the real
// facts of two releases and checks it hop by hop; it stays one function
// so the checks read in the chain's order.
func TestE2EDeploymentChain(t *testing.T) {
	cache := os.Getenv("KUBEWALK_E2E_CACHE")
	if cache == "" {
		cache = t.TempDir()
	}
	sets, err := pipeline.Sets("", false)
	if err != nil {
		t.Fatal(err)
	}
	for _, tag := range []string{source.DefaultTag, "v1.35.4"} {
		t.Run(tag, func(t *testing.T) {
			rel, err := pipeline.Open(context.Background(), source.Options{Source: "goproxy", CacheDir: cache, Tag: tag}, sets, t.Logf)
			if err != nil {
				t.Fatal(err)
			}
			in := trace.ResultInput(rel.Result)
			root, err := trace.FindKind(in.Facts, "Deployment")
			if err != nil {
				t.Fatal(err)
			}
			t0 := time.Now()
			tr := trace.Derive(in, root, trace.Options{})
			t.Logf("trace derived in %v", time.Since(t0))
			got := trace.Hops(tr)
			trace.InOrder(t, got, trace.DeploymentChain)

			// The kubelet's source is the list-watch in pkg/kubelet/config
			// with the spec.nodeName field selector.
			var kubelet *trace.Watcher
			var find func(n *trace.Node)
			find = func(n *trace.Node) {
				for _, w := range n.Watchers {
					if w.Via == "reflector" && w.Status == "unconnected" && kubelet == nil {
						kubelet = w
					}
					for _, h := range w.Writes {
						if h.Next != nil {
							find(h.Next)
						}
					}
				}
			}
			find(tr.Root)
			if kubelet == nil || kubelet.Registration.At.Path != "pkg/kubelet/config/apiserver.go" || kubelet.FieldSelector != "spec.nodeName" || !strings.HasSuffix(kubelet.Registration.Symbol, "config.NewSourceApiserver") {
				t.Errorf("kubelet pod source = %+v", kubelet)
			}

			var text bytes.Buffer
			if err := trace.WriteText(&text, tr); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(text.String(), "registry.Store.Create") {
				t.Errorf("the API server's create path is not named:\n%s", text.String())
			}

			// The draft walkthrough resolves at this tag.
			var md bytes.Buffer
			if err := trace.WriteMarkdown(&md, tr, in.Source); err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "deployment-trace.md"), md.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, e := range walkthrough.Check(os.DirFS(dir), ".", walkthrough.Options{Resolver: rel.Result}) {
				t.Errorf("check: %v", e)
			}

			// Every kind the site traces resolves and yields a followed watcher.
			for _, k := range []string{"statefulsets", "daemonsets", "jobs", "cronjobs", "services"} {
				r, err := trace.FindKind(in.Facts, k)
				if err != nil {
					t.Errorf("%s: %v", k, err)
					continue
				}
				tr := trace.Derive(in, r, trace.Options{Depth: 2})
				expanded := false
				for _, w := range tr.Root.Watchers {
					expanded = expanded || w.Status == "expanded"
				}
				if !expanded {
					t.Errorf("%s: no watcher followed: %s", k, strings.Join(trace.Hops(tr), "\n"))
				}
			}
		})
	}
}
