package record

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
)

// process is one component of the run, in a process group of its own so
// that it and anything it starts are stopped together.
type process struct {
	name    string
	cmd     *exec.Cmd
	logFile string
	started time.Time
	// ready is how long the component took to answer its readiness check.
	ready time.Duration
	done  chan struct{} // closed when the process has exited
	err   error         // its exit status, once done is closed
	// stopping is set by stop: the exit that follows is the run's doing,
	// not a crash.
	stopping atomic.Bool
}

// start starts bin with args, its output to logs/<name>.log in the run
// directory. The child is killed if kubewalk dies (Pdeathsig), so even a
// kill -9 of kubewalk leaves no component running.
func (r *run) start(name, bin string, args ...string) (*process, error) {
	return r.startWith(name, (*exec.Cmd).Start, bin, args...)
}

// startWith is start with launch starting the command: kube-proxy's is
// started inside the run's network namespace (netns.start).
func (r *run) startWith(name string, launch func(*exec.Cmd) error, bin string, args ...string) (*process, error) {
	logFile := filepath.Join(r.dir, "logs", name+".log")
	if err := os.MkdirAll(filepath.Dir(logFile), 0o755); err != nil {
		return nil, err
	}
	out, err := os.Create(logFile)
	if err != nil {
		return nil, err
	}
	defer out.Close()
	cmd := exec.Command(bin, args...)
	cmd.Dir = r.dir
	cmd.Stdout, cmd.Stderr = out, out
	cmd.Env = r.env()
	if name == "kubelet" {
		cmd.Env = append(cmd.Env, r.runtimeEnv...)
	}
	if r.cover != nil {
		env, err := r.cover.coverEnv(name)
		if err != nil {
			return nil, fmt.Errorf("start %s: %w", name, err)
		}
		cmd.Env = append(cmd.Env, env...)
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	r.held.release(name)
	if err := launch(cmd); err != nil {
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	p := &process{name: name, cmd: cmd, logFile: logFile, started: time.Now(), done: make(chan struct{})}
	go func() {
		p.err = cmd.Wait()
		close(p.done)
		// An exit the run did not ask for ends the run at once: every
		// wait selects on the context this cancels, whatever the phase.
		if !p.stopping.Load() && r.crashed != nil {
			r.crashed(p.failed("exited before the run ended"))
		}
	}()
	r.procs = append(r.procs, p)
	r.logf("started %s (pid %d)", name, cmd.Process.Pid)
	return p, nil
}

// env is the children's environment: the caller's, with HOME, TMPDIR and
// KUBECONFIG inside the run directory, so that kubectl's discovery cache,
// kubemark's temporary directories and the fake runtime's socket go where
// kubewalk removes them.
func (r *run) env() []string {
	var env []string
	for _, e := range os.Environ() {
		k, _, _ := strings.Cut(e, "=")
		switch k {
		case "HOME", "TMPDIR", "KUBECONFIG":
			continue
		}
		env = append(env, e)
	}
	return append(env, "HOME="+filepath.Join(r.dir, "home"), "TMPDIR="+filepath.Join(r.dir, "tmp"), "KUBECONFIG="+filepath.Join(r.dir, "pki", "admin.kubeconfig"))
}

// stopGrace is how long a component has to exit after SIGTERM before its
// process group is killed. The hollow kubelet ignores SIGTERM.
const stopGrace = 5 * time.Second

// stop ends the process group: SIGTERM, then SIGKILL after grace.
func (p *process) stop(grace time.Duration) {
	p.stopping.Store(true)
	select {
	case <-p.done:
		return
	default:
	}
	pgid := -p.cmd.Process.Pid
	syscall.Kill(pgid, syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(grace):
	}
	// The group may hold children of the component even after it exited.
	syscall.Kill(pgid, syscall.SIGKILL)
	<-p.done
	// A SIGKILL is delivered asynchronously: wait until no member of the
	// group runs, so that nothing the run started outlives stop.
	for deadline := time.Now().Add(5 * time.Second); groupRuns(-pgid) && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
}

// groupRuns reports whether a process of group pgid is alive: in /proc,
// with that process group, and not a zombie (an orphan that init has not
// reaped yet is dead).
func groupRuns(pgid int) bool {
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		if e.Name()[0] < '0' || e.Name()[0] > '9' {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp ...: comm may hold spaces and
		// parentheses, so fields are read after the last ')'.
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) < 3 || f[0] == "Z" || f[0] == "X" {
			continue
		}
		if f[2] == strconv.Itoa(pgid) {
			return true
		}
	}
	return false
}

// exited reports whether the process has ended.
func (p *process) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// logTail returns the last n lines of the process's log.
func (p *process) logTail(n int) string {
	b, err := os.ReadFile(p.logFile)
	if err != nil {
		return ""
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// ErrComponent is wrapped by errors of a component that did not start or
// become ready; the message carries the tail of its log.
var ErrComponent = errors.New("a component of the recorded run failed")

// failed returns ErrComponent for p, with why and the tail of its log.
func (p *process) failed(why string) error {
	status := ""
	if p.exited() {
		status = " (exit status 0)"
		if p.err != nil {
			status = " (" + p.err.Error() + ")"
		}
	}
	return fmt.Errorf("%w: %s %s%s; the last lines of its log (%s):\n%s", ErrComponent, p.name, why, status, p.logFile, indent(p.logTail(15)))
}

func indent(s string) string {
	if s == "" {
		return "  (empty)"
	}
	return "  " + strings.ReplaceAll(s, "\n", "\n  ")
}

// waitFor polls check until it returns true, the process exits, the
// timeout passes or ctx ends. A check error is kept for the message. When
// ctx ends it returns its cause: context.Canceled for Ctrl-C, the
// component's failure when one exited (Run's context).
func (r *run) waitFor(ctx context.Context, p *process, what string, timeout time.Duration, check func(context.Context) (bool, error)) error {
	return r.waitEvery(ctx, p, what, timeout, r.pollEvery(), check)
}

// waitEvery is waitFor checking every interval.
func (r *run) waitEvery(ctx context.Context, p *process, what string, timeout, every time.Duration, check func(context.Context) (bool, error)) error {
	deadline := time.Now().Add(timeout)
	var last error
	for {
		cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		ok, err := check(cctx)
		cancel()
		if ok {
			if p != nil && p.ready == 0 {
				p.ready = time.Since(p.started)
			}
			return nil
		}
		if err != nil {
			last = err
		}
		if ctx.Err() != nil {
			return context.Cause(ctx)
		}
		if p != nil && p.exited() {
			return p.failed("exited before " + what)
		}
		if time.Now().After(deadline) {
			why := fmt.Sprintf("did not reach %s within %s", what, timeout)
			if last != nil {
				why += " (last: " + last.Error() + ")"
			}
			if p == nil {
				return fmt.Errorf("%w: %s", ErrTimeout, why)
			}
			return fmt.Errorf("%w: %w", ErrTimeout, p.failed(why))
		}
		select {
		case <-ctx.Done():
			return context.Cause(ctx)
		case <-time.After(every):
		}
	}
}

// pollEvery is how often waitFor checks: often enough, with coverage,
// that a phase boundary is seen soon after it passes (Coverage.Note says
// 100 ms).
func (r *run) pollEvery() time.Duration {
	if r.cover != nil {
		return 100 * time.Millisecond
	}
	return 250 * time.Millisecond
}

// ErrTimeout is wrapped when the run does not reach a state in time.
var ErrTimeout = errors.New("timed out")

// heldPorts keeps a listener on each port up picked until the component
// that binds it starts: another program looking for a free port meanwhile
// (a second kubewalk run beside this one, picking its own) cannot be given
// it. Between the close and the component's bind the port is free again;
// that window is the component's own start, not the whole start-up.
type heldPorts map[string][]net.Listener

// holdPorts picks a distinct free TCP port on 127.0.0.1 for each owner
// and holds it under the owner's name.
func holdPorts(owners ...string) (heldPorts, []int, error) {
	h := heldPorts{}
	ports := make([]int, 0, len(owners))
	for _, owner := range owners {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			h.releaseAll()
			return nil, nil, fmt.Errorf("record: no free port on 127.0.0.1: %w", err)
		}
		h[owner] = append(h[owner], l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return h, ports, nil
}

// release frees the ports held for owner, just before it binds them.
func (h heldPorts) release(owner string) {
	for _, l := range h[owner] {
		l.Close()
	}
	delete(h, owner)
}

// releaseAll frees every port still held.
func (h heldPorts) releaseAll() {
	for owner := range h {
		h.release(owner)
	}
}

// freePorts picks n distinct free TCP ports on 127.0.0.1 and holds none:
// for tests that choose the ports a run gets.
func freePorts(n int) ([]int, error) {
	h, ports, err := holdPorts(make([]string, n)...)
	h.releaseAll()
	return ports, err
}

// output runs bin to completion and returns its standard output.
func (r *run) output(ctx context.Context, bin string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = r.dir
	cmd.Env = r.env()
	if r.cover != nil {
		// kubectl's counters are the phase's; etcd's client mode, which
		// lists the keys, counts nothing of interest.
		name := filepath.Base(bin)
		if name != "kubectl" {
			name = "clients"
		}
		env, err := r.cover.clientEnv(name)
		if err != nil {
			return nil, err
		}
		cmd.Env = append(cmd.Env, env...)
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	// Ctrl-C stops its process group, not only bin: a child left holding
	// its output kept the run waiting, and running, after the cancel.
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = stopGrace
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	// What bin left in its group once it returned is the run's to stop.
	// (No process when it did not start: a context done before it.)
	if cmd.Process != nil && groupRuns(cmd.Process.Pid) {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	// Killed for Ctrl-C or a component's exit, bin failed for that
	// cause, not with "signal: killed".
	if err != nil && ctx.Err() != nil {
		return out, fmt.Errorf("%s %s: %w", filepath.Base(bin), strings.Join(args, " "), context.Cause(ctx))
	}
	if err != nil {
		return out, fmt.Errorf("%s %s: %w: %s", filepath.Base(bin), strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}
