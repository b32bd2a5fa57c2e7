package sitebuild

import (
	"context"
	"os"
	"testing"

	"github.com/kubewalk/kubewalk/cmd/kubewalk/internal/pipeline"
	"github.com/kubewalk/kubewalk/internal/derive/trace"
	"github.com/kubewalk/kubewalk/source"
)

// BenchmarkTrace derives the Deployment trace from the cached facts of the
// default tag in KUBEWALK_E2E_CACHE (fetched and analysed there before:
// the setup analyses the tree only when they are not), as the site's trace
// page does. The target is well under a second. On the analyzer's kubelike
// fixture it is internal/derive/trace's BenchmarkTrace.
func BenchmarkTrace(b *testing.B) {
	cache := os.Getenv("KUBEWALK_E2E_CACHE")
	if cache == "" {
		b.Skip("KUBEWALK_E2E_CACHE not set (a kubewalk cache holding the default tag's tree and facts)")
	}
	sets, err := pipeline.Sets("", false)
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
	in := traceInput(rel)
	b.Logf("real facts of %s: %d calls", rel.Tree.Tag, len(in.Facts.Calls))
	root, err := trace.FindKind(in.Facts, "deployments")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		trace.Derive(in, root, trace.Options{})
	}
}
