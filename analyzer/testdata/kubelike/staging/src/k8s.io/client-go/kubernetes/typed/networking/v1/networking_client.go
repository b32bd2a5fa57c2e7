package v1

import (
	"context"

	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

type NetworkingV1Interface interface {
	NetworkPoliciesGetter
	IngressesGetter
}

type NetworkPoliciesGetter interface {
	NetworkPolicies(namespace string) NetworkPolicyInterface
}

type NetworkPolicyInterface interface {
	Get(ctx context.Context, name string, opts metav1.GetOptions) (*networkingv1.NetworkPolicy, error)
	Delete(ctx context.Context, name string, opts metav1.DeleteOptions) error
}

type IngressesGetter interface {
	Ingresses(namespace string) IngressInterface
}

type IngressInterface interface {
	Get(ctx context.Context, name string, opts metav1.GetOptions) (*networkingv1.Ingress, error)
}
