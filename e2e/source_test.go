//go:build e2e

package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// fetched is `kubewalk fetch -o json`: the tree's metadata.
type fetched struct {
	Dir     string   `json:"dir"`
	Tag     string   `json:"tag"`
	Commit  string   `json:"commit"`
	Backend string   `json:"backend"`
	Missing []string `json:"missing"`
}

// TestE2EGoproxy fetches real Kubernetes releases through the module proxy
// of the environment (GOPROXY), then again from the cache with the proxy
// turned off.
func TestE2EGoproxy(t *testing.T) {
	for _, tag := range []string{"", "v1.31.0"} { // "": the default release
		t.Run(tagName(tag), func(t *testing.T) {
			args := []string{"fetch", "--source", "goproxy", "-o", "json", "-v"}
			if tag != "" {
				args = append(args, "--tag", tag)
			}
			start := time.Now()
			var tree fetched
			out, stderr := run{}.ok(t, args...)
			if err := json.Unmarshal([]byte(out), &tree); err != nil {
				t.Fatalf("fetch -o json: %v\n%s", err, out)
			}
			t.Logf("%s: %s commit=%q missing=%v in %v\n%s", tree.Tag, tree.Dir, tree.Commit, tree.Missing, time.Since(start).Round(time.Millisecond), stderr)
			if tag != "" && tree.Tag != tag || tree.Backend != "goproxy" {
				t.Errorf("fetched %s from %s, want %s from goproxy", tree.Tag, tree.Backend, tag)
			}
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
				t.Logf("%s: the proxy's .info names no commit; permalinks use the tag", tree.Tag)
			}
			// A second fetch is served by the cache.
			start = time.Now()
			dir, _ := run{env: []string{"GOPROXY=off"}}.ok(t, "fetch", "--source", "goproxy", "--tag", tree.Tag, "-o", "dir")
			if strings.TrimSpace(dir) != tree.Dir {
				t.Errorf("cached fetch: dir %s, want %s", strings.TrimSpace(dir), tree.Dir)
			}
			t.Logf("cached fetch in %v", time.Since(start))
		})
	}
}

// TestE2EAutoFallsBack fetches the default tag with --source auto into an
// empty cache. Where the upstream remote cannot be reached (this project's
// CI cannot reach GitHub), auto must notice within seconds and use the
// module proxy, and say so.
func TestE2EAutoFallsBack(t *testing.T) {
	start := time.Now()
	out, stderr := run{cache: t.TempDir()}.ok(t, "fetch", "--source", "auto", "-o", "json")
	var tree fetched
	if err := json.Unmarshal([]byte(out), &tree); err != nil {
		t.Fatalf("fetch -o json: %v\n%s", err, out)
	}
	t.Logf("auto: backend %s in %v; stderr:\n%s", tree.Backend, time.Since(start).Round(time.Millisecond), stderr)
	if tree.Backend == "goproxy" && !strings.Contains(stderr, "unreachable, using the Go module proxy") {
		t.Error("fell back to goproxy without saying so")
	}
}
