package record

import (
	"context"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// netnsHolders lists the threads (of any process) in the namespace ns
// ("net:[…]").
func netnsHolders(ns string) []string {
	var out []string
	links, _ := filepath.Glob("/proc/[0-9]*/task/[0-9]*/ns/net")
	for _, l := range links {
		if got, err := os.Readlink(l); err == nil && got == ns {
			out = append(out, l)
		}
	}
	return out
}

// TestNetns: the run's namespace has a loopback that is up, a listener in
// it reaches a server of the root namespace, a child started in it is
// in it, and close leaves no thread or process in it (the child, whose
// Pdeathsig follows the namespace's thread, dies with it).
func TestNetns(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("a network namespace needs root")
	}
	if _, err := exec.LookPath("nft"); err != nil {
		t.Skip("no nft")
	}
	root, err := os.Readlink("/proc/self/ns/net")
	if err != nil {
		t.Fatal(err)
	}
	n, err := newNetns()
	if err != nil {
		t.Fatal(err)
	}
	defer n.close()
	var ns string
	n.do(func() { ns, _ = os.Readlink("/proc/thread-self/ns/net") })
	if ns == "" || ns == root {
		t.Fatalf("the namespace's thread is in %q, the root namespace is %q", ns, root)
	}
	if self, _ := os.Readlink("/proc/self/ns/net"); self != root {
		t.Fatalf("the main thread moved to %s", self)
	}

	// A server in the root namespace, reached from inside.
	srv, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	go func() {
		for {
			c, err := srv.Accept()
			if err != nil {
				return
			}
			c.Write([]byte("hello from the root namespace"))
			c.Close()
		}
	}()
	inner, err := n.proxyTo(srv.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	var got []byte
	n.do(func() {
		c, err := net.DialTimeout("tcp", inner, 5*time.Second)
		if err != nil {
			t.Errorf("dial %s inside: %v", inner, err)
			return
		}
		defer c.Close()
		got, _ = io.ReadAll(c)
	})
	if string(got) != "hello from the root namespace" {
		t.Errorf("through the proxy: %q", got)
	}
	// The root namespace's loopback does not have the inner listener.
	if c, err := net.DialTimeout("tcp", inner, time.Second); err == nil {
		c.Close()
		t.Errorf("%s is reachable from the root namespace", inner)
	}

	out, err := n.output(context.Background(), "nft", "list", "ruleset")
	if err != nil || strings.TrimSpace(string(out)) != "" {
		t.Errorf("a new namespace's ruleset: %q, %v", out, err)
	}
	lo, err := n.output(context.Background(), "cat", "/sys/class/net/lo/operstate", "/proc/self/net/dev")
	if err != nil || !strings.Contains(string(lo), "lo:") {
		t.Errorf("lo in the namespace: %q, %v", lo, err)
	}

	// Started as the run starts kube-proxy: with Pdeathsig, which
	// follows the thread that started it, the namespace's.
	child := exec.Command("sleep", "60")
	child.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := n.start(child); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { child.Wait(); close(exited) }()
	if got, _ := os.Readlink("/proc/" + strconv.Itoa(child.Process.Pid) + "/ns/net"); got != ns {
		t.Errorf("the child is in %q, not the namespace %q", got, ns)
	}
	n.close()
	select {
	case <-exited:
	case <-time.After(5 * time.Second):
		child.Process.Kill()
		t.Error("a child started in the namespace with Pdeathsig did not end with the namespace's thread")
	}
	// The runtime ends the thread a little after its goroutine returns.
	deadline := time.Now().Add(5 * time.Second)
	for len(netnsHolders(ns)) > 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if h := netnsHolders(ns); len(h) > 0 {
		t.Errorf("threads left in the namespace after close: %v", h)
	}
	if err := n.do(func() {}); err == nil {
		t.Error("do after close ran")
	}
}
