package trace

import "testing"

// BenchmarkTrace derives the Deployment trace of the analyzer's kubelike
// fixture. The same on a real release's cached facts is
// cmd/kubewalk/internal/sitebuild's BenchmarkTrace, which opens the release
// as the command does.
func BenchmarkTrace(b *testing.B) {
	in := resultInput(kubelikeResult(b))
	root, err := FindKind(in.Facts, "deployments")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		Derive(in, root, Options{})
	}
}
