package deployment

import (
	"context"

	apps "k8s.io/api/apps/v1"
	appsinformers "k8s.io/client-go/informers/apps/v1"
	coreinformers "k8s.io/client-go/informers/core/v1"
	clientset "k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
	"k8s.io/client-go/util/workqueue"
)

// DeploymentController is wired like the real one: method-value handlers,
// a syncHandler field, a typed work queue.
type DeploymentController struct {
	client        clientset.Interface
	eventRecorder record.EventRecorder

	syncHandler       func(ctx context.Context, dKey string) error
	enqueueDeployment func(deployment *apps.Deployment)

	queue workqueue.TypedRateLimitingInterface[string]
}

func NewDeploymentController(ctx context.Context, dInformer appsinformers.DeploymentInformer, rsInformer appsinformers.ReplicaSetInformer, podInformer coreinformers.PodInformer, client clientset.Interface, recorder record.EventRecorder) (*DeploymentController, error) {
	dc := &DeploymentController{
		client:        client,
		eventRecorder: recorder,
		queue:         workqueue.NewTypedRateLimitingQueue[string](),
	}
	dInformer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{ // want handler "AddEventHandler apps/v1 Deployment deployments add=deployment.DeploymentController.addDeployment update=deployment.DeploymentController.updateDeployment delete=deployment.DeploymentController.deleteDeployment caller=deployment.NewDeploymentController" // want informer "Informer apps/v1 Deployment deployments factory=k8s.io/client-go/informers expr=dInformer caller=deployment.NewDeploymentController"
		AddFunc:    dc.addDeployment,
		UpdateFunc: dc.updateDeployment,
		DeleteFunc: dc.deleteDeployment,
	})
	rsInformer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{ // want handler "AddEventHandler apps/v1 ReplicaSet replicasets add=deployment.DeploymentController.addReplicaSet update=deployment.DeploymentController.updateReplicaSet delete=deployment.DeploymentController.deleteReplicaSet caller=deployment.NewDeploymentController" // want informer "Informer apps/v1 ReplicaSet replicasets factory=k8s.io/client-go/informers expr=rsInformer caller=deployment.NewDeploymentController"
		AddFunc:    dc.addReplicaSet,
		UpdateFunc: dc.updateReplicaSet,
		DeleteFunc: dc.deleteReplicaSet,
	})
	podInformer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{ // want handler "AddEventHandler /v1 Pod pods add=- update=- delete=deployment.DeploymentController.deletePod caller=deployment.NewDeploymentController" // want informer "Informer /v1 Pod pods factory=k8s.io/client-go/informers expr=podInformer caller=deployment.NewDeploymentController"
		DeleteFunc: dc.deletePod,
	})

	dc.syncHandler = dc.syncDeployment // want wiring "deployment.DeploymentController.syncHandler = deployment.DeploymentController.syncDeployment queue=queue enqueuers=deployment.DeploymentController.enqueue worker=deployment.DeploymentController.processNextWorkItem" // want call "method value deployment.NewDeploymentController -> deployment.DeploymentController.syncDeployment"
	dc.enqueueDeployment = dc.enqueue  // want wiring "deployment.DeploymentController.enqueueDeployment = deployment.DeploymentController.enqueue queue=queue enqueuers=deployment.DeploymentController.enqueue"
	return dc, nil
}

func (dc *DeploymentController) addDeployment(obj interface{}) {
	dc.enqueueDeployment(obj.(*apps.Deployment))
}

func (dc *DeploymentController) updateDeployment(old, cur interface{}) {
	dc.enqueueDeployment(cur.(*apps.Deployment))
}

func (dc *DeploymentController) deleteDeployment(obj interface{}) {}

func (dc *DeploymentController) addReplicaSet(obj interface{}) {}

func (dc *DeploymentController) updateReplicaSet(old, cur interface{}) {}

func (dc *DeploymentController) deleteReplicaSet(obj interface{}) {}

func (dc *DeploymentController) deletePod(obj interface{}) {}

func (dc *DeploymentController) enqueue(deployment *apps.Deployment) {
	dc.queue.Add(deployment.Namespace + "/" + deployment.Name)
}

func (dc *DeploymentController) worker(ctx context.Context) {
	for dc.processNextWorkItem(ctx) {
	}
}

func (dc *DeploymentController) processNextWorkItem(ctx context.Context) bool {
	key, quit := dc.queue.Get()
	if quit {
		return false
	}
	defer dc.queue.Done(key)
	if err := dc.syncHandler(ctx, key); err != nil {
		dc.queue.AddRateLimited(key)
	}
	return true
}
