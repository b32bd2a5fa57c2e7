//go:build e2e

package source_test

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/kubewalk/kubewalk/source"
)

// TestE2EGoproxy fetches real Kubernetes releases through the module proxy
// of the environment (GOPROXY). KUBEWALK_E2E_CACHE shares the cache with
// other e2e runs; without it each run downloads into a temporary cache.
func TestE2EGoproxy(t *testing.T) {
	cache := os.Getenv("KUBEWALK_E2E_CACHE")
	if cache == "" {
		cache = t.TempDir()
	}
	for _, tag := range []string{source.DefaultTag, "v1.31.0"} {
		t.Run(tag, func(t *testing.T) {
			start := time.Now()
			tree, err := source.Fetch(context.Background(), source.Options{
				Tag:      tag,
				Source:   "goproxy",
				CacheDir: cache,
				Logger:   slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelDebug})),
			})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %s commit=%q missing=%v in %v", tag, tree.Dir, tree.Commit, tree.Missing, time.Since(start).Round(time.Millisecond))
			sync, err := os.ReadFile(filepath.Join(tree.Dir, "pkg/controller/deployment/sync.go"))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(sync), "getNewReplicaSet") {
				t.Error("pkg/controller/deployment/sync.go lacks getNewReplicaSet")
			}
			if _, err := os.Stat(filepath.Join(tree.Dir, "staging/src/k8s.io/client-go/tools/cache/shared_informer.go")); err != nil {
				t.Error(err)
			}
			// The proxy's .info carries the commit for some releases only
			// (proxy.golang.org gave one for v1.31.0; a mirror may not).
			if tree.Commit != "" && !regexp.MustCompile(`^[0-9a-f]{40}$`).MatchString(tree.Commit) {
				t.Errorf("commit %q is not a hash", tree.Commit)
			}
			if tree.Commit == "" {
				t.Logf("%s: the proxy's .info names no commit; permalinks use the tag", tag)
			}
			// A second fetch is served by the cache.
			start = time.Now()
			again, err := source.Fetch(context.Background(), source.Options{Tag: tag, Source: "goproxy", CacheDir: cache, Env: []string{"GOPROXY=off"}})
			if err != nil {
				t.Fatal(err)
			}
			if again.Dir != tree.Dir {
				t.Errorf("cached fetch: dir %s, want %s", again.Dir, tree.Dir)
			}
			t.Logf("cached fetch in %v", time.Since(start))
		})
	}
}

// TestE2EAutoFallsBack fetches the default tag with --source auto into an
// empty cache. Where the upstream remote cannot be reached (this project's
// CI cannot reach GitHub), auto must notice within seconds and use the
// module proxy.
func TestE2EAutoFallsBack(t *testing.T) {
	start := time.Now()
	var warnings strings.Builder
	tree, err := source.Fetch(context.Background(), source.Options{
		Source:   "auto",
		CacheDir: t.TempDir(),
		Logger:   slog.New(slog.NewTextHandler(&warnings, &slog.HandlerOptions{Level: slog.LevelWarn})),
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("auto: backend %s in %v; warnings:\n%s", tree.Backend, time.Since(start).Round(time.Millisecond), warnings.String())
	if tree.Backend == "goproxy" && !strings.Contains(warnings.String(), "git remote unreachable") {
		t.Error("fell back to goproxy without saying so")
	}
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}
