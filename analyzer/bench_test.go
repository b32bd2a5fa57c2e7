package analyzer

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The benchmarks run on a real tree, KUBEWALK_BENCH_TREE (`make bench`
// fetches one), with KUBEWALK_BENCH_ENV as the go command's environment
// (default: GOWORK=<tree>/../go.work GOFLAGS=-mod=readonly). Each
// iteration runs in a child process (this test binary, re-executed) so
// that its peak RSS can be reported (rusage maxrss of the child), and so
// that "cold" can mean what it says: an empty GOCACHE for the go command.
//
//	BenchmarkAnalyzeCold       Analyze, empty GOCACHE; each iteration also
//	                           times `go list -deps -json` of the same roots
//	                           with an empty GOCACHE (untimed), reported as
//	                           golist-s/op and the ratios analysis/golist
//	                           (wall) and analysis-cpu/golist-cpu (user+sys,
//	                           go list's children included), figures the
//	                           machine's load disturbs less
//	BenchmarkAnalyzeWarm       Analyze, the usual GOCACHE
//	BenchmarkAnalyzeCached     AnalyzeCached, a hit
//	BenchmarkGoListExportCold  `go list -deps -export` of the same roots,
//	                           empty GOCACHE: what export-data loading pays
//	BenchmarkGoListExportWarm  the same, warm GOCACHE

const benchChildEnv = "KUBEWALK_ANALYZER_BENCH_CHILD"

// KUBEWALK_BENCH_PROFILE, when set to a directory, has each child write
// its CPU and allocation profiles there (cpu-<mode>-<n>.out,
// mem-<mode>-<n>.out), for `go tool pprof <test binary> <file>`.
const benchProfileEnv = "KUBEWALK_BENCH_PROFILE"

var benchChildN int

func benchTree(b *testing.B) Config {
	dir := os.Getenv("KUBEWALK_BENCH_TREE")
	if dir == "" {
		b.Skip("KUBEWALK_BENCH_TREE not set")
	}
	env := os.Getenv("KUBEWALK_BENCH_ENV")
	if env == "" {
		work := filepath.Join(filepath.Dir(dir), "go.work")
		if _, err := os.Stat(work); err != nil {
			work = filepath.Join(dir, "go.work")
		}
		env = "GOWORK=" + work + " GOFLAGS=-mod=readonly"
	}
	return Config{Dir: dir, Env: strings.Fields(env)}
}

// childReport is what a child prints.
type childReport struct {
	Packages, Roots, Files, Errors, Symbols, XrefFiles, Idents int
	Hit                                                        bool
}

// TestBenchChild is the child's body; it does nothing in a normal run.
func TestBenchChild(t *testing.T) {
	mode := os.Getenv(benchChildEnv)
	if mode == "" {
		t.Skip("only run by the benchmarks")
	}
	cfg := Config{Dir: os.Getenv("KUBEWALK_BENCH_TREE"), Env: strings.Fields(os.Getenv("KUBEWALK_BENCH_CHILD_ENV"))}
	var res *Result
	var rep childReport
	var err error
	switch mode {
	case "analyze":
		res, err = Analyze(context.Background(), cfg)
	case "cached":
		res, rep.Hit, err = AnalyzeCached(context.Background(), cfg, os.Getenv("KUBEWALK_BENCH_CACHE"))
	}
	if err != nil {
		t.Fatal(err)
	}
	rep.Packages, rep.Roots, rep.Files, rep.Errors = res.stats.Packages, res.stats.RootPackages, res.stats.Files, res.stats.TypeErrors
	rep.Symbols, rep.XrefFiles = len(res.Symbols), len(res.Xrefs)
	for _, x := range res.Xrefs {
		rep.Idents += len(x.Idents)
	}
	out, _ := json.Marshal(rep)
	fmt.Printf("\nCHILD %s\n", out)
}

// runChild runs one child and returns its report and peak RSS in MB.
func runChild(b *testing.B, cfg Config, mode string, extraEnv ...string) (childReport, float64) {
	rep, mb, _ := runChildCPU(b, cfg, mode, extraEnv...)
	return rep, mb
}

// cpuOf is the user+sys CPU time of a finished command, its waited-for
// children (go list) included.
func cpuOf(ps *os.ProcessState) time.Duration { return ps.UserTime() + ps.SystemTime() }

// runChildCPU is runChild that also returns the child's CPU time.
func runChildCPU(b *testing.B, cfg Config, mode string, extraEnv ...string) (childReport, float64, time.Duration) {
	args := []string{"-test.run=^TestBenchChild$", "-test.count=1", "-test.v"}
	if dir := os.Getenv(benchProfileEnv); dir != "" {
		benchChildN++
		args = append(args,
			"-test.cpuprofile="+filepath.Join(dir, fmt.Sprintf("cpu-%s-%d.out", mode, benchChildN)),
			"-test.memprofile="+filepath.Join(dir, fmt.Sprintf("mem-%s-%d.out", mode, benchChildN)))
	}
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), benchChildEnv+"="+mode,
		"KUBEWALK_BENCH_CHILD_ENV="+strings.Join(cfg.Env, " "))
	cmd.Env = append(cmd.Env, extraEnv...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		b.Fatalf("child: %v\n%s", err, out)
	}
	var rep childReport
	i := strings.LastIndex(string(out), "CHILD ")
	if i < 0 {
		b.Fatalf("child printed no report:\n%s", out)
	}
	line := strings.SplitN(string(out[i+len("CHILD "):]), "\n", 2)[0]
	if err := json.Unmarshal([]byte(line), &rep); err != nil {
		b.Fatal(err)
	}
	return rep, float64(cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss) / 1024, cpuOf(cmd.ProcessState)
}

func benchAnalyze(b *testing.B, cold bool) {
	cfg := benchTree(b)
	var peak float64
	var rep childReport
	var analysis, list, analysisCPU, listCPU time.Duration
	for i := 0; i < b.N; i++ {
		var env []string
		if cold {
			b.StopTimer()
			wall, cpu := goListDeps(b, cfg)
			list, listCPU = list+wall, listCPU+cpu
			env = []string{"GOCACHE=" + b.TempDir()}
			b.StartTimer()
		}
		var mb float64
		var cpu time.Duration
		t0 := time.Now()
		rep, mb, cpu = runChildCPU(b, cfg, "analyze", env...)
		analysis += time.Since(t0)
		analysisCPU += cpu
		peak = max(peak, mb)
	}
	b.ReportMetric(analysisCPU.Seconds()/float64(b.N), "cpu-s/op")
	if cold {
		b.ReportMetric(list.Seconds()/float64(b.N), "golist-s/op")
		b.ReportMetric(analysis.Seconds()/list.Seconds(), "analysis/golist")
		b.ReportMetric(analysisCPU.Seconds()/listCPU.Seconds(), "analysis-cpu/golist-cpu")
	}
	b.ReportMetric(peak, "peak-RSS-MB")
	b.ReportMetric(float64(rep.Packages), "packages")
	b.ReportMetric(float64(rep.Roots), "roots")
	b.ReportMetric(float64(rep.Errors), "errors")
	b.ReportMetric(float64(rep.Symbols), "symbols")
	b.ReportMetric(float64(rep.Idents), "idents")
}

// goListDeps times `go list -deps -json` of the roots as the go command
// runs it by default (every field, the module index on) with an empty
// GOCACHE, CGO_ENABLED=0 as the loader lists: the reference a cold
// analysis is reported against, run in the same iteration so that the
// machine's load weighs on both alike.
func goListDeps(b *testing.B, cfg Config) (wall, cpu time.Duration) {
	cmd := exec.Command("go", append([]string{"list", "-deps", "-json", "--"}, cfg.roots()...)...)
	cmd.Dir = cfg.Dir
	cmd.Env = append(append(os.Environ(), cfg.Env...), "CGO_ENABLED=0", "GOCACHE="+b.TempDir())
	var stderr strings.Builder
	cmd.Stdout, cmd.Stderr = io.Discard, &stderr
	t0 := time.Now()
	if err := cmd.Run(); err != nil {
		b.Fatalf("go list -deps -json: %v\n%.2000s", err, stderr.String())
	}
	return time.Since(t0), cpuOf(cmd.ProcessState)
}

func BenchmarkAnalyzeCold(b *testing.B) { benchAnalyze(b, true) }
func BenchmarkAnalyzeWarm(b *testing.B) { benchAnalyze(b, false) }

func BenchmarkAnalyzeCached(b *testing.B) {
	cfg := benchTree(b)
	cache := b.TempDir()
	if rep, _ := runChild(b, cfg, "cached", "KUBEWALK_BENCH_CACHE="+cache); rep.Hit {
		b.Fatal("first run hit an empty cache")
	}
	b.ResetTimer()
	var peak float64
	for i := 0; i < b.N; i++ {
		rep, mb := runChild(b, cfg, "cached", "KUBEWALK_BENCH_CACHE="+cache)
		if !rep.Hit {
			b.Fatal("cache miss")
		}
		peak = max(peak, mb)
	}
	b.ReportMetric(peak, "peak-RSS-MB")
	files, _ := filepath.Glob(filepath.Join(cache, "*.bin"))
	if len(files) == 1 {
		if fi, err := os.Stat(files[0]); err == nil {
			b.ReportMetric(float64(fi.Size())/1e6, "cache-MB")
		}
	}
}

func benchGoListExport(b *testing.B, cold bool) {
	cfg := benchTree(b)
	var peak float64
	for i := 0; i < b.N; i++ {
		cmd := exec.Command("go", append([]string{"list", "-deps", "-export", "-f", "{{.ImportPath}}", "--"}, cfg.roots()...)...)
		cmd.Dir = cfg.Dir
		cmd.Env = append(os.Environ(), cfg.Env...)
		if cold {
			b.StopTimer()
			cmd.Env = append(cmd.Env, "GOCACHE="+b.TempDir())
			b.StartTimer()
		}
		t0 := time.Now()
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("go list -export: %v\n%.2000s", err, out)
		}
		b.Logf("go list -deps -export: %v", time.Since(t0))
		peak = max(peak, float64(cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss)/1024)
	}
	b.ReportMetric(peak, "peak-RSS-MB")
}

func BenchmarkGoListExportCold(b *testing.B) { benchGoListExport(b, true) }
func BenchmarkGoListExportWarm(b *testing.B) { benchGoListExport(b, false) }
