package cache

import (
	"time"

	"k8s.io/apimachinery/pkg/runtime"
)

type ResourceEventHandler interface {
	OnAdd(obj interface{}, isInInitialList bool)
	OnUpdate(oldObj, newObj interface{})
	OnDelete(obj interface{})
}

type ResourceEventHandlerFuncs struct {
	AddFunc    func(obj interface{})
	UpdateFunc func(oldObj, newObj interface{})
	DeleteFunc func(obj interface{})
}

func (r ResourceEventHandlerFuncs) OnAdd(obj interface{}, isInInitialList bool) {
	if r.AddFunc != nil {
		r.AddFunc(obj)
	}
}
func (r ResourceEventHandlerFuncs) OnUpdate(oldObj, newObj interface{}) {}
func (r ResourceEventHandlerFuncs) OnDelete(obj interface{})            {}

type ResourceEventHandlerDetailedFuncs struct {
	AddFunc    func(obj interface{}, isInInitialList bool)
	UpdateFunc func(oldObj, newObj interface{})
	DeleteFunc func(obj interface{})
}

func (r ResourceEventHandlerDetailedFuncs) OnAdd(obj interface{}, isInInitialList bool) {}
func (r ResourceEventHandlerDetailedFuncs) OnUpdate(oldObj, newObj interface{})         {}
func (r ResourceEventHandlerDetailedFuncs) OnDelete(obj interface{})                    {}

type FilteringResourceEventHandler struct {
	FilterFunc func(obj interface{}) bool
	Handler    ResourceEventHandler
}

func (r FilteringResourceEventHandler) OnAdd(obj interface{}, isInInitialList bool) {}
func (r FilteringResourceEventHandler) OnUpdate(oldObj, newObj interface{})         {}
func (r FilteringResourceEventHandler) OnDelete(obj interface{})                    {}

type ResourceEventHandlerRegistration interface{ HasSynced() bool }

type HandlerOptions struct {
	ResyncPeriod *time.Duration
}

type SharedInformer interface {
	AddEventHandler(handler ResourceEventHandler) (ResourceEventHandlerRegistration, error)
	AddEventHandlerWithResyncPeriod(handler ResourceEventHandler, resyncPeriod time.Duration) (ResourceEventHandlerRegistration, error)
	AddEventHandlerWithOptions(handler ResourceEventHandler, options HandlerOptions) (ResourceEventHandlerRegistration, error)
	HasSynced() bool
}

type Indexers map[string]func(obj interface{}) ([]string, error)

type SharedIndexInformer interface {
	SharedInformer
	AddIndexers(indexers Indexers) error
}

type ListerWatcher interface{}

type Store interface{}

type Controller interface{ Run(stopCh <-chan struct{}) }

type sharedIndexInformer struct{}

func (s *sharedIndexInformer) AddEventHandler(handler ResourceEventHandler) (ResourceEventHandlerRegistration, error) {
	return s.AddEventHandlerWithOptions(handler, HandlerOptions{})
}

func (s *sharedIndexInformer) AddEventHandlerWithResyncPeriod(handler ResourceEventHandler, resyncPeriod time.Duration) (ResourceEventHandlerRegistration, error) {
	return s.AddEventHandlerWithOptions(handler, HandlerOptions{ResyncPeriod: &resyncPeriod})
}

func (s *sharedIndexInformer) AddEventHandlerWithOptions(handler ResourceEventHandler, options HandlerOptions) (ResourceEventHandlerRegistration, error) {
	return nil, nil
}

func (s *sharedIndexInformer) HasSynced() bool                     { return true }
func (s *sharedIndexInformer) AddIndexers(indexers Indexers) error { return nil }

func NewSharedIndexInformer(lw ListerWatcher, exampleObject runtime.Object, defaultEventHandlerResyncPeriod time.Duration, indexers Indexers) SharedIndexInformer {
	return &sharedIndexInformer{}
}

func NewInformer(lw ListerWatcher, objType runtime.Object, resyncPeriod time.Duration, h ResourceEventHandler) (Store, Controller) {
	return nil, nil
}

func NewIndexerInformer(lw ListerWatcher, objType runtime.Object, resyncPeriod time.Duration, h ResourceEventHandler, indexers Indexers) (Store, Controller) {
	return nil, nil
}
