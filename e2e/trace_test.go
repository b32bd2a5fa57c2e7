//go:build e2e

package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	// The trace's JSON schema: kubewalk trace -o json writes this type.
	"github.com/kubewalk/kubewalk/internal/derive/trace"
)

// deploymentChain is the chain a Deployment sets off, as the blog posts
// and the deployment walkthrough tell it, as hops: the replicaset
// controller's pod creation is reached through the interface edge
// manageReplicas → CreatePods, and the kubelet's source is the API
// server's pod list-watch.
var deploymentChain = []string{
	"watch deployments deployment controller expanded",
	"write replicasets deployment.DeploymentController.getNewReplicaSet",
	"watch replicasets replicaset controller expanded",
	"write pods controller.RealPodControl.createPods",
	"watch pods kube-scheduler expanded",
	// v1.37 moved the binding's POST into util.BindPod, which retries it.
	"write pods/binding defaultbinder.DefaultBinder.Bind | write pods/binding util.BindPod$1",
	"watch pods kubelet unconnected",
}

// traceJSON runs kubewalk trace -o json.
func traceJSON(t *testing.T, args ...string) *trace.Trace {
	t.Helper()
	var tr trace.Trace
	out, _ := run{}.ok(t, append(append([]string{"trace"}, args...), "-o", "json")...)
	if err := json.Unmarshal([]byte(out), &tr); err != nil {
		t.Fatalf("trace -o json: %v", err)
	}
	return &tr
}

// TestE2EDeploymentChain traces Deployment with kubewalk trace at two
// releases and checks the chain hop by hop, the text and the draft
// walkthrough, which kubewalk check must pass; it stays one function so
// the checks read in the chain's order.
func TestE2EDeploymentChain(t *testing.T) {
	for _, tag := range []string{"", "v1.35.4"} { // "": the default release
		t.Run(tagName(tag), func(t *testing.T) {
			rel := []string{"--source", "goproxy"}
			if tag != "" {
				rel = append(rel, "--tag", tag)
			}
			tr := traceJSON(t, append([]string{"Deployment"}, rel...)...)
			got, i := tr.Hops(), 0
			for _, g := range got {
				if i < len(deploymentChain) && slices.Contains(strings.Split(deploymentChain[i], " | "), g) {
					i++
				}
			}
			if i < len(deploymentChain) {
				t.Errorf("hops do not reach %q (after %q) in order; got:\n%s", deploymentChain[i], deploymentChain[:i], strings.Join(got, "\n"))
			}

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

			text, _ := run{}.ok(t, append([]string{"trace", "Deployment"}, rel...)...)
			if !strings.Contains(text, "registry.Store.Create") {
				t.Errorf("the API server's create path is not named:\n%s", text)
			}

			// The draft walkthrough resolves at this tag.
			md, _ := run{}.ok(t, append([]string{"trace", "Deployment", "-o", "markdown"}, rel...)...)
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "deployment-trace.md"), []byte(md), 0o644); err != nil {
				t.Fatal(err)
			}
			if out, errs, code := (run{}).do(t, append([]string{"check", "--no-builtin", "--walkthroughs", dir}, rel...)...); code != 0 {
				t.Errorf("check of the draft walkthrough: exit %d\n%s%s", code, out, errs)
			}

			// Every kind the site traces resolves and yields a followed watcher.
			for _, k := range []string{"statefulsets", "daemonsets", "jobs", "cronjobs", "services"} {
				tr := traceJSON(t, append([]string{k, "--depth", "2"}, rel...)...)
				expanded := false
				for _, w := range tr.Root.Watchers {
					expanded = expanded || w.Status == "expanded"
				}
				if !expanded {
					t.Errorf("%s: no watcher followed: %s", k, strings.Join(tr.Hops(), "\n"))
				}
			}
		})
	}
}
