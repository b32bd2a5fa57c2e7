package fact

import (
	"reflect"
	"regexp"
	"slices"
	"testing"
)

func TestLineSpan(t *testing.T) {
	src := []byte("a\nb\nc\nd")
	for _, c := range []struct {
		from, to int
		want     string
		ok       bool
	}{
		{1, 1, "a\n", true},
		{2, 3, "b\nc\n", true},
		{3, 4, "c\nd", true}, // the last line has no newline
		{3, 9, "c\nd", false},
		{7, 9, "", false},
	} {
		got, ok := LineSpan(src, c.from, c.to)
		if string(got) != c.want || ok != c.ok {
			t.Errorf("LineSpan(%d, %d) = %q, %v; want %q, %v", c.from, c.to, got, ok, c.want, c.ok)
		}
	}
	text, _ := LineSpan(src, 2, 4)
	if got := MatchLines(regexp.MustCompile(`[bd]`), text, 2); !slices.Equal(got, []int{2, 4}) {
		t.Errorf("MatchLines = %v, want [2 4]", got)
	}
}

func TestParseRef(t *testing.T) {
	tests := []struct {
		in   string
		want Ref
	}{
		{"k8s.io/kubernetes/pkg/controller/deployment.DeploymentController.getNewReplicaSet",
			Ref{Alternates: []string{"k8s.io/kubernetes/pkg/controller/deployment.DeploymentController.getNewReplicaSet"}}},
		{"  fmt.Println  ", Ref{Alternates: []string{"fmt.Println"}}},
		{"k8s.io/kubernetes/pkg/scheduler.Scheduler.ScheduleOne | .Scheduler.scheduleOne",
			Ref{Alternates: []string{"k8s.io/kubernetes/pkg/scheduler.Scheduler.ScheduleOne", "k8s.io/kubernetes/pkg/scheduler.Scheduler.scheduleOne"}}},
		{"a/b.X|.Y|c/d.Z", Ref{Alternates: []string{"a/b.X", "a/b.Y", "c/d.Z"}}},
		{`k8s.io/kubernetes/pkg/controller/deployment.DeploymentController.getNewReplicaSet /ReplicaSets\(.*\)\.Create/`,
			Ref{Alternates: []string{"k8s.io/kubernetes/pkg/controller/deployment.DeploymentController.getNewReplicaSet"}, Lines: `ReplicaSets\(.*\)\.Create`}},
		{"a/b.X | .Y /a / b/", Ref{Alternates: []string{"a/b.X", "a/b.Y"}, Lines: "a / b"}},
		// A "|" inside the regexp separates no alternates.
		{"k8s.io/x/p.T.M | .T.m /a|b c/", Ref{Alternates: []string{"k8s.io/x/p.T.M", "k8s.io/x/p.T.m"}, Lines: "a|b c"}},
		// Syntactic split: analyzer.Result.Resolve corrects the relative alternate.
		{"gopkg.in/yaml.v3.Marshal | .Unmarshal", Ref{Alternates: []string{"gopkg.in/yaml.v3.Marshal", "gopkg.in/yaml.Unmarshal"}}},
	}
	for _, tt := range tests {
		got, err := ParseRef(tt.in)
		if err != nil {
			t.Errorf("ParseRef(%q): %v", tt.in, err)
			continue
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ParseRef(%q) = %#v, want %#v", tt.in, got, tt.want)
		}
	}
	bad := []string{
		"", "   ", "fmt", "k8s.io/kubernetes/pkg/controller", ".Relative.First", "a/b.X | ", "a/b.X || a/b.Y",
		"a/b.X /unterminated", "a/b.X /(/", "a/b.X //", "a/b.1X", "a/b.X.Y-Z", "a/b.X extra", "/re/",
	}
	for _, in := range bad {
		if ref, err := ParseRef(in); err == nil {
			t.Errorf("ParseRef(%q) = %#v, want an error", in, ref)
		}
	}
}

// FuzzParseRef checks that ParseRef never panics, and that what it accepts
// survives a round trip through Ref.String.
func FuzzParseRef(f *testing.F) {
	for _, s := range []string{
		"k8s.io/kubernetes/pkg/scheduler.Scheduler.ScheduleOne | .Scheduler.scheduleOne",
		`k8s.io/kubernetes/pkg/controller/deployment.DeploymentController.getNewReplicaSet /ReplicaSets\(.*\)\.Create/`,
		"gopkg.in/yaml.v3.Marshal",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ref, err := ParseRef(s)
		if err != nil {
			return
		}
		if len(ref.Alternates) == 0 {
			t.Fatalf("ParseRef(%q) accepted a reference without names", s)
		}
		again, err := ParseRef(ref.String())
		if err != nil {
			t.Fatalf("ParseRef(%q) = %q, which does not parse: %v", s, ref.String(), err)
		}
		if !reflect.DeepEqual(ref, again) {
			t.Fatalf("round trip of %q: %#v != %#v", s, ref, again)
		}
	})
}
