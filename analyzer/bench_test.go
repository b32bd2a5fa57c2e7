package analyzer

import (
	"context"
	"encoding/json"
	"fmt"
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
//	BenchmarkAnalyzeCold       Analyze, empty GOCACHE
//	BenchmarkAnalyzeWarm       Analyze, the usual GOCACHE
//	BenchmarkAnalyzeCached     AnalyzeCached, a hit
//	BenchmarkGoListExportCold  `go list -deps -export` of the same roots,
//	                           empty GOCACHE: what export-data loading pays
//	BenchmarkGoListExportWarm  the same, warm GOCACHE

const benchChildEnv = "KUBEWALK_ANALYZER_BENCH_CHILD"

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
	cmd := exec.Command(os.Args[0], "-test.run=^TestBenchChild$", "-test.count=1", "-test.v")
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
	return rep, float64(cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss) / 1024
}

func benchAnalyze(b *testing.B, cold bool) {
	cfg := benchTree(b)
	var peak float64
	var rep childReport
	for i := 0; i < b.N; i++ {
		var env []string
		if cold {
			b.StopTimer()
			env = []string{"GOCACHE=" + b.TempDir()}
			b.StartTimer()
		}
		var mb float64
		rep, mb = runChild(b, cfg, "analyze", env...)
		peak = max(peak, mb)
	}
	b.ReportMetric(peak, "peak-RSS-MB")
	b.ReportMetric(float64(rep.Packages), "packages")
	b.ReportMetric(float64(rep.Roots), "roots")
	b.ReportMetric(float64(rep.Errors), "errors")
	b.ReportMetric(float64(rep.Symbols), "symbols")
	b.ReportMetric(float64(rep.Idents), "idents")
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
