package prosehtml_test

import (
	"fmt"
	"testing/fstest"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/internal/render/prosehtml"
	"github.com/kubewalk/kubewalk/internal/testsupport/fakeresolver"
	"github.com/kubewalk/kubewalk/walkthrough"
)

// A step's prose with a symbol reference and a link to another
// walkthrough, rendered with a page's link rules.
func ExampleRenderer_HTML() {
	md := "---\ntitle: Deployments\n---\n\n## Sync\n\n" +
		"[syncDeployment](go:k8s.io/kubernetes/pkg/controller/deployment.DeploymentController.syncDeployment) " +
		"runs after [the informer](informers.md).\n"
	fsys := fstest.MapFS{
		"deployment.md": {Data: []byte(md)},
		"informers.md":  {Data: []byte("---\ntitle: Informers\n---\n\n## Watch\n\nWatching.\n")},
	}
	res := &fakeresolver.Resolver{Found: &fact.Facts{}, Symbols: map[string]fakeresolver.Symbol{
		"k8s.io/kubernetes/pkg/controller/deployment.DeploymentController.syncDeployment": {
			Symbol: fact.Symbol{Name: "k8s.io/kubernetes/pkg/controller/deployment.DeploymentController.syncDeployment", Kind: "method",
				Decl: fact.Location{Path: "pkg/controller/deployment/deployment_controller.go", StartLine: 580, EndLine: 582}},
			Lines: []string{"func (dc *DeploymentController) syncDeployment(ctx context.Context, key string) error {", "\treturn nil", "}"},
		},
	}}
	docs, err := walkthrough.Load(fsys, ".", "en", walkthrough.Options{Resolver: res})
	if err != nil {
		fmt.Println(err)
		return
	}
	r := prosehtml.NewRenderer(prosehtml.Links{
		SymbolURL: func(r fact.Resolved) string {
			return fmt.Sprintf("../src/%s.html#L%d", r.Symbol.Decl.Path, r.Symbol.Decl.StartLine)
		},
		Permalink: func(path string, from, to int) string {
			return fmt.Sprintf("https://github.com/kubernetes/kubernetes/blob/v1.31.0/%s#L%d-L%d", path, from, to)
		},
		WalkthroughURL: func(id, anchor string) string { return id + ".html" },
	})
	h, err := r.HTML(docs[0].Steps[0].Segments[0].Markdown)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(h)
	// Output:
	// <p><a class="symref" href="../src/pkg/controller/deployment/deployment_controller.go.html#L580" title="pkg/controller/deployment/deployment_controller.go:580-582">syncDeployment</a><a class="symref-gh" href="https://github.com/kubernetes/kubernetes/blob/v1.31.0/pkg/controller/deployment/deployment_controller.go#L580-L582" title="GitHub" aria-label="GitHub">↗</a> runs after <a href="informers.html">the informer</a>.</p>
}
