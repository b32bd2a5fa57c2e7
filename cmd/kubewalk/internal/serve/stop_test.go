package serve

import (
	"context"
	"errors"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestServeStopsWithinASecond: Ctrl-C ends kubewalk serve within a
// second, whatever it is doing: a build stuck where no context reaches
// (Close waited 5 s for it, and a first Rebuild for ever), a page's event
// stream open, a request whose client stopped sending. Every wait uses the
// defaults kubewalk serve runs with.
func TestServeStopsWithinASecond(t *testing.T) {
	stuck, release := make(chan struct{}), make(chan struct{})
	defer close(release)
	builds := 0
	s, err := New(Options{Dir: t.TempDir(), Watch: []string{mkdir(t)}, Build: func(ctx context.Context, out string) error {
		builds++
		if builds == 1 {
			if err := os.MkdirAll(out, 0o755); err != nil {
				return err
			}
			return os.WriteFile(filepath.Join(out, "index.html"), []byte("<body>home</body>"), 0o644)
		}
		close(stuck)
		<-release // ignores ctx
		return errors.New("stuck")
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Rebuild(context.Background()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	addr, served := serveLoopback(t, ctx, s)
	base := "http://" + addr
	ev := dialEvents(t, base)
	defer ev.close()
	ev.waitFor(t, "hello", 5*time.Second)
	// A request that never finishes its headers.
	half, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer half.Close()
	half.Write([]byte("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n"))
	rebuilt := make(chan error, 1)
	go func() { rebuilt <- s.Rebuild(ctx) }()
	<-stuck

	start := time.Now()
	cancel()
	for name, c := range map[string]chan error{"Serve": served, "Rebuild": rebuilt} {
		select {
		case err := <-c:
			if name == "Serve" && err != nil {
				t.Errorf("Serve: %v", err)
			}
			if name == "Rebuild" && !errors.Is(err, context.Canceled) {
				t.Errorf("Rebuild of a stuck build, cancelled: %v", err)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s still running 5 s after Ctrl-C", name)
		}
	}
	d := time.Since(start)
	t.Logf("stopped %s after Ctrl-C", d.Round(time.Millisecond))
	if d > time.Second {
		t.Errorf("serve stopped %s after Ctrl-C, want within 1s", d.Round(time.Millisecond))
	}
	if _, err := http.Get(base + "/"); err == nil {
		t.Error("still answering after Serve returned")
	}
}
