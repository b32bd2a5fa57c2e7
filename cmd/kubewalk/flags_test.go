package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestEmptyTagIsAUsageError: an empty release tag used to be read as "the
// default release" and built it ("built public ()").
func TestEmptyTagIsAUsageError(t *testing.T) {
	cache := t.TempDir()
	// A checkout that does not exist: were the tag accepted, the command
	// would fail here with exit 1, offline and at once.
	nowhere := filepath.Join(t.TempDir(), "nowhere")
	for _, args := range [][]string{
		{"build", "--tag", ""},
		{"build", "--tag=", "--out", filepath.Join(t.TempDir(), "o")},
		{"build", "--tag", "v1.99.0", "--tag", " "},
		{"check", "--tag", ""},
		{"fetch", "--tag", ""},
		{"list", "handlers", "--tag", ""},
		{"explain", "--tag", ""},
		{"trace", "Deployment", "--tag", ""},
		{"serve", "--tag", ""},
		{"export", "codetour", "--out", filepath.Join(t.TempDir(), "t"), "--tag", ""},
		{"diff", "--from", "", "--to", "v1.99.0"},
		{"diff", "--from", "v1.99.0", "--to", ""},
	} {
		code, _, stderr := kw(t, append([]string{"--cache-dir", cache, "--source", nowhere}, args...)...)
		if code != exitUsage {
			t.Errorf("kubewalk %s: exit %d, want %d (stderr: %s)", strings.Join(args, " "), code, exitUsage, stderr)
			continue
		}
		if !strings.Contains(stderr, "empty release tag") || !strings.Contains(stderr, "--help") {
			t.Errorf("kubewalk %s: stderr %q, want the empty tag named and --help", strings.Join(args, " "), stderr)
		}
	}
}

// TestMistakenValuesAreUsageErrors: an empty --out or --walkthroughs, a
// negative --stall-timeout and record's --timeout of 0 or less are usage
// errors before any fetch. --out "" failed only after the fetch and the
// analysis ("site: no output directory"), --walkthroughs "" quietly meant
// no directory, --stall-timeout -1s no limit, and --timeout 0 three
// minutes.
func TestMistakenValuesAreUsageErrors(t *testing.T) {
	cache := t.TempDir()
	nowhere := filepath.Join(t.TempDir(), "nowhere") // a fetch fails with exit 1
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"build", "--out", ""}, "empty --out"},
		{[]string{"export", "codetour", "--out", " "}, "empty --out"},
		{[]string{"build", "--walkthroughs", ""}, "empty --walkthroughs"},
		{[]string{"check", "--walkthroughs", ""}, "empty --walkthroughs"},
		{[]string{"serve", "--walkthroughs", ""}, "empty --walkthroughs"},
		{[]string{"list", "handlers", "--walkthroughs", ""}, "empty --walkthroughs"},
		{[]string{"fetch", "--stall-timeout", "-1s"}, "negative --stall-timeout"},
		{[]string{"build", "--stall-timeout", "-1m"}, "negative --stall-timeout"},
		{[]string{"record", "--timeout", "0"}, "--timeout must be more than 0"},
		{[]string{"record", "--timeout", "-5s"}, "--timeout must be more than 0"},
	} {
		code, _, stderr := kw(t, append([]string{"--cache-dir", cache, "--source", nowhere}, tt.args...)...)
		if code != exitUsage || !strings.Contains(stderr, tt.want) || !strings.Contains(stderr, "--help") {
			t.Errorf("kubewalk %q: exit %d, stderr %q; want a usage error saying %q", tt.args, code, stderr, tt.want)
		}
	}
	// The values that mean something still do.
	for _, args := range [][]string{
		{"fetch", "--stall-timeout", "0"},
		{"record", "--timeout", "1s"},
	} {
		if code, _, stderr := kw(t, append([]string{"--cache-dir", cache, "--source", nowhere}, args...)...); code != exitFailure || !strings.Contains(stderr, "nowhere") {
			t.Errorf("kubewalk %q: exit %d, stderr %q; want the fetch's failure", args, code, stderr)
		}
	}
}
