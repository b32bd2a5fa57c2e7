// Package podlister asks the shared informer factory for the pods
// informer too, through its lister and through InformerFor: the factory
// still starts one pods informer for it and the other controllers.
package podlister

import (
	v1 "k8s.io/api/core/v1"
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
