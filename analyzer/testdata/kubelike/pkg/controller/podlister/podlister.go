// Package podlister asks the shared informer factory for the pods
// informer too, through its lister and through InformerFor: the factory
// still starts one pods informer for it and the other controllers.
package podlister

import (
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/client-go/informers"
	coreinformers "k8s.io/client-go/informers/core/v1"
	"k8s.io/client-go/tools/cache"
)

// Controller lists pods.
type Controller struct {
	synced   func() bool
	nodePods cache.SharedIndexInformer
}

// New asks for the pods informer through the lister alone.
func New(f informers.SharedInformerFactory, pods coreinformers.PodInformer) *Controller {
	_ = pods.Lister() // want informer "Lister /v1 Pod pods factory=k8s.io/client-go/informers expr=pods caller=podlister.New"
	c := &Controller{}
	c.nodePods = f.InformerFor(&v1.Pod{}, newNodePodInformer) // want informer "InformerFor /v1 Pod pods factory=k8s.io/client-go/informers expr=f caller=podlister.New"
	return c
}

func newNodePodInformer(resync int) cache.SharedIndexInformer { return nil }

// NodeOnly watches its own node, through a factory whose informers all
// list and watch with one field selector.
func NodeOnly(client interface{}, nodeName string) {
	f := informers.NewSharedInformerFactoryWithOptions(client, 0, informers.WithTweakListOptions(func(options *metav1.ListOptions) {
		options.FieldSelector = fields.OneTermEqualSelector("metadata.name", nodeName).String()
	}), informers.WithNamespace(metav1.NamespaceAll))
	nodes := f.Core().V1().Nodes()
	_ = nodes.Lister() // want informer "Lister /v1 Node nodes factory=k8s.io/client-go/informers expr=nodes caller=podlister.NodeOnly fields=metadata.name namespace=metav1.NamespaceAll"
}
