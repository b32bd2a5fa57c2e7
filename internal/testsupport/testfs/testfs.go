// Package testfs gives tests a small file system to fill, for the
// disk-full faults (a fetch or a site build that runs out of space must
// fail cleanly, leaving no half-written cache or site); and Tree, to
// compare what two builds wrote. It is imported by tests only.
package testfs

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// Small mounts a tmpfs of size bytes at a new directory and returns it,
// unmounted when the test ends. It needs root and CAP_SYS_ADMIN (CI runs
// as root); elsewhere the test is skipped with the reason.
func Small(t testing.TB, size int64) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("mounting a size-limited tmpfs needs root")
	}
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, fmt.Sprintf("size=%d", size)); err != nil {
		t.Skipf("cannot mount a size-limited tmpfs (%v): the disk-full tests need root and CAP_SYS_ADMIN", err)
	}
	t.Cleanup(func() {
		if err := syscall.Unmount(dir, 0); err != nil {
			t.Errorf("unmount %s: %v", dir, err)
		}
	})
	return dir
}

// Fill writes a file in dir until the file system is full, then frees
// keep bytes of it, and returns the file's path (remove it to free the
// space).
func Fill(t testing.TB, dir string, keep int64) string {
	t.Helper()
	name := filepath.Join(dir, "filler")
	f, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	block := make([]byte, 4096)
	var n int64
	for {
		w, err := f.Write(block)
		n += int64(w)
		if errors.Is(err, syscall.ENOSPC) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if keep > 0 {
		if err := f.Truncate(max(0, n-keep)); err != nil {
			t.Fatal(err)
		}
	}
	return name
}
