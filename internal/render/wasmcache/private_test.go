//go:build unix

package wasmcache

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMain gives the tests the caller's TMPDIR back, as internal/render/diagram
// does for kubewalk: without it t.TempDir would be inside the user's
// private cache.
func TestMain(m *testing.M) {
	Restore()
	os.Exit(m.Run())
}

// prepareCases are directories prepare must accept or refuse, each made
// under a fresh directory of mode 0700.
var prepareCases = []struct {
	name string
	// setup prepares base (a fresh directory, mode 0700) and returns
	// the directory to give prepare.
	setup func(t *testing.T, base string) string
	// want is "" when the directory must be accepted, else a part
	// of the error.
	want     string
	rootOnly bool
}{
	{
		name:  "created",
		setup: func(t *testing.T, base string) string { return filepath.Join(base, "a", "b", "graphviz") },
	},
	{name: "existing 0700", setup: existing(0o700)},
	{
		// What an attacker leaves for a later run: a directory
		// anyone may fill.
		name:  "existing 0777",
		setup: existing(0o777),
		want:  "has mode 0777, not 0700",
	},
	{name: "existing 0755", setup: existing(0o755), want: "has mode 0755, not 0700"},
	{
		name: "symbolic link",
		setup: func(t *testing.T, base string) string {
			mkdir(t, filepath.Join(base, "elsewhere"), 0o700)
			symlink(t, "elsewhere", filepath.Join(base, "graphviz"))
			return filepath.Join(base, "graphviz")
		},
		want: "is a symbolic link",
	},
	{
		name: "file",
		setup: func(t *testing.T, base string) string {
			if err := os.WriteFile(filepath.Join(base, "graphviz"), nil, 0o600); err != nil {
				t.Fatal(err)
			}
			return filepath.Join(base, "graphviz")
		},
		want: "is not a directory",
	},
	{name: "parent writable by others", setup: under("shared", 0o777), want: "is writable by others (mode 0777)"},
	{name: "parent writable by its group", setup: under("group", 0o770), want: "is writable by others (mode 0770)"},
	{
		// As XDG_CACHE_HOME=/tmp would be: others cannot rename or
		// remove what is ours in a sticky directory.
		name:  "parent sticky",
		setup: under("sticky", 0o777|os.ModeSticky),
	},
	{
		// A link above is followed, and what it leads to is checked.
		name: "link above to a shared directory",
		setup: func(t *testing.T, base string) string {
			mkdir(t, filepath.Join(base, "shared"), 0o777)
			symlink(t, "shared", filepath.Join(base, "cache"))
			return filepath.Join(base, "cache", "graphviz")
		},
		want: "shared is writable by others",
	},
	{
		name: "someone else's",
		setup: func(t *testing.T, base string) string {
			p := filepath.Join(base, "graphviz")
			mkdir(t, p, 0o700)
			chown(t, p, 65534)
			return p
		},
		want:     "belongs to uid 65534, not",
		rootOnly: true,
	},
	{
		// As a home directory is when sudo keeps the user's HOME for
		// root: the user could swap what root is about to map.
		name: "parent someone else's",
		setup: func(t *testing.T, base string) string {
			p := filepath.Join(base, "home")
			mkdir(t, p, 0o755)
			chown(t, p, 65534)
			return filepath.Join(p, "graphviz")
		},
		want:     "belongs to uid 65534, neither",
		rootOnly: true,
	},
}

// TestPrepare checks that prepare accepts a directory only we can write
// into, and refuses one that others could fill or swap (prepareCases).
func TestPrepare(t *testing.T) {
	root := os.Geteuid() == 0
	for _, tc := range prepareCases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.rootOnly && !root {
				t.Skip("needs root to give a file away")
			}
			base := t.TempDir()
			d := tc.setup(t, base)
			got, err := prepare(d)
			if tc.want != "" {
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("prepare(%s) = %q, %v; want an error containing %q", d, got, err, tc.want)
				}
				return
			}
			if err != nil {
				t.Fatalf("prepare(%s): %v", d, err)
			}
			checkAccepted(t, d, got)
		})
	}
}

// existing is a setup that makes base/graphviz with mode and asks for it.
func existing(mode os.FileMode) func(t *testing.T, base string) string {
	return func(t *testing.T, base string) string {
		mkdir(t, filepath.Join(base, "graphviz"), mode)
		return filepath.Join(base, "graphviz")
	}
}

// under is a setup that makes base/parent with mode and asks for
// base/parent/graphviz, which does not exist yet.
func under(parent string, mode os.FileMode) func(t *testing.T, base string) string {
	return func(t *testing.T, base string) string {
		mkdir(t, filepath.Join(base, parent), mode)
		return filepath.Join(base, parent, "graphviz")
	}
}

// checkAccepted checks what prepare(d) returned when it accepted d: d
// with its links followed, a directory of mode 0700.
func checkAccepted(t *testing.T, d, got string) {
	t.Helper()
	want, err := filepath.EvalSymlinks(d)
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Errorf("prepare(%s) = %s, want %s", d, got, want)
	}
	fi, err := os.Lstat(got)
	if err != nil {
		t.Fatal(err)
	}
	if !fi.IsDir() || fi.Mode().Perm() != 0o700 {
		t.Errorf("%s: mode %v, want a directory of mode 0700", got, fi.Mode())
	}
}

// TestNoCache checks what setup relies on when it refuses: under noCache
// the os.Stat and os.Mkdir of go-graphviz's getCompilationCache both fail.
func TestNoCache(t *testing.T) {
	p := filepath.Join(noCache, "go-graphviz")
	if _, err := os.Stat(p); err == nil {
		t.Fatalf("os.Stat(%s) succeeded", p)
	}
	if err := os.Mkdir(p, 0o755); err == nil {
		os.Remove(p)
		t.Fatalf("os.Mkdir(%s) succeeded", p)
	}
}

func mkdir(t *testing.T, p string, mode os.FileMode) {
	t.Helper()
	if err := os.Mkdir(p, 0o700); err != nil {
		t.Fatal(err)
	}
	// Chmod, not Mkdir's mode, which the umask would trim.
	if err := os.Chmod(p, mode); err != nil {
		t.Fatal(err)
	}
}

func symlink(t *testing.T, target, p string) {
	t.Helper()
	if err := os.Symlink(target, p); err != nil {
		t.Fatal(err)
	}
}

func chown(t *testing.T, p string, uid int) {
	t.Helper()
	if err := os.Chown(p, uid, -1); err != nil {
		t.Fatal(err)
	}
}
