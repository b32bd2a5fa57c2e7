package codehtml

import (
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var tagRE = regexp.MustCompile(`<[^>]*>`)

// checkRoundTrip fails unless removing the markup from the lines and
// unescaping them gives back the source, line for line (carriage returns
// aside), and every line is balanced.
func checkRoundTrip(t *testing.T, name string, src []byte, lines []Line) {
	t.Helper()
	want := strings.Split(strings.ReplaceAll(string(src), "\r", ""), "\n")
	if len(want) > 0 && want[len(want)-1] == "" {
		want = want[:len(want)-1]
	}
	if len(lines) != len(want) {
		t.Errorf("%s: %d lines, want %d", name, len(lines), len(want))
		return
	}
	for i, l := range lines {
		if got := html.UnescapeString(tagRE.ReplaceAllString(string(l), "")); got != want[i] {
			t.Errorf("%s:%d: text %q, want %q", name, i+1, got, want[i])
			return
		}
		checkBalanced(t, string(l))
	}
}

// The package's own sources, and the test inputs with hostile content.
func TestRoundTripOwnSources(t *testing.T) {
	files, _ := filepath.Glob("*.go")
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		checkRoundTrip(t, f, src, Go(src, synthIdents(f, src), Options{Link: benchLink(f)}))
	}
	checkRoundTrip(t, "hostile", []byte(hostileGo), Go([]byte(hostileGo), nil, Options{}))
	for _, s := range textSamples {
		checkRoundTrip(t, s.name, []byte(s.src), Text(s.name, []byte(s.src)))
	}
}

// Every benchmark file of the Kubernetes tree, when KUBEWALK_BENCH_TREE is set.
func TestRoundTripKubernetes(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	for _, f := range benchFiles(t) {
		checkRoundTrip(t, f.path, f.src, Go(f.src, f.idents, Options{Link: benchLink(f.path)}))
	}
}
