package trace

import (
	"slices"
	"testing"

	"github.com/kubewalk/kubewalk/analyzer/fact"
)

const appPkg = kk + "cmd/kube-controller-manager/app."

// TestControllers: the deployment controller's view, from a start
// function that calls its constructor (and, through an interface edge,
// the replicaset controller's, which must not count), agrees with the
// Deployment trace's watcher: same registrations, sync, and writes, with
// the replicaset controller named as the watcher of what it creates.
func TestControllers(t *testing.T) {
	f := chainFacts()
	start := appPkg + "newDeploymentController"
	f.Calls = append(f.Calls,
		call(start, depPkg+"NewDeploymentController", "cmd/kube-controller-manager/app/apps.go", 130, "static"),
		call(start, rsPkg+"NewBaseController", "cmd/kube-controller-manager/app/apps.go", 131, "interface"))
	f.Controllers = []fact.Controller{{
		Name: "deployment-controller", Start: fref(start, "cmd/kube-controller-manager/app/apps.go", 128),
		Constructors: []fact.FuncRef{fref(depPkg+"NewDeploymentController", depFile, 100)},
		Types:        []string{depPkg + "DeploymentController"}, Packages: []string{"pkg/controller/deployment"},
	}}
	in := Input{Facts: f}
	vs := Controllers(in, Options{})
	if len(vs) != 1 {
		t.Fatalf("%d views", len(vs))
	}
	v := vs[0]
	var watched []string
	for _, w := range v.Watches {
		watched = append(watched, w.Registration.Informer.Resource+" "+w.Registration.At.Path)
	}
	if want := []string{"deployments " + depFile, "replicasets " + depFile}; !slices.Equal(watched, want) {
		t.Errorf("watches %v, want %v (the interface edge to the replicaset constructor must not count)", watched, want)
	}
	tr := Derive(in, deployments, Options{})
	dw := tr.Root.Watchers[0]
	if dw.Component != "pkg/controller/deployment" || len(v.Syncs) != 1 || v.Syncs[0].Sync.Symbol != dw.Sync.Symbol {
		t.Fatalf("syncs %+v, the trace's deployment sync %+v", v.Syncs, dw.Sync)
	}
	if len(v.Syncs[0].Writes) != len(dw.Writes) || len(dw.Writes) == 0 {
		t.Fatalf("%d followed writes, the trace has %d", len(v.Syncs[0].Writes), len(dw.Writes))
	}
	var next []string
	for _, w := range v.Syncs[0].Writes[0].Next.Watchers {
		next = append(next, w.Name+" "+w.Status)
	}
	if !slices.Contains(next, "replicaset controller depth") {
		t.Errorf("watchers of the created %s: %v, want the replicaset controller, not followed", v.Syncs[0].Writes[0].Resource.Resource, next)
	}
	if ks := SyncedKinds(vs); len(ks) != 1 || ks[0].Resource != "deployments" {
		t.Errorf("synced kinds %v, want deployments (replicasets only enqueue their Deployment)", ks)
	}
}
