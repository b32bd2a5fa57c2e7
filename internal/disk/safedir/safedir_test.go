package safedir

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestLockDirExcludes(t *testing.T) {
	dir := t.TempDir()
	l, err := TryLockDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	// Another descriptor, as another process would hold.
	if _, err := TryLockDir(dir); !errors.Is(err, ErrLocked) {
		t.Fatalf("second lock: %v, want ErrLocked", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := LockDir(ctx, dir); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("waiting lock: %v, want the context's end", err)
	}
	go func() { time.Sleep(20 * time.Millisecond); l.Unlock() }()
	l2, err := LockDir(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	l2.Unlock()
	l2.Unlock() // twice: nothing
}

// TestLockFileFollowsNoLink: a link planted at a lock file's name is
// refused, and the file it points at is not created.
func TestLockFileFollowsNoLink(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(dir, "victim")
	link := filepath.Join(dir, "x.lock")
	if err := os.Symlink(victim, link); err != nil {
		t.Fatal(err)
	}
	if _, err := TryLockFile(link); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Fatalf("got %v, want a refusal naming the link", err)
	}
	if _, err := os.Lstat(victim); err == nil {
		t.Error("the link's target was created")
	}
	pipe := filepath.Join(dir, "p.lock")
	if err := syscall.Mkfifo(pipe, 0o600); err != nil {
		t.Skip(err)
	}
	done := make(chan error, 1)
	go func() { _, err := TryLockFile(pipe); done <- err }()
	select {
	case err := <-done:
		if err == nil {
			t.Error("a pipe was taken for a lock file")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("opening a pipe as a lock file waited for a writer")
	}
	l, err := TryLockFile(filepath.Join(dir, "ok.lock"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := TryLockFile(filepath.Join(dir, "ok.lock")); !errors.Is(err, ErrLocked) {
		t.Errorf("second lock: %v", err)
	}
	l.Unlock()
	if fi, err := os.Stat(filepath.Join(dir, "ok.lock")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("lock file: %v %v", fi, err)
	}
}

func TestExchange(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	os.MkdirAll(filepath.Join(a, "in-a"), 0o755)
	os.MkdirAll(filepath.Join(b, "in-b"), 0o755)
	err := Exchange(a, b)
	if errors.Is(err, errors.ErrUnsupported) {
		t.Skipf("no exchange here: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(a, "in-b")); err != nil {
		t.Error("a does not hold b's content")
	}
	if _, err := os.Stat(filepath.Join(b, "in-a")); err != nil {
		t.Error("b does not hold a's content")
	}
	if err := Exchange(a, filepath.Join(dir, "missing")); err == nil {
		t.Error("exchange with a missing path succeeded")
	}
}

func TestSweep(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"x.tmp-1", "x.tmp-2", "x.tmp-3", "y.tmp-4"} {
		os.MkdirAll(filepath.Join(dir, d, "sub"), 0o755)
	}
	os.Chmod(filepath.Join(dir, "x.tmp-2", "sub"), 0o500)
	os.WriteFile(filepath.Join(dir, "x.tmp-file"), nil, 0o644)
	os.Symlink(filepath.Join(dir, "y.tmp-4"), filepath.Join(dir, "x.tmp-link"))
	l, err := TryLockDir(filepath.Join(dir, "x.tmp-3"))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Unlock()
	removed, err := Sweep(dir, "x.tmp-*")
	if err != nil {
		t.Fatal(err)
	}
	if len(removed) != 2 {
		t.Errorf("removed %v", removed)
	}
	ents, _ := os.ReadDir(dir)
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	if want := []string{"x.tmp-3", "x.tmp-file", "x.tmp-link", "y.tmp-4"}; !slices.Equal(names, want) {
		t.Errorf("left %v, want %v", names, want)
	}
}

func TestSyncTree(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "a", "b"), 0o755)
	os.WriteFile(filepath.Join(dir, "a", "b", "f"), []byte("x"), 0o644)
	os.Symlink("nowhere", filepath.Join(dir, "dangling"))
	if err := SyncTree(dir); err != nil {
		t.Fatal(err)
	}
	if err := SyncTree(filepath.Join(dir, "missing")); err == nil {
		t.Error("a missing tree synced")
	}
}
