package v1

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/gentype"
	"k8s.io/client-go/rest"
)

type CoreV1Interface interface {
	RESTClient() rest.Interface
	PodsGetter
	NodesGetter
	EndpointsGetter
}

type CoreV1Client struct{}

func (c *CoreV1Client) RESTClient() rest.Interface { return nil }

func (c *CoreV1Client) Pods(namespace string) PodInterface {
	return &pods{gentype.NewClientWithList[*corev1.Pod, *corev1.PodList]("pods")}
}

// PodsGetter has a method to return a PodInterface.
type PodsGetter interface {
	Pods(namespace string) PodInterface
}

// PodInterface is generated in the v0.31+ style: methods listed, served by gentype.
type PodInterface interface {
	Create(ctx context.Context, pod *corev1.Pod, opts metav1.CreateOptions) (*corev1.Pod, error)
	Update(ctx context.Context, pod *corev1.Pod, opts metav1.UpdateOptions) (*corev1.Pod, error)
	UpdateStatus(ctx context.Context, pod *corev1.Pod, opts metav1.UpdateOptions) (*corev1.Pod, error)
	Delete(ctx context.Context, name string, opts metav1.DeleteOptions) error
	Get(ctx context.Context, name string, opts metav1.GetOptions) (*corev1.Pod, error)
	List(ctx context.Context, opts metav1.ListOptions) (*corev1.PodList, error)
	Patch(ctx context.Context, name string, pt types.PatchType, data []byte, opts metav1.PatchOptions, subresources ...string) (*corev1.Pod, error)
	PodExpansion
}

// PodExpansion holds the hand-written methods.
type PodExpansion interface {
	Bind(ctx context.Context, binding *corev1.Binding, opts metav1.CreateOptions) error
	EvictV1(ctx context.Context, eviction *policyv1.Eviction) error
}

type pods struct {
	*gentype.ClientWithList[*corev1.Pod, *corev1.PodList]
}

func (c *pods) Bind(ctx context.Context, binding *corev1.Binding, opts metav1.CreateOptions) error {
	return nil
}

func (c *pods) EvictV1(ctx context.Context, eviction *policyv1.Eviction) error { return nil }

type NodesGetter interface {
	Nodes() NodeInterface
}

type NodeInterface interface {
	List(ctx context.Context, opts metav1.ListOptions) (*corev1.NodeList, error)
	Get(ctx context.Context, name string, opts metav1.GetOptions) (*corev1.Node, error)
	Patch(ctx context.Context, name string, pt types.PatchType, data []byte, opts metav1.PatchOptions, subresources ...string) (*corev1.Node, error)
	UpdateStatus(ctx context.Context, node *corev1.Node, opts metav1.UpdateOptions) (*corev1.Node, error)
}

// EndpointsGetter: the resource is "endpoints", not "endpointses".
type EndpointsGetter interface {
	Endpoints(namespace string) EndpointsInterface
}

type EndpointsInterface interface {
	Get(ctx context.Context, name string, opts metav1.GetOptions) (*corev1.Endpoints, error)
	Update(ctx context.Context, e *corev1.Endpoints, opts metav1.UpdateOptions) (*corev1.Endpoints, error)
}
