package analyzer

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kubewalk/kubewalk/analyzer/fact"
)

// TestInformerRequestsShared checks that the requests for one informer of
// one factory name every function sharing it: the fixture's deployment
// and replicaset controllers, the scheduler and podlister all ask the
// typed factory for the pods informer, which the factory starts once.
func TestInformerRequestsShared(t *testing.T) {
	facts, _ := kubelikeFacts(t)
	pods := fact.Resource{Version: "v1", Kind: "Pod", Resource: "pods"}
	var got []string
	for _, r := range facts.InformerRequests {
		if r.Factory == "k8s.io/client-go/informers" && r.Resource == pods {
			got = append(got, fact.ShortSymbol(r.Caller.Symbol)+" "+r.Method)
		}
	}
	want := []string{
		"deployment.NewDeploymentController Informer",
		"podlister.New Lister",
		"podlister.New InformerFor",
		"replicaset.NewReplicaSetController Informer",
		"scheduler.addAllEventHandlers Informer",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("requests for the pods informer (-want +got):\n%s", diff)
	}
}
