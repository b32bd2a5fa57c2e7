//go:build e2e

package reldiff_test

// The built-in walkthroughs compared between two real releases through the
// Go module proxy (`make e2e`; KUBEWALK_E2E_CACHE shares fetched trees and
// cached facts between e2e tests). An external test package: pipeline
// imports site, which imports reldiff.

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"github.com/kubewalk/kubewalk/internal/app/pipeline"
	"github.com/kubewalk/kubewalk/internal/derive/reldiff"
	"github.com/kubewalk/kubewalk/source"
	"github.com/kubewalk/kubewalk/walkthrough"
)

func TestE2EDiffV135V136(t *testing.T) {
	cache := os.Getenv("KUBEWALK_E2E_CACHE")
	if cache == "" {
		cache = t.TempDir()
	}
	sets, err := pipeline.Sets("", false)
	if err != nil {
		t.Fatal(err)
	}
	var refs []walkthrough.RefUse
	for _, s := range sets {
		uses, err := walkthrough.Refs(s.FS, s.Dir)
		if err != nil {
			t.Fatal(err)
		}
		refs = append(refs, uses...)
	}
	var rels [2]reldiff.Release
	for i, tag := range []string{"v1.35.4", "v1.36.3"} {
		rel, err := pipeline.Open(context.Background(), source.Options{Tag: tag, Source: "goproxy", CacheDir: cache}, sets, t.Logf)
		if err != nil {
			t.Fatal(err)
		}
		rels[i] = reldiff.Release{Result: rel.Result}
	}
	rep := reldiff.Compare(rels[0], rels[1], refs)

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

	var buf bytes.Buffer
	if err := reldiff.WriteText(&buf, rep); err != nil {
		t.Fatal(err)
	}
	// The summary lines, for the log.
	t.Log(strings.Join(strings.SplitN(buf.String(), "\n", 4)[:3], "\n"))
	if !strings.Contains(buf.String(), ": renamed: ") {
		t.Error("text report lists no renamed reference")
	}
}
