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
