package main

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/kubewalk/kubewalk/walkthrough"
)

func TestIsLoopback(t *testing.T) {
	for host, want := range map[string]bool{"127.0.0.1": true, "localhost": true, "::1": true, "127.0.0.2": true, "": false, "0.0.0.0": false, "192.168.1.2": false, "example.com": false} {
		if got := isLoopback(host); got != want {
			t.Errorf("isLoopback(%q) = %v", host, got)
		}
	}
}

// TestServeHashesWatchedDirWithoutWaiting: at each rebuild serve reads
// every file of the watched directory (to see which sets changed); a
// named pipe there made that read wait for a writer for ever, and Ctrl-C
// with it. The sets serve builds from refuse the pipe at once, and still
// load the walkthroughs beside it.
func TestServeHashesWatchedDirWithoutWaiting(t *testing.T) {
	dir := t.TempDir()
	md := "---\ntitle: Mine\n---\n\n## A step\n\nText.\n"
	if err := os.WriteFile(filepath.Join(dir, "mine.md"), []byte(md), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"notes.txt", "pipe.md"} {
		p := filepath.Join(dir, name)
		if err := syscall.Mkfifo(p, 0o644); err != nil {
			t.Skip(err)
		}
		// Opened for writing at the end, which frees a reader stuck in open.
		t.Cleanup(func() {
			if f, err := os.OpenFile(p, os.O_RDWR, 0); err == nil {
				f.Close()
			}
		})
	}
	sets, err := watchedSets(dir, true)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		set := sets[len(sets)-1]
		ents, err := fs.ReadDir(set.FS, set.Dir)
		if err != nil {
			t.Error(err)
			return
		}
		for _, e := range ents {
			_, err := fs.ReadFile(set.FS, e.Name())
			if (e.Name() == "mine.md") != (err == nil) {
				t.Errorf("%s: %v", e.Name(), err)
			}
		}
		docs, err := walkthrough.Load(set.FS, set.Dir, "en", walkthrough.Options{})
		if len(docs) != 1 || !errors.Is(err, walkthrough.ErrNotRegular) {
			t.Errorf("Load: %d docs, %v", len(docs), err)
		}
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("reading the watched directory waits on a named pipe")
	}
}
