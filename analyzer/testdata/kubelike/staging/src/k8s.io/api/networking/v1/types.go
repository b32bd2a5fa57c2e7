package v1

import "k8s.io/apimachinery/pkg/runtime"
import "k8s.io/apimachinery/pkg/runtime/schema"
import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// GroupName is the group name used in this package.
const GroupName = "networking.k8s.io"

var SchemeGroupVersion = schema.GroupVersion{Group: GroupName, Version: "v1"}
var _ metav1.ObjectMeta

type NetworkPolicy struct{ metav1.ObjectMeta }

func (x *NetworkPolicy) DeepCopyObject() runtime.Object { return x }

type NetworkPolicyList struct{ Items []NetworkPolicy }

func (x *NetworkPolicyList) DeepCopyObject() runtime.Object { return x }

type Ingress struct{ metav1.ObjectMeta }

func (x *Ingress) DeepCopyObject() runtime.Object { return x }

type IngressList struct{ Items []Ingress }

func (x *IngressList) DeepCopyObject() runtime.Object { return x }
