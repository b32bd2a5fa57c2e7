package analyzer

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/kubewalk/kubewalk/analyzer/fact"
)

// A tree shaped like Kubernetes (the tests' testdata/kubelike: a
// deployment controller, client-go's typed clients and record): a
// reference resolves to its declaration, doc comment to closing brace,
// and to the lines its regexp matches; the facts list the API writes
// the controller makes.
func ExampleAnalyze() {
	dir, err := kubelikeTree()
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := Analyze(context.Background(), Config{
		Dir:         dir,
		Env:         []string{"GOWORK=" + filepath.Join(dir, "go.work"), "GOFLAGS=-mod=readonly", "GOPROXY=off"},
		Roots:       []string{"./pkg/..."},
		Tag:         "v1.0.0",
		MemoryLimit: -1, // leave a test binary's GC alone
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	ref, err := fact.ParseRef(`k8s.io/kubernetes/pkg/controller/deployment.DeploymentController.getNewReplicaSet /ReplicaSets\(.*\)\.Create/`)
	if err != nil {
		fmt.Println(err)
		return
	}
	r, err := res.Resolve(ref)
	if err != nil {
		fmt.Println(err)
		return
	}
	d := r.Symbol.Decl
	fmt.Printf("%s:%d-%d, matched %v\n", d.Path, d.StartLine, d.EndLine, r.Matched)
	for _, w := range res.Facts().Writes {
		if w.At.Path == d.Path {
			fmt.Printf("%s %s in %s (%s:%d)\n", w.Verb, w.Resource.Resource,
				fact.ShortSymbol(w.Caller.Symbol), w.At.Path, w.At.StartLine)
		}
	}
	// Output:
	// pkg/controller/deployment/sync.go:17-28, matched [19]
	// create replicasets in deployment.DeploymentController.getNewReplicaSet (pkg/controller/deployment/sync.go:19)
	// updatestatus deployments in deployment.DeploymentController.getNewReplicaSet (pkg/controller/deployment/sync.go:24)
}
