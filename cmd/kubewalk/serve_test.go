package main

import (
	"errors"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
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

// TestServeTakesItsAddressFirst: an --addr another program listens on, or
// whose port is not one, is an error before the release is fetched; it
// was found only after the fetch, the analysis and the first build.
func TestServeTakesItsAddressFirst(t *testing.T) {
	held, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	nowhere := filepath.Join(t.TempDir(), "nowhere") // a fetch fails with exit 1
	for _, tt := range []struct {
		addr string
		code int
		want string
	}{
		{held.Addr().String(), exitFailure, "address already in use"},
		{"127.0.0.1:99999", exitUsage, "invalid port"},
		{"127.0.0.1:http-nope", exitUsage, "unknown port"},
	} {
		code, _, stderr := kw(t, "--cache-dir", t.TempDir(), "serve", "--source", nowhere, "--addr", tt.addr)
		if code != tt.code || !strings.Contains(stderr, tt.want) || !strings.Contains(stderr, "--addr") || strings.Contains(stderr, "nowhere") {
			t.Errorf("--addr %s: exit %d, stderr %q; want exit %d saying %q before any fetch", tt.addr, code, stderr, tt.code, tt.want)
		}
	}
}
