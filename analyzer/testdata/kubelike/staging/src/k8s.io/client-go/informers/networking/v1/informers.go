package v1

import (
	listers "k8s.io/client-go/listers/networking/v1"
	"k8s.io/client-go/tools/cache"
)

type Interface interface {
	NetworkPolicies() NetworkPolicyInformer
	Ingresses() IngressInformer
}

type NetworkPolicyInformer interface {
	Informer() cache.SharedIndexInformer
	Lister() listers.NetworkPolicyLister
}

func NewFilteredNetworkPolicyInformer(resync int) cache.SharedIndexInformer { return nil }

type IngressInformer interface {
	Informer() cache.SharedIndexInformer
	Lister() listers.IngressLister
}

func NewFilteredIngressInformer(resync int) cache.SharedIndexInformer { return nil }
