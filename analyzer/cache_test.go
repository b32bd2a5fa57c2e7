package analyzer

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/kubewalk/kubewalk/analyzer/fact"
)

// copyTree copies testdata/resolve into a temporary directory, so tests
// can touch its files.
func copyTree(t *testing.T) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir("testdata/resolve", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel("testdata/resolve", path)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

func TestAnalyzeCached(t *testing.T) {
	ctx := context.Background()
	cfg := fixtureConfig(t)
	cfg.Dir = copyTree(t)
	cacheDir := t.TempDir()
	// A load logs its summary, "analyzer: loaded N packages …".
	var loads int
	logCfg := cfg
	logCfg.Logf = func(f string, a ...any) {
		if strings.HasPrefix(fmt.Sprintf(f, a...), "analyzer: loaded ") {
			loads++
		}
	}

	first, hit, err := AnalyzeCached(ctx, logCfg, cacheDir)
	if err != nil {
		t.Fatal(err)
	}
	if hit || loads != 1 {
		t.Fatalf("first AnalyzeCached: hit=%v, %d loads; want a miss that loads", hit, loads)
	}
	second, hit, err := AnalyzeCached(ctx, logCfg, cacheDir)
	if err != nil {
		t.Fatal(err)
	}
	if !hit {
		t.Fatal("second AnalyzeCached was a miss")
	}
	if loads != 1 {
		t.Fatal("a cache hit loaded packages")
	}
	if !reflect.DeepEqual(first.Symbols, second.Symbols) {
		t.Error("cached symbols differ")
	}
	if !reflect.DeepEqual(first.Xrefs, second.Xrefs) {
		t.Error("cached xrefs differ")
	}
	if !reflect.DeepEqual(first.Facts(), second.Facts()) {
		t.Errorf("cached facts differ:\n%+v\n%+v", first.Facts(), second.Facts())
	}
	// A cached result resolves too (it reads the tree).
	ref, _ := fact.ParseRef(`example.com/tree/ctrl.Controller.syncThing /Create/`)
	if r, err := second.Resolve(ref); err != nil || len(r.Matched) != 1 {
		t.Errorf("Resolve on a cached result = %+v, %v", r, err)
	}

	// Editing a file of the tree is a miss.
	lib := filepath.Join(cfg.Dir, "lib", "lib.go")
	later := time.Now().Add(time.Minute)
	if err := os.Chtimes(lib, later, later); err != nil {
		t.Fatal(err)
	}
	if _, hit, err := AnalyzeCached(ctx, cfg, cacheDir); err != nil || hit {
		t.Errorf("AnalyzeCached after an edit: hit=%v err=%v, want a miss", hit, err)
	}

	// A corrupt cache file is a miss, and is replaced.
	files, _ := filepath.Glob(filepath.Join(cacheDir, "analyzer-*.bin"))
	for _, f := range files {
		os.WriteFile(f, []byte(cacheMagic+"garbage"), 0o644)
	}
	if res, hit, err := AnalyzeCached(ctx, cfg, cacheDir); res == nil || hit || !errors.Is(err, ErrCacheIgnored) || !strings.Contains(err.Error(), filepath.Join(cacheDir, "analyzer-")) {
		t.Errorf("AnalyzeCached on a corrupt cache: hit=%v err=%v, want a miss reported with the file", hit, err)
	}
	if _, hit, _ := AnalyzeCached(ctx, cfg, cacheDir); !hit {
		t.Error("cache not rewritten after corruption")
	}
	if tmps, _ := filepath.Glob(filepath.Join(cacheDir, ".analyzer-*")); len(tmps) != 0 {
		t.Errorf("temporary files left behind: %v", tmps)
	}
}

func TestCacheKey(t *testing.T) {
	ctx := context.Background()
	cfg := fixtureConfig(t)
	key := func(cfg Config) string {
		k, err := cacheKey(ctx, cfg)
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	base := key(cfg)
	if base != key(cfg) {
		t.Fatal("cache key is not deterministic")
	}
	other := cfg
	other.Roots = []string{"./ctrl", "./lib"}
	if key(other) == base {
		t.Error("cache key ignores the roots")
	}
	other = cfg
	other.Roots = []string{"./lib", "./ctrl"}
	if key(other) != key(Config{Dir: cfg.Dir, Env: cfg.Env, Tag: cfg.Tag, Roots: []string{"./ctrl", "./lib"}}) {
		t.Error("cache key depends on the order of the roots")
	}
	other = cfg
	other.Tag = "v0.0.2"
	if key(other) == base {
		t.Error("cache key ignores the tag")
	}
}

// One flipped byte in a cache file — here inside a path of the symbol
// index, where the file still decodes — is a miss, reported once, and
// the file is replaced; never a hit with corrupt text.
func TestCacheChecksum(t *testing.T) {
	ctx := context.Background()
	cfg := fixtureConfig(t)
	cfg.Dir = copyTree(t)
	cacheDir := t.TempDir()
	want, _, err := AnalyzeCached(ctx, cfg, cacheDir)
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(cacheDir, "analyzer-*.bin"))
	if len(files) != 1 {
		t.Fatalf("cache files %v, want one", files)
	}
	data, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(data, []byte("ctrl/ctrl.go"))
	if i < 0 {
		t.Fatal("no path ctrl/ctrl.go in the cache file")
	}
	data[i] ^= 0x20 // "Ctrl/ctrl.go": a valid string still
	if err := os.WriteFile(files[0], data, 0o644); err != nil {
		t.Fatal(err)
	}

	var logged []string
	cfg.Logf = func(f string, a ...any) { logged = append(logged, fmt.Sprintf(f, a...)) }
	got, hit, err := AnalyzeCached(ctx, cfg, cacheDir)
	if !errors.Is(err, ErrCacheIgnored) || !strings.Contains(err.Error(), "checksum") {
		t.Fatalf("err = %v, want the checksum mismatch reported", err)
	}
	if hit {
		t.Error("a cache file with a flipped byte was a hit")
	}
	if !reflect.DeepEqual(got.Symbols, want.Symbols) {
		t.Error("symbols differ from the first analysis")
	}
	if l := strings.Join(logged, "\n"); strings.Contains(l, "checksum") {
		t.Errorf("the checksum mismatch was logged as well as returned: %q", l)
	}
	if _, hit, _ := AnalyzeCached(ctx, cfg, cacheDir); !hit {
		t.Error("the cache file was not replaced after the mismatch")
	}
}
