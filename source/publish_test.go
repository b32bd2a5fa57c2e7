package source

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kubewalk/kubewalk/internal/disk/safedir/safedirtest"
)

// TestLockFollowsNoLink: a symbolic link planted at a tree's lock file
// name made a fetch create (and lock) the file it pointed at. The fetch
// refuses it now, says what to do, and creates nothing; once the link is
// removed, the fetch succeeds and its lock file stays for the next one.
func TestLockFollowsNoLink(t *testing.T) {
	const tag = "v1.31.0"
	cache := t.TempDir()
	victim := filepath.Join(t.TempDir(), "victim")
	lock := filepath.Join(cache, "trees", "git", tag+".lock")
	if err := os.MkdirAll(filepath.Dir(lock), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, lock); err != nil {
		t.Fatal(err)
	}
	_, err := Fetch(context.Background(), gitOptions(t, cache, tag))
	if err == nil || !strings.Contains(err.Error(), "symbolic link") || !strings.Contains(err.Error(), "remove it") {
		t.Fatalf("got %v, want a refusal of the link that says to remove it", err)
	}
	if _, err := os.Lstat(victim); err == nil {
		t.Error("the fetch created the file the planted link points at")
	}
	os.Remove(lock)
	if _, err := Fetch(context.Background(), gitOptions(t, cache, tag)); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(lock); err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm() != 0o600 {
		t.Errorf("lock file after the fetch: %v %v", fi, err)
	}
	assertNoLeftovers(t, cache)
}

// TestSyncsTreeBeforePublishing: every file and directory of a fetched
// tree is fsynced before the rename that puts it in the cache (after a
// crash of the machine a tree could otherwise be in place with empty
// files in it), and the directory it is renamed into after.
func TestSyncsTreeBeforePublishing(t *testing.T) {
	const tag = "v1.31.0"
	cache := t.TempDir()
	cmd, _ := helperCmd(t, helperSpec{Tag: tag, Source: "git", Repo: fx.repo, CacheDir: cache})
	log := filepath.Join(t.TempDir(), "strace.log")
	if err := safedirtest.Wrap(t, cmd, safedirtest.TraceSyncs(log)...).Run(); err != nil {
		t.Fatal(err)
	}
	final := filepath.Join(cache, "trees", "git", tag)
	synced := safedirtest.Synced(t, log, final)
	var tmp string
	for p := range synced {
		if rest, ok := strings.CutPrefix(p, final+".tmp-"); ok {
			dir, _, _ := strings.Cut(rest, "/")
			tmp = final + ".tmp-" + dir
			break
		}
	}
	if tmp == "" {
		t.Fatal("nothing in the temporary directory was synced")
	}
	n := 0
	err := filepath.WalkDir(final, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		n++
		if rel, _ := filepath.Rel(final, p); !synced[filepath.Join(tmp, rel)] {
			t.Errorf("%s was not synced before the tree was published", rel)
		}
		return nil
	})
	if err != nil || n < 10 {
		t.Fatalf("%d files: %v", n, err)
	}
	if _, ok := synced[filepath.Dir(final)]; !ok {
		t.Error("the directory of the tree was not synced after the rename")
	}
}
