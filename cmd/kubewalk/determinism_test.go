package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5"
	"golang.org/x/mod/module"
	modzip "golang.org/x/mod/zip"

	"github.com/kubewalk/kubewalk/internal/linkcheck"
	"github.com/kubewalk/kubewalk/site"
)

// fixtureProxy publishes the fixture repository at each of tags into a
// directory to use as GOPROXY=file://..., the way the real proxy holds a
// release: k8s.io/kubernetes@tag zipped from the repository (x/mod/zip leaves out
// .git and the nested staging modules), each staging module at
// v0.<minor>.<patch>, and an .info whose Origin names the tag's commit.
func fixtureProxy(t *testing.T, repo string, tags ...string) (proxy, commit string) {
	t.Helper()
	r, err := git.PlainOpen(repo)
	if err != nil {
		t.Fatal(err)
	}
	head, err := r.Head()
	if err != nil {
		t.Fatal(err)
	}
	commit = head.Hash().String()
	proxy = t.TempDir()
	add := func(path, version, dir string, info map[string]any) {
		esc, err := module.EscapePath(path)
		if err != nil {
			t.Fatal(err)
		}
		at := filepath.Join(proxy, filepath.FromSlash(esc), "@v")
		if err := os.MkdirAll(at, 0o755); err != nil {
			t.Fatal(err)
		}
		var z bytes.Buffer
		if err := modzip.CreateFromDir(&z, module.Version{Path: path, Version: version}, dir); err != nil {
			t.Fatal(err)
		}
		gomod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err != nil {
			t.Fatal(err)
		}
		ib, _ := json.Marshal(info)
		list, err := os.ReadFile(filepath.Join(at, "list"))
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			t.Fatal(err)
		}
		for name, data := range map[string][]byte{
			version + ".zip":  z.Bytes(),
			version + ".mod":  gomod,
			version + ".info": ib,
			"list":            append(list, version+"\n"...),
		} {
			if err := os.WriteFile(filepath.Join(at, name), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	const when = "2024-08-13T07:28:48Z"
	for _, tag := range tags {
		add("k8s.io/kubernetes", tag, repo, map[string]any{
			"Version": tag, "Time": when,
			"Origin": map[string]string{"VCS": "git", "URL": "https://github.com/kubernetes/kubernetes", "Ref": "refs/tags/" + tag, "Hash": commit},
		})
		// The fixture's staging go.mod files require nothing, so
		// publishing them unchanged is what the publishing bot would do.
		sv := "v0" + strings.TrimPrefix(tag, "v1")
		for _, name := range []string{"api", "apimachinery", "client-go"} {
			add("k8s.io/"+name, sv, filepath.Join(repo, "staging", "src", "k8s.io", name), map[string]any{"Version": sv, "Time": when})
		}
	}
	return proxy, commit
}

// siteFiles reads every file of a built site by slash path.
func siteFiles(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		files[filepath.ToSlash(rel)] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// useFixtureProxy makes the fixture repository at tag, and points the go
// command of this test at a file:// proxy of it (published at the more
// tags too), with a module cache of the test's own. It returns the
// repository and the tag's commit.
func useFixtureProxy(t *testing.T, tag string, more ...string) (repo, commit string) {
	t.Setenv("GOFLAGS", "-mod=mod")
	t.Setenv("GOTOOLCHAIN", "local")
	t.Setenv("GOSUMDB", "off")
	t.Setenv("GONOSUMDB", "")
	t.Setenv("GOPRIVATE", "")
	t.Setenv("GONOPROXY", "")
	modcache := t.TempDir()
	t.Cleanup(func() {
		filepath.WalkDir(modcache, func(p string, d os.DirEntry, err error) error {
			if err == nil && d.IsDir() {
				os.Chmod(p, 0o755) // the go command writes the module cache read-only
			}
			return nil
		})
	})
	t.Setenv("GOMODCACHE", modcache)
	repo = fixtureRepo(t, tag)
	proxy, commit := fixtureProxy(t, repo, append([]string{tag}, more...)...)
	t.Setenv("GOPROXY", "file://"+filepath.ToSlash(proxy))
	return repo, commit
}

// TestDeterminismAcrossSources builds the fixture site from the git and
// goproxy backends, and again from cached facts, and compares the sites
// file by file; it stays one function because every comparison is
// against the same builds.
func TestDeterminismAcrossSources(t *testing.T) {
	if testing.Short() {
		t.Skip("loads packages")
	}
	const tag = "v1.99.0"
	repo, commit := useFixtureProxy(t, tag)
	wdir := t.TempDir()
	if err := os.WriteFile(filepath.Join(wdir, "fixture.md"), []byte(fixtureWalkthrough), 0o644); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	build := func(source, cache, name string) map[string][]byte {
		t.Helper()
		dir := filepath.Join(out, name)
		code, _, stderr := kw(t, "--cache-dir", cache, "--quiet", "build", "--tag", tag, "--source", source, "--repo", repo,
			"--no-builtin", "--walkthroughs", wdir, "--out", dir)
		if code != exitOK {
			t.Fatalf("build --source %s: exit %d: %s", source, code, stderr)
		}
		for _, err := range linkcheck.Check(dir, site.ScriptLinks) {
			t.Errorf("%s: %v", name, err)
		}
		return siteFiles(t, dir)
	}
	gitCache, proxyCache := t.TempDir(), t.TempDir()
	g := build("git", gitCache, "git")
	p := build("goproxy", proxyCache, "goproxy")
	g2 := build("git", gitCache, "git-again")

	// Two builds in a row (the second from cached facts): identical.
	for _, name := range unionKeys(g, g2) {
		if !bytes.Equal(g[name], g2[name]) {
			t.Errorf("%s differs between two git builds", name)
		}
	}

	// Both backends knew the commit (the proxy's .info names it), and no
	// page names the backend, so the two sites are the same byte for byte.
	if !bytes.Contains(g["en/index.html"], []byte(commit[:12])) { // the English home: the site is bilingual
		t.Errorf("en/index.html does not show the commit %s", commit[:12])
	}
	var html int
	for _, name := range unionKeys(g, p) {
		a, ok1 := g[name]
		b, ok2 := p[name]
		if !ok1 || !ok2 {
			t.Errorf("%s: only in the %s site", name, map[bool]string{true: "git", false: "goproxy"}[ok1])
			continue
		}
		if strings.HasSuffix(name, ".html") {
			html++
		}
		if !bytes.Equal(a, b) {
			al, bl := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
			for i := 0; i < len(al) && i < len(bl); i++ {
				if al[i] != bl[i] {
					t.Errorf("%s:%d differs between the backends:\n git:     %s\n goproxy: %s", name, i+1, al[i], bl[i])
					break
				}
			}
			if len(al) != len(bl) {
				t.Errorf("%s: %d lines from git, %d from goproxy", name, len(al), len(bl))
			}
		}
	}
	if html < 5 {
		t.Errorf("only %d HTML pages compared", html)
	}
	t.Logf("%d files compared, %d HTML pages", len(g), html)
}

func unionKeys[V any](a, b map[string]V) []string {
	seen := map[string]bool{}
	for k := range a {
		seen[k] = true
	}
	for k := range b {
		seen[k] = true
	}
	keys := make([]string, 0, len(seen))
	for k := range seen {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// TestRacingBuilds runs three `kubewalk build`s at once on one empty
// --cache-dir and one --out, as a Makefile with -j or two terminals
// would. Each must succeed or fail with one line; afterwards --out is
// one complete site, byte-identical to a build made alone, with nothing
// left beside it, and the cache holds one tree, one facts file and no
// temporary files. It stays one function: every check reads what the one
// race left.
func TestRacingBuilds(t *testing.T) {
	if testing.Short() {
		t.Skip("loads packages")
	}
	const tag = "v1.99.0"
	repo, wdir := gitFixture(t, tag, fixtureWalkthrough)
	args := func(cache, out string) []string {
		return []string{"--cache-dir", cache, "--quiet", "build", "--tag", tag, "--source", "git", "--repo", repo,
			"--no-builtin", "--walkthroughs", wdir, "--out", out}
	}
	alone := filepath.Join(t.TempDir(), "public")
	if code, _, stderr := kw(t, args(t.TempDir(), alone)...); code != exitOK {
		t.Fatalf("build alone: exit %d: %s", code, stderr)
	}

	cache, parent := t.TempDir(), t.TempDir()
	out := filepath.Join(parent, "public")
	const n = 3
	codes := make([]int, n)
	stderrs := make([]string, n)
	done := make(chan int)
	for i := range n {
		go func() {
			var o, e bytes.Buffer
			codes[i] = run(t.Context(), args(cache, out), strings.NewReader(""), &o, &e)
			stderrs[i] = e.String()
			done <- i
		}()
	}
	for range n {
		<-done
	}
	succeeded := 0
	for i := range n {
		switch codes[i] {
		case exitOK:
			succeeded++
		case exitFailure:
			t.Logf("build %d failed: %s", i, stderrs[i])
			if strings.Count(strings.TrimSpace(stderrs[i]), "\n") > 0 {
				t.Errorf("build %d: error is more than one line:\n%s", i, stderrs[i])
			}
		default:
			t.Errorf("build %d: exit %d: %s", i, codes[i], stderrs[i])
		}
	}
	if succeeded == 0 {
		t.Fatal("no build succeeded")
	}
	want, got := siteFiles(t, alone), siteFiles(t, out)
	for _, name := range unionKeys(want, got) {
		if !bytes.Equal(want[name], got[name]) {
			t.Errorf("%s differs from the build made alone", name)
		}
	}
	for _, err := range linkcheck.Check(out, site.ScriptLinks) {
		t.Error(err)
	}
	if ents, _ := os.ReadDir(parent); len(ents) != 1 {
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		t.Errorf("left beside the output: %v", names)
	}

	// The cache: one complete tree, served without the remote; one facts
	// file; nothing temporary.
	code, stdout, stderr := kw(t, "--cache-dir", cache, "--quiet", "fetch", "-o", "json", "--tag", tag, "--source", "git", "--repo", "http://127.0.0.1:1/gone.git")
	if code != exitOK {
		t.Errorf("fetch from the cache: exit %d: %s", code, stderr)
	} else if !strings.Contains(stdout, `"backend": "git"`) && !strings.Contains(stdout, `"backend":"git"`) {
		t.Errorf("fetch from the cache: %s", stdout)
	}
	var stray []string
	filepath.WalkDir(cache, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if strings.Contains(d.Name(), ".tmp") || strings.HasSuffix(d.Name(), ".old") {
			stray = append(stray, p)
		}
		if d.IsDir() && d.Name() == "kubernetes" {
			return filepath.SkipDir
		}
		return nil
	})
	if len(stray) > 0 {
		t.Errorf("temporary files left in the cache: %v", stray)
	}
	facts, _ := filepath.Glob(filepath.Join(cache, "facts", "*"))
	if len(facts) != 1 {
		t.Errorf("facts cache holds %v, want one file", facts)
	}
}
