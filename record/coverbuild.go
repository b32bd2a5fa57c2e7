package record

import (
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/mod/modfile"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/source"
)

// coverHook is added to each program's main package when it is built
// with coverage counters: on SIGUSR1 it writes the counters into a
// directory kubewalk names and clears them. Its build constraint
// (helperConstraint) keeps the go command from building it as part of
// kubewalk, and it lives outside helper/ so that the plain build's hash
// does not change with it.
//
// The hook cannot be added to the tree's own main packages through go
// build -overlay: runtime/coverage writes nothing unless the main package
// is counted too (its init starts the coverage runtime), and the cover
// tool (Go 1.26) reads a counted package's files from disk, ignoring the
// overlay. So a coverage build compiles copies of the release's five main
// packages (cmd/kube-apiserver and the like: a call into their app
// package) in kubewalk's helper module, the hook beside each, as it does
// with kubemark's.
//
//go:embed coverhook/kubewalk_cover.go
var coverHook []byte

// coverHookFile is the hook's name in each main package.
const coverHookFile = "kubewalk_cover.go"

// coverMains are the release's main packages, by directory in the tree,
// copied into the helper module for a coverage build; kubewalk's helper
// mains (etcd, kubelet) are there already.
var coverMains = []string{"cmd/kube-apiserver", "cmd/kube-controller-manager", "cmd/kube-proxy", "cmd/kube-scheduler", "cmd/kubectl"}

// coverSkip are the staging modules whose packages get no counters:
// k8s.io/api is generated API types and their protobuf code, which no
// walkthrough cites and which would weigh on the build and the recording;
// the code generators and samples are not part of the programs.
var coverSkip = []string{"k8s.io/api", "k8s.io/code-generator", "k8s.io/sample-apiserver", "k8s.io/sample-cli-plugin", "k8s.io/sample-controller"}

// CoverPackages returns the -coverpkg patterns of a coverage build.
// With roots (BuildOptions.CoverRoots: the analyzer's, patterns relative
// to the tree's root module such as ./pkg/controller/..., or import paths
// and patterns), the patterns are those of the roots in the tree's
// Kubernetes modules (the kubernetes module and every staging module of
// the workspace but coverSkip's); without, the kubernetes module's cmd,
// pkg and plugin trees (not test/ or hack/) and every such staging module
// whole. Either way kubewalk's helper module is added, whose main packages
// must be counted for the coverage runtime to start (the recording leaves
// the helper's files out). Only the packages the programs import get
// counters; a pattern matching none of them costs the go command a
// package load, nothing more.
func CoverPackages(tree *source.Tree, roots []string) ([]string, error) {
	twork, err := treeWork(tree)
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(twork)
	if err != nil {
		return nil, fmt.Errorf("record: %w", err)
	}
	wf, err := modfile.ParseWork(twork, data, nil)
	if err != nil {
		return nil, fmt.Errorf("record: %w", err)
	}
	var mods []string
	for _, u := range wf.Use {
		dir := u.Path
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(filepath.Dir(twork), filepath.FromSlash(dir))
		}
		gomod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err != nil {
			return nil, fmt.Errorf("record: %w", err)
		}
		if mod := modfile.ModulePath(gomod); mod == "k8s.io/kubernetes" || strings.HasPrefix(mod, "k8s.io/") && !slices.Contains(coverSkip, mod) {
			mods = append(mods, mod)
		}
	}
	var pats []string
	if len(roots) == 0 {
		for _, mod := range mods {
			if mod == "k8s.io/kubernetes" {
				pats = append(pats, mod+"/cmd/...", mod+"/pkg/...", mod+"/plugin/...")
			} else {
				pats = append(pats, mod+"/...")
			}
		}
	}
	for _, r := range roots {
		if rel, ok := strings.CutPrefix(r, "./"); ok {
			r = "k8s.io/kubernetes/" + rel
		}
		// The module whose package the root is: the longest module path
		// that prefixes it (k8s.io/kubernetes is not a prefix of a
		// staging module's paths).
		in := slices.ContainsFunc(mods, func(mod string) bool {
			return r == mod || strings.HasPrefix(r, mod+"/")
		})
		if in && !slices.Contains(pats, r) {
			pats = append(pats, r)
		}
	}
	if len(pats) == 0 {
		return nil, fmt.Errorf("record: the workspace of %s names no Kubernetes module to count coverage in", tree.Tag)
	}
	pats = append(pats, helperModule+"/...")
	slices.Sort(pats)
	return pats, nil
}

// CoverRoots returns roots (the analyzer's roots and the walkthroughs'
// packages) with the packages of the files facts point the site's source
// pages at: each handler registration, event, write and wiring, where it
// is and the functions it names (fact.Locations, the site's rule too).
// Some lie outside the roots (pkg/registry's strategies, apimachinery's
// wait), and a source page without counters would show no marks.
func CoverRoots(roots []string, f *fact.Facts) []string {
	out := slices.Clone(roots)
	add := func(l fact.Location) {
		if l.Path == "" {
			return
		}
		dir := path.Dir(l.Path)
		pkg, ok := strings.CutPrefix(dir, "staging/src/")
		if !ok {
			pkg = "k8s.io/kubernetes/" + dir
		}
		if !slices.Contains(out, pkg) {
			out = append(out, pkg)
		}
	}
	fact.Locations(f.Handlers, f.Events, f.Writes, f.Wirings, add)
	return out
}

// coverSum extends the plain build's hash by what a coverage build adds:
// the hook and the packages counted.
func coverSum(sum string, pkgs []string) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\n%s\n%s", sum, strings.Join(pkgs, ","), coverHook)
	return hex.EncodeToString(h.Sum(nil))[:12]
}

// writeCoverMains copies the release's coverMains into the helper module
// under dir/helper, each at the helper's path of its base name, and puts
// the hook beside them and the helper mains.
func writeCoverMains(tree *source.Tree, dir string) error {
	for _, m := range coverMains {
		src := filepath.Join(tree.Dir, filepath.FromSlash(m))
		ents, err := os.ReadDir(src)
		if err != nil {
			return fmt.Errorf("record: the tree of %s has no %s: %w", tree.Tag, m, err)
		}
		dst := filepath.Join(dir, "helper", filepath.Base(m))
		for _, e := range ents {
			name := e.Name()
			if !e.Type().IsRegular() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
				continue
			}
			data, err := os.ReadFile(filepath.Join(src, name))
			if err != nil {
				return fmt.Errorf("record: %w", err)
			}
			if err := writeFile(filepath.Join(dst, name), data); err != nil {
				return fmt.Errorf("record: %w", err)
			}
		}
	}
	for _, m := range append(slices.Clone(coverMains), "etcd", "kubelet") {
		if err := writeFile(filepath.Join(dir, "helper", filepath.Base(m), coverHookFile), helperSource(coverHook)); err != nil {
			return fmt.Errorf("record: %w", err)
		}
	}
	return nil
}
