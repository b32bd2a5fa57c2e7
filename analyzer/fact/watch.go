package fact

// This file holds the facts that name the code behind a watch: the
// requests made to shared informer factories (a factory starts one
// informer, so one list and one watch, per resource however many ask).
// Raw list-watches are ListWatch (fact.go).

// InformerRequest is a request to a shared informer factory for the
// informer of a resource: the call that makes the factory create (or
// share) the informer and so, once the factory is started, open the list
// and the watch of that resource. (Schema 7.)
//
// The calls that count:
//
//   - Informer() and Lister() of a typed informer
//     (f.Apps().V1().Deployments().Informer(), dInformer.Lister()): both
//     call the factory's InformerFor, so either registers the informer;
//     asking for the typed informer alone (f.Apps().V1().Deployments())
//     registers nothing, and the constructor it is handed to makes the
//     request. Method is "Informer" or "Lister".
//   - InformerFor(obj, newFunc) of a factory, called directly (the
//     scheduler's pod informer with its own field selector): Method
//     "InformerFor", Resource from obj's type.
//   - ForResource(gvr) of a typed, dynamic or metadata factory: the
//     factory makes the informer then and there; Informer() or Lister() of
//     the GenericInformer it returns asks for nothing more and is not
//     listed. Method "ForResource"; Resource from a constant GVR, else
//     ResourceDynamic (the garbage collector and the quota controller ask
//     for every resource they discover).
//
// Requests inside the factories' own packages (the generated informers
// calling InformerFor) are their implementation, not requests, and are
// left out.
type InformerRequest struct {
	// Component is the requesting package, as in HandlerRegistration.
	Component string `json:"component"`
	// Caller is the function making the request; At the call.
	Caller FuncRef  `json:"caller"`
	At     Location `json:"at"`
	// Method is "Informer", "Lister", "InformerFor" or "ForResource".
	Method string `json:"method"`
	// Factory is the import path of the factory's package: the typed
	// factory "k8s.io/client-go/informers" (or a generated clientset's
	// ".../informers/externalversions"), "k8s.io/client-go/dynamic/
	// dynamicinformer", "k8s.io/client-go/metadata/metadatainformer"; ""
	// when the code does not tell (an InformerFor through an interface
	// declared elsewhere).
	Factory string `json:"factory,omitempty"`
	// Resource is the informer's resource; empty when ResourceDynamic.
	Resource        Resource `json:"resource"`
	ResourceDynamic bool     `json:"resourceDynamic,omitempty"`
	// Expr is the receiver as written ("dInformer",
	// "ctx.InformerFactory.Core().V1().Pods()").
	Expr string `json:"expr"`
	// FieldSelector is the field selector the factory was made with
	// (NewSharedInformerFactoryWithOptions(…, WithTweakListOptions(func
	// (options) { options.FieldSelector = … }))), as written, when the
	// code tells it where the factory is made: the kubelet's factories
	// watch only its own node, and services that are not headless.
	// Fields are the fields it tests when constant, sorted. Namespace is
	// the factory's WithNamespace, as written. All "" for a factory over
	// every object, or one the analyzer could not follow to where it is
	// made.
	FieldSelector string   `json:"fieldSelector,omitempty"`
	Fields        []string `json:"fields,omitempty"`
	Namespace     string   `json:"namespace,omitempty"`
}
