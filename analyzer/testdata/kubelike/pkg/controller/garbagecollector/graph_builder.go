// Package garbagecollector has the garbage collector's shape of informer:
// one per resource discovered at run time, made by ForResource.
package garbagecollector

import (
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/tools/cache"
)

type GraphBuilder struct {
	sharedInformers informers.SharedInformerFactory
}

func (gb *GraphBuilder) enqueue(obj interface{}) {}

// controllerFor's informer has no resource the code fixes: the handler
// registration is marked as a dynamic informer's, and its func literal
// handler is named by what it calls.
func (gb *GraphBuilder) controllerFor(resource schema.GroupVersionResource) error {
	shared, err := gb.sharedInformers.ForResource(resource) // want informer "ForResource dynamic factory=k8s.io/client-go/informers expr=gb.sharedInformers caller=garbagecollector.GraphBuilder.controllerFor"
	if err != nil {
		return err
	}
	shared.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{ // want handler "AddEventHandler / <dynamic> add=garbagecollector.GraphBuilder.controllerFor$1(func literal)[garbagecollector.GraphBuilder.enqueue] update=- delete=- caller=garbagecollector.GraphBuilder.controllerFor"
		AddFunc: func(obj interface{}) { gb.enqueue(obj) },
	})
	return nil
}
