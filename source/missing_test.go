package source

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/mod/module"

	"github.com/kubewalk/kubewalk/internal/disk/safedir"
)

// The fixture proxy never serves k8s.io/sample-cli-plugin. These tests
// fetch a release from a copy of it, then publish the module there, as the
// real proxy came to serve k8s.io/endpointslice@v0.29.6 after kubewalk's
// v1.29.6 tree was fetched without it.

const missingTag = "v1.31.0"

var missingModule = []string{"k8s.io/sample-cli-plugin"}

// publishMissing puts k8s.io/sample-cli-plugin at tag's staging version
// into the file proxy at proxy.
func publishMissing(t *testing.T, proxy, tag string) {
	t.Helper()
	src := t.TempDir()
	if err := writeFiles(src, fixtureFiles(tag)); err != nil {
		t.Fatal(err)
	}
	sv := stagingVersion(tag)
	dir := filepath.Join(src, "staging/src/k8s.io/sample-cli-plugin")
	if err := addModule(proxy, module.Version{Path: "k8s.io/sample-cli-plugin", Version: sv}, dir, map[string]any{"Version": sv, "Time": "2026-01-13T07:28:48Z"}); err != nil {
		t.Fatal(err)
	}
}

// countingProxy serves the file proxy at proxy over HTTP and counts the
// requests.
func countingProxy(t *testing.T, proxy string) (url string, requests *atomic.Int64) {
	t.Helper()
	requests = new(atomic.Int64)
	files := http.FileServer(http.Dir(proxy))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		files.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL, requests
}

// fetchLacking fetches missingTag from a copy of the file proxy that
// lacks missingModule, at a clock the test moves (*now), and then
// publishes the module there: the next check that is due finds it served.
func fetchLacking(t *testing.T) (opts Options, proxy string, now *time.Time, first *Tree) {
	t.Helper()
	proxy = copyProxy(t)
	now = new(time.Time)
	*now = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	opts = proxyOptionsAt(t, t.TempDir(), missingTag, proxy)
	clockAt(&opts, now)
	first, err := Fetch(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(first.Missing, missingModule) {
		t.Fatalf("Missing = %v, want %v", first.Missing, missingModule)
	}
	publishMissing(t, proxy, missingTag)
	return opts, proxy, now, first
}

// clockAt sets opts' clock to *now.
func clockAt(opts *Options, now *time.Time) {
	opts.now = func() time.Time { return *now }
}

// infoLogger logs at Info and above into the returned writer.
func infoLogger(t *testing.T) (*slog.Logger, *logWriter) {
	w := &logWriter{t: t}
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelInfo})), w
}

func readMeta(t *testing.T, tree *Tree) meta {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(filepath.Dir(tree.Dir), metaFileName))
	if err != nil {
		t.Fatal(err)
	}
	var m meta
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// assertCompleted checks that tree holds the module it lacked at first,
// its go.work uses it (and no stub stands in for it), its tree.json lists
// nothing missing, and its packages load.
func assertCompleted(t *testing.T, first, tree *Tree) {
	t.Helper()
	if tree.Dir != first.Dir || !slices.Equal(tree.Env, first.Env) {
		t.Errorf("the completed tree moved: %s %v, was %s %v", tree.Dir, tree.Env, first.Dir, first.Env)
	}
	if len(tree.Missing) != 0 {
		t.Errorf("Missing = %v, want none", tree.Missing)
	}
	if m := readMeta(t, tree); len(m.Missing) != 0 {
		t.Errorf("tree.json lists %v missing", m.Missing)
	}
	if _, err := os.Stat(filepath.Join(tree.Dir, "staging/src/k8s.io/sample-cli-plugin/main.go")); err != nil {
		t.Error(err)
	}
	work, err := os.ReadFile(filepath.Join(filepath.Dir(tree.Dir), workFileName))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(work), "\t./kubernetes/staging/src/k8s.io/sample-cli-plugin\n") || strings.Contains(string(work), stubsDir) {
		t.Errorf("go.work does not use k8s.io/sample-cli-plugin, or still names a stub:\n%s", work)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(tree.Dir), stubsDir)); err == nil {
		t.Errorf("the completed tree still has its stubs")
	}
	cmd := exec.Command("go", "list", "k8s.io/sample-cli-plugin")
	cmd.Dir = tree.Dir
	cmd.Env = append(os.Environ(), "GOPROXY=off", "GOTOOLCHAIN=local", "GOMODCACHE="+t.TempDir())
	cmd.Env = append(cmd.Env, tree.Env...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("go list k8s.io/sample-cli-plugin in the completed tree: %v\n%s", err, out)
	}
}

// TestMissingModuleServedLater: a cached tree that lacks a staging module
// the proxy serves now is completed at a fetch once the check interval has
// passed (or at once, for a tree.json of a kubewalk that recorded no
// check): the tree in place is the whole one, at the same path, the
// completion logged once at Info, and nothing left beside it.
func TestMissingModuleServedLater(t *testing.T) {
	for _, tc := range []struct {
		name  string
		later func(t *testing.T, final string, now *time.Time)
	}{
		{"check interval passed", func(t *testing.T, final string, now *time.Time) {
			*now = now.Add(missingCheckInterval)
		}},
		{"no exchange on this file system", func(t *testing.T, final string, now *time.Time) {
			*now = now.Add(missingCheckInterval)
			tried := false
			exchange = func(a, b string) error {
				tried = true
				return &os.LinkError{Op: "exchange", Old: a, New: b, Err: errors.ErrUnsupported}
			}
			t.Cleanup(func() {
				exchange = safedir.Exchange
				if !tried {
					t.Error("the completed tree was put in place without trying an exchange")
				}
			})
		}},
		{"tree.json without the check's time", func(t *testing.T, final string, now *time.Time) {
			var m meta
			b, err := os.ReadFile(filepath.Join(final, metaFileName))
			if err == nil {
				err = json.Unmarshal(b, &m)
			}
			if err != nil {
				t.Fatal(err)
			}
			m.Checked = time.Time{}
			if err := os.WriteFile(filepath.Join(final, metaFileName), m.encode(), 0o644); err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(m.encode()), "checked") {
				t.Fatalf("tree.json still records a check:\n%s", m.encode())
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts, _, now, first := fetchLacking(t)
			tc.later(t, filepath.Dir(first.Dir), now)

			logger, logs := infoLogger(t)
			opts.Logger = logger
			tree, err := Fetch(context.Background(), opts)
			if err != nil {
				t.Fatal(err)
			}
			assertCompleted(t, first, tree)
			if n := strings.Count(logs.String(), "completed the cached tree"); n != 1 || !strings.Contains(logs.String(), "added=k8s.io/sample-cli-plugin") {
				t.Errorf("want one Info line naming the module added, got:\n%s", logs)
			}
			if strings.Contains(logs.String(), "level=WARN") {
				t.Errorf("completing the tree warned:\n%s", logs)
			}
			assertNoLeftovers(t, opts.CacheDir)

			// The completed tree is the cached one now, with no network
			// work (the go command cannot even run).
			opts.GoCommand = filepath.Join(t.TempDir(), "no-go-here")
			opts.Env = []string{"GOPROXY=off"}
			again, err := Fetch(context.Background(), opts)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tree, again); diff != "" {
				t.Errorf("cached tree after completion (-want +got):\n%s", diff)
			}
		})
	}
}

// TestMissingCheckedOncePerInterval: the proxy is asked about a cached
// tree's missing modules at most once per missingCheckInterval, whatever
// it answered; a fetch in between sends it nothing, and neither does one
// of a tree that lacks nothing. A module counts as served when its zip
// is, not its .info alone.
func TestMissingCheckedOncePerInterval(t *testing.T) {
	proxy := copyProxy(t)
	url, requests := countingProxy(t, proxy)
	cache := t.TempDir()
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	now := t0
	opts := proxyOptionsAt(t, cache, missingTag, proxy, "GOPROXY="+url)
	clockAt(&opts, &now)
	first, err := Fetch(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(first.Missing, missingModule) {
		t.Fatalf("Missing = %v, want %v", first.Missing, missingModule)
	}
	if m := readMeta(t, first); !m.Checked.Equal(t0) {
		t.Errorf("tree.json: checked %v, want the fetch's time %v", m.Checked, t0)
	}
	fetchAt := func(at time.Time) (*Tree, int64) {
		t.Helper()
		now = at
		requests.Store(0)
		tree, err := Fetch(context.Background(), opts)
		if err != nil {
			t.Fatal(err)
		}
		return tree, requests.Load()
	}

	// Within the interval of the fetch: not asked.
	if tree, n := fetchAt(t0.Add(missingCheckInterval - time.Minute)); n != 0 || !slices.Equal(tree.Missing, missingModule) {
		t.Errorf("within the interval: %d requests to the proxy, Missing %v; want none and %v", n, tree.Missing, missingModule)
	}
	// Due, but another kubewalk holds the tree's lock (fetching or
	// checking it): not asked, not waited for, not recorded.
	t1 := t0.Add(missingCheckInterval)
	lock, err := safedir.TryLockFile(filepath.Join(cache, "trees", "goproxy", missingTag+".lock"))
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	tree, n := fetchAt(t1)
	lock.Unlock()
	if n != 0 || time.Since(start) > 5*time.Second || !slices.Equal(tree.Missing, missingModule) {
		t.Errorf("lock held: %d requests in %v, Missing %v; want none, at once, and %v", n, time.Since(start), tree.Missing, missingModule)
	}
	if m := readMeta(t, tree); !m.Checked.Equal(t0) {
		t.Errorf("tree.json: checked %v, want %v still", m.Checked, t0)
	}
	// Due: asked; the proxy serves the module's .info and .mod but not
	// its zip (as proxy.golang.org does k8s.io/endpointslice@v0.29.6's),
	// so it is not served, and the tree is not fetched again; the check's
	// time is recorded.
	publishMissing(t, proxy, missingTag)
	zip := proxyFile(t, proxy, missingModule[0], stagingVersion(missingTag), ".zip")
	zipData, err := os.ReadFile(zip)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(zip); err != nil {
		t.Fatal(err)
	}
	var progress strings.Builder
	opts.Progress = &progress
	tree, n = fetchAt(t1)
	if n == 0 || !slices.Equal(tree.Missing, missingModule) {
		t.Errorf("check due, module not served: %d requests, Missing %v; want some and %v", n, tree.Missing, missingModule)
	}
	if strings.Contains(progress.String(), "again") {
		t.Errorf("the tree was fetched again for a module whose zip is not served:\n%s", progress.String())
	}
	if m := readMeta(t, tree); !m.Checked.Equal(t1) {
		t.Errorf("tree.json: checked %v, want %v", m.Checked, t1)
	}
	if diff := cmp.Diff(first, tree); diff != "" {
		t.Errorf("a check that found nothing changed the tree (-want +got):\n%s", diff)
	}
	// Served now, but within the interval of the last check: not asked.
	if err := os.WriteFile(zip, zipData, 0o644); err != nil {
		t.Fatal(err)
	}
	if tree, n := fetchAt(t1.Add(missingCheckInterval - time.Minute)); n != 0 || !slices.Equal(tree.Missing, missingModule) {
		t.Errorf("within the interval of the last check: %d requests, Missing %v; want none and %v", n, tree.Missing, missingModule)
	}
	// Due again: completed.
	progress.Reset()
	tree, n = fetchAt(t1.Add(missingCheckInterval))
	if n == 0 {
		t.Errorf("check due: no request to the proxy")
	}
	assertCompleted(t, first, tree)
	if want := "the module proxy serves k8s.io/sample-cli-plugin at v0.31.0 now: fetching v1.31.0 again"; !strings.Contains(progress.String(), want) {
		t.Errorf("progress lacks %q:\n%s", want, progress.String())
	}
	// A tree that lacks nothing is never asked about.
	if tree, n := fetchAt(t1.Add(10 * missingCheckInterval)); n != 0 || len(tree.Missing) != 0 {
		t.Errorf("complete tree: %d requests, Missing %v; want none", n, tree.Missing)
	}
	assertNoLeftovers(t, cache)
}

// TestMissingCheckOffline: when the proxy cannot be asked (nothing
// listens, it never answers, lookups are off), a fetch whose check is due
// returns the cached tree, without an error, soon, with one warning; the
// next fetch does not ask again (nor warn) before the interval has passed.
func TestMissingCheckOffline(t *testing.T) {
	opts, proxy, now, first := fetchLacking(t)
	cache := opts.CacheDir
	for _, tc := range []struct {
		name, goproxy string
	}{
		{"nothing listens", "http://127.0.0.1:1"},
		{"never answers", "http://" + silentServer(t)},
		{"GOPROXY=off", "off"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			*now = now.Add(missingCheckInterval)
			o := proxyOptionsAt(t, cache, missingTag, proxy, "GOPROXY="+tc.goproxy)
			clockAt(&o, now)
			o.checkTimeout = time.Second
			logger, warnings := capturingLogger(t)
			o.Logger = logger
			start := time.Now()
			tree, err := Fetch(context.Background(), o)
			elapsed := time.Since(start)
			if err != nil {
				t.Fatalf("an unreachable proxy failed the fetch of a cached tree: %v", err)
			}
			if diff := cmp.Diff(first, tree); diff != "" {
				t.Errorf("tree (-want +got):\n%s", diff)
			}
			if n := strings.Count(warnings.String(), "\n"); n != 1 || !strings.Contains(warnings.String(), "could not ask the module proxy") {
				t.Errorf("want one warning that the proxy could not be asked, got:\n%s", warnings)
			}
			if elapsed > 5*time.Second {
				t.Errorf("the fetch of a cached tree took %v with the proxy unreachable", elapsed)
			}
			if m := readMeta(t, tree); !m.Checked.Equal(*now) {
				t.Errorf("tree.json: checked %v, want the failed check's time %v", m.Checked, *now)
			}

			*now = now.Add(time.Hour)
			logger, warnings = capturingLogger(t)
			o.Logger = logger
			if _, err := Fetch(context.Background(), o); err != nil {
				t.Fatal(err)
			}
			if warnings.String() != "" {
				t.Errorf("the next fetch asked again:\n%s", warnings)
			}
		})
	}
	assertNoLeftovers(t, cache)
}

// TestLeftoverBesideCachedTree: a completion killed after its exchange
// leaves the old tree beside the new one, under a temporary name, and a
// tree that lacks nothing is not fetched again, so nothing else would
// remove it: the next fetch of the cached tree does, unless another
// kubewalk holds the tree's lock (its temporary directory is in use).
func TestLeftoverBesideCachedTree(t *testing.T) {
	cache := t.TempDir()
	opts := gitOptions(t, cache, missingTag)
	tree, err := Fetch(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	final := filepath.Dir(tree.Dir)
	leftover := final + ".tmp-4242"
	if err := writeFiles(leftover, map[string]string{"kubernetes/go.mod": "module k8s.io/kubernetes\n", "tree.json": "{}"}); err != nil {
		t.Fatal(err)
	}
	lock, err := safedir.TryLockFile(final + ".lock")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Fetch(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	lock.Unlock()
	if _, err := os.Stat(leftover); err != nil {
		t.Errorf("removed a temporary directory while its fetch held the lock: %v", err)
	}
	for _, source := range []string{"git", "auto"} {
		if err := writeFiles(leftover, map[string]string{"kubernetes/go.mod": "module k8s.io/kubernetes\n"}); err != nil {
			t.Fatal(err)
		}
		opts.Source = source
		again, err := Fetch(context.Background(), opts)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tree, again); diff != "" {
			t.Errorf("--source %s (-want +got):\n%s", source, diff)
		}
		assertNoLeftovers(t, cache)
	}
}

// TestMissingCheckOfflineSeveralTrees: kubewalk build fetches several
// releases at once. With the proxy unreachable, one check finds out and
// warns, and the others skip theirs, at once, without waiting for the
// time limit again or warning again; each tree records the check.
func TestMissingCheckOfflineSeveralTrees(t *testing.T) {
	tags := []string{"v1.30.0", "v1.31.0"}
	proxy := copyProxy(t)
	cache := t.TempDir()
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	opts := proxyOptionsAt(t, cache, tags[0], proxy)
	clockAt(&opts, &now)
	firsts := map[string]*Tree{}
	for _, tag := range tags {
		o := opts
		o.Tag = tag
		tree, err := Fetch(context.Background(), o)
		if err != nil {
			t.Fatal(err)
		}
		firsts[tag] = tree
		publishMissing(t, proxy, tag)
	}

	now = now.Add(missingCheckInterval)
	opts.Env = append(opts.Env, "GOPROXY=http://"+silentServer(t))
	opts.checkTimeout = time.Second
	logger, warnings := capturingLogger(t)
	opts.Logger = logger
	start := time.Now()
	trees := make([]*Tree, len(tags))
	errs := make([]error, len(tags))
	var wg sync.WaitGroup
	for i, tag := range tags {
		wg.Go(func() {
			o := opts
			o.Tag = tag
			trees[i], errs[i] = Fetch(context.Background(), o)
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	for i, tag := range tags {
		if errs[i] != nil {
			t.Fatalf("%s: %v", tag, errs[i])
		}
		if diff := cmp.Diff(firsts[tag], trees[i]); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tag, diff)
		}
		if m := readMeta(t, trees[i]); !m.Checked.Equal(now) {
			t.Errorf("%s: tree.json: checked %v, want %v", tag, m.Checked, now)
		}
	}
	if n := strings.Count(warnings.String(), "\n"); n != 1 || !strings.Contains(warnings.String(), "could not ask the module proxy") {
		t.Errorf("want one warning for the build, got:\n%s", warnings)
	}
	if elapsed >= 2*opts.checkTimeout {
		t.Errorf("the fetches took %v: the time limit (%v) was waited for more than once", elapsed, opts.checkTimeout)
	}
}
