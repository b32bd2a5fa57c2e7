//go:build e2e

package e2e

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// listedGate is what `kubewalk list gates -o json` prints of a gate.
type listedGate struct {
	Name          string `json:"name"`
	Const         string `json:"const"`
	Stage         string `json:"stage"`
	Default       bool   `json:"default"`
	LockToDefault bool   `json:"lockToDefault"`
	Since         string `json:"since"`
	Checks        []struct {
		Gate        string `json:"gate"`
		Kind        string `json:"kind"`
		WhenEnabled bool   `json:"whenEnabled"`
		Guarded     struct {
			Path  string `json:"path"`
			Start int    `json:"start"`
			End   int    `json:"end"`
		} `json:"guarded"`
	} `json:"checks"`
}

// At v1.31.0 pkg/features declares its gates as
//
//	AppArmor featuregate.Feature = "AppArmor"
//	…
//	AppArmor: {Default: true, PreRelease: featuregate.GA, LockToDefault: true}, // remove in 1.33
//
// each entry on one line: read that way, the table is a check of the
// analyzer's, which evaluates the literal with go/types.
var (
	gateConstRE = regexp.MustCompile(`(?m)^\t(\w+) featuregate\.Feature = "(\w+)"`)
	gateEntryRE = regexp.MustCompile(`(?m)^\t(\w+): \{Default: (true|false), PreRelease: featuregate\.(\w+)(, LockToDefault: (true|false))?\},`)
)

// TestListGates: `list gates` at v1.31.0 lists every gate of
// pkg/features' table with the stage, default and lock the source gives
// it, the gates of the staging modules' tables, and checks of them in the
// analysed code.
func TestListGates(t *testing.T) {
	const tag = "v1.31.0"
	var gates []listedGate
	kubewalkJSON(t, &gates, "list", "gates", "--source", "goproxy", "--tag", tag, "-o", "json")
	byName := map[string]listedGate{}
	for _, g := range gates {
		byName[g.Name] = g
	}

	// By hand, against pkg/features/kube_features.go at v1.31.0:
	// AppArmor is GA and locked on ("GA: v1.31" in its doc comment; no
	// code checks it any more); ImageVolume is alpha and off ("alpha:
	// v1.31").
	for _, want := range []listedGate{
		{Name: "AppArmor", Const: "k8s.io/kubernetes/pkg/features.AppArmor", Stage: "GA", Default: true, LockToDefault: true, Since: "1.31"},
		{Name: "ImageVolume", Const: "k8s.io/kubernetes/pkg/features.ImageVolume", Stage: "alpha", Default: false, Since: "1.31"},
		// A staging module's gate: the apiserver's, relisted by kube.
		{Name: "WatchList", Const: "k8s.io/apiserver/pkg/features.WatchList", Stage: "alpha", Default: false, Since: "1.27"},
		// client-go's own table.
		{Name: "WatchListClient", Const: "k8s.io/client-go/features.WatchListClient", Stage: "beta", Default: false, Since: "1.30"},
	} {
		got := byName[want.Name]
		if got.Const != want.Const || got.Stage != want.Stage || got.Default != want.Default || got.LockToDefault != want.LockToDefault || got.Since != want.Since {
			t.Errorf("gate %s: got %s %s default=%v locked=%v since %q, want %s %s default=%v locked=%v since %q", want.Name,
				got.Const, got.Stage, got.Default, got.LockToDefault, got.Since, want.Const, want.Stage, want.Default, want.LockToDefault, want.Since)
		}
	}
	// By hand, pkg/kubelet/kubelet_pods.go at v1.31.0, in makeMounts:
	//
	//	266 if imageVolumes != nil && utilfeature.DefaultFeatureGate.Enabled(features.ImageVolume) {
	//	267 	if image, ok := imageVolumes[mount.Name]; ok {
	//	…
	//	274 	}
	//	275 }
	found := false
	for _, c := range byName["ImageVolume"].Checks {
		found = found || c.Kind == "if" && c.Guarded.Path == "pkg/kubelet/kubelet_pods.go" && c.Guarded.Start == 267 && c.Guarded.End == 274
	}
	if !found {
		t.Errorf("gate ImageVolume: no check guarding pkg/kubelet/kubelet_pods.go:267-274; got %+v", byName["ImageVolume"].Checks)
	}

	// Every entry of pkg/features' table, read from the source.
	var dir string
	out, _ := kubewalk(t, "fetch", "--source", "goproxy", "--tag", tag, "-o", "dir")
	dir = strings.TrimSpace(out)
	src, err := os.ReadFile(filepath.Join(dir, "pkg/features/kube_features.go"))
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]string{}
	for _, m := range gateConstRE.FindAllStringSubmatch(string(src), -1) {
		names[m[1]] = m[2]
	}
	stage := map[string]string{"Alpha": "alpha", "Beta": "beta", "GA": "GA", "Deprecated": "deprecated"}
	entries := gateEntryRE.FindAllStringSubmatch(string(src), -1)
	if len(entries) < 100 {
		t.Fatalf("read %d entries of pkg/features' table; the pattern no longer fits the source", len(entries))
	}
	kube := 0
	for _, g := range gates {
		if strings.HasPrefix(g.Const, "k8s.io/kubernetes/pkg/features.") {
			kube++
		}
	}
	if kube != len(entries) {
		t.Errorf("%d gates declared in pkg/features listed, the source's table has %d", kube, len(entries))
	}
	for _, m := range entries {
		name := names[m[1]]
		got, ok := byName[name]
		if !ok {
			t.Errorf("gate %s (%s) of pkg/features not listed", name, m[1])
			continue
		}
		locked := m[5] == "true"
		if got.Stage != stage[m[3]] || got.Default != (m[2] == "true") || got.LockToDefault != locked {
			t.Errorf("gate %s: listed %s default=%v locked=%v, the source says %s default=%s locked=%v", name, got.Stage, got.Default, got.LockToDefault, m[3], m[2], locked)
		}
	}
	t.Logf("%s: %d gates (%d of pkg/features), %d with checks", tag, len(gates), kube, withChecks(gates))
}

func withChecks(gs []listedGate) int {
	n := 0
	for _, g := range gs {
		if len(g.Checks) > 0 {
			n++
		}
	}
	return n
}

var (
	stepIDRE    = regexp.MustCompile(`^[^>]*id="([^"]+)"`)
	gateBadgeRE = regexp.MustCompile(`<a class="badge gate[^"]*" href="[^"]*#g-(\w+)"[^>]*>(when off: )?`)
	// The spans a step cites: inline references (title "path:L-L") and
	// excerpts' file links ("path:L-L").
	citedRE = regexp.MustCompile(`(?:class="symref"[^>]* title="|<a class="file"[^>]*>)([^":<]+):(\d+)(?:-(\d+))?`)
)

// TestGateBadgesDeployment: in the default site, the deployment
// walkthrough's steps carry the badges of the gates guarding the code they
// cite, and every badge is of a gate guarding lines the step cites.
func TestGateBadgesDeployment(t *testing.T) {
	const tag = "v1.37.2"
	var gates []listedGate
	kubewalkJSON(t, &gates, "list", "gates", "--source", "goproxy", "--tag", tag, "-o", "json")
	out := filepath.Join(t.TempDir(), "site")
	kubewalk(t, "build", "--source", "goproxy", "--tag", tag, "--out", out)
	var page []byte
	var err error
	for _, p := range []string{"walkthroughs/deployment.html", "en/walkthroughs/deployment.html"} {
		if page, err = os.ReadFile(filepath.Join(out, p)); err == nil {
			break
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	type guarded struct {
		path     string
		from, to int
		on       bool
	}
	checks := map[string][]guarded{}
	for _, g := range gates {
		for _, c := range g.Checks {
			checks[g.Name] = append(checks[g.Name], guarded{c.Guarded.Path, c.Guarded.Start, c.Guarded.End, c.WhenEnabled})
		}
	}
	badged := map[string][]string{} // step → "gate" or "gate off"
	steps := strings.Split(string(page), `<section class="step`)[1:]
	for _, sec := range steps {
		id := stepIDRE.FindStringSubmatch(sec)[1]
		cited := citedRE.FindAllStringSubmatch(sec, -1)
		for _, m := range gateBadgeRE.FindAllStringSubmatch(sec, -1) {
			gate, on := m[1], m[2] == ""
			badge := gate
			if !on {
				badge += " off"
			}
			badged[id] = append(badged[id], badge)
			justified := false
			for _, c := range checks[gate] {
				for _, s := range cited {
					from, _ := strconv.Atoi(s[2])
					to := from
					if s[3] != "" {
						to, _ = strconv.Atoi(s[3])
					}
					justified = justified || c.on == on && c.path == s[1] && c.from <= to && from <= c.to
				}
			}
			if !justified {
				t.Errorf("step %s: badge %s, but no check of it guards lines the step cites", id, badge)
			}
		}
	}
	// By hand, at v1.37.2: imageManager.EnsureImageExists
	// (pkg/kubelet/images/image_manager.go:250) returns "already present
	// on machine", the Pulled event, only when KubeletEnsureSecretPulledImages
	// is off, and goes on to MustAttemptImagePull when it is on;
	// ReplicaSetController.syncReplicaSet (replica_set.go:811) counts
	// terminating pods only under DeploymentReplicaSetTerminatingReplicas.
	for step, want := range map[string][]string{
		"step-16-the-kubelet-pulls-the-image-pulling-pulled":   {"KubeletEnsureSecretPulledImages", "KubeletEnsureSecretPulledImages off"},
		"step-8-the-replicaset-controller-sees-the-replicaset": {"DeploymentReplicaSetTerminatingReplicas"},
	} {
		for _, w := range want {
			if !slices.Contains(badged[step], w) {
				t.Errorf("step %s: no badge %s; has %v", step, w, badged[step])
			}
		}
	}
	t.Logf("%s: %d of %d steps of the deployment walkthrough carry a gate badge", tag, len(badged), len(steps))
	if len(badged) == 0 || len(badged) == len(steps) {
		t.Errorf("%d of %d steps badged: want some, not all", len(badged), len(steps))
	}
}
