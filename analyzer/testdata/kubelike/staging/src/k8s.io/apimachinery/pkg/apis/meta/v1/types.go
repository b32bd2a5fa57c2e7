package v1

type ObjectMeta struct{ Name, Namespace string }
type CreateOptions struct{}
type UpdateOptions struct{}
type PatchOptions struct{}
type DeleteOptions struct{}
type GetOptions struct{}
type ListOptions struct{ FieldSelector string }
type Object interface{ GetName() string }

const NamespaceAll string = ""
