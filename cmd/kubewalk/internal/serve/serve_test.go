package serve

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// staticServer serves a hand-written site with a secret file beside it.
func staticServer(t *testing.T) (*Server, string) {
	t.Helper()
	outside := t.TempDir()
	secret := filepath.Join(outside, "secret.txt")
	if err := os.WriteFile(secret, []byte("SECRET"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := New(Options{Build: func(ctx context.Context, out string) error {
		files := map[string]string{
			"index.html":                   "<!doctype html><title>home</title><body><p>home</p></body>",
			"walkthroughs/deployment.html": "<!doctype html><body>walk</body>",
			"walkthroughs/index.html":      "<html><body>list</body></html>",
			"assets/site.css":              "body{}",
			"src/pkg/a b.go.html":          "<p>space</p>",
		}
		for name, content := range files {
			p := filepath.Join(out, filepath.FromSlash(name))
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
				return err
			}
		}
		// A symlink out of the site must not be followed.
		return os.Symlink(secret, filepath.Join(out, "link.txt"))
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if err := s.Rebuild(context.Background()); err != nil {
		t.Fatal(err)
	}
	return s, secret
}

func get(h http.Handler, target string) *httptest.ResponseRecorder {
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("GET", target, nil))
	return w
}

func TestServeFiles(t *testing.T) {
	s, _ := staticServer(t)
	for _, tc := range []struct {
		target string
		status int
		body   string
	}{
		{"/", 200, "<p>home</p>"},
		{"/index.html", 200, "<p>home</p>"},
		{"/walkthroughs/", 200, "list"},
		{"/walkthroughs/deployment.html", 200, "walk"},
		{"/assets/site.css", 200, "body{}"},
		{"/src/pkg/a%20b.go.html", 200, "space"},
		{"/walkthroughs", 301, ""},
		{"/missing.html", 404, "Not found"},
		{"/link.txt", 404, ""},
	} {
		w := get(s, tc.target)
		if w.Code != tc.status || !strings.Contains(w.Body.String(), tc.body) {
			t.Errorf("GET %s: %d %q, want %d containing %q", tc.target, w.Code, w.Body.String(), tc.status, tc.body)
		}
		if strings.Contains(w.Body.String(), "SECRET") {
			t.Errorf("GET %s leaked the file outside the site", tc.target)
		}
	}
	if loc := get(s, "/walkthroughs").Header().Get("Location"); loc != "/walkthroughs/" {
		t.Errorf("redirect to %q", loc)
	}
	// The reload script goes into served HTML, before </body>, and
	// nowhere else; the files on disk never hold it.
	home := get(s, "/").Body.String()
	if !strings.Contains(home, `<script src="/_kubewalk/reload.js" data-kubewalk-build="1"></script></body>`) {
		t.Errorf("home page: %s", home)
	}
	if css := get(s, "/assets/site.css").Body.String(); strings.Contains(css, "reload.js") {
		t.Errorf("script injected into CSS")
	}
	err := filepath.Walk(s.Dir(), func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			if b, _ := os.ReadFile(p); strings.Contains(string(b), "_kubewalk") {
				t.Errorf("%s on disk holds the reload script", p)
			}
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if w := get(s, Prefix+"reload.js"); w.Code != 200 || !strings.Contains(w.Body.String(), "EventSource") {
		t.Errorf("reload.js: %d", w.Code)
	}
	w := httptest.NewRecorder()
	s.ServeHTTP(w, httptest.NewRequest("POST", "/", nil))
	if w.Code != http.StatusMethodNotAllowed {
		t.Errorf("POST: %d", w.Code)
	}
}

// traversal are request targets that try to leave the site, as a client
// may send them on the wire.
var traversal = []string{
	"/../secret.txt",
	"/..",
	"/%2e%2e/secret.txt",
	"/%2E%2E/secret.txt",
	"/.%2e/secret.txt",
	"/%2e./secret.txt",
	"/walkthroughs/../../secret.txt",
	"/walkthroughs/%2e%2e/%2e%2e/secret.txt",
	"/..%2fsecret.txt",
	"/%2e%2e%2fsecret.txt",
	"/%252e%252e/secret.txt",
	"/%25252e%25252e/secret.txt",
	`/..\secret.txt`,
	"/%5c..%5csecret.txt",
	"/..%5csecret.txt",
	"/walkthroughs\\..\\..\\secret.txt",
	"/./index.html",
	"/%00/index.html",
	"/index.html%00.css",
}

func TestServeRefusesTraversal(t *testing.T) {
	s, _ := staticServer(t)
	for _, target := range traversal {
		w := get(s, target)
		if w.Code != http.StatusBadRequest || strings.Contains(w.Body.String(), "SECRET") {
			t.Errorf("GET %s: %d %q, want 400", target, w.Code, w.Body.String())
		}
	}
}

// TestServeRefusesTraversalOnTheWire sends the raw request lines through a
// real listener: net/http's server does not clean paths, so the handler
// sees exactly what the client sent.
func TestServeRefusesTraversalOnTheWire(t *testing.T) {
	s, _ := staticServer(t)
	ts := httptest.NewServer(s)
	defer ts.Close()
	for _, target := range append(traversal, "//../secret.txt", "/walkthroughs//../../secret.txt") {
		conn, err := net.Dial("tcp", ts.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		// This server's own Host: the path is what is refused, not the Host.
		fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n", target, ts.Listener.Addr())
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatalf("%s: %v", target, err)
		}
		b, _ := io.ReadAll(resp.Body)
		conn.Close()
		if resp.StatusCode == 200 || strings.Contains(string(b), "SECRET") {
			t.Errorf("GET %s on the wire: %d %q", target, resp.StatusCode, b)
		}
	}
}

func TestServeBuildError(t *testing.T) {
	fail := errors.New("walkthroughs/deployment.md:12:3: reference k8s.io/kubernetes/pkg/x.Y does not resolve <b>")
	n := 0
	s, err := New(Options{Build: func(ctx context.Context, out string) error {
		n++
		if n == 2 || n == 3 {
			return fail
		}
		os.MkdirAll(out, 0o755)
		return os.WriteFile(filepath.Join(out, "index.html"), []byte(fmt.Sprintf("<body>build %d</body>", n)), 0o644)
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ts := httptest.NewServer(s)
	defer ts.Close()
	ctx := context.Background()
	if err := s.Rebuild(ctx); err != nil {
		t.Fatal(err)
	}
	ev := dialEvents(t, ts.URL)
	defer ev.close()
	if gen := ev.waitFor(t, "hello", 5*time.Second); gen != "1" {
		t.Errorf("hello %q", gen)
	}
	if err := s.Rebuild(ctx); err != fail {
		t.Fatalf("rebuild: %v", err)
	}
	data := ev.waitFor(t, "builderror", 5*time.Second)
	if !strings.Contains(data, `walkthroughs/deployment.md:12:3: reference`) {
		t.Errorf("builderror data %q", data)
	}
	// The last good site is still served.
	if body := get(s, "/").Body.String(); !strings.Contains(body, "build 1") {
		t.Errorf("after a failed build: %q", body)
	}
	// A page opened now learns of the error on connect.
	ev2 := dialEvents(t, ts.URL)
	defer ev2.close()
	ev2.waitFor(t, "hello", 5*time.Second)
	ev2.waitFor(t, "builderror", 5*time.Second)
	s.Rebuild(ctx) // fails again
	if err := s.Rebuild(ctx); err != nil {
		t.Fatal(err)
	}
	if gen := ev.waitFor(t, "reload", 5*time.Second); gen != "4" {
		t.Errorf("reload %q", gen)
	}
	if body := get(s, "/").Body.String(); !strings.Contains(body, "build 4") {
		t.Errorf("after the fix: %q", body)
	}
}

func TestServeFirstBuildFails(t *testing.T) {
	s, err := New(Options{Build: func(ctx context.Context, out string) error {
		return errors.New("deployment.md:3:1: <script>alert(1)</script> bad")
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.Rebuild(context.Background())
	w := get(s, "/anything.html")
	body := w.Body.String()
	if w.Code != http.StatusServiceUnavailable || !strings.Contains(body, "deployment.md:3:1: &lt;script&gt;alert(1)&lt;/script&gt; bad") ||
		strings.Contains(body, "<script>alert") || !strings.Contains(body, "reload.js") {
		t.Errorf("error page: %d %s", w.Code, body)
	}
}

// TestServeWatch edits a real walkthrough and waits for the page to be
// told to reload, then breaks it and waits for the error.
func TestServeWatch(t *testing.T) {
	dir := mkdir(t)
	md := filepath.Join(dir, "fixture.md")
	writeFile(t, md, walkthroughMD(0))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s, ev := watching(t, ctx, Options{Build: fixtureBuild(dir), Watch: []string{dir}})
	writeFile(t, md, walkthroughMD(1))
	ev.waitFor(t, "reload", 10*time.Second)
	page := get(s, "/walkthroughs/fixture.html").Body.String()
	if !strings.Contains(page, "Fixture walkthrough 1") || !strings.Contains(page, "reload.js") {
		t.Errorf("rebuilt page lacks the edit or the script")
	}
	// A reference that does not resolve: file:line in the error, old site kept.
	writeFile(t, md, strings.Replace(walkthroughMD(2), "getNewReplicaSet)", "getNewReplicaSetX)", 1))
	data := ev.waitFor(t, "builderror", 10*time.Second)
	if !strings.Contains(data, "fixture.md:10:") {
		t.Errorf("build error does not name fixture.md:10: %s", data)
	}
	if page := get(s, "/walkthroughs/fixture.html").Body.String(); !strings.Contains(page, "Fixture walkthrough 1") {
		t.Errorf("the last good site is not served")
	}
}

// Builds take turns in three directories: a build never writes where the
// site is served, nor where it was served before (a request that started
// just before the switch may still read there), failed builds included,
// and nothing else piles up.
func TestServeRotatesBuildDirectories(t *testing.T) {
	var served []string // the directories served, newest last
	n := 0
	s, err := New(Options{Build: func(ctx context.Context, out string) error {
		n++
		for _, d := range served[max(0, len(served)-2):] {
			if out == d {
				t.Errorf("build %d writes into %s, served by an earlier build", n, out)
			}
		}
		if n%3 == 0 {
			return errors.New("broken")
		}
		os.MkdirAll(out, 0o755)
		return os.WriteFile(filepath.Join(out, "index.html"), []byte(fmt.Sprintf("<body>build %d</body>", n)), 0o644)
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	last := 0 // the last build that succeeded
	for range 10 {
		if s.Rebuild(context.Background()) == nil {
			served = append(served, s.Dir())
			last = n
		}
		if body := get(s, "/").Body.String(); !strings.Contains(body, fmt.Sprintf("build %d<", last)) {
			t.Errorf("after build %d: %q", n, body)
		}
	}
	dirs, err := os.ReadDir(filepath.Dir(s.Dir()))
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) > 3 {
		t.Errorf("%d build directories", len(dirs))
	}
}
