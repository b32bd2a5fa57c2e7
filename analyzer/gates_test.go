package analyzer

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kubewalk/kubewalk/analyzer/fact"
)

// The gates pass's expectations are "// want gate" comments on the
// fixture's table entries (pkg/features) and "// want gatecheck" comments
// on its checks (pkg/kubelet/gated), checked by TestPasses with these
// renderings; the staging modules' tables are checked below.

func renderGate(g fact.Gate) string {
	onOff := map[bool]string{true: "on", false: "off"}
	s := g.Name + " " + g.Stage + " " + onOff[g.Default]
	if g.LockToDefault {
		s += " locked"
	}
	var st []string
	for _, x := range g.Stages {
		d := ""
		if x.Default != nil {
			d = ":" + onOff[*x.Default]
		}
		st = append(st, x.Stage+"@"+x.Version+d)
	}
	konst := strings.TrimPrefix(strings.TrimPrefix(g.Const, "k8s.io/kubernetes/"), "k8s.io/")
	return fmt.Sprintf("%s since=%s stages=%s const=%s", s, g.Since, strings.Join(st, ","), konst)
}

func renderGateCheck(c fact.GateCheck) string {
	on := "off"
	if c.WhenEnabled {
		on = "on"
	}
	return fmt.Sprintf("%s %s %s %d-%d caller=%s via=%s", c.Kind, c.Gate, on, c.Guarded.StartLine, c.Guarded.EndLine, fact.ShortSymbol(c.Caller.Symbol), c.Via)
}

// TestGateTables: the gates of the staging modules' tables, read from
// dependencies the loader kept no syntax of — a table before versioned
// specs with its stages in doc comments, a versioned table returned by a
// function, client-go's own types — and a gate that kube relists, whose
// entry is kube's.
func TestGateTables(t *testing.T) {
	facts, _ := kubelikeFacts(t)
	got := map[string]string{}
	spec := map[string]string{}
	for _, g := range facts.Gates {
		got[g.Name] = renderGate(g)
		spec[g.Name] = g.Spec.Path
	}
	want := map[string]string{
		"ServerSideApply":   "ServerSideApply GA on locked since=1.22 stages=alpha@1.14,beta@1.16,GA@1.22 const=apiserver/pkg/features.ServerSideApply",
		"APIServerIdentity": "APIServerIdentity beta on since= stages=alpha@1.20 const=apiserver/pkg/features.APIServerIdentity",
		"WatchListClient":   "WatchListClient beta off since=1.30 stages=beta@1.30 const=client-go/features.WatchListClient",
		"ContextualLogging": "ContextualLogging beta on since=1.30 stages=alpha@1.24:off,beta@1.30:on const=component-base/logs/api/v1.ContextualLogging",
		"WatchList":         "WatchList alpha off since=1.27 stages=alpha@1.27:off const=apiserver/pkg/features.WatchList",
	}
	for name, w := range want {
		if diff := cmp.Diff(w, got[name]); diff != "" {
			t.Errorf("gate %s (-want +got):\n%s", name, diff)
		}
	}
	for _, name := range []string{"WatchList", "ContextualLogging"} {
		if spec[name] != "pkg/features/kube_features.go" {
			t.Errorf("gate %s: spec read from %s, want kube's relisting in pkg/features/kube_features.go", name, spec[name])
		}
	}
	// pkg/features' seven and two relisted, and three only in staging.
	if len(facts.Gates) != 12 {
		t.Errorf("%d gates, want 12:\n%s", len(facts.Gates), strings.Join(sortedKeys(got), "\n"))
	}
}
