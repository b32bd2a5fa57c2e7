package record

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gofrs/flock"
	"golang.org/x/mod/modfile"

	"github.com/kubewalk/kubewalk/source"
)

// helperFS holds kubewalk's own programs, built beside the tree: etcd's
// main and the hollow kubelet's additions. They are Go files that gofmt
// and an editor see as such; their build constraint (helperConstraint)
// keeps the go command from building them as part of kubewalk, whose
// module does not require what they import, and helperSource drops it
// where they are built, in the helper module (where build also vets them).
//
//go:embed helper
var helperFS embed.FS

// helperConstraint starts every helper source: the tag is never set.
const helperConstraint = "//go:build kubewalk_helper\n\n"

// helperSource is a helper source as the helper module holds it, without
// helperConstraint.
func helperSource(data []byte) []byte {
	return bytes.TrimPrefix(data, []byte(helperConstraint))
}

// helperModule is the module path of the helper programs. ".invalid" is
// reserved (RFC 2606), so it can never be fetched or clash with a real
// module.
const helperModule = "kubewalk.invalid/record"

// Programs are the binaries a recorded run needs, by file name: the
// release's own commands, and kubewalk's helpers built from the release's
// packages.
var Programs = []string{"etcd", "kube-apiserver", "kube-controller-manager", "kube-proxy", "kube-scheduler", "kubectl", "kubelet"}

// Binaries is a directory of the Programs built from one release.
type Binaries struct {
	// Dir holds one executable per name in Programs.
	Dir string `json:"dir"`
	// Tag is the release, GoVersion the toolchain that built them.
	Tag       string `json:"tag"`
	GoVersion string `json:"goVersion"`
	// Coverage says the programs were built with coverage counters and
	// write them on demand (see BuildOptions.Coverage); Run then records
	// which code ran in each phase.
	Coverage bool `json:"coverage,omitempty"`
}

// Path returns the executable of a program.
func (b *Binaries) Path(name string) string { return filepath.Join(b.Dir, name) }

// BuildOptions say where and how to build.
type BuildOptions struct {
	// CacheDir is kubewalk's cache; binaries go to
	// <CacheDir>/record/bin/<tag>/<go version>-<helper hash>/.
	CacheDir string
	// Go is the go command; "" is "go" from PATH.
	Go string
	// Coverage builds the programs with coverage counters on the tree's
	// packages (CoverPackages), each able to write its counters on
	// demand, cached apart from the plain build as
	// <CacheDir>/record/bin/<tag>/<go version>-<hash>-cover/.
	Coverage bool
	// CoverRoots are the packages to count with Coverage: the analyzer's
	// roots, whose code the site shows (CoverPackages). Empty counts
	// every package of the tree's Kubernetes modules the programs import.
	// The hash of the build covers them.
	CoverRoots []string
	// Kubemark is the tree of a release that has cmd/kubemark, for a
	// release whose tree has none (HasKubemark): its hollow node, with
	// the kubemark packages it imports, is built against the release's
	// own kubelet. The newest patch of LastKubemark is the one to give.
	Kubemark *source.Tree
	// Logf reports progress; nil is silent.
	Logf func(format string, args ...any)
}

// LastKubemark is the last minor release whose tree has cmd/kubemark:
// Kubernetes removed kubemark from its repository in v1.38.
const LastKubemark = "v1.37"

// HasKubemark reports whether tree has the hollow node kubewalk's hollow
// kubelet is made from (cmd/kubemark).
func HasKubemark(tree *source.Tree) bool {
	_, err := os.Stat(filepath.Join(tree.Dir, "cmd", "kubemark", "hollow-node.go"))
	return err == nil
}

func (o BuildOptions) logf(format string, args ...any) {
	if o.Logf != nil {
		o.Logf(format, args...)
	}
}

func (o BuildOptions) goCmd() string { return cmp.Or(o.Go, "go") }

// ErrBuild is wrapped by Build's errors when the go command fails.
var ErrBuild = errors.New("building the release's programs failed")

// Build returns the Programs of the tree's release, building them the first
// time for a release and Go version (a second call builds nothing). The
// tree is not modified: kubewalk's helpers go into a module in the cache,
// and a go.work there uses the tree's workspace and that module. Builds of
// one release are serialised across processes by a lock file beside the
// binaries; a build is written to a temporary directory and renamed into
// place, so a killed build leaves nothing that looks complete.
//
// The binaries are stamped with the release's version as
// hack/lib/version.sh does (-X ldflags on k8s.io/component-base/version and
// k8s.io/client-go/pkg/version), so user agents and /version read
// "v1.36.3", not "v0.0.0-master+$Format:%H$".
func Build(ctx context.Context, tree *source.Tree, opts BuildOptions) (*Binaries, error) {
	goVersion, err := goEnv(ctx, opts.goCmd(), "GOVERSION")
	if err != nil {
		return nil, err
	}
	ldflags, err := versionLDFlags(tree)
	if err != nil {
		return nil, err
	}
	km, err := kubemarkOf(tree, opts.Kubemark)
	if err != nil {
		return nil, err
	}
	what := ldflags
	if km != tree {
		what += " kubemark of " + km.Tag
	}
	sum, err := buildSum(what)
	if err != nil {
		return nil, err
	}
	var coverPkgs []string
	if opts.Coverage {
		if coverPkgs, err = CoverPackages(tree, opts.CoverRoots); err != nil {
			return nil, err
		}
		sum = coverSum(sum, coverPkgs)
	}
	if opts.CacheDir == "" {
		return nil, fmt.Errorf("record: no cache directory for the programs: use --cache-dir")
	}
	cacheDir, err := filepath.Abs(opts.CacheDir)
	if err != nil {
		return nil, fmt.Errorf("record: %w", err)
	}
	root := filepath.Join(cacheDir, "record", "bin", tree.Tag)
	name := goVersion + "-" + sum
	if opts.Coverage {
		name += "-cover"
	}
	final := filepath.Join(root, name)
	bins := &Binaries{Dir: final, Tag: tree.Tag, GoVersion: goVersion, Coverage: opts.Coverage}
	if complete(final) {
		return bins, nil
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return nil, fmt.Errorf("record: %w", err)
	}
	lock := flock.New(final + ".lock")
	locked, err := lock.TryLock()
	if err != nil {
		return nil, fmt.Errorf("record: lock %s: %w", final+".lock", err)
	}
	if !locked {
		opts.logf("waiting for another kubewalk building the programs of %s (lock %s)", tree.Tag, final+".lock")
		if _, err := lock.TryLockContext(ctx, 500*time.Millisecond); err != nil {
			return nil, fmt.Errorf("record: waiting for the lock %s: %w", final+".lock", err)
		}
	}
	defer lock.Unlock()
	if complete(final) {
		return bins, nil
	}
	// Leftovers of killed builds of this release are removed: nothing
	// else writes under root.
	if olds, _ := filepath.Glob(final + ".tmp-*"); len(olds) > 0 {
		for _, o := range olds {
			os.RemoveAll(o)
		}
	}
	tmp, err := os.MkdirTemp(root, filepath.Base(final)+".tmp-")
	if err != nil {
		return nil, fmt.Errorf("record: %w", err)
	}
	defer os.RemoveAll(tmp)
	if err := build(ctx, tree, km, tmp, goVersion, ldflags, coverPkgs, opts); err != nil {
		return nil, err
	}
	stamp, _ := json.MarshalIndent(bins, "", "  ")
	if err := os.WriteFile(filepath.Join(tmp, "bin", stampFile), append(stamp, '\n'), 0o644); err != nil {
		return nil, fmt.Errorf("record: %w", err)
	}
	if err := os.Rename(filepath.Join(tmp, "bin"), final); err != nil {
		return nil, fmt.Errorf("record: %w", err)
	}
	return bins, nil
}

// unservedRE matches the go command's report of a module the proxy does
// not serve, or of an import no module provides.
var unservedRE = regexp.MustCompile(`: (\S+@\S+): reading \S+: (?:403|404|410)\b|cannot find module providing package ([^\s:]+)`)

// unservedIn returns what line, a line of the go command's output, says
// the build lacks: a module the proxy does not serve ("sigs.k8s.io/x@v1.0.0:
// reading https://…/v1.0.0.zip: 403 Forbidden") or a package no module
// provides (one of a staging module the proxy did not serve, which the
// tree lacks); "" for any other line.
func unservedIn(line string) string {
	m := unservedRE.FindStringSubmatch(line)
	if m == nil {
		return ""
	}
	return m[1] + m[2]
}

// stampFile marks a binaries directory complete; it is written last.
const stampFile = "binaries.json"

func complete(dir string) bool {
	if _, err := os.Stat(filepath.Join(dir, stampFile)); err != nil {
		return false
	}
	for _, p := range Programs {
		if _, err := os.Stat(filepath.Join(dir, p)); err != nil {
			return false
		}
	}
	return true
}

// buildSum is a short hash of what is built beside the release's own
// source — the embedded helper sources, the patches to kubemark, and
// what: the version stamps and, for a release without kubemark, the
// release its hollow node comes from — so a change to any of them builds
// anew.
func buildSum(what string) (string, error) {
	h := sha256.New()
	err := fs.WalkDir(helperFS, "helper", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := helperFS.ReadFile(p)
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s %d\n", p, len(b))
		h.Write(b)
		return nil
	})
	if err != nil {
		return "", err
	}
	// The patches applied to the tree's kubemark, and the programs built
	// (complete checks for each), are part of what is built.
	fmt.Fprintf(h, "%q\n%s\n%q\n", kubemarkPatches, what, Programs)
	return hex.EncodeToString(h.Sum(nil))[:12], nil
}

// build writes the helper module (the hollow node from km: kubemarkOf)
// and workspace under dir and builds every program into dir/bin in one go
// command, which compiles the packages the programs share once. With coverPkgs, the programs are built with
// coverage counters on those packages and the snapshot hook in each main
// package (coverhook). It is long because it is one go command with its
// arguments, environment, cancellation and progress: read apart, each
// would need the others.
func build(ctx context.Context, tree, km *source.Tree, dir, goVersion, ldflags string, coverPkgs []string, opts BuildOptions) error {
	work, err := writeWorkspace(tree, km, dir)
	if err != nil {
		return err
	}
	var pkgs, coverArgs []string
	for _, m := range coverMains {
		pkgs = append(pkgs, "k8s.io/kubernetes/"+m)
	}
	if len(coverPkgs) > 0 {
		if err := writeCoverMains(tree, dir); err != nil {
			return err
		}
		pkgs = pkgs[:0]
		for _, m := range coverMains {
			pkgs = append(pkgs, helperModule+"/"+path.Base(m))
		}
		coverArgs = []string{"-cover", "-covermode=atomic", "-coverpkg=" + strings.Join(coverPkgs, ",")}
	}
	pkgs = append(pkgs, helperModule+"/etcd", helperModule+"/kubelet")
	// -trimpath keeps the cache's location out of the binaries and out of
	// the Go build cache's keys, so a tree fetched into another cache
	// directory (a fresh clone's, in CI) reuses what was compiled before.
	args := []string{"build", "-v", "-trimpath", "-o", filepath.Join(dir, "bin") + string(filepath.Separator), "-ldflags", ldflags}
	args = append(args, coverArgs...)
	args = append(args, pkgs...)
	cmd := exec.CommandContext(ctx, opts.goCmd(), args...)
	cmd.Dir = filepath.Join(dir, "helper")
	// The go command's work directory goes under dir too, which is
	// removed however the build ends: one in TMPDIR would stay behind
	// when the go command is killed after WaitDelay.
	gotmp := filepath.Join(dir, "gotmp")
	if err := os.MkdirAll(gotmp, 0o755); err != nil {
		return fmt.Errorf("record: %w", err)
	}
	cmd.Env = append(os.Environ(), "GOWORK="+work, "GOFLAGS=-mod=readonly", "GOTMPDIR="+gotmp)
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 10 * time.Second
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return err
	}
	what := ""
	if len(coverPkgs) > 0 {
		what = " with coverage counters"
	}
	opts.logf("building %s for %s%s with %s (about 10 minutes on 2 cores with an empty Go build cache; cached afterwards)", strings.Join(Programs, ", "), tree.Tag, what, goVersion)
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("%w: %v", ErrBuild, err)
	}
	// go build -v names each package as it is compiled: a count of them is
	// the progress, and the lines that are not package paths are the
	// errors, kept for the message.
	var tail []string
	var unserved []string
	n, last := 0, time.Now()
	sc := bufio.NewScanner(stderr)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		line := sc.Text()
		if u := unservedIn(line); u != "" && !slices.Contains(unserved, u) {
			unserved = append(unserved, u)
		}
		if isPackageLine(line) {
			n++
			if time.Since(last) > 30*time.Second {
				opts.logf("  %d packages compiled (%s)", n, time.Since(start).Round(time.Second))
				last = time.Now()
			}
			continue
		}
		tail = append(tail, line)
		if len(tail) > 30 {
			tail = tail[1:]
		}
	}
	if err := cmd.Wait(); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if len(unserved) > 0 {
			// Modules the proxy refused first, then the packages no
			// module provides.
			slices.SortFunc(unserved, func(a, b string) int {
				return cmp.Or(cmp.Compare(strings.Count(b, "@"), strings.Count(a, "@")), strings.Compare(a, b))
			})
			more := ""
			if len(unserved) > 5 {
				more = fmt.Sprintf(" and %d more", len(unserved)-5)
				unserved = unserved[:5]
			}
			return fmt.Errorf("%w: %s: the module proxy does not serve what the release's programs import (%s%s): they cannot be built from it\n%s", ErrBuild, tree.Tag, strings.Join(unserved, ", "), more, strings.Join(tail, "\n"))
		}
		return fmt.Errorf("%w: %s: go %s: %v\n%s", ErrBuild, tree.Tag, strings.Join(args[:2], " "), err, strings.Join(tail, "\n"))
	}
	opts.logf("built the programs of %s in %s (%d packages compiled)", tree.Tag, time.Since(start).Round(time.Second), n)
	if len(coverPkgs) > 0 {
		return nil // the plain build vets the same sources
	}
	return vetHelpers(ctx, tree, cmd.Dir, cmd.Env, opts)
}

// vetHelpers runs go vet on the helper module's packages that hold
// kubewalk's sources (helperFS), where they build, and fails on what it
// reports of those sources; what it says of the release's own files
// copied beside them (kubemark's app) is the release's business.
func vetHelpers(ctx context.Context, tree *source.Tree, dir string, env []string, opts BuildOptions) error {
	ours := map[string]bool{}
	err := fs.WalkDir(helperFS, "helper", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			ours[path.Base(p)] = true
		}
		return err
	})
	if err != nil {
		return err
	}
	start := time.Now()
	cmd := exec.CommandContext(ctx, opts.goCmd(), "vet", "-trimpath", helperModule+"/etcd", helperModule+"/kubelet/app")
	cmd.Dir, cmd.Env = dir, env
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 10 * time.Second
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var found []string
	for _, line := range strings.Split(string(out), "\n") {
		// vet: "path/file.go:12:3: message", the path relative to dir.
		if file, _, ok := strings.Cut(line, ":"); ok && strings.HasSuffix(file, ".go") && ours[filepath.Base(file)] {
			found = append(found, line)
		}
	}
	if len(found) > 0 {
		return fmt.Errorf("%w: %s: go vet of kubewalk's helper programs:\n%s", ErrBuild, tree.Tag, strings.Join(found, "\n"))
	}
	if err != nil && !bytes.Contains(out, []byte(".go:")) {
		// vet could not run (not a finding): the programs built, which is
		// what the run needs, so say so and go on.
		opts.logf("could not vet kubewalk's helper programs (%v): %s", err, bytes.TrimSpace(out))
		return nil
	}
	opts.logf("vetted kubewalk's helper programs in %s", time.Since(start).Round(time.Second))
	return nil
}

var packageLine = regexp.MustCompile(`^[A-Za-z0-9_.~/-]+$`)

func isPackageLine(s string) bool { return packageLine.MatchString(s) && !strings.HasPrefix(s, "go:") }

func goEnv(ctx context.Context, goCmd, name string) (string, error) {
	out, err := exec.CommandContext(ctx, goCmd, "env", name).Output()
	if err != nil {
		return "", fmt.Errorf("record: %s env %s: %w", goCmd, name, err)
	}
	return strings.TrimSpace(string(out)), nil
}

// treeWork returns the workspace file of the tree (Tree.Env's GOWORK).
func treeWork(tree *source.Tree) (string, error) {
	for _, e := range tree.Env {
		if w, ok := strings.CutPrefix(e, "GOWORK="); ok && w != "off" {
			return w, nil
		}
	}
	return "", fmt.Errorf("record: the tree of %s has no go.work (GOWORK in its environment); fetch it again", tree.Tag)
}

// writeWorkspace writes dir/go.work — the tree's workspace with its paths
// made absolute, plus the helper module at dir/helper — and the helper
// module itself, and returns the go.work's path.
func writeWorkspace(tree, kubemark *source.Tree, dir string) (string, error) {
	twork, err := treeWork(tree)
	if err != nil {
		return "", err
	}
	data, err := os.ReadFile(twork)
	if err != nil {
		return "", fmt.Errorf("record: %w", err)
	}
	wf, err := modfile.ParseWork(twork, data, nil)
	if err != nil {
		return "", fmt.Errorf("record: %w", err)
	}
	base := filepath.Dir(twork)
	abs := func(p string) string {
		if filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(base, filepath.FromSlash(p))
	}
	helperDir := filepath.Join(dir, "helper")
	var b bytes.Buffer
	b.WriteString("// Written by kubewalk record: the tree's workspace and kubewalk's helper programs.\n\n")
	if wf.Go != nil {
		fmt.Fprintf(&b, "go %s\n\n", wf.Go.Version)
	}
	for _, g := range wf.Godebug {
		fmt.Fprintf(&b, "godebug %s=%s\n\n", g.Key, g.Value)
	}
	b.WriteString("use (\n")
	for _, u := range wf.Use {
		fmt.Fprintf(&b, "\t%s\n", modfile.AutoQuote(abs(u.Path)))
	}
	fmt.Fprintf(&b, "\t%s\n)\n", modfile.AutoQuote(helperDir))
	if len(wf.Replace) > 0 {
		b.WriteString("\nreplace (\n")
		for _, r := range wf.Replace {
			old := r.Old.Path
			if r.Old.Version != "" {
				old += " " + r.Old.Version
			}
			nw := modfile.AutoQuote(abs(r.New.Path))
			if r.New.Version != "" {
				nw = r.New.Path + " " + r.New.Version
			}
			fmt.Fprintf(&b, "\t%s => %s\n", old, nw)
		}
		b.WriteString(")\n")
	}
	work := filepath.Join(dir, "go.work")
	if err := os.WriteFile(work, b.Bytes(), 0o644); err != nil {
		return "", fmt.Errorf("record: %w", err)
	}
	// Checksums of modules no go.sum lists live in go.work.sum beside the
	// workspace file.
	if sum, err := os.ReadFile(twork + ".sum"); err == nil {
		if err := os.WriteFile(work+".sum", sum, 0o644); err != nil {
			return "", fmt.Errorf("record: %w", err)
		}
	}
	if err := writeHelperModule(tree, kubemark, helperDir); err != nil {
		return "", err
	}
	return work, nil
}

// writeHelperModule lays out the helper module: a go.mod that requires
// what the tree's go.mod requires (so the workspace's build list is the
// release's), the tree's go.sum, the embedded programs, and the hollow
// kubelet: a patched copy of kubemark's cmd/kubemark (the tree's own, or
// another release's: kubemarkOf).
func writeHelperModule(tree, kubemark *source.Tree, dir string) error {
	gomod, err := os.ReadFile(filepath.Join(tree.Dir, "go.mod"))
	if err != nil {
		return fmt.Errorf("record: %w", err)
	}
	mf, err := modfile.Parse("go.mod", gomod, nil)
	if err != nil {
		return fmt.Errorf("record: %s: %w", filepath.Join(tree.Dir, "go.mod"), err)
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "// Written by kubewalk record: its helper programs, built with the release's requirements.\nmodule %s\n\n", helperModule)
	if mf.Go != nil {
		fmt.Fprintf(&b, "go %s\n\n", mf.Go.Version)
	}
	b.WriteString("require (\n")
	for _, r := range mf.Require {
		fmt.Fprintf(&b, "\t%s %s\n", r.Mod.Path, r.Mod.Version)
	}
	b.WriteString(")\n")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("record: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), b.Bytes(), 0o644); err != nil {
		return fmt.Errorf("record: %w", err)
	}
	if sum, err := os.ReadFile(filepath.Join(tree.Dir, "go.sum")); err == nil {
		if err := os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644); err != nil {
			return fmt.Errorf("record: %w", err)
		}
	}
	err = fs.WalkDir(helperFS, "helper", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := helperFS.ReadFile(p)
		if err != nil {
			return err
		}
		rel := strings.TrimPrefix(p, "helper/")
		if path.Base(rel) == "kubewalk.go" { // the kubelet's addition lives in its app package
			rel = path.Join(path.Dir(rel), "app", path.Base(rel))
		}
		return writeFile(filepath.Join(dir, filepath.FromSlash(rel)), rewriteImports(helperSource(data), kubemarkImports(tree != kubemark)))
	})
	if err != nil {
		return fmt.Errorf("record: %w", err)
	}
	return copyKubemark(kubemark, tree != kubemark, filepath.Join(dir, "kubelet"))
}

func writeFile(name string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return err
	}
	return os.WriteFile(name, data, 0o644)
}

// kubemarkPatches are the edits made to the copy of the tree's
// cmd/kubemark/app/hollow_node.go: each old text must occur exactly once,
// so a release whose kubemark changed shape fails loudly instead of
// running something else. The functions they call are in
// helper/kubelet/kubewalk.go.
var kubemarkPatches = []struct{ old, new string }{
	{`clientConfig.UserAgent = "hollow-kubelet"`, `clientConfig.UserAgent = kubewalkUserAgent()`},
	{`fakeremote.GenerateEndpoint()`, `kubewalkEndpoint()`},
	{"\t\thollowKubelet.Run(", "\t\tkubewalkFix(hollowKubelet, client)\n\t\thollowKubelet.Run("},
	{"\t\tfakeRemoteRuntime := fakeremote.NewFakeRemoteRuntime()\n", "\t\tfakeRemoteRuntime := fakeremote.NewFakeRemoteRuntime()\n\t\tkubewalkRuntime(fakeRemoteRuntime.RuntimeService)\n"},
	{`var imageService internalapi.ImageManagerService = fakeRemoteRuntime.ImageService`, `var imageService internalapi.ImageManagerService = kubewalkImages(fakeRemoteRuntime.ImageService)`},
}

// kubemarkOf returns the tree whose cmd/kubemark the hollow kubelet is
// made from: the release's own, or, for a release without one, km.
func kubemarkOf(tree, km *source.Tree) (*source.Tree, error) {
	if HasKubemark(tree) {
		return tree, nil
	}
	if km == nil || !HasKubemark(km) {
		return nil, fmt.Errorf("%w: %s: the tree has no cmd/kubemark (Kubernetes removed kubemark in v1.38), and no release that has it was given for the hollow kubelet (BuildOptions.Kubemark: the newest %s patch)", ErrBuild, tree.Tag, LastKubemark)
	}
	return km, nil
}

// kubemarkPackages are the packages of kubemark that its cmd/kubemark
// imports, and where the helper module holds them when they come from
// another release's tree than the one built (which has none of them).
var kubemarkPackages = []struct{ pkg, dir string }{
	{"pkg/kubemark", "kubemark"},
	{"pkg/proxy/kubemark", "proxykubemark"},
}

// copyKubemark copies km's cmd/kubemark (main and app, no tests) to dir,
// importing the copied app and patched as kubemarkPatches says; with
// other (km is not the tree being built), also the kubemark packages it
// imports (kubemarkPackages), imported from their copies.
func copyKubemark(km *source.Tree, other bool, dir string) error {
	imports := kubemarkImports(other)
	if other {
		for _, p := range kubemarkPackages {
			if _, err := copyGoFiles(filepath.Join(km.Dir, filepath.FromSlash(p.pkg)), filepath.Join(dir, p.dir), imports, nil); err != nil {
				return err
			}
		}
	}
	src := filepath.Join(km.Dir, "cmd", "kubemark")
	if _, err := copyGoFiles(src, dir, imports, func(name string) string {
		if name == "hollow-node.go" {
			return "main.go"
		}
		return ""
	}); err != nil {
		return err
	}
	found, err := copyGoFiles(filepath.Join(src, "app"), filepath.Join(dir, "app"), imports, nil)
	if err != nil {
		return err
	}
	if !found["hollow_node.go"] {
		return fmt.Errorf("%w: %s: cmd/kubemark/app/hollow_node.go not found", ErrBuild, km.Tag)
	}
	rel := "cmd/kubemark/app/hollow_node.go"
	name := filepath.Join(dir, "app", "hollow_node.go")
	data, err := os.ReadFile(name)
	if err != nil {
		return fmt.Errorf("record: %w", err)
	}
	for _, p := range kubemarkPatches {
		if n := bytes.Count(data, []byte(p.old)); n != 1 {
			return fmt.Errorf("%w: %s: %s of %s holds %q %d times, not once: kubewalk's hollow kubelet does not know this release's kubemark", ErrBuild, km.Tag, rel, km.Tag, p.old, n)
		}
		data = bytes.Replace(data, []byte(p.old), []byte(p.new), 1)
	}
	if err := os.WriteFile(name, data, 0o644); err != nil {
		return fmt.Errorf("record: %w", err)
	}
	return nil
}

// kubemarkImports are the import paths the helper module's copies of
// kubemark's sources, and kubewalk's own addition to them, import instead
// of the tree's: the copied app, and with other (kubemark from another
// release's tree) the copied kubemark packages.
func kubemarkImports(other bool) [][2]string {
	imports := [][2]string{{"k8s.io/kubernetes/cmd/kubemark/app", helperModule + "/kubelet/app"}}
	if other {
		for _, p := range kubemarkPackages {
			imports = append(imports, [2]string{"k8s.io/kubernetes/" + p.pkg, helperModule + "/kubelet/" + p.dir})
		}
	}
	return imports
}

// rewriteImports writes each import path of imports' first column in
// the Go source data as its second.
func rewriteImports(data []byte, imports [][2]string) []byte {
	for _, im := range imports {
		data = bytes.ReplaceAll(data, []byte(strconv.Quote(im[0])), []byte(strconv.Quote(im[1])))
	}
	return data
}

// copyGoFiles copies the Go files of directory from (not its tests) to
// to, each import path of imports' first column written as its second,
// under the name rename gives (nil, or "": its own), and reports which
// it copied, by their names in from.
func copyGoFiles(from, to string, imports [][2]string, rename func(string) string) (map[string]bool, error) {
	ents, err := os.ReadDir(from)
	if err != nil {
		return nil, fmt.Errorf("record: %w", err)
	}
	found := map[string]bool{}
	for _, e := range ents {
		name := e.Name()
		if !e.Type().IsRegular() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(from, name))
		if err != nil {
			return nil, fmt.Errorf("record: %w", err)
		}
		data = rewriteImports(data, imports)
		out := name
		if rename != nil && rename(name) != "" {
			out = rename(name)
		}
		if err := writeFile(filepath.Join(to, out), data); err != nil {
			return nil, fmt.Errorf("record: %w", err)
		}
		found[name] = true
	}
	return found, nil
}

// versionLDFlags returns the -X flags hack/lib/version.sh gives a release
// build: gitVersion, gitMajor, gitMinor, gitCommit, gitTreeState and
// buildDate on both version packages. The build date is fixed, so two
// builds of a release link the same strings.
func versionLDFlags(tree *source.Tree) (string, error) {
	m := releaseRE.FindStringSubmatch(tree.Tag)
	if m == nil {
		return "", fmt.Errorf("record: %q is not a release tag", tree.Tag)
	}
	vals := []struct{ k, v string }{
		{"gitVersion", tree.Tag},
		{"gitMajor", m[1]},
		{"gitMinor", m[2]},
		// client-go cuts the commit to 7 characters in user agents;
		// "unknown" is what it prints for none, where the module proxy
		// did not say which commit the tag is.
		{"gitCommit", cmp.Or(tree.Commit, "unknown")},
		{"gitTreeState", "clean"},
		{"buildDate", "1970-01-01T00:00:00Z"},
	}
	var parts []string
	for _, pkg := range []string{"k8s.io/client-go/pkg/version", "k8s.io/component-base/version"} {
		for _, kv := range vals {
			if kv.v == "" {
				continue
			}
			parts = append(parts, fmt.Sprintf("-X '%s.%s=%s'", pkg, kv.k, kv.v))
		}
	}
	return strings.Join(parts, " "), nil
}

var releaseRE = regexp.MustCompile(`^v(\d+)\.(\d+)\.\d+`)
