//go:build e2e

package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// netnsInodes are the network namespaces processes are in now, as
// /proc/<pid>/ns/net links name them ("net:[4026531833]"), and the
// processes in each.
func netnsInodes() map[string][]string {
	out := map[string][]string{}
	links, _ := filepath.Glob("/proc/[0-9]*/ns/net")
	for _, l := range links {
		if ns, err := os.Readlink(l); err == nil {
			out[ns] = append(out[ns], strings.Split(l, "/")[2])
		}
	}
	return out
}

// newNetns lists the namespaces of now that were not there before, with
// the command lines of their processes.
func newNetns(before map[string][]string) []string {
	var out []string
	for ns, pids := range netnsInodes() {
		if _, ok := before[ns]; ok {
			continue
		}
		for _, pid := range pids {
			cmdline, _ := os.ReadFile("/proc/" + pid + "/cmdline")
			out = append(out, ns+" pid "+pid+": "+strings.ReplaceAll(string(cmdline), "\x00", " "))
		}
	}
	return out
}

// needsNetns skips the service scenario where it cannot run: it makes a
// network namespace (root) and kube-proxy's nftables mode calls nft.
func needsNetns(t *testing.T) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("the service scenario needs root for its network namespace")
	}
	if _, err := exec.LookPath("nft"); err != nil {
		t.Skip("the service scenario needs nft (Debian: nftables)")
	}
}

// The service scenario: the release's kube-proxy writes rules for the
// Service's ClusterIP and port, the recording keeps them, the
// EndpointSlice the endpointslice controller creates is attributed to its
// code, and neither kube-proxy nor its network namespace outlives the
// run.
func TestE2ERecordService(t *testing.T) {
	needsNetns(t)
	before := netnsInodes()
	cache := cacheDir(t)
	out, _ := kubewalk(t, "record", "--source", "goproxy", "--scenario", "service", "-o", "json")
	var r recorded
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.Rules == nil {
		t.Fatal("the service run kept no rules")
	}
	if r.Rules.Mode != "nftables" {
		t.Errorf("rules of mode %q, want nftables", r.Rules.Mode)
	}
	// The manifest fixes the ClusterIP; the service-ips map sends its
	// port to the Service's chain.
	for _, want := range []string{"table ip kube-proxy", "10.0.0.80 . tcp . 80 : goto service-", "default/nginx/tcp/http", "dnat to "} {
		if !strings.Contains(r.Rules.Text, want) {
			t.Errorf("the rules lack %q:\n%s", want, r.Rules.Text)
		}
	}
	if r.Attribution == nil {
		t.Fatal("no attribution")
	}
	found := false
	for _, a := range r.Attribution.Audit {
		if a.Verb != "create" || a.Resource != "endpointslices" || a.Namespace != "default" {
			continue
		}
		found = true
		ok := false
		for _, c := range a.Explanation.Code {
			if c.Role == "wrote" && (strings.HasPrefix(c.Path, "pkg/controller/endpointslice/") || strings.HasPrefix(c.Path, "staging/src/k8s.io/endpointslice/")) {
				ok = true
			}
		}
		if !ok {
			t.Errorf("the EndpointSlice create %s is not attributed to the endpointslice controller's code: %+v", a.Name, a.Explanation)
		}
	}
	if !found {
		t.Error("no EndpointSlice was created in the default namespace")
	}
	proxied := false
	for _, a := range r.Attribution.Audit {
		if a.User == "system:kube-proxy" && a.Verb == "watch" && a.Resource == "endpointslices" {
			proxied = a.Explanation.Explained
		}
	}
	if !proxied {
		t.Error("kube-proxy's watch of endpointslices is missing or not attributed")
	}
	if s := r.Attribution.Summary; s.NotAttributable > 0 {
		t.Logf("%d of %d items attributed", s.Attributed, s.Items)
	}
	compareWithKept(t, r.Recording)
	if l := leftovers(t, cache); len(l) > 0 {
		t.Errorf("left behind:\n%s", strings.Join(l, "\n"))
	}
	if l := newNetns(before); len(l) > 0 {
		t.Errorf("network namespaces left behind:\n%s", strings.Join(l, "\n"))
	}
}

// Ctrl-C once kube-proxy runs in its namespace: the namespace goes with
// the run.
func TestE2ERecordServiceInterrupted(t *testing.T) {
	needsNetns(t)
	before := netnsInodes()
	interruptRecord(t, "service", "started kube-proxy", func() {
		if len(newNetns(before)) == 0 {
			t.Errorf("kube-proxy runs in no network namespace of its own")
		}
	})
	if l := newNetns(before); len(l) > 0 {
		t.Errorf("network namespaces left behind after Ctrl-C:\n%s", strings.Join(l, "\n"))
	}
}
