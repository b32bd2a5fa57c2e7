//go:build e2e

package record

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kubewalk/kubewalk/source"
)

// checkNothingLeft fails t when a run directory of this process, a
// process the run started or a listener on one of ports is left.
func checkNothingLeft(t *testing.T, s *started, ports []int) {
	t.Helper()
	for _, d := range runLeftovers(t) {
		if strings.HasPrefix(filepath.Base(d), "hollow-kubelet.") {
			t.Errorf("the kubelet's root directory left: %s", d)
			continue
		}
		if b, err := os.ReadFile(filepath.Join(d, "pid")); err == nil && strings.TrimSpace(string(b)) == strconv.Itoa(os.Getpid()) {
			t.Errorf("run directory left: %s", d)
		}
	}
	s.checkStopped(t)
	checkPortsFree(t, ports)
}

// TestE2EPortTakenAtEachStart: a port another process holds, for each
// component in turn, is one error naming that component with its log's
// words; nothing is left running or listening.
func TestE2EPortTakenAtEachStart(t *testing.T) {
	bins := e2eBinaries(t)
	// In the order of RunOptions.ports.
	for i, name := range []string{"etcd", "etcd", "kube-apiserver", "kube-controller-manager", "kube-scheduler", "kubelet"} {
		t.Run(fmt.Sprintf("%d-%s", i, name), func(t *testing.T) {
			l, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			defer l.Close()
			ports, err := freePorts(6)
			if err != nil {
				t.Fatal(err)
			}
			ports[i] = l.Addr().(*net.TCPAddr).Port
			var s started
			logf := func(format string, args ...any) {
				line := fmt.Sprintf(format, args...)
				t.Log(line)
				s.note(line)
			}
			_, err = Run(context.Background(), bins, RunOptions{ports: ports, Logf: logf, Timeout: time.Minute})
			if !errors.Is(err, ErrComponent) || !strings.Contains(err.Error(), name) {
				t.Errorf("err = %v, want %s's failure", err, name)
			}
			l.Close()
			checkNothingLeft(t, &s, ports)
		})
	}
}

// TestE2EInterruptedAtEachPhase: Ctrl-C as each component has started,
// at the apply and while waiting for the pods ends the run with
// context.Canceled, leaving nothing running, listening or on disk.
func TestE2EInterruptedAtEachPhase(t *testing.T) {
	bins := e2eBinaries(t)
	for _, at := range []string{"started etcd", "started kube-apiserver", "started kube-controller-manager", "started kube-scheduler", "started kubelet", "kubectl apply", "waiting for"} {
		t.Run(at, func(t *testing.T) {
			interruptRun(t, bins, at, 0, 0)
			checkNothingLeft(t, &started{}, nil) // the run directory
		})
	}
}

// TestE2EComponentCrashesMidRun: the controller manager killed while the
// run waits for the pods ends the run with an error naming it before the
// scenario's timeout, and nothing is left.
func TestE2EComponentCrashesMidRun(t *testing.T) {
	bins := e2eBinaries(t)
	ports, err := freePorts(6)
	if err != nil {
		t.Fatal(err)
	}
	var s started
	logf := func(format string, args ...any) {
		line := fmt.Sprintf(format, args...)
		t.Log(line)
		s.note(line)
		if strings.HasPrefix(line, "waiting for") {
			// Its own process, by the pid the run reported.
			if pid := s.pid("kube-controller-manager"); pid > 0 {
				syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	}
	start := time.Now()
	_, err = Run(context.Background(), bins, RunOptions{ports: ports, Logf: logf, Timeout: 2 * time.Minute})
	if err == nil || !strings.Contains(err.Error(), "kube-controller-manager") {
		t.Errorf("err = %v, want the controller manager's end named", err)
	}
	if d := time.Since(start); d > 110*time.Second {
		t.Errorf("the run noticed the crash only at its timeout (%s)", d.Round(time.Second))
	}
	checkNothingLeft(t, &s, ports)
}

// TestE2EInterruptedBuild: Ctrl-C while the programs build (into a cache
// of kubewalk's own that has none of them, so go build has work) ends
// Build with context.Canceled, leaving no half-built directory and no go
// command or compiler working for it.
func TestE2EInterruptedBuild(t *testing.T) {
	cache := os.Getenv("KUBEWALK_E2E_CACHE")
	if cache == "" {
		t.Skip("KUBEWALK_E2E_CACHE not set (make e2e sets it)")
	}
	tree, err := source.Fetch(context.Background(), source.Options{Tag: source.DefaultTag, Source: "goproxy", CacheDir: cache})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	logf := func(format string, args ...any) {
		line := fmt.Sprintf(format, args...)
		t.Log(line)
		if strings.HasPrefix(line, "building ") {
			time.AfterFunc(500*time.Millisecond, cancel)
		}
	}
	start := time.Now()
	_, err = Build(ctx, tree, BuildOptions{CacheDir: dir, Logf: logf})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	t.Logf("returned %s after the start", time.Since(start).Round(time.Millisecond))
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.Contains(d.Name(), ".tmp-") {
			t.Errorf("half-built directory left: %s", p)
		}
		return nil
	})
	// Every process working for this build names its directory.
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		b, err := os.ReadFile(p)
		if err == nil && strings.Contains(string(b), dir) {
			t.Errorf("%s still runs: %s", filepath.Dir(p), strings.ReplaceAll(string(b), "\x00", " "))
		}
	}
}

// TestE2EInterruptedWhileStopping: Ctrl-C as the last phase ends, when
// the run stops its components and reads the counters and the audit log,
// ends the run either with its recording or with context.Canceled, and
// leaves nothing running, listening or on disk either way.
func TestE2EInterruptedWhileStopping(t *testing.T) {
	bins := e2eBinaries(t)
	if !bins.Coverage {
		t.Skip("the last phase is logged by programs built with coverage")
	}
	ports, err := freePorts(6)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var s started
	logf := func(format string, args ...any) {
		line := fmt.Sprintf(format, args...)
		t.Log(line)
		s.note(line)
		if strings.HasPrefix(line, "phase quiet ended") {
			cancel()
		}
	}
	rec, err := Run(ctx, bins, RunOptions{ports: ports, Logf: logf, Timeout: 3 * time.Minute})
	switch {
	case err == nil && (rec == nil || len(rec.Events) == 0):
		t.Errorf("no error and no events recorded")
	case err != nil && !errors.Is(err, context.Canceled):
		t.Errorf("err = %v, want the recording or context.Canceled", err)
	}
	checkNothingLeft(t, &s, ports)
}
