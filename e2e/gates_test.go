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

	kube := checkTable(t, tag, gates)
	t.Logf("%s: %d gates (%d of pkg/features), %d with checks", tag, len(gates), kube, withChecks(gates))
}

// TestListGatesOlder: at v1.29.6, whose staging modules the module proxy
// does not all serve, the table is still read whole.
func TestListGatesOlder(t *testing.T) {
	const tag = "v1.29.6"
	var gates []listedGate
	kubewalkJSON(t, &gates, "list", "gates", "--source", "goproxy", "--tag", tag, "-o", "json")
	kube := checkTable(t, tag, gates)
	t.Logf("%s: %d gates (%d of pkg/features), %d with checks", tag, len(gates), kube, withChecks(gates))
}

// checkTable checks the gates listed at tag against every entry of
// pkg/features' unversioned table, read from the source, and returns how
// many of them pkg/features declares.
func checkTable(t *testing.T, tag string, gates []listedGate) int {
	t.Helper()
	byName := map[string]listedGate{}
	for _, g := range gates {
		byName[g.Name] = g
	}
	src := featuresSource(t, tag)
	names := map[string]string{}
	for _, m := range gateConstRE.FindAllStringSubmatch(src, -1) {
		names[m[1]] = m[2]
	}
	entries := gateEntryRE.FindAllStringSubmatch(src, -1)
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
		if got.Stage != stageWord[m[3]] || got.Default != (m[2] == "true") || got.LockToDefault != locked {
			t.Errorf("gate %s: listed %s default=%v locked=%v, the source says %s default=%s locked=%v", name, got.Stage, got.Default, got.LockToDefault, m[3], m[2], locked)
		}
	}
	return kube
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

// From v1.31 pkg/features declares versioned specs, one per line:
//
//	AllowDNSOnlyNodeCSR: {
//		{Version: version.MustParse("1.0"), Default: true, PreRelease: featuregate.GA},
//		{Version: version.MustParse("1.31"), Default: false, PreRelease: featuregate.Deprecated},
//	},
var (
	versionedTableRE = regexp.MustCompile(`(?ms)^var defaultVersionedKubernetesFeatureGates = .*?^}`)
	versionedKeyRE   = regexp.MustCompile(`^\t([\w.]+): \{`)
	specVersionRE    = regexp.MustCompile(`^\t\t\{Version: version\.MustParse\("1\.(\d+)"\)`)
	specDefaultRE    = regexp.MustCompile(`Default: (true|false)`)
	specStageRE      = regexp.MustCompile(`PreRelease: featuregate\.(\w+)`)
	specMinCompatRE  = regexp.MustCompile(`MinCompatibilityVersion: version\.MustParse\("1\.(\d+)"\)`)
)

// TestListGatesVersioned: at v1.37.2 every gate of pkg/features'
// versioned table is listed with the stage, default and lock of the spec
// a 1.37 binary runs with: the last not newer than 1.37, passing over one
// that needs a minimum compatibility version above 1.36.
func TestListGatesVersioned(t *testing.T) {
	const tag, minor = "v1.37.2", 37
	var gates []listedGate
	kubewalkJSON(t, &gates, "list", "gates", "--source", "goproxy", "--tag", tag, "-o", "json")
	byConst := map[string]listedGate{}
	for _, g := range gates {
		byConst[g.Const] = g
	}
	src := featuresSource(t, tag)
	type spec struct {
		stage       string
		def, locked bool
	}
	want := map[string]spec{}
	var key string
	for _, l := range strings.Split(versionedTableRE.FindString(src), "\n") {
		if m := versionedKeyRE.FindStringSubmatch(l); m != nil {
			// A staging module's gate relisted (genericfeatures.X) is
			// checked by its own table's tests; kube's own are here.
			key = m[1]
			if !strings.Contains(key, ".") {
				want[key] = spec{stage: "pre-alpha"}
			}
			continue
		}
		m := specVersionRE.FindStringSubmatch(l)
		if m == nil || strings.Contains(key, ".") {
			continue
		}
		// The spec, without a comment after it ("// LockToDefault: true in 1.38").
		l, _, _ = strings.Cut(l, "},")
		v, _ := strconv.Atoi(m[1])
		mc := 0
		if c := specMinCompatRE.FindStringSubmatch(l); c != nil {
			mc, _ = strconv.Atoi(c[1])
		}
		if v > minor || mc > minor-1 {
			continue
		}
		// Specs are listed oldest first, so the last that applies wins.
		want[key] = spec{stage: stageWord[specStageRE.FindStringSubmatch(l)[1]], def: specDefaultRE.FindStringSubmatch(l)[1] == "true",
			locked: strings.Contains(l, "LockToDefault: true")}
	}
	if len(want) < 150 {
		t.Fatalf("read %d gates of the versioned table; the patterns no longer fit the source", len(want))
	}
	for name, w := range want {
		got, ok := byConst["k8s.io/kubernetes/pkg/features."+name]
		if !ok {
			t.Errorf("gate constant %s not listed", name)
			continue
		}
		if got.Stage != w.stage || got.Default != w.def || got.LockToDefault != w.locked {
			t.Errorf("gate %s: listed %s default=%v locked=%v, the source's spec at 1.%d is %s default=%v locked=%v", got.Name, got.Stage, got.Default, got.LockToDefault, minor, w.stage, w.def, w.locked)
		}
	}
	kube := 0
	for c := range byConst {
		if strings.HasPrefix(c, "k8s.io/kubernetes/pkg/features.") {
			kube++
		}
	}
	if kube != len(want) {
		t.Errorf("%d gates declared in pkg/features listed, the source's versioned table has %d", kube, len(want))
	}
	t.Logf("%s: %d gates, %d of pkg/features' versioned table checked against the source", tag, len(gates), len(want))
}

// stageWord is the stage list gates prints for featuregate's constant.
var stageWord = map[string]string{"Alpha": "alpha", "Beta": "beta", "GA": "GA", "Deprecated": "deprecated"}

// featuresSource is pkg/features/kube_features.go at tag.
func featuresSource(t *testing.T, tag string) string {
	t.Helper()
	out, _ := kubewalk(t, "fetch", "--source", "goproxy", "--tag", tag, "-o", "dir")
	src, err := os.ReadFile(filepath.Join(strings.TrimSpace(out), "pkg/features/kube_features.go"))
	if err != nil {
		t.Fatal(err)
	}
	return string(src)
}
