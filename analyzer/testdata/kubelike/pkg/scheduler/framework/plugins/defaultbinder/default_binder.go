package defaultbinder

import (
	"context"

	v1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	clientset "k8s.io/client-go/kubernetes"
)

type Handle interface {
	ClientSet() clientset.Interface
}

type DefaultBinder struct {
	handle Handle
}

// Bind binds pods to nodes using the k8s client.
func (b DefaultBinder) Bind(ctx context.Context, p *v1.Pod, nodeName string) error {
	binding := &v1.Binding{}
	return b.handle.ClientSet().CoreV1().Pods(binding.Namespace).Bind(ctx, binding, metav1.CreateOptions{}) // want write "pods/binding bind apiVerb=create group= version=v1 kind=Pod via=ClientSet().CoreV1().Pods().Bind caller=defaultbinder.DefaultBinder.Bind" // want call "interface defaultbinder.DefaultBinder.Bind -> v1.pods.Bind"
}

// More writes: eviction, a patch of the status subresource, a dynamic delete.
func (b DefaultBinder) others(ctx context.Context, dyn dynamic.Interface) {
	cs := b.handle.ClientSet()
	_ = cs.CoreV1().Pods("ns").EvictV1(ctx, &policyv1.Eviction{})                                                   // want write "pods/eviction evictv1 apiVerb=create group= version=v1 kind=Pod via=CoreV1().Pods().EvictV1 caller=defaultbinder.DefaultBinder.others"
	_, _ = cs.CoreV1().Nodes().Patch(ctx, "n", types.StrategicMergePatchType, nil, metav1.PatchOptions{}, "status") // want write "nodes/status patch apiVerb=patch group= version=v1 kind=Node via=CoreV1().Nodes().Patch caller=defaultbinder.DefaultBinder.others"
	pods := cs.CoreV1().Pods("ns")
	_, _ = pods.UpdateStatus(ctx, &v1.Pod{}, metav1.UpdateOptions{})                   // want write "pods/status updatestatus apiVerb=update group= version=v1 kind=Pod via=PodInterface.UpdateStatus caller=defaultbinder.DefaultBinder.others"
	_ = dyn.Resource(podsGVR).Namespace("ns").Delete(ctx, "p", metav1.DeleteOptions{}) // want write "pods delete apiVerb=delete group= version=v1 kind=Pod via=Resource().Namespace().Delete caller=defaultbinder.DefaultBinder.others"
}

var podsGVR = v1.SchemeGroupVersion.WithResource("pods")

// The namespace deleter's shape: a helper deletes through a dynamic
// client with the GVR it is given, pods first and then every resource
// discovery returns. The resource is known only at run time, not pods.
func (b DefaultBinder) deleteAll(ctx context.Context, dyn dynamic.Interface, discovered map[schema.GroupVersionResource]bool) {
	b.deleteResource(ctx, dyn, podsGVR)
	for gvr := range discovered {
		b.deleteResource(ctx, dyn, gvr)
	}
}

func (b DefaultBinder) deleteResource(ctx context.Context, dyn dynamic.Interface, gvr schema.GroupVersionResource) {
	_ = dyn.Resource(gvr).Namespace("ns").Delete(ctx, "p", metav1.DeleteOptions{}) // want write " delete apiVerb=delete group= version= kind= via=Resource().Namespace().Delete caller=defaultbinder.DefaultBinder.deleteResource dynamic"
}
