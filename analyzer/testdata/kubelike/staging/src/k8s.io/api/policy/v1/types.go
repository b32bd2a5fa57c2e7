package v1

import "k8s.io/apimachinery/pkg/runtime"
import "k8s.io/apimachinery/pkg/runtime/schema"
import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// GroupName is the group name used in this package.
const GroupName = "policy"

var SchemeGroupVersion = schema.GroupVersion{Group: GroupName, Version: "v1"}
var _ metav1.ObjectMeta

type Eviction struct{ metav1.ObjectMeta }

func (x *Eviction) DeepCopyObject() runtime.Object { return x }

type EvictionList struct{ Items []Eviction }

func (x *EvictionList) DeepCopyObject() runtime.Object { return x }
