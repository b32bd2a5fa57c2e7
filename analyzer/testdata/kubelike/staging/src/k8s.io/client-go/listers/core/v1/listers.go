package v1

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
)

type PodLister interface {
	List(selector labels.Selector) ([]*corev1.Pod, error)
}

type NodeLister interface {
	List(selector labels.Selector) ([]*corev1.Node, error)
}

type EndpointsLister interface {
	List(selector labels.Selector) ([]*corev1.Endpoints, error)
}
