package controller

import (
	"context"
	"fmt"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clientset "k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/record"
)

const (
	// SuccessfulCreatePodReason is added in an event when a pod is created.
	SuccessfulCreatePodReason = "SuccessfulCreate"
	FailedCreatePodReason     = "FailedCreate"
)

// PodControlInterface is the helper layer controllers create pods through.
type PodControlInterface interface {
	CreatePods(ctx context.Context, namespace string, template *v1.Pod, object runtime.Object) error
}

// RealPodControl is the production implementation.
type RealPodControl struct {
	KubeClient clientset.Interface
	Recorder   record.EventRecorder
}

var _ PodControlInterface = &RealPodControl{}

func (r RealPodControl) CreatePods(ctx context.Context, namespace string, template *v1.Pod, object runtime.Object) error {
	return r.createPods(ctx, namespace, template, object)
}

func (r RealPodControl) createPods(ctx context.Context, namespace string, pod *v1.Pod, object runtime.Object) error {
	newPod, err := r.KubeClient.CoreV1().Pods(namespace).Create(ctx, pod, metav1.CreateOptions{}) // want write "pods create apiVerb=create group= version=v1 kind=Pod via=CoreV1().Pods().Create caller=controller.RealPodControl.createPods" // want call "interface controller.RealPodControl.createPods -> gentype.Client.Create"
	if err != nil {
		r.Recorder.Eventf(object, v1.EventTypeWarning, FailedCreatePodReason, "Error creating: %v", err) // want event "record.Eventf Warning \"FailedCreate\" reasonExpr=FailedCreatePodReason message=\"Error creating: %v\" caller=controller.RealPodControl.createPods"
		return err
	}
	r.Recorder.Eventf(object, v1.EventTypeNormal, SuccessfulCreatePodReason, "Created pod: %v", newPod.Name) // want event "record.Eventf Normal \"SuccessfulCreate\" reasonExpr=SuccessfulCreatePodReason message=\"Created pod: %v\" caller=controller.RealPodControl.createPods"
	return nil
}

// KeyFunc is a named function used as a handler.
func KeyFunc(obj interface{}) { fmt.Println(obj) }
