package v1

import "k8s.io/apimachinery/pkg/runtime"
import "k8s.io/apimachinery/pkg/runtime/schema"
import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// GroupName is the group name used in this package.
const GroupName = ""

var SchemeGroupVersion = schema.GroupVersion{Group: GroupName, Version: "v1"}
var _ metav1.ObjectMeta

type Pod struct{ metav1.ObjectMeta }

func (x *Pod) DeepCopyObject() runtime.Object { return x }

type PodList struct{ Items []Pod }

func (x *PodList) DeepCopyObject() runtime.Object { return x }

type Node struct{ metav1.ObjectMeta }

func (x *Node) DeepCopyObject() runtime.Object { return x }

type NodeList struct{ Items []Node }

func (x *NodeList) DeepCopyObject() runtime.Object { return x }

type Endpoints struct{ metav1.ObjectMeta }

func (x *Endpoints) DeepCopyObject() runtime.Object { return x }

type EndpointsList struct{ Items []Endpoints }

func (x *EndpointsList) DeepCopyObject() runtime.Object { return x }

type Binding struct{ metav1.ObjectMeta }

func (x *Binding) DeepCopyObject() runtime.Object { return x }

type BindingList struct{ Items []Binding }

func (x *BindingList) DeepCopyObject() runtime.Object { return x }

type ObjectReference struct{ metav1.ObjectMeta }

func (x *ObjectReference) DeepCopyObject() runtime.Object { return x }

type ObjectReferenceList struct{ Items []ObjectReference }

func (x *ObjectReferenceList) DeepCopyObject() runtime.Object { return x }

const (
	EventTypeNormal  string = "Normal"
	EventTypeWarning string = "Warning"
)
