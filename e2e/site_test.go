//go:build e2e

package e2e

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/internal/linkcheck"
	"github.com/kubewalk/kubewalk/internal/testsupport/testfs"
	"github.com/kubewalk/kubewalk/site" // its link checker, over the built site
	"github.com/kubewalk/kubewalk/source"
)

// olderTags are the releases the built-in walkthroughs are checked at besides
// the default: every other minor release from v1.29 to v1.37, each at the
// latest patch the module proxy serves. The default must not be among them
// (check refuses a release given twice).
var olderTags = []string{"v1.29.6", "v1.30.14", "v1.31.14", "v1.32.13", "v1.33.13", "v1.34.4", "v1.35.4", "v1.36.3"}

func TestE2ECheckBuiltinWalkthroughs(t *testing.T) {
	args := []string{"check", "--source", "goproxy", "--tag", source.DefaultTag}
	for _, tag := range olderTags {
		args = append(args, "--tag", tag)
	}
	kubewalk(t, args...)
}

func TestE2EListDeploymentController(t *testing.T) {
	var hs []fact.HandlerRegistration
	kubewalkJSON(t, &hs, "list", "handlers", "--source", "goproxy", "-o", "json")
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
	for _, f := range []string{"index.html", "facts.json.zst", "en/walkthroughs/deployment.html", "ko/walkthroughs/deployment.html"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("site lacks %s: %v", f, err)
		}
	}
	for _, err := range linkcheck.Check(out, site.ScriptLinks) {
		t.Error(err)
	}
	// The default release has a recorded run (kept with the walkthroughs,
	// or made by TestE2ERecord): its page, and the panels under the steps.
	if _, err := os.Stat(filepath.Join(out, "recorded.html")); err != nil { // one page for both languages
		t.Errorf("the default site has no Recorded run page: %v", err)
	}
	wt, _ := os.ReadFile(filepath.Join(out, "en", "walkthroughs", "deployment.html"))
	if n := bytes.Count(wt, []byte(`class="observed"`)); n < 5 {
		t.Errorf("deployment.html has %d Observed panels, want one under most steps", n)
	}
	// The control plane's start-up is observed too: every step of the
	// walkthrough of it has a panel, of its requests or, for a step none
	// of whose requests reach the audit log, of the code it cites that
	// ran.
	for _, lang := range []string{"en", "ko"} {
		page, err := os.ReadFile(filepath.Join(out, lang, "walkthroughs", "bootstrap.html"))
		if err != nil {
			t.Fatal(err)
		}
		steps := bytes.Split(page, []byte(`<section class="step`))[1:]
		for i, st := range steps {
			if !bytes.Contains(st, []byte(`<details class="observed`)) {
				t.Errorf("%s bootstrap.html: step %d of %d has no Observed panel", lang, i+1, len(steps))
			}
		}
		if len(steps) < 10 {
			t.Errorf("%s bootstrap.html has %d steps", lang, len(steps))
		}
	}
	if st, err := os.Stat(filepath.Join(out, "en", "walkthroughs", "deployment.html")); err == nil {
		t.Logf("en/walkthroughs/deployment.html: %d bytes", st.Size())
	}
	// A second build of the same inputs (facts now cached) is byte-identical.
	out2 := filepath.Join(t.TempDir(), "public")
	kubewalk(t, "build", "--source", "goproxy", "--out", out2)
	if diff := firstDifference(testfs.Tree(t, out), testfs.Tree(t, out2)); diff != "" {
		t.Errorf("two builds differ: %s", diff)
	}
}

// firstDifference returns "" when two trees of testfs.Tree are the same,
// else the first path, in order, where they differ: a whole site's
// diff would be megabytes.
func firstDifference(a, b map[string]string) string {
	var paths []string
	for p := range a {
		paths = append(paths, p)
	}
	for p := range b {
		if _, ok := a[p]; !ok {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	for _, p := range paths {
		x, inA := a[p]
		y, inB := b[p]
		switch {
		case !inA:
			return "only in the second: " + p
		case !inB:
			return "only in the first: " + p
		case x != y:
			return "differs: " + p
		}
	}
	return ""
}

// TestE2EMultiRelease builds the default release and the one before it
// into one site and checks its links, the version switcher on the deployment
// walkthrough's step 7, and the page budget with badges.
func TestE2EMultiRelease(t *testing.T) {
	const older, newer = "v1.36.3", "v1.37.2"
	out := filepath.Join(t.TempDir(), "public")
	kubewalk(t, "build", "--source", "goproxy", "--tag", older, "--tag", newer, "--out", out)

	for _, err := range linkcheck.Check(out, site.ScriptLinks) {
		t.Error(err)
	}
	read := func(p string) string {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(p)))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	idx := read("index.html")
	if a, b := strings.Index(idx, newer+"/index.html"), strings.Index(idx, older+"/index.html"); a < 0 || b < 0 || a > b {
		t.Errorf("index.html does not list %s before %s", newer, older)
	}

	// One page for both releases (site/internal/pageshare), in the budget of a
	// page the releases share.
	page := read("en/walkthroughs/deployment.html") // bilingual: English under en/
	if len(page) > 1<<20 {
		t.Errorf("the deployment walkthrough of both releases is %d bytes, over the 1 MB budget", len(page))
	}
	steps := regexp.MustCompile(`<section class="step[^"]*" id="([^"]+)"`).FindAllStringSubmatch(page, -1)
	if len(steps) < 7 {
		t.Fatalf("deployment walkthrough has %d steps, want at least 7", len(steps))
	}
	step7 := steps[6][1]
	// The shared page is written by x/net/html, which puts href last.
	a := regexp.MustCompile(`<a ([^>]*\bdata-keep=[^>]*)>` + regexp.QuoteMeta(older) + `</a>`).FindStringSubmatch(page)
	if a == nil {
		t.Fatalf("no switcher link to %s on the deployment walkthrough", older)
	}
	attr := func(k string) string {
		v := regexp.MustCompile(`\b` + k + `="([^"]*)"`).FindStringSubmatch(a[1])
		if v == nil {
			return ""
		}
		return v[1]
	}
	m := []string{a[0], attr("href"), attr("data-keep")}
	if want := "../../en/walkthroughs/deployment.html?rel=" + older; m[1] != want {
		t.Errorf("switcher links to %s, want %s", m[1], want)
	}
	if keep := m[2]; keep != "*" && !strings.Contains(" "+keep+" ", " "+step7+" ") {
		t.Errorf("switcher keeps %q, not step 7 (%s)", keep, step7)
	}
	if !regexp.MustCompile(`<section class="step[^"]*" (data-)?id="` + regexp.QuoteMeta(step7) + `"[^>]*data-r="2"|<section class="step[^"]*" id="` + regexp.QuoteMeta(step7) + `">`).MatchString(page) {
		t.Errorf("%s deployment walkthrough has no step %s", older, step7)
	}
	if !strings.Contains(page, `class="badge badge-`) {
		t.Errorf("no change badges on the %s deployment walkthrough", newer)
	}
}
