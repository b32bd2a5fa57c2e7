package analyzer

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCacheFileOfAnotherKey: a valid cache file placed under another key's
// name (copied over it) is a miss, logged once and replaced; it was read as
// that key's facts (another release's, or another roots set's, which said
// "package … is not loaded").
func TestCacheFileOfAnotherKey(t *testing.T) {
	ctx := context.Background()
	cacheDir := t.TempDir()
	a := fixtureConfig(t)
	a.Dir = copyTree(t)
	a.Tag = "v1.0.0"
	b := a
	b.Tag = "v2.0.0"
	if _, _, err := AnalyzeCached(ctx, a, cacheDir); err != nil {
		t.Fatal(err)
	}
	keyA, err := cacheKey(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	keyB, err := cacheKey(ctx, b)
	if err != nil {
		t.Fatal(err)
	}
	fileA := filepath.Join(cacheDir, "analyzer-"+keyA+".bin")
	data, err := os.ReadFile(fileA)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cacheDir, "analyzer-"+keyB+".bin"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	var logged []string
	b.Logf = func(f string, args ...any) { logged = append(logged, fmt.Sprintf(f, args...)) }
	fileB := filepath.Join(cacheDir, "analyzer-"+keyB+".bin")
	res, hit, err := AnalyzeCached(ctx, b, cacheDir)
	if res == nil || hit || !errors.Is(err, ErrCacheIgnored) || !strings.Contains(err.Error(), fileB) || !strings.Contains(err.Error(), "another key") {
		t.Fatalf("hit=%v err=%v, want a miss reported with the file", hit, err)
	}
	if got := res.Facts().Tag; got != "v2.0.0" {
		t.Errorf("facts of %s, want v2.0.0's", got)
	}
	if l := strings.Join(logged, "\n"); strings.Contains(l, "another key") {
		t.Errorf("the other key was logged as well as returned: %q", l)
	}
	if res, hit, _ := AnalyzeCached(ctx, b, cacheDir); !hit || res.Facts().Tag != "v2.0.0" {
		t.Error("the file was not replaced by v2.0.0's")
	}
}

// TestCacheUnwritable: a cache that cannot be written gives the analysis
// with an error wrapping ErrCacheUnwritable, for a warning; the command
// failed after a whole analysis and threw it away.
func TestCacheUnwritable(t *testing.T) {
	ctx := context.Background()
	cfg := fixtureConfig(t)
	cfg.Dir = copyTree(t)
	// A file where the cache directory should be: refused even to root,
	// unlike a directory without write permission.
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	res, hit, err := AnalyzeCached(ctx, cfg, filepath.Join(file, "facts"))
	if !errors.Is(err, ErrCacheUnwritable) || hit {
		t.Fatalf("hit=%v err=%v, want ErrCacheUnwritable", hit, err)
	}
	if res == nil || len(res.Symbols) == 0 {
		t.Fatalf("no result beside the error: %v", res)
	}
	want, err := Analyze(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(want.Symbols) != len(res.Symbols) {
		t.Errorf("%d symbols, want %d", len(res.Symbols), len(want.Symbols))
	}
}
