package v1

import (
	listers "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
)

type Interface interface {
	Pods() PodInformer
	Nodes() NodeInformer
	Endpoints() EndpointsInformer
}

type PodInformer interface {
	Informer() cache.SharedIndexInformer
	Lister() listers.PodLister
}

func NewFilteredPodInformer(resync int) cache.SharedIndexInformer { return nil }

type NodeInformer interface {
	Informer() cache.SharedIndexInformer
	Lister() listers.NodeLister
}

func NewFilteredNodeInformer(resync int) cache.SharedIndexInformer { return nil }

type EndpointsInformer interface {
	Informer() cache.SharedIndexInformer
	Lister() listers.EndpointsLister
}

func NewFilteredEndpointsInformer(resync int) cache.SharedIndexInformer { return nil }
