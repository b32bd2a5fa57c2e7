package serve

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kubewalk/kubewalk/cmd/kubewalk/internal/pipeline"
	"github.com/kubewalk/kubewalk/cmd/kubewalk/internal/sitebuild"
	"github.com/kubewalk/kubewalk/source"
	"github.com/kubewalk/kubewalk/walkthroughs"
)

// BenchmarkServeRebuild measures save → reload: from writing a walkthrough
// file to the reload event reaching a connected page, through the file
// watcher, the debounce, walkthrough.Load and a whole site.Build of a
// small fixture site. BenchmarkServeRebuildReal does the same on the real
// site.
func BenchmarkServeRebuild(b *testing.B) {
	dir := mkdir(b)
	md := filepath.Join(dir, "fixture.md")
	writeFile(b, md, walkthroughMD(0))
	saveToReload(b, Options{Build: fixtureBuild(dir), Watch: []string{dir}}, md, walkthroughMD)
}

// BenchmarkServeRebuildReal measures save → reload on the real site of the
// default tag, from the tree and cached
// facts in KUBEWALK_E2E_CACHE (`make bench` fetches and analyses them
// first; without cached facts the setup analyses the tree). The edited
// file is the built-in deployment walkthrough, copied into a watched
// --walkthroughs directory, where it replaces the built-in one:
//
//   - text: a sentence of the first step changes;
//   - title: the first step's title changes, so its ID and the backlinks
//     of every file the step cites change too;
//   - full: the text edit, with every build a whole sitebuild.Build (what
//     serve did before sitebuild.Rebuild): the baseline.
//
// To run it alone:
//
//	KUBEWALK_E2E_CACHE=.cache/e2e go test -run '^$' -bench ServeRebuildReal ./cmd/kubewalk/internal/serve
func BenchmarkServeRebuildReal(b *testing.B) {
	cache := os.Getenv("KUBEWALK_E2E_CACHE")
	if cache == "" {
		b.Skip("KUBEWALK_E2E_CACHE not set (a kubewalk cache holding the default tag's tree and facts)")
	}
	orig, err := fs.ReadFile(walkthroughs.FS, "deployment.md")
	if err != nil {
		b.Fatal(err)
	}
	const sentence, heading = "It is `kubectl`, not the kubelet,", "## kubectl turns the manifest into a GET and a POST"
	for _, s := range []string{sentence, heading} {
		if !strings.Contains(string(orig), s) {
			b.Fatalf("deployment.md no longer has %q: update the benchmark's edits", s)
		}
	}
	dir := mkdir(b)
	md := filepath.Join(dir, "deployment.md")
	writeFile(b, md, string(orig))
	sets, err := pipeline.Sets(dir, false)
	if err != nil {
		b.Fatal(err)
	}
	rel, err := pipeline.Open(context.Background(), source.Options{Source: "goproxy", CacheDir: cache, Tag: source.DefaultTag}, sets, nil)
	if err != nil {
		b.Fatal(err)
	}
	if !rel.Cached {
		b.Logf("facts of %s were not cached; analysed now", rel.Tree.Tag)
	}
	edit := func(old string) func(int) string {
		return func(i int) string {
			return strings.Replace(string(orig), old, old+" (edit "+strconv.Itoa(i)+")", 1)
		}
	}
	full := func(ctx context.Context, out string) error {
		_, err := sitebuild.Build(ctx, rel, sets, "en", out, nil)
		return err
	}
	rebuild := func() func(ctx context.Context, out string) error {
		build := sitebuild.Rebuild(rel, sets, "en", nil)
		return func(ctx context.Context, out string) error {
			_, err := build(ctx, out)
			return err
		}
	}
	for _, c := range []struct {
		name  string
		build func(ctx context.Context, out string) error
		edit  func(int) string
	}{
		{"text", rebuild(), edit(sentence)},
		{"title", rebuild(), edit(heading)},
		{"full", full, edit(sentence)},
	} {
		b.Run(c.name, func(b *testing.B) {
			writeFile(b, md, string(orig))
			saveToReload(b, Options{Build: c.build, Watch: []string{dir}}, md, c.edit)
		})
	}
}

// saveToReload serves a site built with opts, and times writing
// content(i) into the watched file md until the reload event reaches a
// connected page; it reports the mean (ns/op) and the worst (worst-ms).
func saveToReload(b *testing.B, opts Options, md string, content func(i int) string) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s, ev := watching(b, ctx, opts)
	var worst time.Duration
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		start := time.Now()
		writeFile(b, md, content(i+1))
		ev.waitFor(b, "reload", 30*time.Second)
		worst = max(worst, time.Since(start))
	}
	b.ReportMetric(float64(worst.Microseconds())/1000, "worst-ms")
	if err := s.Err(); err != nil {
		b.Fatal(err)
	}
}
