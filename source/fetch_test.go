package source

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestGitTags(t *testing.T) {
	cache := t.TempDir()
	for _, rel := range fixtureReleases {
		t.Run(rel.tag, func(t *testing.T) {
			tree, err := Fetch(context.Background(), gitOptions(t, cache, rel.tag))
			if err != nil {
				t.Fatal(err)
			}
			// An annotated tag resolves to its commit, not the tag object.
			if tree.Commit != fx.commits[rel.tag] || tree.Backend != "git" || tree.Tag != rel.tag {
				t.Errorf("got %+v, want commit %s, backend git", tree, fx.commits[rel.tag])
			}
			if want := filepath.Join(cache, "trees", "git", rel.tag, "kubernetes"); tree.Dir != want {
				t.Errorf("Dir = %s, want %s", tree.Dir, want)
			}
			if len(tree.Missing) != 0 {
				t.Errorf("Missing = %v, want none", tree.Missing)
			}
			if diff := cmp.Diff(fixtureFiles(rel.tag), readTree(t, tree.Dir)); diff != "" {
				t.Errorf("tree (-want +got):\n%s", diff)
			}
		})
	}
}

func TestGoproxy(t *testing.T) {
	cache := t.TempDir()
	for _, tag := range []string{"v1.30.0", "v1.31.0"} {
		t.Run(tag, func(t *testing.T) {
			opts := proxyOptions(t, cache, tag)
			logger, warnings := capturingLogger(t)
			opts.Logger = logger
			tree, err := Fetch(context.Background(), opts)
			if err != nil {
				t.Fatal(err)
			}
			// Only v1.31.0's .info names the commit, as on the real proxy
			// for some releases.
			wantCommit := ""
			if tag == "v1.31.0" {
				wantCommit = fx.commits[tag]
			}
			if tree.Commit != wantCommit || tree.Backend != "goproxy" {
				t.Errorf("got %+v, want commit %q, backend goproxy", tree, wantCommit)
			}
			if want := []string{"k8s.io/sample-cli-plugin"}; !slices.Equal(tree.Missing, want) {
				t.Errorf("Missing = %v, want %v", tree.Missing, want)
			}
			if n := strings.Count(warnings.String(), "\n"); n != 1 || !strings.Contains(warnings.String(), "sample-cli-plugin") {
				t.Errorf("want one warning naming sample-cli-plugin, got:\n%s", warnings)
			}
			files := readTree(t, tree.Dir)
			for _, p := range []string{"pkg/controller/deployment/sync.go", "staging/src/k8s.io/client-go/tools/cache/shared_informer.go", "staging/src/k8s.io/api/core/v1/types.go"} {
				if _, ok := files[p]; !ok {
					t.Errorf("tree lacks %s", p)
				}
			}
			// The tree is removable by plain means (no read-only files
			// from the module cache).
			if err := os.WriteFile(filepath.Join(tree.Dir, "go.mod"), []byte(files["go.mod"]), 0o644); err != nil {
				t.Errorf("tree not writable: %v", err)
			}
		})
	}
}

// TestBackendsAgree builds one release through both backends: every path,
// and so every permalink and line number, must be the same. The only
// differences allowed are those of publishing: vendored code is not in
// module zips, published staging go.mod files are rewritten, and the
// proxy does not serve sample-cli-plugin.
func TestBackendsAgree(t *testing.T) {
	cache := t.TempDir()
	g, err := Fetch(context.Background(), gitOptions(t, cache, "v1.31.0"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := Fetch(context.Background(), proxyOptions(t, cache, "v1.31.0"))
	if err != nil {
		t.Fatal(err)
	}
	if g.Commit != p.Commit {
		t.Errorf("commit: git %s, goproxy %s", g.Commit, p.Commit)
	}
	gf, pf := readTree(t, g.Dir), readTree(t, p.Dir)
	var gitOnly, proxyOnly, differ []string
	for path, content := range gf {
		pc, ok := pf[path]
		switch {
		case !ok:
			gitOnly = append(gitOnly, path)
		case pc != content:
			differ = append(differ, path)
		}
	}
	for path := range pf {
		if _, ok := gf[path]; !ok {
			proxyOnly = append(proxyOnly, path)
		}
	}
	sort.Strings(gitOnly)
	sort.Strings(differ)
	want := []string{
		"staging/src/k8s.io/sample-cli-plugin/go.mod",
		"staging/src/k8s.io/sample-cli-plugin/main.go",
		"vendor/example.com/dep/dep.go",
		// vendor/modules.txt is in both: module zips keep it for a go.mod
		// at go 1.23 or older (the fixture's 1.22, kubernetes v1.31.0's
		// 1.22) and leave it out from 1.24 on (kubernetes v1.36.3).
	}
	if diff := cmp.Diff(want, gitOnly); diff != "" {
		t.Errorf("files only in the git tree (-want +got):\n%s", diff)
	}
	if len(proxyOnly) > 0 {
		t.Errorf("files only in the goproxy tree: %v", proxyOnly)
	}
	if diff := cmp.Diff([]string{"staging/src/k8s.io/client-go/go.mod"}, differ); diff != "" {
		t.Errorf("files that differ (-want +got):\n%s", diff)
	}
}

// TestTreeLoads runs the go command on each backend's tree with Tree.Env,
// offline: the workspace kubewalk wrote must resolve the staging modules.
func TestTreeLoads(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	cache := t.TempDir()
	// At pinnedTag a staging module's published go.mod replaces its
	// sister with a version, which conflicts with the tree's replace
	// unless the go.work kubewalk writes sets it aside.
	for _, opts := range []Options{gitOptions(t, cache, "v1.31.0"), proxyOptions(t, cache, "v1.31.0"), proxyOptions(t, cache, pinnedTag)} {
		t.Run(opts.Source+"-"+opts.Tag, func(t *testing.T) {
			tree, err := Fetch(context.Background(), opts)
			if err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command("go", "list", "-deps", "./pkg/...")
			cmd.Dir = tree.Dir
			cmd.Env = append(os.Environ(), "GOPROXY=off", "GOTOOLCHAIN=local", "GOMODCACHE="+t.TempDir())
			cmd.Env = append(cmd.Env, tree.Env...)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("go list: %v\n%s", err, out)
			}
			for _, want := range []string{"k8s.io/api/core/v1", "k8s.io/client-go/tools/cache", "k8s.io/kubernetes/pkg/controller/deployment"} {
				if !strings.Contains(string(out), want+"\n") {
					t.Errorf("go list -deps lacks %s:\n%s", want, out)
				}
			}
			// The whole module graph loads too, as it must for any package
			// with a third-party import, although the goproxy tree lacks
			// sample-cli-plugin, which go.mod requires and replaces with a
			// directory that is not there (as the real go.mod does with
			// k8s.io/endpointslice at v1.29.6).
			cmd = exec.Command("go", "list", "-m", "all")
			cmd.Dir = tree.Dir
			cmd.Env = append(os.Environ(), "GOPROXY=off", "GOTOOLCHAIN=local", "GOMODCACHE="+t.TempDir())
			cmd.Env = append(cmd.Env, tree.Env...)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("go list -m all: %v\n%s", err, out)
			}
		})
	}
}

// A relative cache directory gives absolute paths: the go command runs in
// the tree with GOWORK from Tree.Env, and both must name the same files
// from any working directory.
func TestRelativeCacheDir(t *testing.T) {
	t.Chdir(t.TempDir())
	for _, opts := range []Options{gitOptions(t, "cache", "v1.31.0"), proxyOptions(t, "cache", "v1.31.0")} {
		t.Run(opts.Source, func(t *testing.T) {
			tree, err := Fetch(context.Background(), opts)
			if err != nil {
				t.Fatal(err)
			}
			if !filepath.IsAbs(tree.Dir) {
				t.Errorf("Tree.Dir = %q, want an absolute path", tree.Dir)
			}
			for _, kv := range tree.Env {
				if v, ok := strings.CutPrefix(kv, "GOWORK="); ok && !filepath.IsAbs(v) {
					t.Errorf("Tree.Env has %s, want an absolute GOWORK", kv)
				}
			}
			if _, err := os.Stat(filepath.Join(tree.Dir, "pkg/controller/deployment/sync.go")); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestDir(t *testing.T) {
	dir := checkout(t, "v1.31.0")
	tree, err := Fetch(context.Background(), Options{Tag: "v1.31.0", Source: dir, CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	want := &Tree{Dir: dir, Tag: "v1.31.0", Commit: fx.commits["v1.31.0"], Backend: "dir", Env: []string{"GOWORK=" + filepath.Join(dir, "go.work")}}
	if diff := cmp.Diff(want, tree); diff != "" {
		t.Errorf("tree (-want +got):\n%s", diff)
	}
}

func TestCachedFetchDoesNoNetworkWork(t *testing.T) {
	cache := t.TempDir()
	g, err := Fetch(context.Background(), gitOptions(t, cache, "v1.31.0"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := Fetch(context.Background(), proxyOptions(t, cache, "v1.30.0"))
	if err != nil {
		t.Fatal(err)
	}
	broken := func(opts Options) Options {
		opts.Repo = "http://127.0.0.1:1/nowhere.git"
		opts.GoCommand = filepath.Join(t.TempDir(), "no-go-here")
		opts.Env = []string{"GOPROXY=off"}
		return opts
	}
	for _, tc := range []struct {
		opts Options
		want *Tree
	}{
		{broken(gitOptions(t, cache, "v1.31.0")), g},
		{broken(proxyOptions(t, cache, "v1.30.0")), p},
		{broken(Options{Tag: "v1.31.0", Source: "auto", CacheDir: cache}), g},
		{broken(Options{Tag: "v1.30.0", Source: "auto", CacheDir: cache}), p},
	} {
		start := time.Now()
		got, err := Fetch(context.Background(), tc.opts)
		if err != nil {
			t.Errorf("%s %s: %v", tc.opts.Source, tc.opts.Tag, err)
			continue
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s %s (-want +got):\n%s", tc.opts.Source, tc.opts.Tag, diff)
		}
		t.Logf("%s %s cached: %v", tc.opts.Source, tc.opts.Tag, time.Since(start))
	}
}

func TestAutoFallsBackToGoproxy(t *testing.T) {
	opts := proxyOptions(t, t.TempDir(), "v1.31.0")
	opts.Source = "auto"
	opts.Repo = "http://127.0.0.1:1/kubernetes.git" // nothing listens on port 1
	logger, warnings := capturingLogger(t)
	opts.Logger = logger
	tree, err := Fetch(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if tree.Backend != "goproxy" {
		t.Errorf("Backend = %s, want goproxy", tree.Backend)
	}
	lines := strings.Split(strings.TrimSpace(warnings.String()), "\n")
	if !strings.Contains(lines[0], "git remote unreachable") || strings.Count(warnings.String(), "unreachable, using") != 1 {
		t.Errorf("want one line about the fallback first, got:\n%s", warnings)
	}
}

func TestAutoPrefersGit(t *testing.T) {
	opts := gitOptions(t, t.TempDir(), "v1.30.0")
	opts.Source = "auto"
	tree, err := Fetch(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if tree.Backend != "git" || tree.Commit != fx.commits["v1.30.0"] {
		t.Errorf("got %+v, want git at %s", tree, fx.commits["v1.30.0"])
	}
}

func TestBadInput(t *testing.T) {
	notGit := t.TempDir()
	if err := writeFiles(notGit, fixtureFiles("v1.31.0")); err != nil {
		t.Fatal(err)
	}
	otherModule := t.TempDir()
	writeFiles(otherModule, map[string]string{"go.mod": "module example.com/other\n"})
	aFile := filepath.Join(t.TempDir(), "file")
	os.WriteFile(aFile, nil, 0o644)
	cache := t.TempDir()
	at130 := checkout(t, "v1.30.0")

	withRepo := func(o Options, repo string) Options { o.Repo = repo; return o }
	withEnv := func(o Options, env ...string) Options { o.Env = append(o.Env, env...); return o }
	for _, tc := range []struct {
		name  string
		opts  Options
		want  error
		words []string // the message names these
	}{
		{"tag not semver", gitOptions(t, cache, "1.31.0"), ErrInvalidTag, []string{`"1.31.0"`, DefaultTag}},
		{"tag shorthand", gitOptions(t, cache, "v1.31"), ErrInvalidTag, nil},
		{"tag not v1", proxyOptions(t, cache, "v2.0.0"), ErrInvalidTag, nil},
		{"git tag not found", gitOptions(t, cache, "v1.31.5"), ErrTagNotFound, []string{"tag not found: v1.31.5; nearest releases: v1.31.0"}},
		{"git tag between releases", gitOptions(t, cache, "v1.30.7"), ErrTagNotFound, []string{"v1.30.0, v1.31.0"}},
		{"goproxy tag not found", proxyOptions(t, cache, "v1.29.0"), ErrTagNotFound, []string{"module proxy", "nearest releases: v1.30.0, v1.31.0"}},
		{"goproxy pre-release not served", proxyOptions(t, cache, "v1.32.0-alpha.1"), ErrTagNotFound, []string{"v1.31.0"}},
		{"auto tag not found does not fall back", withRepo(proxyOptions(t, cache, "v1.33.0"), fx.repo), ErrTagNotFound, []string{"git remote"}},
		{"git remote refuses", withRepo(gitOptions(t, cache, "v1.31.0"), "http://127.0.0.1:1/k.git"), ErrUnreachable, []string{"127.0.0.1:1", "--source goproxy"}},
		{"git remote no such path", withRepo(gitOptions(t, cache, "v1.31.0"), filepath.Join(cache, "nowhere")), ErrUnreachable, []string{"nowhere"}},
		{"git remote not a repository", withRepo(gitOptions(t, cache, "v1.31.0"), notGit), ErrUnreachable, nil},
		{"goproxy refuses", withEnv(proxyOptions(t, cache, "v1.31.0"), "GOPROXY=http://127.0.0.1:1"), ErrUnreachable, []string{"GOPROXY"}},
		{"goproxy off", withEnv(proxyOptions(t, cache, "v1.31.0"), "GOPROXY=off"), ErrUnreachable, nil},
		{"dir not kubernetes", Options{Tag: "v1.31.0", Source: t.TempDir()}, ErrNotKubernetes, []string{"module k8s.io/kubernetes"}},
		{"dir other module", Options{Tag: "v1.31.0", Source: otherModule}, ErrNotKubernetes, nil},
		{"dir does not exist", Options{Tag: "v1.31.0", Source: filepath.Join(cache, "nope")}, ErrNotKubernetes, []string{"neither auto, git, goproxy nor a directory"}},
		{"dir not a git checkout", Options{Tag: "v1.31.0", Source: notGit}, ErrNotAtTag, []string{"not a git checkout"}},
		{"dir at another tag", Options{Tag: "v1.31.0", Source: at130}, ErrNotAtTag, []string{"HEAD is " + fx.commits["v1.30.0"][:12], "checkout v1.31.0"}},
		{"dir lacks the tag", Options{Tag: "v1.29.0", Source: at130}, ErrTagNotFound, []string{"nearest releases: v1.30.0, v1.31.0", "fetch origin tag v1.29.0"}},
		{"cache under a file", gitOptions(t, filepath.Join(aFile, "cache"), "v1.31.0"), ErrCacheUnwritable, []string{"--cache-dir"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.opts.CacheDir == "" {
				tc.opts.CacheDir = cache
			}
			if tc.name == "auto tag not found does not fall back" {
				tc.opts.Source = "auto"
			}
			_, err := Fetch(context.Background(), tc.opts)
			if !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
			msg := err.Error()
			t.Log(msg)
			if strings.Contains(msg, "\n") {
				t.Errorf("message is more than one line:\n%s", msg)
			}
			for _, w := range tc.words {
				if !strings.Contains(msg, w) {
					t.Errorf("message lacks %q", w)
				}
			}
		})
	}
}

func TestCacheUnwritable(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root writes into read-only directories; TestBadInput covers a cache under a file")
	}
	cache := t.TempDir()
	if err := os.Chmod(cache, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(cache, 0o755) })
	_, err := Fetch(context.Background(), gitOptions(t, cache, "v1.31.0"))
	if !errors.Is(err, ErrCacheUnwritable) || !strings.Contains(err.Error(), cache) {
		t.Fatalf("err = %v, want ErrCacheUnwritable naming %s", err, cache)
	}
}

func TestConcurrentFetches(t *testing.T) {
	cache := t.TempDir()
	var wg sync.WaitGroup
	trees := make([]*Tree, 4)
	errs := make([]error, 4)
	for i := range trees {
		wg.Go(func() {
			opts := gitOptions(t, cache, "v1.31.0")
			if i%2 == 1 {
				opts = proxyOptions(t, cache, "v1.31.0")
			}
			trees[i], errs[i] = Fetch(context.Background(), opts)
		})
	}
	wg.Wait()
	for i := range trees {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		if other := trees[i%2]; trees[i].Dir != other.Dir {
			t.Errorf("fetch %d: %s, fetch %d: %s", i, trees[i].Dir, i%2, other.Dir)
		}
	}
	assertNoLeftovers(t, cache)
}

func TestConcurrentProcesses(t *testing.T) {
	cache := t.TempDir()
	spec := helperSpec{Tag: "v1.31.0", Source: "goproxy", CacheDir: cache, Env: proxyEnv(t)}
	var cmds []*exec.Cmd
	var outs []string
	for range 2 {
		cmd, out := helperCmd(t, spec)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
		defer func() { outs = append(outs, out.String()) }()
	}
	for _, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("helper: %v", err)
		}
	}
	tree, err := loadTree(filepath.Join(cache, "trees", "goproxy", "v1.31.0"), "goproxy", "v1.31.0")
	if err != nil {
		t.Fatal(err)
	}
	if len(tree.Missing) != 1 {
		t.Errorf("Missing = %v", tree.Missing)
	}
	assertNoLeftovers(t, cache)
}

// TestKilledFetchRecovers kills a fetching process (its go command hangs),
// then fetches again: the leftover is removed and the fetch completes, with
// no manual clean-up.
func TestKilledFetchRecovers(t *testing.T) {
	cache := t.TempDir()
	hang := filepath.Join(t.TempDir(), "go")
	if err := os.WriteFile(hang, []byte("#!/bin/sh\nexec sleep 10\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd, _ := helperCmd(t, helperSpec{Tag: "v1.31.0", Source: "goproxy", CacheDir: cache, GoCommand: hang})
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	parent := filepath.Join(cache, "trees", "goproxy")
	deadline := time.Now().Add(20 * time.Second)
	for {
		if m, _ := filepath.Glob(filepath.Join(parent, "v1.31.0.tmp-*")); len(m) > 0 {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("the helper never started fetching")
		}
		time.Sleep(20 * time.Millisecond)
	}
	cmd.Process.Kill()
	cmd.Wait()
	if _, err := loadTree(filepath.Join(parent, "v1.31.0"), "goproxy", "v1.31.0"); err == nil {
		t.Fatal("a killed fetch left a tree that looks complete")
	}
	tree, err := Fetch(context.Background(), proxyOptions(t, cache, "v1.31.0"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(tree.Dir, "pkg/controller/deployment/sync.go")); err != nil {
		t.Error(err)
	}
	assertNoLeftovers(t, cache)
}

func TestLeftoverAndCancelledFetch(t *testing.T) {
	cache := t.TempDir()
	parent := filepath.Join(cache, "trees", "git")
	stale := filepath.Join(parent, "v1.31.0.tmp-123", "kubernetes", "pkg")
	if err := os.MkdirAll(stale, 0o555); err != nil { // read-only, as a module cache copy would be
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Fetch(ctx, gitOptions(t, cache, "v1.31.0")); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled fetch: err = %v, want context.Canceled", err)
	}
	if m, _ := filepath.Glob(filepath.Join(parent, "v1.31.0.tmp-*")); len(m) != 0 {
		// The stale leftover is gone too: the cancelled fetch held the lock.
		t.Errorf("left behind: %v", m)
	}
	os.MkdirAll(stale, 0o555)
	// A tree directory without tree.json (damaged by hand, or an older
	// layout) is not complete either.
	damaged := filepath.Join(parent, "v1.31.0", "kubernetes")
	os.MkdirAll(damaged, 0o755)
	if _, err := Fetch(context.Background(), gitOptions(t, cache, "v1.31.0")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(damaged, "go.mod")); err != nil {
		t.Errorf("damaged tree not replaced: %v", err)
	}
	assertNoLeftovers(t, cache)
}

func assertNoLeftovers(t *testing.T, cache string) {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(cache, "trees", "*", "*.tmp-*"))
	if len(m) > 0 {
		t.Errorf("temporary directories left behind: %v", m)
	}
}
