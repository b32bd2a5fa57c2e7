package v1

import (
	networkingv1 "k8s.io/api/networking/v1"
	"k8s.io/apimachinery/pkg/labels"
)

type NetworkPolicyLister interface {
	List(selector labels.Selector) ([]*networkingv1.NetworkPolicy, error)
}

type IngressLister interface {
	List(selector labels.Selector) ([]*networkingv1.Ingress, error)
}
