package source

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A fetched tree carries a manifest. A file flipped in place is found by
// Verify, not by the load's size check; a file truncated, removed or added
// is found on load, and the tree is fetched again, whole.
func TestManifest(t *testing.T) {
	const tag = "v1.31.0"
	for _, tc := range []struct {
		name    string
		damage  func(t *testing.T, dir string)
		refetch bool   // the load's size check finds it
		verify  string // what Verify says, when the load does not refetch
	}{
		{"a byte flipped", func(t *testing.T, dir string) {
			p := filepath.Join(dir, "go.mod")
			b, _ := os.ReadFile(p)
			b[0] ^= 0x20
			os.WriteFile(p, b, 0o644)
		}, false, "go.mod: content changed"},
		{"a file truncated", func(t *testing.T, dir string) {
			os.WriteFile(filepath.Join(dir, "go.mod"), nil, 0o644)
		}, true, ""},
		{"a file removed", func(t *testing.T, dir string) {
			os.Remove(filepath.Join(dir, "README.md"))
		}, true, ""},
		{"a file added", func(t *testing.T, dir string) {
			os.WriteFile(filepath.Join(dir, "pkg", "planted.go"), []byte("package pkg\n"), 0o644)
		}, true, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cache := t.TempDir()
			tree, err := Fetch(context.Background(), gitOptions(t, cache, tag))
			if err != nil {
				t.Fatal(err)
			}
			if bad, err := tree.Verify(); err != nil || len(bad) > 0 {
				t.Fatalf("a fresh tree: %v, %v", bad, err)
			}
			os.MkdirAll(filepath.Join(tree.Dir, "pkg"), 0o755)
			tc.damage(t, tree.Dir)
			again, err := Fetch(context.Background(), gitOptions(t, cache, tag))
			if err != nil {
				t.Fatal(err)
			}
			bad, err := again.Verify()
			if err != nil {
				t.Fatal(err)
			}
			if tc.refetch {
				if len(bad) > 0 {
					t.Errorf("the damaged tree was not fetched again: %v", bad)
				}
				return
			}
			if len(bad) != 1 || bad[0] != tc.verify {
				t.Errorf("Verify = %q, want [%q]", bad, tc.verify)
			}
		})
	}
}

// A checkout given as the source has no manifest: Verify says so.
func TestVerifyCheckout(t *testing.T) {
	tree := &Tree{Dir: t.TempDir(), Backend: backendDir}
	if _, err := tree.Verify(); !errors.Is(err, ErrNoManifest) || !strings.Contains(err.Error(), "checkout") {
		t.Errorf("err = %v", err)
	}
}
