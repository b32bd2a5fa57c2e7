package source

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// stallLimit is the StallTimeout of these tests.
const stallLimit = time.Second

// silentServer accepts connections and never answers: a server stuck
// before its first byte.
func silentServer(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var conns []net.Conn
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			conns = append(conns, c) // held open, never written
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		<-done
		for _, c := range conns {
			c.Close()
		}
	})
	return ln.Addr().String()
}

// fetchStalls runs Fetch and checks it ends soon after the limit with a
// one-line ErrStalled that names where, the limit and what to do, and
// leaves no tree.
func fetchStalls(t *testing.T, opts Options, backend string, words ...string) {
	t.Helper()
	start := time.Now()
	_, err := Fetch(context.Background(), opts)
	took := time.Since(start)
	if !errors.Is(err, ErrStalled) || !errors.Is(err, ErrUnreachable) {
		t.Fatalf("after %s: %v, want %q", took, err, ErrStalled)
	}
	assertOneLine(t, err, append(words, "stopped sending for 1s", "--stall-timeout")...)
	if took > 20*stallLimit {
		t.Errorf("took %s with a limit of %s", took, stallLimit)
	}
	assertNoTree(t, opts.CacheDir, backend, opts.Tag)
}

// TestGitRemoteStalls: a git remote that accepts and never answers, or
// sends a few bytes of the ref advertisement or of the pack and stops,
// without closing the connection, held the fetch for as long as the
// connection lived. It ends now after StallTimeout without data, and the
// same cache fetches once the server is healthy.
func TestGitRemoteStalls(t *testing.T) {
	const tag = "v1.31.0"
	t.Run("accepts and never answers", func(t *testing.T) {
		repo := "http://" + silentServer(t) + "/kubernetes.git"
		opts := Options{Tag: tag, Source: "git", Repo: repo, CacheDir: t.TempDir(), Logger: testLogger(t), StallTimeout: stallLimit}
		fetchStalls(t, opts, "git", "git remote "+repo)
	})
	srv := startGitServer(t)
	srv.setStall(true)
	for _, tc := range []struct {
		name  string
		kind  string
		after int64
	}{
		{"a few bytes of the ref advertisement", "refs", 10},
		{"a few bytes of the pack", "git-upload-pack", 100},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv.setCut(func(r *http.Request) int64 {
				if requestKind(r) == tc.kind {
					return tc.after
				}
				return -1
			})
			defer srv.setCut(nil)
			opts := Options{Tag: tag, Source: "git", Repo: srv.URL, CacheDir: t.TempDir(), Logger: testLogger(t), StallTimeout: stallLimit}
			fetchStalls(t, opts, "git", "git remote "+srv.URL)
			srv.setCut(nil)
			if _, err := Fetch(context.Background(), opts); err != nil {
				t.Fatalf("healthy server: %v", err)
			}
		})
	}
}

// stallingProxy serves the fixture proxy over HTTP, and stops sending,
// without closing the connection, after after bytes of each response
// whose path ends in suffix.
func stallingProxy(t *testing.T, suffix string, after int) string {
	t.Helper()
	files := http.FileServer(http.Dir(fx.proxy))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasSuffix(r.URL.Path, suffix) {
			files.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		files.ServeHTTP(rec, r)
		w.Header().Set("Content-Length", rec.Header().Get("Content-Length"))
		w.WriteHeader(rec.Code)
		io.CopyN(w, rec.Body, int64(after))
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestProxyStalls: the same for a module proxy: one that accepts and
// never answers, and one that stops part-way through a module zip.
func TestProxyStalls(t *testing.T) {
	const tag = "v1.31.0"
	for _, tc := range []struct {
		name  string
		proxy func(t *testing.T) string
	}{
		{"accepts and never answers", func(t *testing.T) string { return "http://" + silentServer(t) }},
		{"stops part-way through a zip", func(t *testing.T) string { return stallingProxy(t, ".zip", 100) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cache := t.TempDir()
			opts := proxyOptions(t, cache, tag)
			opts.Env = append(opts.Env, "GOPROXY="+tc.proxy(t))
			opts.StallTimeout = stallLimit
			fetchStalls(t, opts, "goproxy", "module proxy")
		})
	}
	// Healthy over HTTP, through the same watch.
	cache := t.TempDir()
	opts := proxyOptions(t, cache, tag)
	opts.Env = append(opts.Env, "GOPROXY="+stallingProxy(t, ".none", 0))
	opts.StallTimeout = stallLimit
	tree, err := Fetch(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := filepath.Rel(cache, tree.Dir); err != nil {
		t.Error(err)
	}
}
