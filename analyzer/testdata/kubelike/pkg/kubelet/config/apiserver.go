package config

import (
	"context"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime"
	clientset "k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
)

// PodHostField is the field a pod's node is selected by, as
// k8s.io/kubernetes/pkg/apis/core's.
const PodHostField = "spec.nodeName"

// NewSourceApiserver is the kubelet's pod source: a list-watch of the pods
// bound to its node and a raw reflector over it, started from a goroutine.
func NewSourceApiserver(c clientset.Interface, nodeName string, updates chan<- []*v1.Pod) {
	lw := cache.NewListWatchFromClient(c.CoreV1().RESTClient(), "pods", metav1.NamespaceAll, fields.OneTermEqualSelector(PodHostField, nodeName)) // want listwatch "NewListWatchFromClient /v1 Pod pods fields=spec.nodeName consumers=reflector:config.newSourceApiserverFromLW:/v1 Pod pods:push=config.newSourceApiserverFromLW$1 caller=config.NewSourceApiserver"
	go func() {
		newSourceApiserverFromLW(lw, updates)
	}()
}

func newSourceApiserverFromLW(lw cache.ListerWatcher, updates chan<- []*v1.Pod) {
	send := func(objs []interface{}) {
		var pods []*v1.Pod
		for _, o := range objs {
			pods = append(pods, o.(*v1.Pod))
		}
		updates <- pods
	}
	r := cache.NewReflector(lw, &v1.Pod{}, cache.NewUndeltaStore(send, cache.MetaNamespaceKeyFunc), 0)
	go r.Run(nil)
}

// newNodeInformer watches the kubelet's own Node through a ListWatch
// literal handed to an informer; the selector is set in ListFunc.
func newNodeInformer(c clientset.Interface, nodeName string) cache.SharedIndexInformer {
	lw := &cache.ListWatch{ // want listwatch "ListWatch /v1 Node nodes fields=metadata.name consumers=informer:config.newNodeInformer:/v1 Node nodes caller=config.newNodeInformer"
		ListFunc: func(options metav1.ListOptions) (runtime.Object, error) {
			options.FieldSelector = fields.Set{"metadata.name": nodeName}.AsSelector().String()
			_, err := c.CoreV1().Nodes().List(context.TODO(), options)
			return nil, err
		},
	}
	return cache.NewSharedIndexInformer(lw, &v1.Node{}, 0, cache.Indexers{})
}

// A filtered list-watch whose selector is built from a constant prefix.
func newFilteredPods(c clientset.Interface, nodeName string) *cache.ListWatch {
	return cache.NewFilteredListWatchFromClient(c.CoreV1().RESTClient(), "pods", metav1.NamespaceAll, func(options *metav1.ListOptions) { // want listwatch "NewFilteredListWatchFromClient /v1 Pod pods fields=spec.nodeName consumers= caller=config.newFilteredPods"
		options.FieldSelector = fields.ParseSelectorOrDie("spec.nodeName=" + nodeName).String()
	})
}

// The newer reflector constructor, whose store is a ReflectorStore.
func watchNodes(c clientset.Interface, updates chan<- []interface{}) {
	lw := cache.NewListWatchFromClient(c.CoreV1().RESTClient(), "nodes", metav1.NamespaceAll, fields.AndSelectors(fields.OneTermEqualSelector("metadata.name", "n"), fields.ParseSelectorOrDie("spec.unschedulable=false"))) // want listwatch "NewListWatchFromClient /v1 Node nodes fields=metadata.name,spec.unschedulable consumers=reflector:config.watchNodes:/v1 Node nodes:push=config.watchNodes$1 caller=config.watchNodes"
	store := cache.NewUndeltaStore(func(objs []interface{}) { updates <- objs }, cache.MetaNamespaceKeyFunc)
	cache.NewReflectorWithOptions(lw, &v1.Node{}, store, cache.ReflectorOptions{Name: "nodes"})
}
