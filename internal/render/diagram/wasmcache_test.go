//go:build unix

package diagram

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/kubewalk/kubewalk/internal/render/wasmcache"
)

// childEnv names the file TestWasmCacheChild writes its report to; the
// test binary is that child only when it is set.
const childEnv = "KUBEWALK_WASMCACHE_CHILD_REPORT"

// childReport is what a process linking this package sees once its
// packages are initialised.
type childReport struct {
	TMPDIR    string // $TMPDIR
	TMPDIRSet bool   // whether TMPDIR is set at all
	TempDir   string // os.TempDir()
	TempFile  string // a file made by os.CreateTemp("", …)
	Cache     string // wasmcache.Dir
	CacheErr  string
	SVG       int // the length of a graph drawn by Graph
}

// TestWasmCacheChild is the program TestWasmCache runs: this test binary
// started again, a program that links go-graphviz through this package.
func TestWasmCacheChild(t *testing.T) {
	out := os.Getenv(childEnv)
	if out == "" {
		return
	}
	var r childReport
	r.TMPDIR, r.TMPDIRSet = os.LookupEnv("TMPDIR")
	r.TempDir = os.TempDir()
	f, err := os.CreateTemp("", "child-")
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	r.TempFile = f.Name()
	var cerr error
	if r.Cache, cerr = wasmcache.Dir(); cerr != nil {
		r.CacheErr = cerr.Error()
	}
	svg, err := Graph(
		[]Node{{ID: "c", Label: "deployment", Cluster: "kube-controller-manager"}, {ID: "r", Label: "replicasets.apps", Kind: "resource"}},
		[]Edge{{From: "c", To: "r", Kind: "writes"}})
	if err != nil {
		t.Fatal(err)
	}
	r.SVG = len(svg)
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(out, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// Packages whose initialisation order TestWasmCache checks.
const (
	wasmcachePkg = "github.com/kubewalk/kubewalk/internal/render/wasmcache"
	graphvizPkg  = "github.com/goccy/go-graphviz/internal/wasm" // compiles Graphviz in its init
	diagramPkg   = "github.com/kubewalk/kubewalk/internal/render/diagram"
)

// TestWasmCache runs a program linking go-graphviz — this test binary,
// and the kubewalk binary named by $KUBEWALK_BIN when set (make e2e sets
// it) — with a fresh TMPDIR and cache directory, and checks that
// go-graphviz keeps its compiled code in the private cache wasmcache
// chose and leaves nothing in TMPDIR, that the runtime (GODEBUG=inittrace)
// initialised wasmcache before go-graphviz and this package after it, and
// that the program's os.TempDir is the caller's again.
func TestWasmCache(t *testing.T) {
	if os.Getenv(childEnv) != "" {
		t.Skip("in the child")
	}
	t.Run("fresh", wasmCacheFresh)
	t.Run("TMPDIR unset", wasmCacheTMPDIRUnset)
	t.Run("refused", wasmCacheRefused)
	t.Run("kubewalk", wasmCacheKubewalk)
}

// child runs this test binary's TestWasmCacheChild with TMPDIR tmp and
// XDG_CACHE_HOME cacheHome, and returns its report and init trace.
func child(t *testing.T, tmp, cacheHome string) (childReport, initTrace) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "report.json")
	trace := run(t, exec.Command(self, "-test.run=^TestWasmCacheChild$"), tmp, cacheHome, childEnv+"="+out)
	var r childReport
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("the child wrote no report: %v", err)
	}
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	if r.SVG == 0 {
		t.Error("the child drew nothing")
	}
	return r, trace
}

// graphvizCache is where wasmcache keeps the cache, under XDG_CACHE_HOME.
func graphvizCache(t *testing.T, cacheHome string) string {
	d, err := filepath.EvalSymlinks(cacheHome)
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(d, "kubewalk", "graphviz")
}

func wasmCacheFresh(t *testing.T) {
	tmp, cacheHome := dirs(t)
	var first []cacheFile
	var clock [2]float64
	for i := range 2 {
		r, trace := child(t, tmp, cacheHome)
		trace.checkOrder(t)
		if !r.TMPDIRSet || r.TMPDIR != tmp || r.TempDir != tmp {
			t.Errorf("start %d: TMPDIR %q (set %v), os.TempDir() %q; want the caller's, %s", i+1, r.TMPDIR, r.TMPDIRSet, r.TempDir, tmp)
		}
		if filepath.Dir(r.TempFile) != tmp {
			t.Errorf("start %d: os.CreateTemp made %s, not in the caller's TMPDIR %s", i+1, r.TempFile, tmp)
		}
		if want := graphvizCache(t, cacheHome); r.Cache != want || r.CacheErr != "" {
			t.Fatalf("start %d: wasmcache.Dir() = %q, %q; want %s", i+1, r.Cache, r.CacheErr, want)
		}
		onlyTempFiles(t, tmp, r.TempFile)
		os.Remove(r.TempFile)
		files := cacheFiles(t, r.Cache)
		if len(files) == 0 {
			t.Fatalf("start %d: nothing in the cache %s", i+1, r.Cache)
		}
		if i == 0 {
			first = files
		} else if !slices.Equal(files, first) {
			t.Errorf("the second start changed the cache:\nfirst  %v\nsecond %v", first, files)
		}
		clock[i] = trace.clock[graphvizPkg]
	}
	// Compiling takes 0.5-2 s here, loading from the cache 10-100 ms.
	if clock[1] > clock[0]/2 {
		t.Errorf("go-graphviz's init took %.0f ms, then %.0f ms: the second start did not use the cache", clock[0], clock[1])
	}
	t.Logf("go-graphviz's init: %.0f ms, then %.0f ms from the cache", clock[0], clock[1])
}

func wasmCacheTMPDIRUnset(t *testing.T) {
	_, cacheHome := dirs(t)
	r, trace := child(t, "", cacheHome)
	trace.checkOrder(t)
	if r.TMPDIRSet {
		t.Errorf("TMPDIR is %q in the child, want it unset as it was", r.TMPDIR)
	}
	if r.TempDir != "/tmp" {
		t.Errorf("os.TempDir() = %q, want /tmp", r.TempDir)
	}
	if r.Cache != graphvizCache(t, cacheHome) {
		t.Errorf("wasmcache.Dir() = %q, %q", r.Cache, r.CacheErr)
	}
	os.Remove(r.TempFile)
}

func wasmCacheRefused(t *testing.T) {
	// Someone made the cache directory for everyone to fill, and
	// filled it: the child must compile in memory and leave it be.
	tmp, cacheHome := dirs(t)
	planted := filepath.Join(cacheHome, "kubewalk", "graphviz")
	if err := os.MkdirAll(filepath.Join(planted, "go-graphviz"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(planted, "go-graphviz", "planted"), []byte("code"), 0o666); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(planted, 0o777); err != nil {
		t.Fatal(err)
	}
	r, trace := child(t, tmp, cacheHome)
	trace.checkOrder(t)
	if r.Cache != "" || !strings.Contains(r.CacheErr, "has mode 0777") {
		t.Errorf("wasmcache.Dir() = %q, %q; want the mode refused", r.Cache, r.CacheErr)
	}
	if r.TempDir != tmp {
		t.Errorf("os.TempDir() = %q, want %s", r.TempDir, tmp)
	}
	onlyTempFiles(t, tmp, r.TempFile)
	if got, want := cacheFiles(t, planted), []cacheFile{{Name: "go-graphviz/planted", Size: 4}}; !equalNames(got, want) {
		t.Errorf("the planted directory changed: %v, want %v", got, want)
	}
}

func wasmCacheKubewalk(t *testing.T) {
	bin := os.Getenv("KUBEWALK_BIN")
	if bin == "" {
		t.Skip("KUBEWALK_BIN is not set (make e2e sets it)")
	}
	tmp, cacheHome := dirs(t)
	trace := run(t, exec.Command(bin, "version"), tmp, cacheHome)
	trace.checkOrder(t)
	onlyTempFiles(t, tmp)
	if len(cacheFiles(t, graphvizCache(t, cacheHome))) == 0 {
		t.Errorf("kubewalk version put nothing in %s", graphvizCache(t, cacheHome))
	}
}

// dirs returns a fresh TMPDIR and XDG_CACHE_HOME.
func dirs(t *testing.T) (tmp, cacheHome string) {
	base := t.TempDir()
	tmp, cacheHome = filepath.Join(base, "tmp"), filepath.Join(base, "cache")
	for _, d := range []string{tmp, cacheHome} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	return tmp, cacheHome
}

// run runs cmd with TMPDIR (unset if tmp is "") and XDG_CACHE_HOME and
// the extra environment, and returns the initialisation it traced.
func run(t *testing.T, cmd *exec.Cmd, tmp, cacheHome string, extra ...string) initTrace {
	t.Helper()
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if k != "TMPDIR" && k != "XDG_CACHE_HOME" && k != "GODEBUG" && k != childEnv {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "XDG_CACHE_HOME="+cacheHome, "GODEBUG=inittrace=1")
	if tmp != "" {
		cmd.Env = append(cmd.Env, "TMPDIR="+tmp)
	}
	cmd.Env = append(cmd.Env, extra...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if out, err := cmd.Output(); err != nil {
		t.Fatalf("%s: %v\n%s%s", cmd, err, out, stderr.Bytes())
	}
	return parseInitTrace(&stderr)
}

// initTrace is the order in which the runtime initialised packages, and
// how long each took, as GODEBUG=inittrace=1 prints them:
//
//	init github.com/goccy/go-graphviz/internal/wasm @3.1 ms, 712 ms clock, 9823952 bytes, 3012 allocs
type initTrace struct {
	order []string
	clock map[string]float64 // ms
}

var initLine = regexp.MustCompile(`^init (\S+) @\S+ ms, ([0-9.]+) ms clock`)

func parseInitTrace(stderr *bytes.Buffer) initTrace {
	tr := initTrace{clock: map[string]float64{}}
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		m := initLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		tr.order = append(tr.order, m[1])
		tr.clock[m[1]], _ = strconv.ParseFloat(m[2], 64)
	}
	return tr
}

// checkOrder fails unless wasmcache was initialised before go-graphviz
// compiled Graphviz, and this package (which restores TMPDIR) after it.
func (tr initTrace) checkOrder(t *testing.T) {
	t.Helper()
	var at []int
	for _, p := range []string{wasmcachePkg, graphvizPkg, diagramPkg} {
		i := slices.Index(tr.order, p)
		if i < 0 {
			t.Errorf("%s is not in the init trace (%d packages)", p, len(tr.order))
			return
		}
		at = append(at, i)
	}
	if !(at[0] < at[1] && at[1] < at[2]) {
		t.Errorf("initialised: %s %dth, %s %dth, %s %dth; want them in that order", wasmcachePkg, at[0], graphvizPkg, at[1], diagramPkg, at[2])
	}
}

// onlyTempFiles fails if dir holds anything but the given files (such as
// go-graphviz).
func onlyTempFiles(t *testing.T, dir string, files ...string) {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range es {
		if !slices.Contains(files, filepath.Join(dir, e.Name())) {
			t.Errorf("%s was left in TMPDIR", filepath.Join(dir, e.Name()))
		}
	}
}

// cacheFile is a file of a cache, as much as tells whether it was
// written again.
type cacheFile struct {
	Name       string
	Size       int64
	Inode      uint64
	ModifiedNs int64
}

func cacheFiles(t *testing.T, dir string) []cacheFile {
	t.Helper()
	var files []cacheFile
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		files = append(files, cacheFile{Name: rel, Size: fi.Size(), Inode: fi.Sys().(*syscall.Stat_t).Ino, ModifiedNs: fi.ModTime().UnixNano()})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func equalNames(a, b []cacheFile) bool {
	return slices.EqualFunc(a, b, func(x, y cacheFile) bool { return x.Name == y.Name && x.Size == y.Size })
}
