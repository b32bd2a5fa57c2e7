//go:build e2e

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kubewalk/kubewalk/internal/derive/explain"
	"github.com/kubewalk/kubewalk/source"
)

// minAttributed is the fraction of a whole recorded run of the default
// release that must be attributed to code: every event, write and watch,
// start-up included. What is left must each say why.
const minAttributed = 0.99

// defaultRecording is the recording of the default release's deployment
// scenario: the one `kubewalk record` left in the shared cache, else the
// one kept in the repository.
func defaultRecording(t *testing.T) string {
	t.Helper()
	cached := filepath.Join(cacheDir(t), "record", "recordings", source.DefaultTag, "deployment.json")
	if _, err := os.Stat(cached); err == nil {
		return cached
	}
	return filepath.Join("..", "walkthroughs", "recordings", source.DefaultTag, "deployment.json.zst")
}

// TestE2EAttributionWholeRun explains a whole recorded run of the
// default release by its facts: the scenario's every item, most of the
// rest, every item not attributed with its reason, and the kubelet's
// node-condition events at the kubelet's own lines.
func TestE2EAttributionWholeRun(t *testing.T) {
	var at explain.Attribution
	kubewalkJSON(t, &at, "explain", "--source", "goproxy", "--recording", defaultRecording(t), "-o", "json")
	s := at.Summary
	if s.Items != len(at.Events)+len(at.Audit) || s.Attributed+s.NotAttributable != s.Items {
		t.Fatalf("summary %+v does not count the %d events and %d audit entries", s, len(at.Events), len(at.Audit))
	}
	t.Logf("%s", s)
	for _, k := range s.Kinds {
		t.Logf("  %-8s %-10s %4d of %4d", k.Kind, k.Phase, k.Attributed, k.Items)
		if k.Phase == explain.PhaseScenario && k.Attributed != k.Items {
			t.Errorf("the scenario's %s: %d of %d attributed, want all", k.Kind, k.Attributed, k.Items)
		}
	}
	if f := float64(s.Attributed) / float64(s.Items); f < minAttributed {
		t.Errorf("%.1f %% of the run attributed, want at least %.0f %%", 100*f, 100*minAttributed)
	}
	for _, a := range at.Audit {
		if ex := a.Explanation; !ex.Explained && ex.Note == "" {
			t.Errorf("%s %s/%s by %s: not attributed, and no reason", a.Verb, a.Resource, a.Name, a.User)
		}
		if a.Verb == "watch" && a.Explanation.Explained && a.Explanation.Rule == "" {
			t.Errorf("watch %s by %s: attributed by no rule", a.RequestURI, a.User)
		}
	}
	conditions := map[string]bool{"NodeHasSufficientMemory": false, "NodeHasNoDiskPressure": false, "NodeHasSufficientPID": false, "NodeReady": false}
	for _, e := range at.Events {
		ex := e.Explanation
		if !ex.Explained && ex.Note == "" {
			t.Errorf("event %s of %s: not attributed, and no reason", e.Reason, e.Object.Name)
		}
		if _, ok := conditions[e.Reason]; !ok {
			continue
		}
		conditions[e.Reason] = true
		if !ex.Explained || len(ex.Code) == 0 || !strings.HasPrefix(ex.Code[0].Path, "pkg/kubelet/") {
			t.Errorf("%s: %+v, want it attributed to the kubelet's code", e.Reason, ex)
		}
	}
	for r, seen := range conditions {
		if !seen {
			t.Errorf("the recording has no %s event", r)
		}
	}
}
