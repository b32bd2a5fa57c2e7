package serve

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kubewalk/kubewalk/internal/disk/safedir"
)

// TestMain keeps the servers of these tests out of the user's cache: the
// default Options.Dir is under os.UserCacheDir.
func TestMain(m *testing.M) {
	if dir := os.Getenv(helperEnv); dir != "" {
		helperServe(dir)
		return
	}
	cache, err := os.MkdirTemp("", "kubewalk-serve-test-")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_CACHE_HOME", cache)
	code := m.Run()
	os.RemoveAll(cache)
	os.Exit(code)
}

// rawGet sends a GET with the given Host and headers over a new
// connection to addr, and returns the response and its body.
func rawGet(t *testing.T, addr, target, host string, headers ...string) (*http.Response, string) {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	req := fmt.Sprintf("GET %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n", target, host)
	for _, h := range headers {
		req += h + "\r\n"
	}
	fmt.Fprint(conn, req+"\r\n")
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("GET %s (Host %s): %v", target, host, err)
	}
	var b strings.Builder
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		bufio.NewReader(resp.Body).WriteTo(&b)
	}
	return resp, b.String()
}

// TestServeChecksHost: a page of another site whose name was rebound to
// 127.0.0.1 sends its own name as Host; the preview answered it.
func TestServeChecksHost(t *testing.T) {
	s, _ := staticServer(t)
	ts := httptest.NewServer(s)
	defer ts.Close()
	addr := ts.Listener.Addr().String()
	_, port, _ := net.SplitHostPort(addr)
	for host, want := range map[string]int{
		"127.0.0.1:" + port:        200,
		"localhost:" + port:        200,
		"LOCALHOST:" + port:        200,
		"[::1]:" + port:            200,
		"evil.example:" + port:     403,
		"evil.example":             403,
		"localhost":                403, // port 80: not this server's
		"localhost:1":              403,
		"127.0.0.1.nip.io:" + port: 403,
		"":                         403,
	} {
		resp, body := rawGet(t, addr, "/", host)
		if resp.StatusCode != want {
			t.Errorf("Host %q: %d, want %d", host, resp.StatusCode, want)
		}
		if want == 403 && (strings.Contains(body, "home") || !strings.Contains(body, "localhost:"+port)) {
			t.Errorf("Host %q: body %q", host, body)
		}
	}
}

// TestServeEventsOrigin: the event stream refuses a page of another origin
// (a cross-origin EventSource carries its Origin), and serves its own
// pages (a same-origin one carries none, or its own).
func TestServeEventsOrigin(t *testing.T) {
	s, _ := staticServer(t)
	ts := httptest.NewServer(s)
	defer ts.Close()
	addr := ts.Listener.Addr().String()
	for origin, want := range map[string]int{
		"":                         200,
		"http://" + addr:           200,
		"http://evil.example":      403,
		"null":                     403,
		"https://" + addr:          403,
		"http://" + addr + ".evil": 403,
	} {
		var h []string
		if origin != "" {
			h = append(h, "Origin: "+origin)
		}
		resp, _ := rawGet(t, addr, Prefix+"events", addr, h...)
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("Origin %q: %d, want %d", origin, resp.StatusCode, want)
		}
	}
}

// TestServeSecurityHeaders: every response forbids sniffing and carries a
// Content-Security-Policy that allows the site's own scripts only.
func TestServeSecurityHeaders(t *testing.T) {
	s, _ := staticServer(t)
	for _, target := range []string{"/", "/assets/site.css", "/nope.html", Prefix + "reload.js", "/../x"} {
		h := get(s, target).Header()
		if h.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s: X-Content-Type-Options %q", target, h.Get("X-Content-Type-Options"))
		}
		csp := h.Get("Content-Security-Policy")
		if !strings.Contains(csp, "script-src 'self'") || strings.Contains(csp, "unsafe-eval") || !strings.Contains(csp, "default-src 'none'") {
			t.Errorf("%s: Content-Security-Policy %q", target, csp)
		}
		if strings.Contains(strings.SplitN(csp[strings.Index(csp, "script-src"):], ";", 2)[0], "unsafe-inline") {
			t.Errorf("%s: inline scripts allowed: %q", target, csp)
		}
	}
}

// TestServeCloseStopsABuild: Close cancels the build in progress; one
// that ignores its context (stuck in a read of a pipe, as a FIFO among the
// walkthroughs once made it) no longer keeps Close, and Ctrl-C, waiting.
func TestServeCloseStopsABuild(t *testing.T) {
	for _, tc := range []struct {
		name    string
		honours bool
	}{{"a build that honours its context", true}, {"a build stuck where no context reaches", false}} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			started, release := make(chan struct{}), make(chan struct{})
			defer close(release)
			s, err := New(Options{Dir: dir, StopWait: 300 * time.Millisecond, Build: func(ctx context.Context, out string) error {
				close(started)
				if tc.honours {
					<-ctx.Done()
					return ctx.Err()
				}
				<-release
				return errors.New("stuck")
			}})
			if err != nil {
				t.Fatal(err)
			}
			go s.Rebuild(context.Background())
			<-started
			done := make(chan error, 1)
			go func() { done <- s.Close() }()
			select {
			case err := <-done:
				if tc.honours && err != nil {
					t.Errorf("Close: %v", err)
				}
				if !tc.honours && (err == nil || !strings.Contains(err.Error(), "did not stop")) {
					t.Errorf("Close: %v, want the build named as not stopped", err)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("Close waits for a build that does not end")
			}
			ents, _ := os.ReadDir(dir)
			if tc.honours && len(ents) != 0 {
				t.Errorf("left in Options.Dir: %v", ents)
			}
			if err := s.Rebuild(context.Background()); !errors.Is(err, errClosed) {
				t.Errorf("Rebuild after Close: %v", err)
			}
		})
	}
}

const helperEnv = "KUBEWALK_SERVE_TEST_HELPER"

// helperServe runs a server in dir until it is killed.
func helperServe(dir string) {
	s, err := New(Options{Dir: dir, Build: func(ctx context.Context, out string) error {
		return os.MkdirAll(out, 0o755)
	}})
	if err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	if err := s.Rebuild(context.Background()); err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	fmt.Println("ready")
	select {}
}

// TestServeSweepsKilledServers: a server killed with kill -9 left its
// build directories (a whole site each, in /tmp); the next server
// removes them, and leaves those of servers still running.
func TestServeSweepsKilledServers(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"="+dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(out).ReadString('\n')
	if line != "ready\n" {
		cmd.Process.Kill()
		t.Fatalf("helper: %q", line)
	}
	cmd.Process.Kill()
	cmd.Wait()
	killed, _ := filepath.Glob(filepath.Join(dir, rootPrefix+"*"))
	if len(killed) != 1 {
		t.Fatalf("the killed server left %v", killed)
	}
	// One that another live server holds, as a running kubewalk serve does.
	live, err := os.MkdirTemp(dir, rootPrefix)
	if err != nil {
		t.Fatal(err)
	}
	l, err := safedir.TryLockDir(live)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Unlock()

	s, err := New(Options{Dir: dir, Build: func(ctx context.Context, out string) error { return nil }})
	if err != nil {
		t.Fatal(err)
	}
	now, _ := filepath.Glob(filepath.Join(dir, rootPrefix+"*"))
	if slices.Contains(now, killed[0]) || !slices.Contains(now, live) || !slices.Contains(now, s.tmp) || len(now) != 2 {
		t.Errorf("after a new server started: %v (killed %s, live %s)", now, killed[0], live)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if now, _ := filepath.Glob(filepath.Join(dir, rootPrefix+"*")); !slices.Equal(now, []string{live}) {
		t.Errorf("after Close: %v", now)
	}
}

// TestServeNotInTmp: with no Options.Dir, a server builds in the user's
// cache, not in the shared temporary directory.
func TestServeNotInTmp(t *testing.T) {
	s, err := New(Options{Build: func(ctx context.Context, out string) error { return nil }})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	cache, _ := os.UserCacheDir()
	if !strings.HasPrefix(s.tmp, filepath.Join(cache, "kubewalk", "serve")+string(filepath.Separator)) {
		t.Errorf("builds in %s, want under %s", s.tmp, cache)
	}
}
