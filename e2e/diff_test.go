//go:build e2e

package e2e

import (
	"encoding/json"
	"strings"
	"testing"

	// The report's JSON schema: kubewalk diff -o json writes this type.
	"github.com/kubewalk/kubewalk/internal/derive/reldiff"
)

// TestE2EDiffV135V136 compares the built-in walkthroughs' references
// between two real releases with kubewalk diff, as JSON and as text.
func TestE2EDiffV135V136(t *testing.T) {
	args := []string{"diff", "--source", "goproxy", "--from", "v1.35.4", "--to", "v1.36.3"}
	var rep reldiff.Report
	out, _ := run{}.ok(t, append(args, "-o", "json")...)
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("diff -o json: %v", err)
	}

	// v1.36 split the per-pod work of Scheduler.ScheduleOne out into
	// scheduleOnePod; the deployment walkthrough follows it with an
	// alternate.
	found := false
	for _, rc := range rep.Refs {
		if !strings.HasPrefix(rc.Ref, "k8s.io/kubernetes/pkg/scheduler.Scheduler.scheduleOnePod | ") {
			continue
		}
		found = true
		if rc.Status != reldiff.Renamed ||
			!strings.HasSuffix(rc.From.Symbol, ".Scheduler.ScheduleOne") ||
			!strings.HasSuffix(rc.To.Symbol, ".Scheduler.scheduleOnePod") || rc.Diff == "" {
			t.Errorf("%s:%d: %s: %s from %s to %s, diff %d bytes; want renamed ScheduleOne → scheduleOnePod with a diff",
				rc.File, rc.Line, rc.Ref, rc.Status, rc.From.Symbol, rc.To.Symbol, len(rc.Diff))
		}
	}
	if !found {
		t.Error("no reference to Scheduler.scheduleOnePod in the built-in walkthroughs")
	}

	// Every reference resolves at the newer release (kubewalk check gates
	// that); none is gone, and a moved one has no diff.
	for _, rc := range rep.Refs {
		switch {
		case rc.Status == reldiff.Gone || rc.Status == reldiff.Unresolved || rc.Status == reldiff.PatternLost:
			t.Errorf("%s:%d: %s: %s (%s)", rc.File, rc.Line, rc.Ref, rc.Status, rc.To.Error)
		case rc.Status == reldiff.Moved && rc.Diff != "":
			t.Errorf("%s:%d: moved with a diff", rc.File, rc.Line)
		}
	}
	if rep.Summary.Refs[reldiff.Unchanged]+rep.Summary.Refs[reldiff.Moved] == 0 || rep.Summary.Refs[reldiff.Changed] == 0 {
		t.Errorf("implausible summary %v", rep.Summary.Refs)
	}

	text, _ := run{}.ok(t, args...)
	// The summary lines, for the log.
	t.Log(strings.Join(strings.SplitN(text, "\n", 4)[:3], "\n"))
	if !strings.Contains(text, ": renamed: ") {
		t.Error("text report lists no renamed reference")
	}
}
