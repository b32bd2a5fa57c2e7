package source

import (
	"archive/zip"
	"bytes"
	"crypto/rand"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/cgi"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"golang.org/x/mod/module"
	"golang.org/x/mod/sumdb"
	"golang.org/x/mod/sumdb/dirhash"
	"golang.org/x/mod/sumdb/note"
)

// Helpers for fault_test.go: a git smart-HTTP server that can cut its
// responses short, copies of the fixture proxy to damage, a checksum
// database, and a small file system that fills up.

// gitServer serves the fixture repository over git's smart-HTTP protocol
// (git http-backend through net/http/cgi) on loopback. cut, when set,
// returns how many bytes of a response may be sent before the connection
// is dropped (-1: all of them).
type gitServer struct {
	URL string // the repository's URL

	mu    sync.Mutex
	cut   func(r *http.Request) int64
	stall bool             // at the cut, stop sending and keep the connection open
	sizes map[string]int64 // request kind → bytes of its last full response
}

// requestKind names a smart-HTTP request: "refs" for the ref
// advertisement, "upload-pack" for the pack negotiation and the pack.
func requestKind(r *http.Request) string {
	if strings.HasSuffix(r.URL.Path, "/info/refs") {
		return "refs"
	}
	return strings.TrimPrefix(r.URL.Path[strings.LastIndex(r.URL.Path, "/"):], "/")
}

func startGitServer(t *testing.T) *gitServer {
	t.Helper()
	gitBin, err := exec.LookPath("git")
	if err != nil {
		t.Skip("needs git for git http-backend:", err)
	}
	execPath, err := exec.Command(gitBin, "--exec-path").Output()
	if err != nil {
		t.Skip("git --exec-path:", err)
	}
	backend := filepath.Join(strings.TrimSpace(string(execPath)), "git-http-backend")
	if _, err := os.Stat(backend); err != nil {
		t.Skip("needs git-http-backend:", err)
	}
	root := t.TempDir()
	if out, err := exec.Command(gitBin, "clone", "--quiet", "--bare", fx.repo, filepath.Join(root, "kubernetes.git")).CombinedOutput(); err != nil {
		t.Fatalf("git clone --bare: %v\n%s", err, out)
	}
	s := &gitServer{sizes: map[string]int64{}}
	h := &cgi.Handler{
		Path: backend,
		Env:  []string{"GIT_PROJECT_ROOT=" + root, "GIT_HTTP_EXPORT_ALL=1", "HOME=" + root},
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		limit := int64(-1)
		if s.cut != nil {
			limit = s.cut(r)
		}
		var stall <-chan struct{}
		if s.stall {
			stall = r.Context().Done()
		}
		s.mu.Unlock()
		cw := &cutWriter{ResponseWriter: w, limit: limit, stall: stall}
		h.ServeHTTP(cw, r)
		s.mu.Lock()
		s.sizes[requestKind(r)] = cw.n
		s.mu.Unlock()
	}))
	t.Cleanup(srv.Close)
	s.URL = srv.URL + "/kubernetes.git"
	return s
}

func (s *gitServer) setCut(cut func(r *http.Request) int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cut = cut
}

func (s *gitServer) setStall(stall bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stall = stall
}

func (s *gitServer) size(kind string) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sizes[kind]
}

// cutWriter passes limit bytes of the body through, then drops the
// connection (http.ErrAbortHandler makes the server close it without
// finishing the chunked body, as a dying server or network would) — or,
// with stall set, sends nothing more until the client gives up.
type cutWriter struct {
	http.ResponseWriter
	limit, n int64
	stall    <-chan struct{} // the request's Done, or nil
}

func (w *cutWriter) Write(p []byte) (int, error) {
	if w.limit >= 0 && w.n+int64(len(p)) > w.limit {
		keep := w.limit - w.n
		w.ResponseWriter.Write(p[:keep])
		w.n += keep
		if f, ok := w.ResponseWriter.(http.Flusher); ok {
			f.Flush()
		}
		if w.stall != nil {
			<-w.stall
		}
		panic(http.ErrAbortHandler)
	}
	n, err := w.ResponseWriter.Write(p)
	w.n += int64(n)
	return n, err
}

func (w *cutWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// copyProxy copies the fixture proxy into a directory of the test's own,
// to be damaged, and returns it.
func copyProxy(t *testing.T) string {
	t.Helper()
	dst := t.TempDir()
	if err := os.CopyFS(dst, os.DirFS(fx.proxy)); err != nil {
		t.Fatal(err)
	}
	return dst
}

// proxyFile is the path of a file of module path@version in a proxy
// directory: ext is ".zip", ".mod" or ".info".
func proxyFile(t *testing.T, proxy, path, version, ext string) string {
	t.Helper()
	esc, err := module.EscapePath(path)
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(proxy, filepath.FromSlash(esc), "@v", version+ext)
}

// proxyOptionsAt is proxyOptions with GOPROXY pointing at proxy and env
// appended (later entries win in the go command's environment).
func proxyOptionsAt(t *testing.T, cache, tag, proxy string, env ...string) Options {
	opts := proxyOptions(t, cache, tag)
	opts.Env = append(opts.Env, "GOPROXY=file://"+filepath.ToSlash(proxy))
	opts.Env = append(opts.Env, env...)
	return opts
}

// rewriteZip rewrites the module zip at file, passing each entry's content
// through edit (which returns it unchanged for entries it leaves alone).
// The result is a well-formed module zip with other content.
func rewriteZip(t *testing.T, file string, edit func(name string, data []byte) []byte) {
	t.Helper()
	zr, err := zip.OpenReader(file)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range zr.File {
		r, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(r)
		r.Close()
		if err != nil {
			t.Fatal(err)
		}
		w, err := zw.Create(f.Name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(edit(f.Name, data))
	}
	zr.Close()
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// startSumDB serves a checksum database on loopback that vouches for every
// module in proxy as it is now (the go command's go.sum lines: h1: of the
// zip and of the go.mod), and returns the GOSUMDB value naming it. Modules
// damaged in proxy afterwards no longer match it.
func startSumDB(t *testing.T, proxy string) string {
	t.Helper()
	sums := map[string]string{}
	err := filepath.WalkDir(proxy, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !strings.HasSuffix(p, ".zip") {
			return err
		}
		rel, _ := filepath.Rel(proxy, p)
		escPath, file, _ := strings.Cut(filepath.ToSlash(rel), "/@v/")
		path, err := module.UnescapePath(escPath)
		if err != nil {
			return err
		}
		version := strings.TrimSuffix(file, ".zip")
		zh, err := dirhash.HashZip(p, dirhash.Hash1)
		if err != nil {
			return err
		}
		mod := strings.TrimSuffix(p, ".zip") + ".mod"
		mh, err := dirhash.Hash1([]string{"go.mod"}, func(string) (io.ReadCloser, error) { return os.Open(mod) })
		if err != nil {
			return err
		}
		sums[path+"@"+version] = fmt.Sprintf("%s %s %s\n%s %s/go.mod %s\n", path, version, zh, path, version, mh)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	skey, vkey, err := note.GenerateKey(rand.Reader, "sum.kubewalk.test")
	if err != nil {
		t.Fatal(err)
	}
	db := sumdb.NewTestServer(skey, func(path, version string) ([]byte, error) {
		s, ok := sums[path+"@"+version]
		if !ok {
			return nil, fmt.Errorf("%s@%s: not found", path, version)
		}
		return []byte(s), nil
	})
	srv := httptest.NewServer(sumdb.NewServer(db))
	t.Cleanup(srv.Close)
	return vkey + " " + srv.URL
}

// sumDBEnv turns checksum verification on against gosumdb for k8s.io
// (proxyEnv turns it off).
// GOPATH is the test's own: the go command keeps the newest signed tree
// of each checksum database it has used in GOPATH/pkg/sumdb/<name>, and
// every test's database has a new key under the same name.
func sumDBEnv(t *testing.T, gosumdb string) []string {
	return []string{"GOPATH=" + t.TempDir(), "GOSUMDB=" + gosumdb, "GONOSUMDB=", "GONOSUMCHECK=", "GOPRIVATE=", "GOINSECURE=", "GOFLAGS=-mod=mod"}
}

// assertNoTree checks that a failed fetch left nothing that looks like a
// tree, and no temporary directories.
func assertNoTree(t *testing.T, cache, backend, tag string) {
	t.Helper()
	final := filepath.Join(cache, "trees", backend, tag)
	if _, err := loadTree(final, backend, tag); err == nil {
		t.Errorf("a failed fetch left a tree that looks complete: %s", final)
	}
	if _, err := os.Stat(final); err == nil {
		t.Errorf("a failed fetch left %s", final)
	}
	assertNoLeftovers(t, cache)
}

// assertOneLine checks that err is a one-line message holding each of words.
func assertOneLine(t *testing.T, err error, words ...string) {
	t.Helper()
	if err == nil {
		t.Fatal("no error")
	}
	msg := err.Error()
	t.Logf("error: %s", msg)
	if strings.Contains(msg, "\n") {
		t.Errorf("message is more than one line:\n%s", msg)
	}
	for _, w := range words {
		if !strings.Contains(msg, w) {
			t.Errorf("message lacks %q", w)
		}
	}
}
