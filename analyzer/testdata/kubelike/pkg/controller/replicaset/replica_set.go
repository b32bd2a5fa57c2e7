package replicaset

import (
	"context"

	v1 "k8s.io/api/core/v1"
	appsinformers "k8s.io/client-go/informers/apps/v1"
	coreinformers "k8s.io/client-go/informers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/kubernetes/pkg/controller"
)

// ReplicaSetController registers func literals that forward to methods
// declared in replica_set_handlers.go, and is built with a struct literal.
type ReplicaSetController struct {
	podControl  controller.PodControlInterface
	syncHandler func(ctx context.Context, rsKey string) error
	queue       workqueue.RateLimitingInterface
}

func NewReplicaSetController(ctx context.Context, rsInformer appsinformers.ReplicaSetInformer, podInformer coreinformers.PodInformer, podControl controller.PodControlInterface) *ReplicaSetController {
	rsc := &ReplicaSetController{
		podControl: podControl,
		queue:      workqueue.NewRateLimitingQueue(),
	}
	rsInformer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{ // want handler "AddEventHandler apps/v1 ReplicaSet replicasets add=replicaset.NewReplicaSetController$1(func literal)[replicaset.ReplicaSetController.addRS] update=replicaset.NewReplicaSetController$2(func literal)[replicaset.ReplicaSetController.updateRS] delete=replicaset.ReplicaSetController.deleteRS caller=replicaset.NewReplicaSetController" // want informer "Informer apps/v1 ReplicaSet replicasets factory=k8s.io/client-go/informers expr=rsInformer caller=replicaset.NewReplicaSetController"
		AddFunc: func(obj interface{}) {
			rsc.addRS(ctx, obj) // want call "static replicaset.NewReplicaSetController$1 -> replicaset.ReplicaSetController.addRS"
		},
		UpdateFunc: func(old, cur interface{}) {
			rsc.updateRS(ctx, old, cur)
		},
		DeleteFunc: rsc.deleteRS,
	})
	podInformer.Informer().AddEventHandler(cache.FilteringResourceEventHandler{ // want handler "AddEventHandler /v1 Pod pods add=replicaset.ReplicaSetController.addPod update=- delete=- filter=replicaset.isOwned(func) caller=replicaset.NewReplicaSetController" // want informer "Informer /v1 Pod pods factory=k8s.io/client-go/informers expr=podInformer caller=replicaset.NewReplicaSetController"
		FilterFunc: isOwned,
		Handler: cache.ResourceEventHandlerFuncs{
			AddFunc: rsc.addPod,
		},
	})
	rsc.syncHandler = rsc.syncReplicaSet // want wiring "replicaset.ReplicaSetController.syncHandler = replicaset.ReplicaSetController.syncReplicaSet queue=queue enqueuers=replicaset.ReplicaSetController.addRS,replicaset.ReplicaSetController.deleteRS worker=replicaset.ReplicaSetController.processNextWorkItem"
	return rsc
}

func isOwned(obj interface{}) bool {
	_, ok := obj.(*v1.Pod)
	return ok
}

func (rsc *ReplicaSetController) processNextWorkItem(ctx context.Context) bool {
	key, quit := rsc.queue.Get()
	if quit {
		return false
	}
	_ = rsc.syncHandler(ctx, key.(string)) // want call "func field replicaset.ReplicaSetController.processNextWorkItem -> replicaset.ReplicaSetController.syncReplicaSet"
	return true
}

func (rsc *ReplicaSetController) syncReplicaSet(ctx context.Context, key string) error {
	return rsc.manageReplicas(ctx)
}

func (rsc *ReplicaSetController) manageReplicas(ctx context.Context) error {
	return rsc.podControl.CreatePods(ctx, "ns", &v1.Pod{}, nil) // want call "interface replicaset.ReplicaSetController.manageReplicas -> controller.RealPodControl.CreatePods"
}
