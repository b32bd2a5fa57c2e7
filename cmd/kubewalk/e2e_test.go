//go:build e2e

package main

// End-to-end tests on real Kubernetes through the Go module proxy. They run
// with `make e2e` (build tag e2e), sharing one cache directory
// (KUBEWALK_E2E_CACHE) so a release is fetched and analysed once.

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/site"
	"github.com/kubewalk/kubewalk/source"
)

// olderTags are the releases the built-in walkthroughs are checked at besides
// the default: every other minor release from v1.29 to v1.37, each at the
// latest patch the module proxy serves. The default must not be among them
// (check refuses a release given twice).
var olderTags = []string{"v1.29.6", "v1.30.14", "v1.31.14", "v1.32.13", "v1.33.13", "v1.34.4", "v1.35.4", "v1.36.3"}

func e2eCache(t *testing.T) string {
	t.Helper()
	if d := os.Getenv("KUBEWALK_E2E_CACHE"); d != "" {
		return d
	}
	return t.TempDir()
}

func kubewalk(t *testing.T, args ...string) (stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	args = append([]string{"--cache-dir", e2eCache(t)}, args...)
	code := run(context.Background(), args, strings.NewReader(""), &out, &errb)
	if code != 0 {
		t.Fatalf("kubewalk %s: exit %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), code, out.String(), errb.String())
	}
	return out.String(), errb.String()
}

func TestE2ECheckBuiltinWalkthroughs(t *testing.T) {
	args := []string{"check", "--source", "goproxy", "--tag", source.DefaultTag}
	for _, tag := range olderTags {
		args = append(args, "--tag", tag)
	}
	kubewalk(t, args...)
}

func TestE2EListDeploymentController(t *testing.T) {
	out, _ := kubewalk(t, "list", "handlers", "--source", "goproxy", "-o", "json")
	var hs []fact.HandlerRegistration
	if err := json.Unmarshal([]byte(out), &hs); err != nil {
		t.Fatal(err)
	}
	// At v1.36.3 the handlers are func literals forwarding to the methods
	// with a logger (func(obj interface{}) { dc.addDeployment(logger, obj) });
	// at older releases, method values. Either way the add handler reaches
	// the method.
	got := map[string][]string{}
	for _, h := range hs {
		if h.Component == "pkg/controller/deployment" && h.Add != nil {
			got[h.Informer.Kind] = append([]string{h.Add.Symbol}, h.Add.Calls...)
		}
	}
	want := map[string]string{
		"Deployment": "k8s.io/kubernetes/pkg/controller/deployment.DeploymentController.addDeployment",
		"ReplicaSet": "k8s.io/kubernetes/pkg/controller/deployment.DeploymentController.addReplicaSet",
	}
	for kind, sym := range want {
		if !slices.Contains(got[kind], sym) {
			t.Errorf("deployment controller's %s informer: add handler reaches %q, want %q", kind, got[kind], sym)
		}
	}
	if _, ok := got["Pod"]; ok {
		// The Pod informer registers only a delete handler.
		t.Errorf("deployment controller's Pod informer has an add handler: %q", got["Pod"])
	}
}

func TestE2EListListWatches(t *testing.T) {
	out, _ := kubewalk(t, "list", "listwatches", "--source", "goproxy")
	// The table's row for the kubelet's pod source: pods, spec.nodeName,
	// fed to a reflector.
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) >= 5 && f[0] == "pods" && f[1] == "spec.nodeName" && f[2] == "reflector" && strings.Contains(line, "config.NewSourceApiserver") {
			return
		}
	}
	t.Errorf("list listwatches: no row for the kubelet's pod source (pods, spec.nodeName, reflector, config.NewSourceApiserver):\n%s", out)
}

func TestE2EBuildSite(t *testing.T) {
	out := filepath.Join(t.TempDir(), "public")
	kubewalk(t, "build", "--source", "goproxy", "--out", out)
	// Bilingual by default: each language under its directory, the source
	// pages and facts shared.
	for _, f := range []string{"index.html", "facts.json.gz", "en/walkthroughs/deployment.html", "ko/walkthroughs/deployment.html"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("site lacks %s: %v", f, err)
		}
	}
	for _, err := range site.CheckLinks(out) {
		t.Error(err)
	}
	// The default release has a recorded run (kept with the walkthroughs,
	// or made by TestE2ERecord): its page, and the panels under the steps.
	if _, err := os.Stat(filepath.Join(out, "en", "recorded.html")); err != nil {
		t.Errorf("the default site has no Recorded run page: %v", err)
	}
	wt, _ := os.ReadFile(filepath.Join(out, "en", "walkthroughs", "deployment.html"))
	if n := bytes.Count(wt, []byte(`class="observed"`)); n < 5 {
		t.Errorf("deployment.html has %d Observed panels, want one under most steps", n)
	}
	// A second build of the same inputs (facts now cached) is byte-identical.
	out2 := filepath.Join(t.TempDir(), "public")
	kubewalk(t, "build", "--source", "goproxy", "--out", out2)
	if diff := diffTrees(t, out, out2); diff != "" {
		t.Errorf("two builds differ: %s", diff)
	}
	if dir := os.Getenv("KUBEWALK_ARTIFACTS"); dir != "" {
		// Keep the real site's home page size as a figure.
		st, _ := os.Stat(filepath.Join(out, "en", "walkthroughs", "deployment.html"))
		if st != nil {
			t.Logf("en/walkthroughs/deployment.html: %d bytes", st.Size())
		}
	}
}

// diffTrees returns "" when the two directories hold the same files with
// the same bytes, else the first difference.
func diffTrees(t *testing.T, a, b string) string {
	t.Helper()
	files := map[string][]byte{}
	filepath.WalkDir(a, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(a, p)
			files[rel], _ = os.ReadFile(p)
		}
		return nil
	})
	n := 0
	var diff string
	filepath.WalkDir(b, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || diff != "" {
			return nil
		}
		n++
		rel, _ := filepath.Rel(b, p)
		got, _ := os.ReadFile(p)
		want, ok := files[rel]
		switch {
		case !ok:
			diff = "only in second: " + rel
		case !bytes.Equal(got, want):
			diff = "differs: " + rel
		}
		return nil
	})
	if diff == "" && n != len(files) {
		diff = "files missing from the second build"
	}
	return diff
}
