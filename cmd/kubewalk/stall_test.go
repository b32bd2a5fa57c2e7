package main

import (
	"net"
	"strings"
	"testing"
	"time"
)

// TestFetchStallTimeout: kubewalk fetch from a git remote that accepts
// and never answers ends after --stall-timeout with an error that names
// the remote, the limit and the flag (exit 1).
func TestFetchStallTimeout(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		var held []net.Conn
		for {
			c, err := ln.Accept()
			if err != nil {
				for _, c := range held {
					c.Close()
				}
				return
			}
			held = append(held, c)
		}
	}()
	repo := "http://" + ln.Addr().String() + "/kubernetes.git"
	start := time.Now()
	code, _, stderr := kw(t, "--cache-dir", t.TempDir(), "fetch", "--source", "git", "--repo", repo, "--tag", "v1.31.0", "--stall-timeout", "1s")
	if took := time.Since(start); took > 20*time.Second {
		t.Errorf("took %s", took)
	}
	if code != exitFailure || !strings.Contains(stderr, "stopped sending for 1s") || !strings.Contains(stderr, repo) || !strings.Contains(stderr, "--stall-timeout") {
		t.Errorf("exit %d: %s", code, stderr)
	}
}

func TestStallTimeoutFlag(t *testing.T) {
	for args, want := range map[string]time.Duration{"": time.Minute, "--stall-timeout=0": -1, "--stall-timeout=90s": 90 * time.Second} {
		var sf sourceFlags
		root := newRootCmd(strings.NewReader(""), &strings.Builder{}, &strings.Builder{})
		fs := root.Flags()
		sf.register(fs)
		if args != "" {
			if err := fs.Parse([]string{args}); err != nil {
				t.Fatal(err)
			}
		}
		if got := sf.options(&globals{}, "v1.31.0").StallTimeout; got != want {
			t.Errorf("%q: StallTimeout %s, want %s", args, got, want)
		}
	}
}
