package publish

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestAtomically: a tree written beside out replaces the one there, its
// marker listing its files, and leaves nothing beside it; a file the
// site there does not list stops the next publish, which leaves out as
// it was; a directory kubewalk did not write is not a site.
func TestAtomically(t *testing.T) {
	out := filepath.Join(t.TempDir(), "public")
	write := func(files ...string) func(dir string) (int, error) {
		return func(dir string) (int, error) {
			for _, f := range files {
				if err := os.WriteFile(filepath.Join(dir, f), []byte(f), 0o644); err != nil {
					return 0, err
				}
			}
			return len(files), nil
		}
	}
	if n, err := Atomically(out, write("a.html")); err != nil || n != 1 {
		t.Fatalf("first publish: %d, %v", n, err)
	}
	if _, err := Atomically(out, write("b.html", "c.html")); err != nil {
		t.Fatal(err)
	}
	marker, err := os.ReadFile(filepath.Join(out, Marker))
	if want := MarkerHeader + "b.html\nc.html\n"; err != nil || string(marker) != want {
		t.Errorf("marker %q (%v), want %q", marker, err, want)
	}
	if _, err := os.Stat(filepath.Join(out, "a.html")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the first tree's a.html is still there: %v", err)
	}
	if ents, _ := os.ReadDir(filepath.Dir(out)); len(ents) != 1 {
		t.Errorf("beside out: %v", ents)
	}
	if err := os.WriteFile(filepath.Join(out, "notes.txt"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if n, err := Atomically(out, write("d.html")); !errors.Is(err, ErrForeignFiles) || n != 0 {
		t.Errorf("over a foreign file: %d, %v, want %v", n, err, ErrForeignFiles)
	}
	if _, err := os.Stat(filepath.Join(out, "b.html")); err != nil {
		t.Errorf("a refused publish changed out: %v", err)
	}
	other := t.TempDir()
	if err := os.WriteFile(filepath.Join(other, "x"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Atomically(other, write("d.html")); !errors.Is(err, ErrNotASite) {
		t.Errorf("over a directory kubewalk did not write: %v, want %v", err, ErrNotASite)
	}
}
