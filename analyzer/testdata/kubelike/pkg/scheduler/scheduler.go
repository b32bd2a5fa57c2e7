package scheduler

import (
	"context"
	"time"

	v1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/events"
)

type Scheduler struct {
	recorder events.EventRecorderLogger
	queue    []interface{}
}

// nodeHandler implements cache.ResourceEventHandler itself.
type nodeHandler struct{ sched *Scheduler }

func (h *nodeHandler) OnAdd(obj interface{}, isInInitialList bool) { h.sched.onEvent(obj) }
func (h *nodeHandler) OnUpdate(oldObj, newObj interface{})         {}
func (h *nodeHandler) OnDelete(obj interface{})                    {}

// eventBus has an AddEventHandler that is not client-go's: not a registration.
type eventBus struct{}

func (eventBus) AddEventHandler(f func()) {}

var networkPoliciesGVR = schema.GroupVersionResource{Group: "networking.k8s.io", Version: "v1", Resource: "networkpolicies"}

func addAllEventHandlers(sched *Scheduler, informerFactory informers.SharedInformerFactory, lw cache.ListerWatcher) error {
	// factory chain, filtering handler with a func literal filter
	informerFactory.Core().V1().Pods().Informer().AddEventHandler(cache.FilteringResourceEventHandler{ // want handler "AddEventHandler /v1 Pod pods add=scheduler.Scheduler.addPodToCache update=- delete=scheduler.Scheduler.deletePodFromCache filter=scheduler.addAllEventHandlers$1(func literal)[scheduler.assignedPod] caller=scheduler.addAllEventHandlers" // want informer "Informer /v1 Pod pods factory=k8s.io/client-go/informers expr=informerFactory.Core().V1().Pods() caller=scheduler.addAllEventHandlers"
		FilterFunc: func(obj interface{}) bool {
			return assignedPod(obj)
		},
		Handler: cache.ResourceEventHandlerFuncs{
			AddFunc:    sched.addPodToCache,
			DeleteFunc: sched.deletePodFromCache,
		},
	})
	// a handler type with OnAdd/OnUpdate/OnDelete, and a resync period
	informerFactory.Core().V1().Nodes().Informer().AddEventHandlerWithResyncPeriod(&nodeHandler{sched}, 30*time.Second) // want handler "AddEventHandlerWithResyncPeriod /v1 Node nodes add=scheduler.nodeHandler.OnAdd(method) update=scheduler.nodeHandler.OnUpdate(method) delete=scheduler.nodeHandler.OnDelete(method) resync=30 * time.Second caller=scheduler.addAllEventHandlers" // want informer "Informer /v1 Node nodes factory=k8s.io/client-go/informers expr=informerFactory.Core().V1().Nodes() caller=scheduler.addAllEventHandlers"

	// the type-safe variant is a request for the same informer
	_ = informerFactory.Core().V1().Nodes().TypedInformer() // want informer "TypedInformer /v1 Node nodes factory=k8s.io/client-go/informers expr=informerFactory.Core().V1().Nodes() caller=scheduler.addAllEventHandlers"

	// a local informer variable, detailed funcs, options
	ingInf := informerFactory.Networking().V1().Ingresses().Informer() // want informer "Informer networking.k8s.io/v1 Ingress ingresses factory=k8s.io/client-go/informers expr=informerFactory.Networking().V1().Ingresses() caller=scheduler.addAllEventHandlers"
	resync := time.Minute
	ingInf.AddEventHandlerWithOptions(cache.ResourceEventHandlerDetailedFuncs{ // want handler "AddEventHandlerWithOptions networking.k8s.io/v1 Ingress ingresses add=scheduler.addAllEventHandlers$2(func literal)[scheduler.Scheduler.onEvent] update=- delete=- resync=&resync caller=scheduler.addAllEventHandlers"
		AddFunc: func(obj interface{}, isInInitialList bool) { sched.onEvent(obj) },
	}, cache.HandlerOptions{ResyncPeriod: &resync})

	// handlers built by a local func literal: funcs.AddFunc = …
	buildEvtResHandler := func(label string) cache.ResourceEventHandlerFuncs {
		funcs := cache.ResourceEventHandlerFuncs{}
		funcs.AddFunc = func(obj interface{}) {
			sched.onEvent(obj)
		}
		funcs.UpdateFunc = sched.onUpdate
		return funcs
	}
	informerFactory.Core().V1().Endpoints().Informer().AddEventHandler(buildEvtResHandler("endpoints")) // want handler "AddEventHandler /v1 Endpoints endpoints add=scheduler.addAllEventHandlers$3$1(func literal)[scheduler.Scheduler.onEvent] update=scheduler.Scheduler.onUpdate delete=- caller=scheduler.addAllEventHandlers" // want informer "Informer /v1 Endpoints endpoints factory=k8s.io/client-go/informers expr=informerFactory.Core().V1().Endpoints() caller=scheduler.addAllEventHandlers"

	// a generic informer from a constant GVR
	gi, err := informerFactory.ForResource(networkPoliciesGVR) // want informer "ForResource networking.k8s.io/v1 NetworkPolicy networkpolicies factory=k8s.io/client-go/informers expr=informerFactory caller=scheduler.addAllEventHandlers"
	if err != nil {
		return err
	}
	gi.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{DeleteFunc: sched.onEvent}) // want handler "AddEventHandler networking.k8s.io/v1 NetworkPolicy networkpolicies add=- update=- delete=scheduler.Scheduler.onEvent caller=scheduler.addAllEventHandlers"

	// informers made directly, with an example object
	cache.NewInformer(lw, &v1.Node{}, 0, cache.ResourceEventHandlerFuncs{DeleteFunc: onNodeDelete}) // want handler "NewInformer /v1 Node nodes add=- update=- delete=scheduler.onNodeDelete(func) resync=0 caller=scheduler.addAllEventHandlers"
	epInf := cache.NewSharedIndexInformer(lw, &networkingv1.NetworkPolicy{}, 0, cache.Indexers{})
	epInf.AddEventHandler(cache.ResourceEventHandlerFuncs{AddFunc: sched.onEvent}) // want handler "AddEventHandler networking.k8s.io/v1 NetworkPolicy networkpolicies add=scheduler.Scheduler.onEvent update=- delete=- caller=scheduler.addAllEventHandlers"

	eventBus{}.AddEventHandler(func() {})
	return nil
}

func assignedPod(obj interface{}) bool { return obj != nil }

func onNodeDelete(obj interface{}) {}

func (s *Scheduler) addPodToCache(obj interface{})      { s.onEvent(obj) }
func (s *Scheduler) deletePodFromCache(obj interface{}) {}
func (s *Scheduler) onUpdate(old, obj interface{})      {}
func (s *Scheduler) onEvent(obj interface{})            { s.queue = append(s.queue, obj) }

func (s *Scheduler) finishBinding(ctx context.Context, assumed *v1.Pod, targetNode string) {
	s.recorder.WithLogger(nil).Eventf(assumed, nil, v1.EventTypeNormal, "Scheduled", "Binding", "Successfully assigned %v/%v to %v", assumed.Namespace, assumed.Name, targetNode) // want event "events.Eventf Normal \"Scheduled\" reasonExpr=\"Scheduled\" message=\"Successfully assigned %v/%v to %v\" action=Binding caller=scheduler.Scheduler.finishBinding"
}
