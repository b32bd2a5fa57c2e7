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
// <run dir>/cover/<program>/<phase number>/, read once the run is over.
type coverRun struct {
	dir string
	// phases are the boundaries so far: a name and when it was observed.
	phases []phaseMark
	start  time.Time
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
	r.logf("phase %s ended (counters of %d programs in %s)", name, len(running), time.Since(at).Round(time.Millisecond))
	return nil
}

// collectCoverage reads every snapshot with go tool covdata textfmt and
// gives rec its Coverage; times are absolute until collectAudit makes
// them relative.
func (r *run) collectCoverage(ctx context.Context, rec *Recording) error {
	c := r.cover
	if c == nil {
		return nil
	}
	start := time.Now()
	cc := newCoverCounts()
	var mu sync.Mutex
	g, ctx := errgroup.WithContext(ctx)
	// covdata is single-threaded and reads each program's meta-data; two
	// at a time keep a 2-core machine busy without starving it.
	g.SetLimit(2)
	var phases []Phase
	prev := c.start
	for i, ph := range c.phases {
		phases = append(phases, Phase{Name: ph.name, Start: prev.UnixMilli(), End: ph.end.UnixMilli()})
		prev = ph.end
		for _, prog := range Programs {
			dir := filepath.Join(c.dir, prog, strconv.Itoa(i+1))
			if _, err := os.Stat(dir); err != nil {
				continue // kubectl did not run in this phase
			}
			g.Go(func() error {
				out, err := covdataText(ctx, r.opts.goCmd(), dir)
				if err != nil {
					return err
				}
				mu.Lock()
				defer mu.Unlock()
				if err := cc.add(ph.name, prog, bytes.NewReader(out)); err != nil {
					return fmt.Errorf("record: coverage of %s in %s: %w", prog, ph.name, err)
				}
				return nil
			})
		}
	}
	if err := g.Wait(); err != nil {
		return err
	}
	rec.Coverage = cc.coverage(phases, Programs)
	r.logf("read the counters of %d phases in %s", len(phases), time.Since(start).Round(time.Millisecond))
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
