package source

import (
	"bytes"
	"cmp"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
	"golang.org/x/mod/semver"
)

// stagingPrefix is where the repository keeps the staging modules, as its
// go.mod's replace list spells it.
const stagingPrefix = "./staging/src/k8s.io/"

// kubernetesModule is the module path the root go.mod declares.
const kubernetesModule = "k8s.io/kubernetes"

// readGoMod parses the root go.mod of a tree and checks it is Kubernetes.
func readGoMod(dir string) (*modfile.File, error) {
	name := filepath.Join(dir, "go.mod")
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	f, err := modfile.Parse(name, data, nil)
	if err != nil {
		return nil, err
	}
	if f.Module == nil || f.Module.Mod.Path != kubernetesModule {
		return nil, fmt.Errorf("%s does not declare module %s", name, kubernetesModule)
	}
	return f, nil
}

// stagingNames lists the staging modules a Kubernetes go.mod names in its
// replace list (k8s.io/<name> => ./staging/src/k8s.io/<name>), sorted.
func stagingNames(f *modfile.File) []string {
	var names []string
	for _, r := range f.Replace {
		name, ok := strings.CutPrefix(r.New.Path, stagingPrefix)
		if !ok || r.New.Version != "" || r.Old.Path != "k8s.io/"+name || strings.Contains(name, "/") {
			continue
		}
		names = append(names, name)
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// stagingModules lists the staging modules of the tree at dir.
func stagingModules(dir string) ([]string, error) {
	f, err := readGoMod(dir)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNotKubernetes, err)
	}
	return stagingNames(f), nil
}

// stubsDir holds, beside the go.work, the empty stand-ins for missing
// staging modules (see writeWorkspace).
const stubsDir = "stubs"

// stagingDir is the repository-relative directory of a staging module.
func stagingDir(name string) string {
	return path.Join("staging/src/k8s.io", name)
}

// presentStaging splits names into the staging modules the tree at dir
// holds (their go.mod is there) and the ones it lacks, as "k8s.io/<name>".
func presentStaging(dir string, names []string) (present, missing []string) {
	for _, n := range names {
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(stagingDir(n)), "go.mod")); err == nil {
			present = append(present, n)
		} else {
			missing = append(missing, "k8s.io/"+n)
		}
	}
	return present, missing
}

// pinnedStaging lists the present staging modules that the go.mod of a
// present staging module replaces with a module version rather than a
// directory, at every version a module of the workspace requires or pins
// them at (the tree's v0.0.0, a published module's v0.29.0), sorted and
// without duplicates. (A missing one is replaced at every version by its
// stub.)
func pinnedStaging(dir string, present []string) ([]module.Version, error) {
	staging := map[string]bool{}
	for _, n := range present {
		staging["k8s.io/"+n] = true
	}
	files := []string{filepath.Join(dir, "go.mod")}
	for _, n := range present {
		files = append(files, filepath.Join(dir, filepath.FromSlash(stagingDir(n)), "go.mod"))
	}
	pinned := map[string]bool{}
	var versions []module.Version
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		f, err := modfile.Parse(name, data, nil)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrNotKubernetes, err)
		}
		for _, r := range f.Replace {
			if staging[r.Old.Path] && r.New.Version != "" {
				pinned[r.Old.Path] = true
				versions = append(versions, module.Version{Path: r.Old.Path, Version: r.New.Version})
			}
		}
		for _, r := range f.Require {
			if staging[r.Mod.Path] {
				versions = append(versions, r.Mod)
			}
		}
	}
	var pins []module.Version
	for _, v := range versions {
		if pinned[v.Path] {
			pins = append(pins, v)
		}
	}
	slices.SortFunc(pins, func(a, b module.Version) int {
		return cmp.Or(cmp.Compare(a.Path, b.Path), semver.Compare(a.Version, b.Version))
	})
	return slices.Compact(pins), nil
}

// writeWorkspace writes, at workFile, a go.work that uses the tree (at
// treeRel, relative to the go.work's directory) and the staging modules it
// holds. The tree's own go.work cannot be used as it is: it names staging
// modules that may be absent (the proxy does not serve them all), and it
// makes the go command default to -mod=vendor, which fails on a tree whose
// vendor directory holds only modules.txt. The go and godebug lines are
// copied from the tree's go.work (or go.mod) so packages load with the
// language version and settings upstream builds with. The toolchain line is
// not copied: it would make the go command download another toolchain.
//
// The paths are relative so that a cache directory can be moved or
// restored elsewhere (a CI cache) and still work.
func writeWorkspace(dir, workFile, treeRel string, present, missing []string) error {
	var goVersion string
	var godebug []string
	if data, err := os.ReadFile(filepath.Join(dir, "go.work")); err == nil {
		if wf, err := modfile.ParseWork("go.work", data, nil); err == nil {
			if wf.Go != nil {
				goVersion = wf.Go.Version
			}
			for _, g := range wf.Godebug {
				godebug = append(godebug, g.Key+"="+g.Value)
			}
		}
	}
	if goVersion == "" {
		f, err := readGoMod(dir)
		if err != nil {
			return fmt.Errorf("%w: %v", ErrNotKubernetes, err)
		}
		if f.Go != nil {
			goVersion = f.Go.Version
		}
		for _, g := range f.Godebug {
			godebug = append(godebug, g.Key+"="+g.Value)
		}
	}
	var b bytes.Buffer
	b.WriteString("// Written by kubewalk for the tree beside it; the tree itself is unmodified.\n\n")
	if goVersion != "" {
		fmt.Fprintf(&b, "go %s\n\n", goVersion)
	}
	for _, g := range godebug {
		fmt.Fprintf(&b, "godebug %s\n\n", g)
	}
	b.WriteString("use (\n")
	fmt.Fprintf(&b, "\t./%s\n", treeRel)
	for _, n := range present {
		fmt.Fprintf(&b, "\t./%s/%s\n", treeRel, stagingDir(n))
	}
	b.WriteString(")\n")
	// A staging module the backend could not provide is still named by the
	// tree's go.mod replace list (k8s.io/x => ./staging/src/k8s.io/x), and
	// a replacement directory that does not exist breaks module loading
	// for every package, third-party ones included. An empty stub module
	// beside the go.work takes its place: only packages that really import
	// the missing module fail to load.
	//
	// A staging module published to the proxy may pin its sister modules
	// to a release in its go.mod (client-go@v0.29.0 has
	// k8s.io/api => k8s.io/api v0.29.0), which conflicts with the tree's
	// own replace to the staging directory: the go command stops with
	// "conflicting replacements". Any replace of a module path in go.work
	// sets aside the go.mod replaces of that path, and a workspace module
	// may only be replaced at a version, so the go.work replaces each such
	// module, at each version the workspace asks for, with its directory.
	pins, err := pinnedStaging(dir, present)
	if err != nil {
		return err
	}
	if len(missing) > 0 || len(pins) > 0 {
		b.WriteString("\nreplace (\n")
		for _, p := range pins {
			fmt.Fprintf(&b, "\t%s %s => ./%s/%s\n", p.Path, p.Version, treeRel, stagingDir(strings.TrimPrefix(p.Path, "k8s.io/")))
		}
		for _, m := range missing {
			stub := filepath.Join(filepath.Dir(workFile), stubsDir, filepath.FromSlash(m))
			if err := os.MkdirAll(stub, 0o755); err != nil {
				return fmt.Errorf("%w: %v: use --cache-dir to choose another", ErrCacheUnwritable, err)
			}
			if err := os.WriteFile(filepath.Join(stub, "go.mod"), []byte("// An empty stand-in for a staging module the source backend could not provide.\nmodule "+m+"\n"), 0o644); err != nil {
				return fmt.Errorf("%w: %v: use --cache-dir to choose another", ErrCacheUnwritable, err)
			}
			fmt.Fprintf(&b, "\t%s => ./%s/%s\n", m, stubsDir, m)
		}
		b.WriteString(")\n")
	}
	if err := os.WriteFile(workFile, b.Bytes(), 0o644); err != nil {
		return fmt.Errorf("%w: %v: use --cache-dir to choose another", ErrCacheUnwritable, err)
	}
	return nil
}

// workspaceEnv is Tree.Env for a tree with the workspace file workFile.
// -mod=readonly because a tree from the module proxy has a vendor
// directory with modules.txt only; a git tree gets the same, so the two
// load the same way (dependencies from the module cache).
func workspaceEnv(workFile string) []string {
	return []string{"GOWORK=" + workFile, "GOFLAGS=-mod=readonly"}
}
