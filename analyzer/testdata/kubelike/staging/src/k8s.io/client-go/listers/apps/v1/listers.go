package v1

import (
	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/labels"
)

type DeploymentLister interface {
	List(selector labels.Selector) ([]*appsv1.Deployment, error)
}

type ReplicaSetLister interface {
	List(selector labels.Selector) ([]*appsv1.ReplicaSet, error)
}
