package trace

// Test helpers for the external test package (trace_test), whose e2e test
// and benchmark import internal/app/pipeline — which imports this package, so
// they cannot live in package trace itself.
var (
	Hops            = hops
	InOrder         = inOrder
	ResultInput     = resultInput
	KubelikeResult  = kubelikeResult
	DeploymentChain = deploymentChain
)
