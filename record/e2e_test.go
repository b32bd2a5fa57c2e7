//go:build e2e

package record

import (
	"context"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kubewalk/kubewalk/source"
)

// e2eBinaries builds (or takes from the cache make e2e shares) the
// programs of the default release, with coverage counters as kubewalk
// record builds them by default.
func e2eBinaries(t *testing.T) *Binaries {
	t.Helper()
	cache := os.Getenv("KUBEWALK_E2E_CACHE")
	if cache == "" {
		t.Skip("KUBEWALK_E2E_CACHE not set (make e2e sets it)")
	}
	ctx := context.Background()
	tree, err := source.Fetch(ctx, source.Options{Tag: source.DefaultTag, Source: "goproxy", CacheDir: cache})
	if err != nil {
		t.Fatal(err)
	}
	bins, err := Build(ctx, tree, BuildOptions{CacheDir: cache, Coverage: true, CoverRoots: coverRoots(t, tree, cache), Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	return bins
}

// runLeftovers are the run directories in TMPDIR, and the hollow
// kubelet's root directories in /tmp (where kubemark makes them, whatever
// TMPDIR says) made or changed since these tests began.
func runLeftovers(t *testing.T) []string {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), runDirPrefix+"*"))
	roots, _ := filepath.Glob("/tmp/hollow-kubelet.*")
	for _, d := range roots {
		if fi, err := os.Stat(d); err == nil && !fi.ModTime().Before(testsBegan) {
			dirs = append(dirs, d)
		}
	}
	return dirs
}

// testsBegan is when this test binary started.
var testsBegan = time.Now().Truncate(time.Second)

// The faults a study group meets on a laptop, with the release's real
// programs: each is an error that says what happened, and leaves nothing
// running or on disk. These stay in this package, not in the e2e package
// that drives the binary, because they reach where no flag does: the
// ports a run listens on (one taken), and the cancellation at a chosen
// component's start, with Run's error. The e2e package checks the rest
// through kubewalk record: a timeout (TestE2ERecordTimeout) and Ctrl-C
// (TestE2ERecordInterrupted).
func TestE2ERunFaults(t *testing.T) {
	bins := e2eBinaries(t)
	t.Run("port in use", func(t *testing.T) {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		busy := l.Addr().(*net.TCPAddr).Port
		ports, err := freePorts(6)
		if err != nil {
			t.Fatal(err)
		}
		ports[2] = busy // the API server's
		_, err = Run(context.Background(), bins, RunOptions{ports: ports, Logf: t.Logf})
		if !errors.Is(err, ErrComponent) || !strings.Contains(err.Error(), "kube-apiserver") || !strings.Contains(err.Error(), "address already in use") {
			t.Errorf("err = %v, want the API server's failure with its log saying the address is in use", err)
		}
	})
	// cancelAt runs the scenario and cancels it when Run logs a line of
	// format whose first argument is arg, as Ctrl-C would then.
	cancelAt := func(t *testing.T, format, arg string) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		logf := func(f string, args ...any) {
			t.Logf(f, args...)
			if strings.HasPrefix(f, format) && len(args) > 0 && args[0] == arg {
				cancel()
			}
		}
		if _, err := Run(ctx, bins, RunOptions{Logf: logf}); !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want context.Canceled", err)
		}
	}
	t.Run("cancelled", func(t *testing.T) { cancelAt(t, "started", "kube-scheduler") })
	// Ctrl-C once the programs hold counters of several phases: the
	// snapshot directories go with the run's, and the reads of them are
	// stopped.
	t.Run("cancelled between phases", func(t *testing.T) { cancelAt(t, "phase", "apply/kubectl") })
	if l := runLeftovers(t); len(l) > 0 {
		t.Errorf("run directories left: %v", l)
	}
	for _, p := range Programs {
		if out, _ := pgrep(bins.Path(p)); out != "" {
			t.Errorf("still running: %s", out)
		}
	}
}

func pgrep(pattern string) (string, error) {
	out, err := exec.Command("pgrep", "-af", pattern).Output()
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if l != "" && !strings.Contains(l, "pgrep") {
			lines = append(lines, l)
		}
	}
	return strings.Join(lines, "\n"), err
}
