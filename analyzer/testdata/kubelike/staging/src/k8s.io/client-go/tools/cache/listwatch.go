package cache

import (
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime"
)

// Getter is what a typed client's RESTClient() gives.
type Getter interface{}

type ListFunc func(options metav1.ListOptions) (runtime.Object, error)

type ListWatch struct {
	ListFunc ListFunc
}

func NewListWatchFromClient(c Getter, resource string, namespace string, fieldSelector fields.Selector) *ListWatch {
	optionsModifier := func(options *metav1.ListOptions) {
		options.FieldSelector = fieldSelector.String()
	}
	return NewFilteredListWatchFromClient(c, resource, namespace, optionsModifier)
}

func NewFilteredListWatchFromClient(c Getter, resource string, namespace string, optionsModifier func(options *metav1.ListOptions)) *ListWatch {
	return &ListWatch{}
}

type Reflector struct{}

// NewReflector's expectedType is an interface{}, as in client-go.
func NewReflector(lw ListerWatcher, expectedType interface{}, store Store, resyncPeriod time.Duration) *Reflector {
	return &Reflector{}
}

func (r *Reflector) Run(stopCh <-chan struct{}) {}

type KeyFunc func(obj interface{}) (string, error)

func MetaNamespaceKeyFunc(obj interface{}) (string, error) { return "", nil }

type UndeltaStore struct{}

func NewUndeltaStore(pushFunc func([]interface{}), keyFunc KeyFunc) *UndeltaStore {
	return &UndeltaStore{}
}

// ReflectorStore is what newer reflectors take (client-go v0.31+).
type ReflectorStore interface{}

type ReflectorOptions struct{ Name string }

func NewReflectorWithOptions(lw ListerWatcher, expectedType interface{}, store ReflectorStore, options ReflectorOptions) *Reflector {
	return &Reflector{}
}
