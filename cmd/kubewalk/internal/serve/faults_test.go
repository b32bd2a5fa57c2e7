package serve

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kubewalk/kubewalk/walkthrough"
)

// TestServeWatchDirectoryMadeAgain: the watched directory removed and made
// again (rm -rf W; mkdir W; cp x.md W/) is watched and read again, and the
// page reloads with the new walkthrough; serve never rebuilt again and kept
// showing "no such file or directory". The walkthroughs are read through
// one walkthrough.DirFS opened at the start, as kubewalk serve reads them.
func TestServeWatchDirectoryMadeAgain(t *testing.T) {
	dir := mkdir(t)
	writeFile(t, filepath.Join(dir, "fixture.md"), walkthroughMD(0))
	fsys, err := walkthrough.DirFS(dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s, ev := watching(t, ctx, Options{Build: fixtureBuildFS(fsys), Watch: []string{dir}})
	for i := 1; i <= 2; i++ {
		if err := os.RemoveAll(dir); err != nil {
			t.Fatal(err)
		}
		ev.waitFor(t, "builderror", 10*time.Second)
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(dir, "fixture.md"), walkthroughMD(i))
		ev.waitFor(t, "reload", 10*time.Second)
		if page := get(s, "/walkthroughs/fixture.html").Body.String(); !strings.Contains(page, "Fixture walkthrough "+string(rune('0'+i))) {
			t.Fatalf("round %d: the page is not the new directory's walkthrough", i)
		}
	}
	// A file beside the watched directory is not one of its changes.
	if !s.beside(filepath.Join(filepath.Dir(dir), "other.md")) || s.beside(filepath.Join(dir, "x.md")) || s.beside(dir) {
		t.Error("beside: a file beside the watched directory is taken for one of its changes, or one of its own is not")
	}
}

// serveSite serves a site of files on 127.0.0.1 until the test ends and
// returns its address.
func serveSite(t *testing.T, files map[string]string) string {
	t.Helper()
	s, err := New(Options{Dir: t.TempDir(), Build: func(ctx context.Context, out string) error {
		for name, content := range files {
			p := filepath.Join(out, filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return err
			}
			if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
				return err
			}
		}
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Rebuild(context.Background()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	addr, served := serveLoopback(t, ctx, s)
	t.Cleanup(func() {
		cancel()
		<-served
	})
	return addr
}

// closedWithin reports whether the server closes c (a read ends in EOF)
// within d.
func closedWithin(c net.Conn, d time.Duration) bool {
	c.SetReadDeadline(time.Now().Add(d))
	_, err := io.Copy(io.Discard, c)
	return err == nil // io.Copy reports EOF as nil; a deadline as an error
}

// TestServeLimitsConnections: a connection past maxConns is closed at
// once, and one is served again when another ends; ~20,000 idle ones used
// up the server's open files.
func TestServeLimitsConnections(t *testing.T) {
	defer func(n int) { maxConns = n }(maxConns)
	maxConns = 3
	addr := serveSite(t, map[string]string{"index.html": "<body>home</body>"})
	var idle []net.Conn
	for range maxConns {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		idle = append(idle, c)
	}
	extra, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer extra.Close()
	if !closedWithin(extra, 5*time.Second) {
		t.Fatal("a connection past the limit is kept waiting")
	}
	idle[0].Close()
	for deadline := time.Now().Add(5 * time.Second); ; {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(c, "GET / HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n", addr)
		c.SetReadDeadline(time.Now().Add(5 * time.Second))
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		c.Close()
		if err == nil && resp.StatusCode == http.StatusOK {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no connection served once one ended: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestServeClosesIdleConnections: a kept-alive connection with no new
// request is closed after idleTimeout; it stayed open for ever.
func TestServeClosesIdleConnections(t *testing.T) {
	defer func(d time.Duration) { idleTimeout = d }(idleTimeout)
	idleTimeout = 100 * time.Millisecond
	addr := serveSite(t, map[string]string{"index.html": "<body>home</body>"})
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "GET / HTTP/1.1\r\nHost: %s\r\n\r\n", addr)
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := io.Copy(io.Discard, br); err != nil {
		t.Errorf("the idle connection was not closed: %v", err)
	}
}

// TestServeDropsClientsThatStopReading: a response its client stopped
// reading is dropped after writeWait, so the client holds nothing of the
// server's for longer (before, each such client pinned its page in
// memory). A page is written from
// its file, the reload script inserted, not read whole first.
func TestServeDropsClientsThatStopReading(t *testing.T) {
	defer func(d time.Duration) { writeWait = d }(writeWait)
	writeWait = 200 * time.Millisecond
	// Larger than loopback's socket buffers can take.
	page := "<body>" + strings.Repeat("x", 32<<20) + "</body></html>"
	addr := serveSite(t, map[string]string{"big.html": page, "small.html": "<p>a</P></BODY>tail"})
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "GET /big.html HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n", addr)
	time.Sleep(2 * time.Second) // not reading
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	n, err := io.Copy(io.Discard, c)
	if err != nil {
		t.Fatalf("after %d bytes: %v", n, err)
	}
	if n >= int64(len(page)) {
		t.Errorf("the whole page (%d bytes) was written to a client that stopped reading", n)
	}
	// A page read at once is whole, the script before its last </body>.
	resp, body := rawGet(t, addr, "/small.html", addr)
	if want := "<p>a</P>" + scriptTag(1) + "</BODY>tail"; body != want || resp.ContentLength != int64(len(want)) {
		t.Errorf("small.html = %q (Content-Length %d), want %q", body, resp.ContentLength, want)
	}
}

// TestServeBesideRelative: a watched directory given relative, "." among
// them, tells its own events from those beside it.
func TestServeBesideRelative(t *testing.T) {
	base := t.TempDir()
	w := filepath.Join(base, "w")
	if err := os.Mkdir(w, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(w)
	s := &Server{opts: Options{Watch: []string{"."}}}
	for name, want := range map[string]bool{
		filepath.Join(base, "w"):         false, // the directory itself, from its parent's watch
		filepath.Join(base, "other.md"):  true,
		"x.md":                           false,
		filepath.Join("..", "w", "x.md"): false,
		filepath.Join("..", "other.md"):  true,
	} {
		if got := s.beside(name); got != want {
			t.Errorf("beside(%q) = %v, want %v", name, got, want)
		}
	}
}
