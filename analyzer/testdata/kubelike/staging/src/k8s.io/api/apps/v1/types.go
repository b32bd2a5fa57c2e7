package v1

import "k8s.io/apimachinery/pkg/runtime"
import "k8s.io/apimachinery/pkg/runtime/schema"
import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// GroupName is the group name used in this package.
const GroupName = "apps"

var SchemeGroupVersion = schema.GroupVersion{Group: GroupName, Version: "v1"}
var _ metav1.ObjectMeta

type Deployment struct{ metav1.ObjectMeta }

func (x *Deployment) DeepCopyObject() runtime.Object { return x }

type DeploymentList struct{ Items []Deployment }

func (x *DeploymentList) DeepCopyObject() runtime.Object { return x }

type ReplicaSet struct{ metav1.ObjectMeta }

func (x *ReplicaSet) DeepCopyObject() runtime.Object { return x }

type ReplicaSetList struct{ Items []ReplicaSet }

func (x *ReplicaSetList) DeepCopyObject() runtime.Object { return x }
