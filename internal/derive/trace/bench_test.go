package trace_test

import (
	"context"
	"github.com/kubewalk/kubewalk/internal/derive/trace"
	"os"
	"testing"

	"github.com/kubewalk/kubewalk/internal/app/pipeline"
	"github.com/kubewalk/kubewalk/source"
)

// BenchmarkTrace derives the Deployment trace from cached facts: the real
// ones of the default tag when KUBEWALK_E2E_CACHE holds them (fetched and
// analysed there before: the benchmark never loads packages), else the
// analyzer's kubelike fixture. The target is well under a second; on the
// real v1.36.3 facts (40k call edges) it takes about 150 ms on two cores.
func BenchmarkTrace(b *testing.B) {
	in := benchInput(b)
	root, err := trace.FindKind(in.Facts, "deployments")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		trace.Derive(in, root, trace.Options{})
	}
}

func benchInput(b *testing.B) trace.Input {
	if cache := os.Getenv("KUBEWALK_E2E_CACHE"); cache != "" {
		sets, err := pipeline.Sets("", false)
		if err != nil {
			b.Fatal(err)
		}
		rel, err := pipeline.Open(context.Background(), source.Options{Source: "goproxy", CacheDir: cache, Tag: source.DefaultTag}, sets, nil)
		if err != nil {
			b.Fatal(err)
		}
		if rel.Cached {
			b.Logf("real facts of %s: %d calls", rel.Tree.Tag, len(rel.Result.Facts().Calls))
			return trace.ResultInput(rel.Result)
		}
		b.Logf("facts of %s were not cached; analysed now", rel.Tree.Tag)
		return trace.ResultInput(rel.Result)
	}
	b.Log("KUBEWALK_E2E_CACHE unset: the kubelike fixture")
	return trace.ResultInput(trace.KubelikeResult(b))
}
