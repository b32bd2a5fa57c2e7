package linediff

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestUnified: a changed line with its context, the unchanged lines
// farther off folded into counted gaps, as the recorded run's etcd
// revisions show them.
func TestUnified(t *testing.T) {
	a := []string{"a\n", "b\n", "c\n", "d\n", "e\n", "f\n", "g\n"}
	b := []string{"a\n", "b\n", "c\n", "d\n", "E\n", "f\n", "g\n"}
	want := []Line{{Op: "…", Gap: 2}, {Op: " ", Text: "c"}, {Op: " ", Text: "d"}, {Op: "-", Text: "e"}, {Op: "+", Text: "E"}, {Op: " ", Text: "f"}, {Op: " ", Text: "g"}}
	if diff := cmp.Diff(want, Unified(a, b, 2)); diff != "" {
		t.Errorf("Unified (-want +got):\n%s", diff)
	}
	if got := Unified(a, a, 2); len(got) != 1 || got[0] != (Line{Op: "…", Gap: len(a)}) {
		t.Errorf("Unified of the same lines = %v, want one gap of %d", got, len(a))
	}
}
