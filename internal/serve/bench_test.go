package serve

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkServeRebuild measures save → reload: from writing a walkthrough
// file to the reload event reaching a connected page, through the file
// watcher, the debounce, walkthrough.Load and a whole site.Build of a
// small fixture site. (The real site adds its source pages to the build:
// `kubewalk serve -v` logs each build's time.)
func BenchmarkServeRebuild(b *testing.B) {
	dir := mkdir(b)
	md := filepath.Join(dir, "fixture.md")
	writeFile(b, md, walkthroughMD(0))
	s, err := New(Options{Build: fixtureBuild(dir), Watch: []string{dir}})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := s.Rebuild(ctx); err != nil {
		b.Fatal(err)
	}
	go s.Watch(ctx)
	ts := httptest.NewServer(s)
	defer ts.Close()
	ev := dialEvents(b, ts.URL)
	defer ev.close()
	ev.waitFor(b, "hello", 5*time.Second)
	time.Sleep(50 * time.Millisecond) // let the watcher start
	var worst time.Duration
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		start := time.Now()
		writeFile(b, md, walkthroughMD(i+1))
		ev.waitFor(b, "reload", 10*time.Second)
		worst = max(worst, time.Since(start))
	}
	b.ReportMetric(float64(worst.Microseconds())/1000, "worst-ms")
}
