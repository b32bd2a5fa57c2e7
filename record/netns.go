package record

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"runtime"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// netns is a network namespace of the run's own, in which kube-proxy runs
// and writes its rules, so that they change nothing of the machine's. It
// is unnamed (nothing under /var/run/netns): it lives as long as a thread,
// a process or a socket is in it, and all three end with the run.
//
// The namespace belongs to one OS thread, the goroutine's that made it
// with unshare(CLONE_NEWNET) and stays locked to it: whatever must happen
// inside (a listening socket, a child process, nft) is handed to that
// goroutine (do). A child started there inherits the namespace; its
// Pdeathsig follows that thread, so the goroutine lives until close, and
// then exits still locked, so that the runtime ends the thread rather than
// give it, in the wrong namespace, to other goroutines.
type netns struct {
	fns  chan func()
	quit chan struct{} // closed by close: the goroutine returns
	done chan struct{} // closed when it has
	// ln is the listener inside the namespace that proxies to the API
	// server; conns its connections, closed with it.
	ln    net.Listener
	mu    sync.Mutex
	conns map[net.Conn]bool
	once  sync.Once
}

// ErrNetns is wrapped when the run cannot make the network namespace a
// scenario's kube-proxy needs.
var ErrNetns = errors.New("the service scenario runs the release's kube-proxy in a network namespace of the run's own, which needs root (CAP_SYS_ADMIN and CAP_NET_ADMIN) and the nft command (Debian: apt-get install nftables)")

// newNetns makes the namespace and brings its loopback up.
func newNetns() (*netns, error) {
	if _, err := exec.LookPath("nft"); err != nil {
		return nil, fmt.Errorf("record: %w: %v", ErrNetns, err)
	}
	n := &netns{fns: make(chan func()), quit: make(chan struct{}), done: make(chan struct{}), conns: map[net.Conn]bool{}}
	made := make(chan error, 1)
	go n.loop(made)
	if err := <-made; err != nil {
		<-n.done
		return nil, err
	}
	return n, nil
}

// loop makes the namespace on its goroutine's thread, says so on made,
// and runs what do hands it until close.
func (n *netns) loop(made chan<- error) {
	runtime.LockOSThread()
	// The main thread must stay in the root namespace: it is what
	// /proc/<pid>/ns/net shows, and the runtime parks rather than ends it
	// when its goroutine exits locked. Locked to it, this goroutine waits
	// for another, which therefore runs on another thread.
	if unix.Gettid() == unix.Getpid() {
		defer runtime.UnlockOSThread()
		inner := make(chan struct{})
		go func() { defer close(inner); n.loop(made) }()
		<-inner
		return
	}
	defer close(n.done)
	// No UnlockOSThread, on any path: the thread may have left the root
	// namespace, and the runtime ends a thread whose goroutine exits
	// locked.
	if err := unix.Unshare(unix.CLONE_NEWNET); err != nil {
		made <- fmt.Errorf("record: %w: unshare(CLONE_NEWNET): %v", ErrNetns, err)
		return
	}
	if err := loopbackUp(); err != nil {
		made <- fmt.Errorf("record: %w: bring lo up: %v", ErrNetns, err)
		return
	}
	made <- nil
	for {
		select {
		case f := <-n.fns:
			f()
		case <-n.quit:
			return
		}
	}
}

// loopbackUp sets IFF_UP on lo, on the calling thread's namespace.
func loopbackUp() error {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	ifr, err := unix.NewIfreq("lo")
	if err != nil {
		return err
	}
	if err := unix.IoctlIfreq(fd, unix.SIOCGIFFLAGS, ifr); err != nil {
		return err
	}
	ifr.SetUint16(ifr.Uint16() | uint16(unix.IFF_UP))
	return unix.IoctlIfreq(fd, unix.SIOCSIFFLAGS, ifr)
}

// do runs f on the namespace's thread and waits for it.
func (n *netns) do(f func()) error {
	finished := make(chan struct{})
	select {
	case n.fns <- func() { defer close(finished); f() }:
	case <-n.done:
		return errors.New("record: the run's network namespace is closed")
	}
	<-finished
	return nil
}

// proxyTo listens on 127.0.0.1 inside the namespace and forwards each
// connection to addr, dialled from the root namespace: kube-proxy reaches
// the API server, which listens on the root namespace's loopback, without
// an address anywhere but on loopback. It returns the address inside.
func (n *netns) proxyTo(addr string) (string, error) {
	var err error
	if derr := n.do(func() { n.ln, err = net.Listen("tcp", "127.0.0.1:0") }); derr != nil {
		return "", derr
	}
	if err != nil {
		return "", fmt.Errorf("record: listen in the run's network namespace: %w", err)
	}
	go func() {
		for {
			c, err := n.ln.Accept()
			if err != nil {
				return
			}
			go n.forward(c, addr)
		}
	}()
	return n.ln.Addr().String(), nil
}

// forward copies c to and from a connection to addr until either ends.
func (n *netns) forward(c net.Conn, addr string) {
	up, err := net.Dial("tcp", addr)
	if err != nil {
		c.Close()
		return
	}
	if !n.track(c, up) {
		return
	}
	defer n.untrack(c, up)
	done := make(chan struct{}, 2)
	go func() { io.Copy(up, c); done <- struct{}{} }()
	go func() { io.Copy(c, up); done <- struct{}{} }()
	<-done
}

// track notes a proxied pair so close can end it; false (both closed)
// once the namespace is closing.
func (n *netns) track(cs ...net.Conn) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.conns == nil {
		for _, c := range cs {
			c.Close()
		}
		return false
	}
	for _, c := range cs {
		n.conns[c] = true
	}
	return true
}

func (n *netns) untrack(cs ...net.Conn) {
	n.mu.Lock()
	defer n.mu.Unlock()
	for _, c := range cs {
		c.Close()
		delete(n.conns, c)
	}
}

// start starts cmd on the namespace's thread, so that the process is in
// the namespace.
func (n *netns) start(cmd *exec.Cmd) error {
	var err error
	if derr := n.do(func() { err = cmd.Start() }); derr != nil {
		return derr
	}
	return err
}

// output runs name with args inside the namespace and returns its
// standard output.
func (n *netns) output(ctx context.Context, name string, args ...string) ([]byte, error) {
	var out []byte
	var err error
	derr := n.do(func() {
		cmd := exec.CommandContext(ctx, name, args...)
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
		cmd.Env = os.Environ()
		out, err = cmd.Output()
		var ee *exec.ExitError
		if errors.As(err, &ee) && len(ee.Stderr) > 0 {
			err = fmt.Errorf("%s: %w: %s", name, err, ee.Stderr)
		}
	})
	if derr != nil {
		return nil, derr
	}
	return out, err
}

// close ends the namespace: its listener and proxied connections, then
// its thread. The processes started in it must have been stopped first;
// with them, nothing is left in it and the kernel frees it.
func (n *netns) close() {
	n.once.Do(func() {
		if n.ln != nil {
			n.ln.Close()
		}
		n.mu.Lock()
		for c := range n.conns {
			c.Close()
		}
		n.conns = nil
		n.mu.Unlock()
		close(n.quit)
		<-n.done
	})
}
