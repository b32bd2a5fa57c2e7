package informers

import (
	"k8s.io/apimachinery/pkg/runtime/schema"
	appsv1 "k8s.io/client-go/informers/apps/v1"
	corev1 "k8s.io/client-go/informers/core/v1"
	networkingv1 "k8s.io/client-go/informers/networking/v1"
	"k8s.io/client-go/tools/cache"
)

type SharedInformerFactory interface {
	Core() CoreGroup
	Apps() AppsGroup
	Networking() NetworkingGroup
	ForResource(resource schema.GroupVersionResource) (GenericInformer, error)
	Start(stopCh <-chan struct{})
}

type CoreGroup interface{ V1() corev1.Interface }
type AppsGroup interface{ V1() appsv1.Interface }
type NetworkingGroup interface{ V1() networkingv1.Interface }

// GenericInformer is type-agnostic.
type GenericInformer interface {
	Informer() cache.SharedIndexInformer
}
