package trace

// Test helpers for the external test package (trace_test), whose benchmark
// imports internal/app/pipeline — which imports this package, so it cannot
// live in package trace itself.
var (
	ResultInput    = resultInput
	KubelikeResult = kubelikeResult
)
