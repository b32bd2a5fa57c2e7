package record

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sync/errgroup"
)

// coverRun takes the counters of a run whose programs count coverage: a
// snapshot of every running program at each phase boundary, into
// <run dir>/cover/<program>/<phase number>/, each read while the
// scenario goes on (a phase's snapshots are complete when it ends).
type coverRun struct {
	dir string
	// phases are the boundaries so far: a name and when it was observed.
	phases []phaseMark
	start  time.Time

	// reads reads the snapshots, one at a time (mu), without holding up
	// the phase that asked; cancel stops them (Run's end).
	reads   *errgroup.Group
	readCtx context.Context
	cancel  context.CancelFunc
	mu      sync.Mutex
	cc      *coverCounts
	// metas are the programs' meta-data by hash, decoded once; listed
	// the programs whose meta-data cc has.
	metas  map[string]*covMeta
	listed map[[2]string]bool
}

// newCoverRun starts taking counters into dir; stop must be called.
func newCoverRun(ctx context.Context, dir string) *coverRun {
	ctx, cancel := context.WithCancel(ctx)
	g, gctx := errgroup.WithContext(ctx)
	return &coverRun{dir: dir, reads: g, readCtx: gctx, cancel: cancel, cc: newCoverCounts(), metas: map[string]*covMeta{}, listed: map[[2]string]bool{}}
}

// stop ends the reads still going and waits for them.
func (c *coverRun) stop() {
	c.cancel()
	c.reads.Wait()
}

// read reads the snapshots of phase n (1-based), named name, of every
// program that left one.
func (c *coverRun) read(n int, name string) {
	var dirs [][2]string
	for _, prog := range Programs {
		dir := filepath.Join(c.dir, prog, strconv.Itoa(n))
		if _, err := os.Stat(dir); err != nil {
			continue // kubectl did not run in this phase
		}
		dirs = append(dirs, [2]string{prog, dir})
	}
	c.reads.Go(func() error {
		for _, d := range dirs {
			if err := c.readCtx.Err(); err != nil {
				return err
			}
			if err := c.readSnapshot(name, d[0], d[1]); err != nil {
				return fmt.Errorf("record: coverage of %s in %s: %w", d[0], name, err)
			}
		}
		return nil
	})
}

// readSnapshot adds the counter files of program in dir to phase: the
// blocks of each function that ran, as the meta-data beside them (or
// read before, by its hash) lists them.
func (c *coverRun) readSnapshot(phase, program, dir string) error {
	metaFiles, counterFiles, err := covFiles(dir)
	if err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	meta := func(hash string) (*covMeta, error) {
		m := c.metas[hash]
		if m == nil {
			f, ok := metaFiles[hash]
			if !ok {
				return nil, fmt.Errorf("no meta-data %s%s beside its counters", covMetaPrefix, hash)
			}
			if m, err = readCovMeta(f); err != nil {
				return nil, err
			}
			c.metas[hash] = m
		}
		if k := [2]string{program, hash}; !c.listed[k] {
			c.cc.addMeta(program, m)
			c.listed[k] = true
		}
		return m, nil
	}
	for hash := range metaFiles {
		if _, err := meta(hash); err != nil {
			return err
		}
	}
	for _, f := range counterFiles {
		data, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		var m *covMeta
		_, err = parseCovCounters(data, func(hash string) error {
			m, err = meta(hash)
			return err
		}, func(pkg, fun uint32, counters []uint32) error {
			return c.cc.addCounters(phase, program, m, pkg, fun, counters)
		})
		if err != nil {
			return fmt.Errorf("%s: %w", f, err)
		}
	}
	return nil
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
// counters; snapshotPoll is how often its "done" file is looked for: a
// snapshot takes milliseconds, and the scenario's next boundary is not
// checked before every program has written its own.
const (
	snapshotTimeout = 30 * time.Second
	snapshotPoll    = 5 * time.Millisecond
)

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
		err := r.waitEvery(ctx, p, "its counters written for the phase "+name, snapshotTimeout, snapshotPoll, func(context.Context) (bool, error) {
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
