package linemap

import "testing"

func TestPrintLines(t *testing.T) {
	for _, c := range []struct{ in, from, to, want string }{
		{"pkg/x.go:12-20", "30", "38", "pkg/x.go:30-38"},
		{"x.go:12", "30", "", "x.go:30"},
		{"x.go:12", "30", "38", "x.go:30"}, // one line printed: its first
		{"pkg/x.go:12.1-14", "9", "11", "pkg/x.go:9-11"},
		{"AddFunc in f (x.go:12) → calls g", "30", "", "AddFunc in f (x.go:30) → calls g"},
		{"x.go:12 and x.go:14", "30", "", "x.go:12 and x.go:30"},
		{"see x.go:14, then", "30", "", "see x.go:14, then"},
		{"ax.go:12", "30", "", "ax.go:12"},
		{"x.go:12x", "30", "", "x.go:12x"},
		{"This code on GitHub", "30", "", "This code on GitHub"},
	} {
		if got := printLines(c.in, "x.go", c.from, c.to); got != c.want {
			t.Errorf("printLines(%q, %s-%s) = %q, want %q", c.in, c.from, c.to, got, c.want)
		}
	}
	for _, c := range []struct{ in, from, to, want string }{
		{GitHubBlob + "v1/pkg/x.go#L12-L20", "30", "38", GitHubBlob + "v1/pkg/x.go#L30-L38"},
		{GitHubBlob + "v1/pkg/x.go#L12.1", "30", "", GitHubBlob + "v1/pkg/x.go#L30"},
		{GitHubBlob + "v1/pkg/x.go#L12", "30", "38", GitHubBlob + "v1/pkg/x.go#L30"},
		{GitHubBlob + "v1/pkg/x.go", "30", "", GitHubBlob + "v1/pkg/x.go"},
	} {
		if got := ghLines(c.in, c.from, c.to); got != c.want {
			t.Errorf("ghLines(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
