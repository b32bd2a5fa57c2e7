package record

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kubewalk/kubewalk/source"
)

// benchTree is the default release's tree from the cache make bench and
// make e2e share; the benchmarks skip without one.
func benchTree(b *testing.B) (*source.Tree, string) {
	b.Helper()
	cache := os.Getenv("KUBEWALK_E2E_CACHE")
	if cache == "" {
		b.Skip("KUBEWALK_E2E_CACHE not set (make bench sets it)")
	}
	tree, err := source.Fetch(context.Background(), source.Options{Tag: source.DefaultTag, Source: "goproxy", CacheDir: cache})
	if err != nil {
		b.Fatal(err)
	}
	return tree, cache
}

// peakRSS samples, until stop is called, the summed resident memory of
// every process whose executable lies under dir (the programs of a run,
// or the go command and the compilers it starts when dir is GOROOT), and
// returns the largest sum in MB.
func peakRSS(dirs ...string) (stop func() float64) {
	var mu sync.Mutex
	var peak int64
	done := make(chan struct{})
	go func() {
		for {
			var sum int64
			ents, _ := os.ReadDir("/proc")
			for _, e := range ents {
				if _, err := strconv.Atoi(e.Name()); err != nil {
					continue
				}
				exe, err := os.Readlink(filepath.Join("/proc", e.Name(), "exe"))
				if err != nil {
					continue
				}
				for _, d := range dirs {
					if strings.HasPrefix(exe, d) {
						sum += rssKB(e.Name())
						break
					}
				}
			}
			mu.Lock()
			peak = max(peak, sum)
			mu.Unlock()
			select {
			case <-done:
				return
			case <-time.After(200 * time.Millisecond):
			}
		}
	}()
	return func() float64 {
		close(done)
		mu.Lock()
		defer mu.Unlock()
		return float64(peak) / 1024
	}
}

func rssKB(pid string) int64 {
	b, err := os.ReadFile(filepath.Join("/proc", pid, "status"))
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return n
		}
	}
	return 0
}

// BenchmarkBuildCold builds the default release's programs with an empty
// Go build cache and an empty kubewalk cache: what the first record on a
// fresh machine pays (the module cache is warm: the tree was fetched).
// peak-RSS-MB sums the go command and every compiler and linker it runs.
func BenchmarkBuildCold(b *testing.B) { benchBuildCold(b, false) }

// BenchmarkBuildColdCoverage is BenchmarkBuildCold with coverage
// counters, as kubewalk record builds by default: the target is 1.5× the
// plain build's time and memory at most.
func BenchmarkBuildColdCoverage(b *testing.B) { benchBuildCold(b, true) }

func benchBuildCold(b *testing.B, coverage bool) {
	tree, shared := benchTree(b)
	roots := coverRoots(b, tree, shared)
	goroot, err := goEnv(context.Background(), "go", "GOROOT")
	if err != nil {
		b.Fatal(err)
	}
	for range b.N {
		b.StopTimer()
		b.Setenv("GOCACHE", b.TempDir())
		cache := b.TempDir()
		stop := peakRSS(goroot)
		b.StartTimer()
		opts := BuildOptions{CacheDir: cache, Coverage: coverage, Logf: b.Logf}
		if coverage {
			opts.CoverRoots = roots
		}
		if _, err := Build(context.Background(), tree, opts); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(stop(), "peak-RSS-MB")
	}
}

// BenchmarkRecordCached is a record with the programs built: start the
// control plane and the hollow node, apply, wait for the Started events,
// read events, audit log and etcd, stop everything. peak-RSS-MB sums the
// programs of the run.
func BenchmarkRecordCached(b *testing.B) { benchRecordCached(b, false) }

// BenchmarkRecordCachedCoverage is BenchmarkRecordCached with the
// programs built with coverage counters: a snapshot of every program at
// each phase boundary, read while the scenario goes on. coverage-KB is what the
// coverage adds to the recording's JSON (its budget: bench/README.md).
func BenchmarkRecordCachedCoverage(b *testing.B) { benchRecordCached(b, true) }

func benchRecordCached(b *testing.B, coverage bool) {
	tree, cache := benchTree(b)
	opts := BuildOptions{CacheDir: cache, Coverage: coverage, Logf: b.Logf}
	if coverage {
		opts.CoverRoots = coverRoots(b, tree, cache)
	}
	bins, err := Build(context.Background(), tree, opts)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		stop := peakRSS(bins.Dir)
		rec, err := Run(context.Background(), bins, RunOptions{})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(stop(), "peak-RSS-MB")
		b.ReportMetric(float64(len(rec.Events)), "events")
		if coverage {
			b.StopTimer()
			with, err := rec.Marshal()
			if err != nil {
				b.Fatal(err)
			}
			rec.Coverage = nil
			without, err := rec.Marshal()
			if err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(len(with)-len(without))/1e3, "coverage-KB")
			b.StartTimer()
		}
	}
}
