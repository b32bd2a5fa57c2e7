package v1

import (
	listers "k8s.io/client-go/listers/apps/v1"
	"k8s.io/client-go/tools/cache"
)

type Interface interface {
	Deployments() DeploymentInformer
	ReplicaSets() ReplicaSetInformer
}

type DeploymentInformer interface {
	Informer() cache.SharedIndexInformer
	Lister() listers.DeploymentLister
}

func NewFilteredDeploymentInformer(resync int) cache.SharedIndexInformer { return nil }

type ReplicaSetInformer interface {
	Informer() cache.SharedIndexInformer
	Lister() listers.ReplicaSetLister
}

func NewFilteredReplicaSetInformer(resync int) cache.SharedIndexInformer { return nil }
