package site

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"golang.org/x/tools/txtar"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/analyzer/fact/factsfile"
	"github.com/kubewalk/kubewalk/internal/derive/explain"
	"github.com/kubewalk/kubewalk/source"
	"github.com/kubewalk/kubewalk/walkthrough"
)

// The explain page must give the answers `kubewalk explain` gives. These
// tests run internal/derive/explain's corpus (kubectl tables in every layout,
// --watch, -o json, audit lines, junk and hostile text) through the Go
// explainer and through the page in headless Chromium, over the site
// fixture with facts where ranking matters, and compare every line.

var updateParity = flag.Bool("update-parity", false, "rewrite internal/derive/explain/testdata/site-fixture.golden.json")

const (
	corpusDir    = "../internal/derive/explain/testdata/corpus"
	parityGolden = "../internal/derive/explain/testdata/site-fixture.golden.json"
)

// parityTree holds the files the parity facts sit in, beside the fixture
// tree: shared helpers reached through the call graph, several call sites
// for one reason, handlers of one resource in several components.
const parityTree = `
-- pkg/controller/controller_utils.go --
package controller

// RealPodControl creates and deletes pods for controllers.
type RealPodControl struct{}

func (r RealPodControl) CreatePods(namespace string) error {
	return r.createPods(namespace)
}

func (r RealPodControl) CreatePodsWithGenerateName(namespace string) error {
	return r.createPods(namespace)
}

func (r RealPodControl) createPods(namespace string) error {
	newPod, err := r.KubeClient.CoreV1().Pods(namespace).Create(ctx, pod, metav1.CreateOptions{})
	if err != nil {
		r.Recorder.Eventf(object, v1.EventTypeWarning, FailedCreatePodReason, "Error creating: %v", err)
		return err
	}
	r.Recorder.Eventf(object, v1.EventTypeNormal, SuccessfulCreatePodReason, "Created pod: %v", newPod.Name)
	return nil
}

func (r RealPodControl) DeletePod(namespace, podID string) error {
	return r.KubeClient.CoreV1().Pods(namespace).Delete(ctx, podID, metav1.DeleteOptions{})
}
-- pkg/controller/replicaset/replica_set.go --
package replicaset

func NewBaseController(rsInformer, podInformer cache.SharedIndexInformer) *ReplicaSetController {
	rsc := &ReplicaSetController{}
	rsInformer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    rsc.addRS,
		UpdateFunc: rsc.updateRS,
		DeleteFunc: rsc.deleteRS,
	})
	podInformer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    rsc.addPod,
		UpdateFunc: rsc.updatePod,
		DeleteFunc: rsc.deletePod,
	})
	return rsc
}

func (rsc *ReplicaSetController) manageReplicas(rs *apps.ReplicaSet) error {
	return rsc.podControl.CreatePods(rs.Namespace)
}
-- pkg/controller/job/job_controller.go --
package job

func NewController(podInformer cache.SharedIndexInformer) *Controller {
	jm := &Controller{}
	podInformer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    jm.addPod,
		UpdateFunc: jm.updatePod,
		DeleteFunc: jm.deletePod,
	})
	return jm
}

func (jm *Controller) syncJob(key string) error {
	return jm.podControl.CreatePodsWithGenerateName(ns)
}
-- pkg/controller/cronjob/cronjob_controllerv2.go --
package cronjob

func (jm *ControllerV2) syncCronJob(cronJob *batchv1.CronJob) {
	jm.recorder.Eventf(cronJob, corev1.EventTypeNormal, "SuccessfulCreate", "Created job %v", jobResp.Name)
}
-- pkg/controller/deployment/progress.go --
package deployment

func (dc *DeploymentController) syncRolloutStatus(d *apps.Deployment) error {
	_, err := dc.client.AppsV1().Deployments(d.Namespace).UpdateStatus(context.TODO(), d, metav1.UpdateOptions{})
	return err
}

func (dc *DeploymentController) updateDeployment(d *apps.Deployment) error {
	_, err := dc.client.AppsV1().Deployments(d.Namespace).Update(context.TODO(), d, metav1.UpdateOptions{})
	return err
}

func (dc *DeploymentController) scaleReplicaSet(rs *apps.ReplicaSet) {
	dc.eventRecorder.Eventf(deployment, v1.EventTypeNormal, "ScalingReplicaSet", "Scaled %s replica set %s from %d to %d", op, rs.Name, oldScale, newScale)
}
-- pkg/scheduler/eventhandlers.go --
package scheduler

func addAllEventHandlers(sched *Scheduler, informerFactory informers.SharedInformerFactory) {
	informerFactory.Core().V1().Pods().Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    sched.addPodToSchedulingQueue,
		UpdateFunc: sched.updatePodInSchedulingQueue,
		DeleteFunc: sched.deletePodFromSchedulingQueue,
	})
	informerFactory.Core().V1().Pods().Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    sched.addPodToCache,
		UpdateFunc: sched.updatePodInCache,
		DeleteFunc: sched.deletePodFromCache,
	})
	informerFactory.Core().V1().Pods().Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj interface{}) { sched.onPodAdd(obj) },
	})
	informerFactory.Core().V1().Nodes().Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    sched.addNodeToCache,
		UpdateFunc: sched.updateNodeInCache,
	})
}

func (sched *Scheduler) finishBinding() {
	sched.Recorder.Eventf(assumed, nil, v1.EventTypeNormal, "Scheduled", "Binding", "Successfully assigned %v/%v to %v", ns, name, node)
}
-- pkg/kubelet/images/image_manager.go --
package images

func (m *imageManager) EnsureImageExists(pod *v1.Pod) {
	m.logIt(objRef, v1.EventTypeNormal, events.PullingImage, logPrefix, fmt.Sprintf("Pulling image %q", image), klog.Info)
	msg := fmt.Sprintf("Container image %q already present on machine", image)
	m.logIt(objRef, v1.EventTypeNormal, events.PulledImage, logPrefix, msg, klog.Info)
	msg = fmt.Sprintf("Container image %q already present on machine and can be accessed by the pod", image)
	m.logIt(objRef, v1.EventTypeNormal, events.PulledImage, logPrefix, msg, klog.Info)
}

func (m *imageManager) pullImage(pod *v1.Pod) {
	msg := fmt.Sprintf("Successfully pulled image %q in %v (%v including waiting). Image size: %v bytes.", image, d, w, size)
	m.logIt(objRef, v1.EventTypeNormal, events.PulledImage, logPrefix, msg, klog.Info)
}

func (m *imageManager) logIt(objRef *v1.ObjectReference, eventtype, event, prefix, msg string) {
	m.recorder.Event(objRef, eventtype, event, msg)
}
-- pkg/kubelet/kuberuntime/kuberuntime_manager.go --
package kuberuntime

func (m *kubeGenericRuntimeManager) doBackOff(pod *v1.Pod) {
	m.recorder.Eventf(ref, v1.EventTypeWarning, events.BackOffStartContainer, "Back-off restarting failed container %s in pod %s", name, format.Pod(pod))
}

func (m *kubeGenericRuntimeManager) killContainer(pod *v1.Pod) {
	m.recordContainerEvent(pod, spec, id, v1.EventTypeNormal, events.KillingContainer, "Stopping container %s", spec.Name)
}

func (m *kubeGenericRuntimeManager) evict(pod *v1.Pod) {
	m.recorder.Eventf(pod, v1.EventTypeWarning, Reason, "The node was low on resource: %s.", resource)
}
-- pkg/kubelet/pod/mirror_client.go --
package pod

func (mc *basicMirrorClient) CreateMirrorPod(pod *v1.Pod) error {
	_, err := mc.apiserverClient.CoreV1().Pods(copyPod.Namespace).Create(context.TODO(), copyPod, metav1.CreateOptions{})
	return err
}
-- pkg/kubelet/status/status_manager.go --
package status

func (m *manager) syncPod(uid types.UID, status versionedPodStatus) {
	newPod, patchBytes, unchanged, err := statusutil.PatchPodStatus(context.TODO(), m.kubeClient, pod.Namespace, pod.Name, pod.UID, pod.Status, mergedStatus)
}
-- pkg/controller/podgc/gc_controller.go --
package podgc

func (gcc *PodGCController) markFailedAndDeletePod(pod *v1.Pod) error {
	gcc.recorder.Event(pod, v1.EventTypeWarning, "PodGCFailed", err.Error())
	return err
}
-- pkg/controller/util/node/controller_utils.go --
package node

func RecordNodeStatusChange(recorder record.EventRecorder, node *v1.Node, newStatus string) {
	recorder.Eventf(ref, v1.EventTypeNormal, newStatus, "Node %s status is now: %s", node.Name, newStatus)
}

func MarkPodsNotReady(recorder record.EventRecorder, pods []*v1.Pod) error {
	recorder.Event(pod, v1.EventTypeWarning, "NodeNotReady", "Node is not ready")
	recorder.Event(pod, v1.EventTypeWarning, "PodGCFailed", err.Error())
	return nil
}
-- pkg/odd/extensions.go --
package odd

func UpdateOld() {
	client.ExtensionsV1beta1().Deployments(ns).Update(ctx, d, opts)
}
`

// parityFixture is the site fixture (with explainFixture's events) and
// parityTree's facts, and two more walkthroughs: one whose steps cite the
// replicaset controller's code, the kubelet's events and writes, and a
// reason no fact has; one whose four steps all cite createPods (at most
// three are listed). Like fixture, it stays one function so the facts and
// the walkthroughs that cite them read side by side.
func parityFixture(t testing.TB) func(*Input) {
	ar := txtar.Parse([]byte(parityTree))
	tr := fixtureTree{}
	for _, f := range ar.Files {
		tr[f.Name] = f.Data
	}
	const kk = "k8s.io/kubernetes/"
	fn := func(sym, path, start string) fact.FuncRef {
		return fact.FuncRef{Symbol: kk + sym, Decl: tr.decl(t, path, start)}
	}
	at := func(path, substr string) fact.Location {
		l := tr.line(t, path, substr)
		return fact.Location{Path: path, StartLine: l, EndLine: l}
	}
	const (
		utils = "pkg/controller/controller_utils.go"
		rsc   = "pkg/controller/replicaset/replica_set.go"
		job   = "pkg/controller/job/job_controller.go"
		cron  = "pkg/controller/cronjob/cronjob_controllerv2.go"
		prog  = "pkg/controller/deployment/progress.go"
		sched = "pkg/scheduler/eventhandlers.go"
		image = "pkg/kubelet/images/image_manager.go"
		rt    = "pkg/kubelet/kuberuntime/kuberuntime_manager.go"
		odd   = "pkg/odd/extensions.go"
		podgc = "pkg/controller/podgc/gc_controller.go"
		nodeu = "pkg/controller/util/node/controller_utils.go"
	)
	createPods := fn("pkg/controller.RealPodControl.createPods", utils, "func (r RealPodControl) createPods")
	newBase := fn("pkg/controller/replicaset.NewBaseController", rsc, "func NewBaseController")
	manage := fn("pkg/controller/replicaset.ReplicaSetController.manageReplicas", rsc, "func (rsc *ReplicaSetController) manageReplicas")
	pods := fact.Resource{Version: "v1", Kind: "Pod", Resource: "pods"}
	deployments := fact.Resource{Group: "apps", Version: "v1", Kind: "Deployment", Resource: "deployments"}
	handler := func(sym, path, start string) *fact.Handler {
		return &fact.Handler{FuncRef: fn(sym, path, start), Form: "method value"}
	}
	events := []fact.Event{
		{Caller: createPods, At: at(utils, "SuccessfulCreatePodReason"), Recorder: "record", Method: "Eventf", Type: "Normal", Reason: "SuccessfulCreate", ReasonExpr: "SuccessfulCreatePodReason", Message: "Created pod: %v"},
		{Caller: createPods, At: at(utils, "FailedCreatePodReason"), Recorder: "record", Method: "Eventf", Type: "Warning", Reason: "FailedCreate", ReasonExpr: "FailedCreatePodReason", Message: "Error creating: %v"},
		{Caller: fn("pkg/controller/cronjob.ControllerV2.syncCronJob", cron, "func (jm *ControllerV2) syncCronJob"), At: at(cron, "Eventf"), Recorder: "record", Method: "Eventf", Type: "Normal", Reason: "SuccessfulCreate", ReasonExpr: `"SuccessfulCreate"`, Message: "Created job %v"},
		{Caller: fn("pkg/controller/deployment.DeploymentController.scaleReplicaSet", prog, "func (dc *DeploymentController) scaleReplicaSet"), At: at(prog, "Eventf"), Recorder: "record", Method: "Eventf", Type: "Normal", Reason: "ScalingReplicaSet", ReasonExpr: `"ScalingReplicaSet"`, Message: "Scaled %s replica set %s from %d to %d"},
		{Caller: fn("pkg/scheduler.Scheduler.finishBinding", sched, "func (sched *Scheduler) finishBinding"), At: at(sched, "Eventf"), Recorder: "events", Method: "Eventf", Type: "Normal", Reason: "Scheduled", ReasonExpr: `"Scheduled"`, Message: "Successfully assigned %v/%v to %v", Action: "Binding"},
		{Caller: fn("pkg/kubelet/images.imageManager.EnsureImageExists", image, "func (m *imageManager) EnsureImageExists"), At: at(image, "m.logIt"), Recorder: "record", Method: "Event", Type: "Normal", Reason: "Pulling", ReasonExpr: "events.PullingImage", Via: kk + "pkg/kubelet/images.imageManager.logIt"},
		// Three call sites of Pulled: the message's opening tells them apart.
		{Caller: fn("pkg/kubelet/images.imageManager.EnsureImageExists", image, "func (m *imageManager) EnsureImageExists"), At: at(image, "present on machine\", image"), Recorder: "record", Method: "Event", Type: "Normal", Reason: "Pulled", ReasonExpr: "events.PulledImage", Message: "Container image %q already present on machine", Via: kk + "pkg/kubelet/images.imageManager.logIt"},
		{Caller: fn("pkg/kubelet/images.imageManager.EnsureImageExists", image, "func (m *imageManager) EnsureImageExists"), At: at(image, "by the pod"), Recorder: "record", Method: "Event", Type: "Normal", Reason: "Pulled", ReasonExpr: "events.PulledImage", Message: "Container image %q already present on machine and can be accessed by the pod", Via: kk + "pkg/kubelet/images.imageManager.logIt"},
		{Caller: fn("pkg/kubelet/images.imageManager.pullImage", image, "func (m *imageManager) pullImage"), At: at(image, "Successfully pulled"), Recorder: "record", Method: "Event", Type: "Normal", Reason: "Pulled", ReasonExpr: "events.PulledImage", Message: "Successfully pulled image %q in %v (%v including waiting). Image size: %v bytes.", Via: kk + "pkg/kubelet/images.imageManager.logIt"},
		{Caller: fn("pkg/kubelet/kuberuntime.kubeGenericRuntimeManager.doBackOff", rt, "func (m *kubeGenericRuntimeManager) doBackOff"), At: at(rt, "BackOffStartContainer"), Recorder: "record", Method: "Eventf", Type: "Warning", Reason: "BackOff", ReasonExpr: "events.BackOffStartContainer", Message: "Back-off restarting failed container %s in pod %s"},
		// A controller the component tables do not name, and a reason
		// recorded with both types.
		{Caller: fn("pkg/controller/podgc.PodGCController.markFailedAndDeletePod", podgc, "func (gcc *PodGCController)"), At: at(podgc, "PodGCFailed"), Recorder: "record", Method: "Event", Type: "Warning", Reason: "PodGCFailed", ReasonExpr: `"PodGCFailed"`},
		{Caller: fn("pkg/controller/util/node.MarkPodsNotReady", nodeu, "func MarkPodsNotReady"), At: at(nodeu, `"PodGCFailed"`), Recorder: "record", Method: "Event", Type: "Warning", Reason: "PodGCFailed", ReasonExpr: `"PodGCFailed"`},
		{Caller: fn("pkg/controller/util/node.RecordNodeStatusChange", nodeu, "func RecordNodeStatusChange"), At: at(nodeu, "newStatus, \"Node %s"), Recorder: "record", Method: "Eventf", Type: "Normal", Reason: "NodeNotReady", ReasonExpr: "newStatus", Message: "Node %s status is now: %s"},
		{Caller: fn("pkg/controller/util/node.MarkPodsNotReady", nodeu, "func MarkPodsNotReady"), At: at(nodeu, `"NodeNotReady"`), Recorder: "record", Method: "Event", Type: "Warning", Reason: "NodeNotReady", ReasonExpr: `"NodeNotReady"`, Message: "Node is not ready"},
		{Caller: fn("pkg/kubelet/kuberuntime.kubeGenericRuntimeManager.killContainer", rt, "func (m *kubeGenericRuntimeManager) killContainer"), At: at(rt, "KillingContainer"), Recorder: "record", Method: "Eventf", Type: "Normal", Reason: "Killing", ReasonExpr: "events.KillingContainer", Message: "Stopping container %s", Via: kk + "pkg/kubelet/kuberuntime.kubeGenericRuntimeManager.recordContainerEvent"},
	}
	// A fact of another analysis, in a facts block only: the step names a
	// reason no call site of these facts records.
	evicted := fact.Event{Caller: fn("pkg/kubelet/kuberuntime.kubeGenericRuntimeManager.evict", rt, "func (m *kubeGenericRuntimeManager) evict"), At: at(rt, "Reason, \"The node"), Recorder: "record", Method: "Eventf", Type: "Warning", Reason: "Evicted", Message: "The node was low on resource: %s."}
	writes := []fact.Write{
		{Caller: createPods, At: at(utils, "Pods(namespace).Create"), Resource: pods, Verb: "create", APIVerb: "create", Via: "CoreV1().Pods().Create"},
		{Caller: fn("pkg/controller.RealPodControl.DeletePod", utils, "func (r RealPodControl) DeletePod"), At: at(utils, "Pods(namespace).Delete"), Resource: pods, Verb: "delete", APIVerb: "delete", Via: "CoreV1().Pods().Delete"},
		{Caller: fn("pkg/kubelet/pod.basicMirrorClient.CreateMirrorPod", "pkg/kubelet/pod/mirror_client.go", "func (mc *basicMirrorClient)"), At: at("pkg/kubelet/pod/mirror_client.go", "Create("), Resource: pods, Verb: "create", APIVerb: "create", Via: "CoreV1().Pods().Create"},
		{Caller: fn("pkg/kubelet/status.manager.syncPod", "pkg/kubelet/status/status_manager.go", "func (m *manager) syncPod"), At: at("pkg/kubelet/status/status_manager.go", "PatchPodStatus"), Resource: pods, Verb: "patch", APIVerb: "patch", Subresource: "status", Via: "statusutil.PatchPodStatus"},
		{Caller: fn("pkg/controller/deployment.DeploymentController.syncRolloutStatus", prog, "func (dc *DeploymentController) syncRolloutStatus"), At: at(prog, "UpdateStatus("), Resource: deployments, Verb: "updateStatus", APIVerb: "update", Subresource: "status", Via: "AppsV1().Deployments().UpdateStatus"},
		{Caller: fn("pkg/controller/deployment.DeploymentController.updateDeployment", prog, "func (dc *DeploymentController) updateDeployment"), At: at(prog, ".Update("), Resource: deployments, Verb: "update", APIVerb: "update", Via: "AppsV1().Deployments().Update"},
		{Caller: fn("pkg/odd.UpdateOld", odd, "func UpdateOld"), At: at(odd, "Update(ctx"), Resource: fact.Resource{Group: "extensions", Version: "v1beta1", Kind: "Deployment", Resource: "deployments"}, Verb: "update", APIVerb: "update", Via: "ExtensionsV1beta1().Deployments().Update"},
	}
	handlers := []fact.HandlerRegistration{
		{Component: "pkg/controller/replicaset", Caller: newBase, At: at(rsc, "rsInformer.AddEventHandler"), Method: "AddEventHandler", InformerExpr: "rsInformer",
			Informer: fact.Resource{Group: "apps", Version: "v1", Kind: "ReplicaSet", Resource: "replicasets"},
			Add:      handler("pkg/controller/replicaset.ReplicaSetController.addRS", rsc, "func NewBaseController"),
			Update:   handler("pkg/controller/replicaset.ReplicaSetController.updateRS", rsc, "func NewBaseController"),
			Delete:   handler("pkg/controller/replicaset.ReplicaSetController.deleteRS", rsc, "func NewBaseController")},
		{Component: "pkg/controller/replicaset", Caller: newBase, At: at(rsc, "podInformer.AddEventHandler"), Method: "AddEventHandler", InformerExpr: "podInformer", Informer: pods,
			Add:    handler("pkg/controller/replicaset.ReplicaSetController.addPod", rsc, "func NewBaseController"),
			Update: handler("pkg/controller/replicaset.ReplicaSetController.updatePod", rsc, "func NewBaseController"),
			Delete: handler("pkg/controller/replicaset.ReplicaSetController.deletePod", rsc, "func NewBaseController")},
	}
	schedFn := fn("pkg/scheduler.addAllEventHandlers", sched, "func addAllEventHandlers")
	for i, prefix := range []string{"PodToSchedulingQueue", "PodToCache"} {
		l := tr.line(t, sched, "AddFunc:    sched.add"+prefix)
		handlers = append(handlers, fact.HandlerRegistration{Component: "pkg/scheduler", Caller: schedFn, At: fact.Location{Path: sched, StartLine: l - 1, EndLine: l - 1},
			Method: "AddEventHandler", InformerExpr: fmt.Sprintf("podInformer#%d", i), Informer: pods,
			Add:    handler("pkg/scheduler.Scheduler.add"+prefix, sched, "func addAllEventHandlers"),
			Update: handler("pkg/scheduler.Scheduler.update"+strings.Replace(prefix, "To", "In", 1), sched, "func addAllEventHandlers"),
			Delete: handler("pkg/scheduler.Scheduler.delete"+strings.Replace(prefix, "To", "From", 1), sched, "func addAllEventHandlers")})
	}
	onPodAdd := tr.line(t, sched, "sched.onPodAdd")
	handlers = append(handlers,
		fact.HandlerRegistration{Component: "pkg/scheduler", Caller: schedFn, At: fact.Location{Path: sched, StartLine: onPodAdd - 1, EndLine: onPodAdd - 1},
			Method: "AddEventHandler", InformerExpr: "podInformer#2", Informer: pods,
			Add: &fact.Handler{Form: "func literal"}},
		fact.HandlerRegistration{Component: "pkg/scheduler", Caller: schedFn, At: at(sched, "Nodes().Informer().AddEventHandler"),
			Method: "AddEventHandler", InformerExpr: "nodeInformer", Informer: fact.Resource{Version: "v1", Kind: "Node", Resource: "nodes"},
			Add:    handler("pkg/scheduler.Scheduler.addNodeToCache", sched, "func addAllEventHandlers"),
			Update: handler("pkg/scheduler.Scheduler.updateNodeInCache", sched, "func addAllEventHandlers")},
		fact.HandlerRegistration{Component: "pkg/controller/job", Caller: fn("pkg/controller/job.NewController", job, "func NewController"), At: at(job, "podInformer.AddEventHandler"),
			Method: "AddEventHandler", InformerExpr: "podInformer", Informer: pods,
			Add:    handler("pkg/controller/job.Controller.addPod", job, "func NewController"),
			Update: handler("pkg/controller/job.Controller.updatePod", job, "func NewController"),
			Delete: handler("pkg/controller/job.Controller.deletePod", job, "func NewController")},
	)
	calls := []fact.Call{
		{From: manage.Symbol, To: kk + "pkg/controller.RealPodControl.CreatePods", Kind: "interface"},
		{From: kk + "pkg/controller.RealPodControl.CreatePods", To: createPods.Symbol, Kind: "static"},
		{From: kk + "pkg/controller/job.Controller.syncJob", To: kk + "pkg/controller.RealPodControl.CreatePodsWithGenerateName", Kind: "interface"},
		{From: kk + "pkg/controller.RealPodControl.CreatePodsWithGenerateName", To: createPods.Symbol, Kind: "static"},
	}
	ref := func(f fact.FuncRef) walkthrough.Ref {
		return walkthrough.Ref{Text: f.Symbol, Line: 1, Ref: fact.Ref{Alternates: []string{f.Symbol}},
			Resolved: fact.Resolved{Symbol: fact.Symbol{Name: f.Symbol, Kind: "func", Decl: f.Decl, Body: f.Decl}}}
	}
	step := func(id, title string, refs []walkthrough.Ref, facts ...*walkthrough.FactsBlock) walkthrough.Step {
		s := walkthrough.Step{ID: id, Title: title, Line: 10, Refs: refs, Segments: []walkthrough.Segment{prose("Text.")}}
		for _, f := range facts {
			s.Segments = append(s.Segments, walkthrough.Segment{Facts: f})
		}
		return s
	}
	docs := []*walkthrough.Doc{
		{ID: "replicaset", Lang: "en", File: "walkthroughs/replicaset.md", Title: "The replicaset controller", Order: 3, Steps: []walkthrough.Step{
			step("step-1-handlers", "NewBaseController registers the handlers", []walkthrough.Ref{ref(newBase)}),
			step("step-2-manage", "manageReplicas creates the Pods", []walkthrough.Ref{ref(manage), ref(createPods)}),
			step("step-3-kubelet", "The kubelet pulls the image", nil,
				&walkthrough.FactsBlock{Kind: "events", Query: "reason=Pulling", Events: events[5:6]},
				&walkthrough.FactsBlock{Kind: "events", Query: "reason=Evicted", Events: []fact.Event{evicted}}),
			step("step-4-status", "The kubelet reports the Pod's status", nil, &walkthrough.FactsBlock{Kind: "writes", Query: "subresource=status", Writes: writes[3:4]}),
		}},
		{ID: "pods", Lang: "en", File: "walkthroughs/pods.md", Title: "Pods, four times", Order: 4, Steps: []walkthrough.Step{
			step("step-1", "One", []walkthrough.Ref{ref(createPods)}),
			step("step-2", "Two", []walkthrough.Ref{ref(createPods)}),
			step("step-3", "Three", []walkthrough.Ref{ref(createPods)}),
			step("step-4", "Four", []walkthrough.Ref{ref(createPods), ref(fn("pkg/controller/job.NewController", job, "func NewController"))}),
		}},
	}
	return func(in *Input) {
		explainFixture(in)
		in.Facts.Events = append(in.Facts.Events, events...)
		in.Facts.Writes = append(in.Facts.Writes, writes...)
		in.Facts.Handlers = append(in.Facts.Handlers, handlers...)
		in.Facts.Calls = append(in.Facts.Calls, calls...)
		in.Docs = append(in.Docs, docs...)
		read := in.ReadFile
		in.ReadFile = func(p string) ([]byte, error) {
			if b, ok := tr[p]; ok {
				return b, nil
			}
			return read(p)
		}
	}
}

// corpusCase is one file of internal/derive/explain/testdata/corpus.
type corpusCase struct {
	name  string
	input []byte
}

func loadCorpus(t testing.TB) []corpusCase {
	t.Helper()
	ents, err := os.ReadDir(corpusDir)
	if err != nil {
		t.Fatal(err)
	}
	var cs []corpusCase
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(corpusDir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		cs = append(cs, corpusCase{e.Name(), b})
	}
	if len(cs) < 15 {
		t.Fatalf("corpus has %d cases", len(cs))
	}
	return cs
}

// lineResult is what the page shows of one record, and what the Go
// explainer says of it.
type lineResult struct {
	Line   int    `json:"line"`
	Kind   string `json:"kind"`
	Format string `json:"format,omitempty"`
	Text   string `json:"text"`
	// Shown is the one-line summary shown instead of Text (for JSON
	// input, as WriteText does), or "".
	Shown     string `json:"shown,omitempty"`
	Component string `json:"component,omitempty"` // "name (from)"
	// Code and Handlers are "role path:line symbol | detail | via symbol".
	Code     []string `json:"code,omitempty"`
	Handlers []string `json:"handlers,omitempty"`
	// Links are the permalinks of Code then Handlers (left out of the
	// golden file: they repeat path and line).
	Links     []string `json:"links,omitempty"`
	Steps     []string `json:"steps,omitempty"` // "page title › step title"
	Explained bool     `json:"explained"`
	Note      string   `json:"note,omitempty"`
}

// goResults explains input as `kubewalk explain` does, with the site's
// walkthroughs and link rules.
func goResults(x *explain.Explainer, input []byte) []lineResult {
	out := []lineResult{}
	for _, ex := range x.Explain(explain.Parse(input)) {
		r := lineResult{Line: ex.Line, Kind: ex.Kind, Format: ex.Format, Text: ex.Text, Explained: ex.Explained, Note: ex.Note}
		if ex.Format != "table" && ex.Summary != "" && ex.Summary != ex.Text {
			r.Shown = ex.Summary
		}
		if c := ex.Component; c != nil {
			r.Component = c.Name + " (" + c.From + ")"
		}
		// The page names a func literal by where it is written, never by
		// its "$N" (readableSymbol in explain.js is fact.ReadableSymbol);
		// other symbols in full.
		name := func(sym string) string {
			if strings.Contains(sym, "$") {
				return fact.ReadableSymbol(sym)
			}
			return sym
		}
		site := func(c explain.Code) string {
			s := c.Role + " " + c.Where() + " " + name(c.Symbol)
			if c.Detail != "" {
				s += " | " + c.Detail
			}
			if c.Via != "" {
				s += " | via " + name(c.Via)
			}
			r.Links = append(r.Links, c.Permalink)
			return s
		}
		for _, c := range ex.Code {
			r.Code = append(r.Code, site(c))
		}
		for _, c := range ex.Handlers {
			r.Handlers = append(r.Handlers, site(c))
		}
		for _, s := range ex.Steps {
			r.Steps = append(r.Steps, s.Page+" "+s.Title+" › "+s.StepTitle)
		}
		out = append(out, r)
	}
	return out
}

// pageResultsJS reads the results table back into lineResults.
const pageResultsJS = `[...document.querySelectorAll('#explain-results > tr')].map(tr => {
	const txt = e => e ? e.textContent : '';
	const code = tr.querySelector('td.rec code');
	const site = d => {
		let s = d.dataset.role + ' ' + txt(d.querySelector('.loc')) + ' ' + d.querySelector('.sym').title;
		if (d.querySelector('.detail')) s += ' | ' + txt(d.querySelector('.detail'));
		if (d.querySelector('.via')) s += ' | via ' + d.querySelector('.via').title;
		return s;
	};
	const sites = [...tr.querySelectorAll('.site')];
	const code_ = sites.filter(d => d.dataset.role !== 'handles'), handlers = sites.filter(d => d.dataset.role === 'handles');
	return {
		line: +tr.dataset.line, kind: tr.dataset.kind, format: tr.dataset.format || '',
		text: code.title, shown: code.textContent === code.title ? '' : code.textContent,
		component: txt(tr.querySelector('td.comp')),
		code: code_.map(site), handlers: handlers.map(site),
		links: code_.concat(handlers).map(d => (d.querySelector('a.gh') || {getAttribute: () => ''}).getAttribute('href')),
		steps: [...tr.querySelectorAll('a.steplink')].map(a => a.getAttribute('href') + ' ' + a.textContent),
		explained: tr.className === 'explained',
		note: txt(tr.querySelector('.note')),
	};
})`

// pageLinksJS lists the hrefs of the code links on the page.
const pageLinksJS = `[...document.querySelectorAll('#explain-results a.loc, #explain-results a.sym')].map(a => a.getAttribute('href'))`

// parityExplainer is the explainer the page must agree with: the parity
// fixture's facts and the site's walkthroughs.
func parityExplainer(t testing.TB) *explain.Explainer {
	in, opts := fixture(t)
	parityFixture(t)(&in)
	return explain.New(in.Facts, walkthrough.Select(in.Docs, in.Lang), explainOptions(opts.SourceURL))
}

// TestExplainCorpusGolden pins the Go explainer's answers on the corpus
// over the parity fixture (-update-parity rewrites them), so a change to
// the rules shows in review as a change of answers.
func TestExplainCorpusGolden(t *testing.T) {
	x := parityExplainer(t)
	got := map[string][]lineResult{}
	for _, c := range loadCorpus(t) {
		rs := goResults(x, c.input)
		for i := range rs {
			rs[i].Links = nil
		}
		got[c.name] = rs
	}
	data, err := json.MarshalIndent(got, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	data = append(data, '\n')
	if *updateParity {
		if err := os.WriteFile(parityGolden, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(parityGolden)
	if err != nil {
		t.Fatalf("%v (go test ./site -run TestExplainCorpusGolden -update-parity writes it)", err)
	}
	if diff := cmp.Diff(string(want), string(data)); diff != "" {
		t.Errorf("%s (-want +got; -update-parity rewrites it):\n%s", parityGolden, diff)
	}
}

// TestBrowserExplainParity pastes every corpus case into explain.html,
// opened from file://, and compares the page's table with the Go
// explainer's answers line by line.
func TestBrowserExplainParity(t *testing.T) {
	x, out, ctx, paste := parityPage(t)
	for _, c := range loadCorpus(t) {
		t.Run(c.name, func(t *testing.T) {
			got := paste(t, string(c.input))
			want := goResults(x, c.input)
			if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("page differs from kubewalk explain (-go +page):\n%s", diff)
			}
			// Code links go to a source page of the site (or GitHub).
			links, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](pageLinksJS))
			if err != nil {
				t.Fatal(err)
			}
			for _, l := range links {
				if strings.HasPrefix(l, "https://github.com/kubernetes/kubernetes/blob/") {
					continue
				}
				p, _, _ := strings.Cut(l, "#")
				if _, err := os.Stat(filepath.Join(out, filepath.FromSlash(unescapePath(t, p)))); err != nil {
					t.Errorf("code link %q: %v", l, err)
				}
			}
		})
	}
}

// parityPage builds the parity fixture's site and opens its explain
// page (see openExplain); x is the explainer the page must agree with.
func parityPage(t *testing.T) (x *explain.Explainer, out string, ctx context.Context, paste func(*testing.T, string) []lineResult) {
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	out, _ = buildFixture(t, parityFixture(t))
	ctx, paste = openExplain(t, out)
	return parityExplainer(t), out, ctx, paste
}

// openExplain opens explain.html of the site in out from file:// and
// returns a function that pastes text, submits it and reads the table.
func openExplain(t *testing.T, out string) (ctx context.Context, paste func(*testing.T, string) []lineResult) {
	abs, err := filepath.Abs(out)
	if err != nil {
		t.Fatal(err)
	}
	ctx = browser(t, 1400, 1000)
	err = chromedp.Do(ctx,
		chromedp.Navigate("file://"+filepath.ToSlash(abs)+"/explain.html"),
		chromedp.WaitVisible(chromedp.CSS(`#explain-input`)),
	)
	if err != nil {
		t.Fatal(err)
	}
	runs := 0
	return ctx, func(t *testing.T, text string) []lineResult {
		t.Helper()
		runs++
		// The text is set without an input event (chromedp.SetValue sends
		// one, and the page would render again after its debounce), so
		// the click renders once and the table's data-run says when.
		js, err := json.Marshal(text)
		if err != nil {
			t.Fatal(err)
		}
		err = chromedp.Do(ctx,
			voidEval(`document.getElementById('explain-input').value = `+string(js)),
			chromedp.Click(chromedp.CSS(`#explain-form button`)),
			chromedp.WaitReady(chromedp.CSS(fmt.Sprintf(`#explain-results[data-run="%d"]`, runs))),
		)
		if err != nil {
			t.Fatal(err)
		}
		return explainTable(t, ctx)
	}
}

func unescapePath(t *testing.T, p string) string {
	u, err := url.PathUnescape(p)
	if err != nil {
		t.Fatalf("link %q: %v", p, err)
	}
	return u
}

// TestBrowserExplainParityFacts runs the parity test over a release's real
// facts (KUBEWALK_EXPLAIN_FACTS=path/to/facts.json.zst as `kubewalk build`
// writes it, an older site's facts.json.gz, or a facts.json: factsfile.Read) and, besides the corpus, files of events and audit lines
// such as the blog posts quote (KUBEWALK_EXPLAIN_POSTS=dir, optional):
// hundreds of call sites, reach
// sets through the whole call graph. The site is built without
// walkthroughs, over empty source files.
func TestBrowserExplainParityFacts(t *testing.T) {
	path := os.Getenv("KUBEWALK_EXPLAIN_FACTS")
	if path == "" {
		t.Skip("set KUBEWALK_EXPLAIN_FACTS to a facts.json.zst, facts.json.gz or facts.json")
	}
	r, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	facts, err := factsfile.Read(r)
	r.Close()
	if err != nil {
		t.Fatal(err)
	}
	in := Input{Tag: facts.Tag, Lang: "en", Facts: facts, ReadFile: func(string) ([]byte, error) { return nil, nil }}
	opts := Options{
		Out:       filepath.Join(t.TempDir(), "public"),
		SourceURL: func(p string, from, to int) string { return source.Permalink(facts.Tag, p, from, to) },
		Logf:      t.Logf,
	}
	if _, err := Build(context.Background(), in, opts); err != nil {
		t.Fatal(err)
	}
	x := explain.New(facts, nil, explainOptions(opts.SourceURL))
	cases := loadCorpus(t)
	if dir := os.Getenv("KUBEWALK_EXPLAIN_POSTS"); dir != "" {
		posts, err := filepath.Glob(filepath.Join(dir, "*"))
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range posts {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			cases = append(cases, corpusCase{filepath.Base(p), b})
		}
	}
	_, paste := openExplain(t, opts.Out)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if diff := cmp.Diff(goResults(x, c.input), paste(t, string(c.input)), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("page differs from kubewalk explain (-go +page):\n%s", diff)
			}
		})
	}
}
