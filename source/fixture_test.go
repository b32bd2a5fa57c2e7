package source

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
	modzip "golang.org/x/mod/zip"
)

// The fixture is a miniature Kubernetes with three releases, built once
// for the whole package:
//
//	v1.30.0          lightweight tag   in the git repo and the proxy (.info without Origin)
//	v1.31.0          annotated tag     in the git repo and the proxy (.info with Origin.Hash)
//	v1.32.0-alpha.1  lightweight tag   in the git repo only
//
// The proxy never serves k8s.io/sample-cli-plugin, as the real one does not
// at v0.36.3. Its staging zips carry a go.mod rewritten the way the
// publishing bot rewrites them (no replace lines, versioned requires).
var fx struct {
	repo    string            // a git repository (with a work tree, HEAD at the last release)
	proxy   string            // a directory to use as GOPROXY=file://...
	commits map[string]string // tag → commit hash
}

var fixtureReleases = []struct {
	tag       string
	annotated bool
	proxy     bool
}{
	{"v1.30.0", false, true},
	{"v1.31.0", true, true},
	{"v1.32.0-alpha.1", false, false},
}

// fixtureFiles is the repository at a release.
func fixtureFiles(tag string) map[string]string {
	return map[string]string{
		"README.md":         "# Kubernetes (fixture) " + tag + "\n",
		"hack/verify.sh":    "#!/bin/sh\necho ok\n",
		"staging/README.md": "The staging modules are published separately.\n",
		"go.mod": `module k8s.io/kubernetes

go 1.22

require (
	k8s.io/api v0.0.0
	k8s.io/client-go v0.0.0
	k8s.io/sample-cli-plugin v0.0.0
)

replace (
	k8s.io/api => ./staging/src/k8s.io/api
	k8s.io/client-go => ./staging/src/k8s.io/client-go
	k8s.io/sample-cli-plugin => ./staging/src/k8s.io/sample-cli-plugin
)
`,
		"go.work": `// This is a generated file. Do not edit directly.

go 1.22

use (
	.
	./staging/src/k8s.io/api
	./staging/src/k8s.io/client-go
	./staging/src/k8s.io/sample-cli-plugin
)
`,
		"vendor/modules.txt":            "# example.com/dep v1.0.0\n## explicit\nexample.com/dep\n",
		"vendor/example.com/dep/dep.go": "package dep\n",
		"pkg/controller/deployment/sync.go": `package deployment

import "k8s.io/client-go/tools/cache"

// DeploymentController is the fixture's controller at ` + tag + `.
type DeploymentController struct{ informer cache.SharedInformer }

func (dc *DeploymentController) getNewReplicaSet() string {
	return "` + tag + `"
}
`,
		"staging/src/k8s.io/api/go.mod": "module k8s.io/api\n\ngo 1.22\n",
		"staging/src/k8s.io/api/core/v1/types.go": `package v1

// Pod is a pod.
type Pod struct{ Name string }
`,
		"staging/src/k8s.io/client-go/go.mod": `module k8s.io/client-go

go 1.22

require k8s.io/api v0.0.0

replace k8s.io/api => ../api
`,
		"staging/src/k8s.io/client-go/tools/cache/shared_informer.go": `package cache

import v1 "k8s.io/api/core/v1"

// SharedInformer informs.
type SharedInformer interface{ AddEventHandler(func(*v1.Pod)) }
`,
		"staging/src/k8s.io/sample-cli-plugin/go.mod":  "module k8s.io/sample-cli-plugin\n\ngo 1.22\n",
		"staging/src/k8s.io/sample-cli-plugin/main.go": "package main\n\nfunc main() {}\n",
	}
}

func TestMain(m *testing.M) {
	if spec := os.Getenv(helperEnv); spec != "" {
		os.Exit(helperMain(spec))
	}
	root, err := os.MkdirTemp("", "kubewalk-source-fixture-")
	if err != nil {
		log.Fatal(err)
	}
	if err := buildFixture(root); err != nil {
		os.RemoveAll(root)
		log.Fatal(err)
	}
	code := m.Run()
	os.RemoveAll(root)
	os.Exit(code)
}

func writeFiles(dir string, files map[string]string) error {
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		mode := os.FileMode(0o644)
		if strings.HasSuffix(name, ".sh") {
			mode = 0o755
		}
		if err := os.WriteFile(p, []byte(content), mode); err != nil {
			return err
		}
	}
	return nil
}

func buildFixture(root string) error {
	fx.repo = filepath.Join(root, "kubernetes")
	fx.proxy = filepath.Join(root, "proxy")
	fx.commits = map[string]string{}
	repo, err := git.PlainInit(fx.repo, false)
	if err != nil {
		return err
	}
	wt, err := repo.Worktree()
	if err != nil {
		return err
	}
	when := time.Date(2024, 8, 13, 7, 28, 48, 0, time.UTC)
	for i, rel := range fixtureReleases {
		sig := &object.Signature{Name: "Release Bot", Email: "bot@example.com", When: when.Add(time.Duration(i) * time.Hour)}
		if err := writeFiles(fx.repo, fixtureFiles(rel.tag)); err != nil {
			return err
		}
		if err := wt.AddWithOptions(&git.AddOptions{All: true}); err != nil {
			return err
		}
		h, err := wt.Commit("Release "+rel.tag, &git.CommitOptions{Author: sig})
		if err != nil {
			return err
		}
		fx.commits[rel.tag] = h.String()
		var topts *git.CreateTagOptions
		if rel.annotated {
			topts = &git.CreateTagOptions{Tagger: sig, Message: "Kubernetes " + rel.tag}
		}
		if _, err := repo.CreateTag(rel.tag, h, topts); err != nil {
			return err
		}
		if rel.proxy {
			if err := publish(root, rel.tag, h.String(), rel.annotated); err != nil {
				return fmt.Errorf("publish %s: %w", rel.tag, err)
			}
		}
	}
	return nil
}

// pinnedTag is the fixture release whose published staging go.mods pin
// their sister modules with replace directives, as Kubernetes' v0.29.0
// modules do (client-go: k8s.io/api => k8s.io/api v0.29.0).
const pinnedTag = "v1.30.0"

// publish puts a release into the file proxy the way the real one holds
// it: k8s.io/kubernetes@<tag> zipped from the repository (x/mod/zip leaves
// out the nested staging modules and the vendored code), and each staging
// module but sample-cli-plugin at v0.<minor>.<patch> with its published
// go.mod.
func publish(root, tag, commit string, withOrigin bool) error {
	src := filepath.Join(root, "src-"+tag)
	if err := writeFiles(src, fixtureFiles(tag)); err != nil {
		return err
	}
	info := map[string]any{"Version": tag, "Time": "2024-08-13T07:28:48Z"}
	if withOrigin {
		info["Origin"] = map[string]string{"VCS": "git", "URL": "https://github.com/kubernetes/kubernetes", "Ref": "refs/tags/" + tag, "Hash": commit}
	}
	if err := addModule(fx.proxy, module.Version{Path: kubernetesModule, Version: tag}, src, info); err != nil {
		return err
	}
	sv := stagingVersion(tag)
	for _, name := range []string{"api", "client-go"} {
		dir := filepath.Join(src, "staging/src/k8s.io", name)
		gm := filepath.Join(dir, "go.mod")
		data, err := os.ReadFile(gm)
		if err != nil {
			return err
		}
		f, err := modfile.Parse(gm, data, nil)
		if err != nil {
			return err
		}
		var replaced []string
		for _, r := range f.Replace {
			replaced = append(replaced, r.Old.Path)
		}
		for _, p := range replaced {
			f.DropReplace(p, "")
			if tag == pinnedTag {
				// As k8s.io/client-go@v0.29.0 was published: the
				// sister module pinned to the release.
				if err := f.AddReplace(p, "", p, sv); err != nil {
					return err
				}
			}
		}
		for _, r := range f.Require {
			f.AddRequire(r.Mod.Path, sv)
		}
		f.Cleanup()
		out, err := f.Format()
		if err != nil {
			return err
		}
		if err := os.WriteFile(gm, out, 0o644); err != nil {
			return err
		}
		if err := addModule(fx.proxy, module.Version{Path: "k8s.io/" + name, Version: sv}, dir, map[string]any{"Version": sv, "Time": "2024-08-13T07:28:48Z"}); err != nil {
			return err
		}
	}
	return nil
}

// addModule puts module m, zipped from dir, into the file proxy at proxy.
func addModule(proxy string, m module.Version, dir string, info map[string]any) error {
	esc, err := module.EscapePath(m.Path)
	if err != nil {
		return err
	}
	at := filepath.Join(proxy, filepath.FromSlash(esc), "@v")
	if err := os.MkdirAll(at, 0o755); err != nil {
		return err
	}
	var z bytes.Buffer
	if err := modzip.CreateFromDir(&z, m, dir); err != nil {
		return err
	}
	gomod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return err
	}
	ib, err := json.Marshal(info)
	if err != nil {
		return err
	}
	list, _ := os.ReadFile(filepath.Join(at, "list"))
	list = append(list, m.Version+"\n"...)
	for name, data := range map[string][]byte{
		m.Version + ".zip":  z.Bytes(),
		m.Version + ".mod":  gomod,
		m.Version + ".info": ib,
		"list":              list,
	} {
		if err := os.WriteFile(filepath.Join(at, name), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// proxyEnv points the go command at the fixture proxy, with a module
// cache of the test's own that is made removable again afterwards (the go
// command writes it read-only).
func proxyEnv(t testing.TB) []string {
	modcache := t.TempDir()
	t.Cleanup(func() { makeWritable(modcache) })
	return []string{
		"GOPROXY=file://" + filepath.ToSlash(fx.proxy),
		"GOSUMDB=off",
		"GONOSUMDB=k8s.io",
		"GOPRIVATE=",
		"GONOPROXY=",
		"GOMODCACHE=" + modcache,
		"GOFLAGS=-mod=mod",
		"GOTOOLCHAIN=local",
	}
}

func makeWritable(dir string) {
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			os.Chmod(p, 0o755)
		}
		return nil
	})
}

func gitOptions(t testing.TB, cache, tag string) Options {
	return Options{Tag: tag, Source: "git", Repo: fx.repo, CacheDir: cache, Logger: testLogger(t)}
}

func proxyOptions(t testing.TB, cache, tag string) Options {
	return Options{Tag: tag, Source: "goproxy", CacheDir: cache, Env: proxyEnv(t), Logger: testLogger(t)}
}

// checkout clones the fixture repository with its work tree at tag, as a
// reader's own checkout would be.
func checkout(t testing.TB, tag string) string {
	dir := t.TempDir()
	r, err := git.PlainClone(dir, false, &git.CloneOptions{URL: fx.repo})
	if err != nil {
		t.Fatal(err)
	}
	wt, err := r.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	if err := wt.Checkout(&git.CheckoutOptions{Hash: plumbing.NewHash(fx.commits[tag]), Force: true}); err != nil {
		t.Fatal(err)
	}
	return dir
}

// readTree returns the repository-relative paths and contents of the
// regular files under dir.
func readTree(t testing.TB, dir string) map[string]string {
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		files[filepath.ToSlash(rel)] = string(b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}
