// Package restwrites holds writes that are not typed-client calls:
// kubectl's resource.Helper and REST request chains.
package restwrites

import (
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/cli-runtime/pkg/resource"
	"k8s.io/client-go/rest"
)

// apply writes an object of a file the way kubectl apply does: the
// resource is the mapping's, known only at run time.
func apply(obj runtime.Object, data []byte, exists bool) error {
	helper := resource.NewHelper(nil, nil).WithFieldManager("kubectl")
	if !exists {
		_, err := helper.Create("default", true, obj) // want write " create apiVerb=create group= version= kind= via=resource.Helper.Create caller=restwrites.apply dynamic"
		return err
	}
	_, err := resource.NewHelper(nil, nil).WithSubresource("status").Patch("default", "x", types.StrategicMergePatchType, data, nil) // want write "/status patch apiVerb=patch group= version= kind= via=resource.Helper.Patch caller=restwrites.apply"
	if _, err := helper.Get("default", "x"); err != nil {
		return err
	}
	return err
}

// bind posts through the REST client: verb, resource and subresource come
// from the chain.
func bind(c rest.Interface, resourceName string, b interface{}) error {
	if err := c.Post().Namespace("default").Resource("pods").Name("p").SubResource("binding").Body(b).Do(nil).Error(); err != nil { // want write "pods/binding create apiVerb=create group= version= kind= via=Post().Namespace().Resource().Name().SubResource().Body().Do caller=restwrites.bind"
		return err
	}
	if _, err := c.Delete().Resource(resourceName).Name("p").DoRaw(nil); err != nil { // want write " delete apiVerb=delete group= version= kind= via=Delete().Resource().Name().DoRaw caller=restwrites.bind dynamic"
		return err
	}
	return c.Get().Resource("pods").Do(nil).Error()
}
