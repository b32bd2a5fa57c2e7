package record

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sync/errgroup"
)

// coverRun takes the counters of a run whose programs count coverage: a
// snapshot of every running program at each phase boundary, into
// <run dir>/cover/<program>/<phase number>/, each read with go tool
// covdata while the scenario goes on (a phase's snapshots are complete
// when it ends).
type coverRun struct {
	dir string
	// phases are the boundaries so far: a name and when it was observed.
	phases []phaseMark
	start  time.Time

	// reads reads the snapshots, one covdata at a time, so that the
	// programs of the run keep a core; cancel stops them (Run's end).
	reads   *errgroup.Group
	readCtx context.Context
	cancel  context.CancelFunc
	goCmd   string
	mu      sync.Mutex
	cc      *coverCounts
}

// newCoverRun starts taking counters into dir; stop must be called.
func newCoverRun(ctx context.Context, dir, goCmd string) *coverRun {
	ctx, cancel := context.WithCancel(ctx)
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(1)
	return &coverRun{dir: dir, reads: g, readCtx: gctx, cancel: cancel, goCmd: goCmd, cc: newCoverCounts()}
}

// stop ends the reads still going and waits for their covdata to exit.
func (c *coverRun) stop() {
	c.cancel()
	c.reads.Wait()
}

// read reads the snapshots of phase n (1-based), named name, of every
// program that left one.
func (c *coverRun) read(n int, name string) {
	for _, prog := range Programs {
		dir := filepath.Join(c.dir, prog, strconv.Itoa(n))
		if _, err := os.Stat(dir); err != nil {
			continue // kubectl did not run in this phase
		}
		c.reads.Go(func() error {
			out, err := covdataText(c.readCtx, c.goCmd, dir)
			if err != nil {
				return err
			}
			c.mu.Lock()
			defer c.mu.Unlock()
			if err := c.cc.add(name, prog, bytes.NewReader(out)); err != nil {
				return fmt.Errorf("record: coverage of %s in %s: %w", prog, name, err)
			}
			return nil
		})
	}
}

type phaseMark struct {
	name string
	end  time.Time
}

// coverEnv is the environment of a long-running program: where its
// snapshots go (the hook in its main package reads KUBEWALK_COVERDIR) and
// where Go writes its counters at exit (GOCOVERDIR; not read, but without
// it a program built with -cover warns at exit).
func (c *coverRun) coverEnv(name string) ([]string, error) {
	exit := filepath.Join(c.dir, "exit", name)
	if err := os.MkdirAll(exit, 0o755); err != nil {
		return nil, err
	}
	return []string{"KUBEWALK_COVERDIR=" + filepath.Join(c.dir, name), "GOCOVERDIR=" + exit}, nil
}

// clientEnv is the environment of a program run to completion (kubectl):
// its counters, written at exit, belong to the current phase.
func (c *coverRun) clientEnv(name string) ([]string, error) {
	dir := filepath.Join(c.dir, name, strconv.Itoa(len(c.phases)+1))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	return []string{"GOCOVERDIR=" + dir}, nil
}

// snapshotTimeout bounds how long a program may take to write its
// counters.
const snapshotTimeout = 30 * time.Second

// phase ends the current phase, named name: every running program writes
// its counters and clears them. Without coverage it does nothing.
func (r *run) phase(ctx context.Context, name string) error {
	c := r.cover
	if c == nil {
		return nil
	}
	at := time.Now()
	n := strconv.Itoa(len(c.phases) + 1)
	var running []*process
	for _, p := range r.procs {
		if p.exited() {
			return p.failed("exited before the phase " + name + " ended")
		}
		if err := p.cmd.Process.Signal(syscall.SIGUSR1); err != nil {
			if errors.Is(err, os.ErrProcessDone) {
				return p.failed("exited before the phase " + name + " ended")
			}
			return fmt.Errorf("record: %s: ask for its counters: %w", p.name, err)
		}
		running = append(running, p)
	}
	for _, p := range running {
		dir := filepath.Join(c.dir, p.name, n)
		err := r.waitFor(ctx, p, "its counters written for the phase "+name, snapshotTimeout, func(context.Context) (bool, error) {
			if b, err := os.ReadFile(filepath.Join(dir, "failed")); err == nil {
				return false, errors.New(string(b))
			}
			_, err := os.Stat(filepath.Join(dir, "done"))
			return err == nil, nil
		})
		if err != nil {
			return fmt.Errorf("record: coverage: %w", err)
		}
	}
	c.phases = append(c.phases, phaseMark{name, at})
	c.read(len(c.phases), name)
	r.logf("phase %s ended (counters of %d programs in %s)", name, len(running), time.Since(at).Round(time.Millisecond))
	return nil
}

// collectCoverage waits for the snapshots still being read and gives rec
// its Coverage; times are absolute until collectAudit makes them
// relative.
func (r *run) collectCoverage(rec *Recording) error {
	c := r.cover
	if c == nil {
		return nil
	}
	start := time.Now()
	if err := c.reads.Wait(); err != nil {
		return err
	}
	var phases []Phase
	prev := c.start
	for _, ph := range c.phases {
		phases = append(phases, Phase{Name: ph.name, Start: prev.UnixMilli(), End: ph.end.UnixMilli()})
		prev = ph.end
	}
	rec.Coverage = c.cc.coverage(phases, Programs)
	r.logf("read the counters of %d phases (%s after the run)", len(phases), time.Since(start).Round(time.Millisecond))
	return nil
}

// covdataText returns the counters of a snapshot directory as go tool
// covdata textfmt writes them.
func covdataText(ctx context.Context, goCmd, dir string) ([]byte, error) {
	out := filepath.Join(dir, "counters.txt")
	cmd := exec.CommandContext(ctx, goCmd, "tool", "covdata", "textfmt", "-i="+dir, "-o="+out)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if b, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("record: go tool covdata textfmt -i=%s: %w: %s", dir, err, bytes.TrimSpace(b))
	}
	return os.ReadFile(out)
}
