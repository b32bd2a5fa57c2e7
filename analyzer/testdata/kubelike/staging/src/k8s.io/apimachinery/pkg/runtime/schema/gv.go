package schema

type GroupVersion struct{ Group, Version string }

type GroupVersionResource struct{ Group, Version, Resource string }

type GroupResource struct{ Group, Resource string }

func (gv GroupVersion) WithResource(resource string) GroupVersionResource {
	return GroupVersionResource{Group: gv.Group, Version: gv.Version, Resource: resource}
}
