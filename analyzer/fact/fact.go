package fact

// This file holds the facts the discovery passes find. Everything here
// serialises to facts.json (encoding/json, field order as declared; see
// WriteJSON) and to the analyzer's gob facts cache.

// SchemaVersion is the version of the facts.json schema and of the facts
// cache. Bump it whenever a field is added, removed or changes meaning: the
// cache key includes it, so stale caches are ignored rather than misread.
const SchemaVersion = 9

// Location is a span of lines in a file of the tree.
type Location struct {
	// Path is the file's path relative to the tree root, with forward
	// slashes: "pkg/controller/deployment/sync.go". It is identical
	// whichever source backend produced the tree, and so is every line.
	Path string `json:"path"`
	// StartLine and EndLine are 1-based and inclusive.
	StartLine int `json:"start"`
	EndLine   int `json:"end"`
}

// IsZero reports whether l is the zero Location (nothing known).
func (l Location) IsZero() bool { return l.Path == "" }

// Resource names an API resource as the informer or typed client sees it.
type Resource struct {
	Group    string `json:"group"`    // "" for the core group, "apps", …
	Version  string `json:"version"`  // "v1"
	Kind     string `json:"kind"`     // "Deployment"
	Resource string `json:"resource"` // lower-case plural: "deployments"
}

// FuncRef points at a function or method declared in the loaded program.
type FuncRef struct {
	// Symbol is the go doc style name:
	// "k8s.io/kubernetes/pkg/controller/deployment.DeploymentController.addDeployment".
	// Func literals are named after their enclosing declaration with a
	// "$N" suffix counting literals in source order from 1, as go/ssa does:
	// "k8s.io/kubernetes/pkg/scheduler.addAllEventHandlers$3".
	Symbol string `json:"symbol"`
	// Decl is the declaration (for a literal, the literal itself).
	Decl Location `json:"decl"`
}

// Handler is one handler of a registration (add, update, delete or filter).
type Handler struct {
	FuncRef
	// Form says how the handler was written: "method value" (dc.addDeployment),
	// "func" (a named function), "func literal", or "unknown" when it could
	// not be resolved statically (Symbol is then empty).
	Form string `json:"form"`
	// Calls lists, for a func literal, the loaded functions it calls directly
	// (in source order, deduplicated), so a literal that only forwards to a
	// method is still connected to that method.
	Calls []string `json:"calls,omitempty"`
}

// HandlerRegistration is one call of AddEventHandler,
// AddEventHandlerWithResyncPeriod or another client-go registration helper.
type HandlerRegistration struct {
	// Component is a short label for who registers: the package's import
	// path relative to the tree's module layout, e.g. "pkg/controller/deployment".
	Component string `json:"component"`
	// Caller is the function containing the registration call.
	Caller FuncRef `json:"caller"`
	// At is the registration call expression.
	At Location `json:"at"`
	// Method is the registration method called: "AddEventHandler", …
	Method string `json:"method"`
	// Informer is the resource of the informer the handler is added to, from
	// the informer's static type (empty Kind when it could not be told).
	Informer Resource `json:"informer"`
	// InformerExpr is the receiver expression as written, for readers:
	// "dInformer.Informer()".
	InformerExpr string `json:"informerExpr"`
	// InformerDynamic is set when the informer is made by a factory's
	// ForResource for a resource known only at run time (the garbage
	// collector's and the quota controller's informers, one per resource
	// they discover): Informer is then empty. (Schema 5.)
	InformerDynamic bool     `json:"informerDynamic,omitempty"`
	Add             *Handler `json:"add,omitempty"`
	Update          *Handler `json:"update,omitempty"`
	Delete          *Handler `json:"delete,omitempty"`
	// Filter is a FilteringResourceEventHandler's FilterFunc.
	Filter *Handler `json:"filter,omitempty"`
	// Resync is the resync period argument as written, "" when none.
	Resync string `json:"resync,omitempty"`
	// HandlerExpr is the handler argument as written, set only when none of
	// Add, Update and Delete could be resolved, so a reader still sees what
	// was registered. (Schema 2.)
	HandlerExpr string `json:"handlerExpr,omitempty"`
}

// Wiring is how a controller reaches its sync function.
type Wiring struct {
	// Type is the controller type: "k8s.io/kubernetes/pkg/controller/deployment.DeploymentController".
	Type string `json:"type"`
	// Field is the function-typed field assigned: "syncHandler".
	Field string `json:"field"`
	// Sync is the method or function assigned to the field.
	Sync FuncRef `json:"sync"`
	// At is the assignment.
	At Location `json:"at"`
	// Queue is the work queue field the type's handlers add to ("queue"),
	// when one was found.
	Queue string `json:"queue,omitempty"`
	// Enqueuers are the functions that add to Queue.
	Enqueuers []FuncRef `json:"enqueuers,omitempty"`
	// Worker is the function whose loop calls the field ("processNextWorkItem").
	Worker *FuncRef `json:"worker,omitempty"`
}

// Write is an API write made through a typed, dynamic or metadata client,
// cli-runtime's resource.Helper or a REST request; through client-go's
// record.EventSink (the core/v1 event broadcaster's Create and Patch:
// At is the broadcaster's call, in k8s.io/client-go/tools/record, whose
// sink sends the request from generated typed-client code that is not
// analysed); or through a generic client whose resource is a type
// argument, one Write per instantiation at the same At (the API Priority
// and Fairness ensurer's ObjectOps[ObjectType].Create, for flowschemas
// and prioritylevelconfigurations). (Schema 7.)
//
// Writes no fact stands for, and why: the API server's own endpoint
// leases (pkg/controlplane/reconcilers' storageLeases) go to etcd through
// its storage layer, not through the API, so they are never audited;
// writes from packages outside the roots (Facts.Roots) are not seen — a
// component's client-go machinery is analysed only where a root reaches
// it (the event broadcasters, the lease controller, leader election's
// resourcelock and the controller manager's client builder are roots).
type Write struct {
	Caller   FuncRef  `json:"caller"`
	At       Location `json:"at"`
	Resource Resource `json:"resource"`
	// Verb is the client method lower-cased: "create", "update",
	// "updatestatus", "patch", "delete", "deletecollection", "apply",
	// "applystatus", "bind", "evict", …
	Verb string `json:"verb"`
	// Subresource is "status", "binding", "eviction", "scale", … or "".
	Subresource string `json:"subresource,omitempty"`
	// APIVerb is the verb the API server sees, as in RBAC rules and audit
	// logs: "create" for Create, Bind, Evict and CreateToken; "update" for
	// Update, UpdateStatus, UpdateScale, …; "patch" for Patch, Apply,
	// ApplyStatus; "delete", "deletecollection". (Schema 2.)
	APIVerb string `json:"apiVerb"`
	// ResourceDynamic is set when the resource is known only at run time:
	// a cli-runtime resource.Helper write (kubectl's, of the objects in its
	// files), a REST request whose Resource(…) is not a constant, a dynamic
	// or metadata client's write whose GroupVersionResource the code does
	// not tell (the namespace deleter's, the garbage collector's). Resource
	// is then empty. (Schema 5.)
	ResourceDynamic bool `json:"resourceDynamic,omitempty"`
	// Via is the client method called, "CoreV1().Pods().Create", as the
	// analyzer saw it; for writes found through a helper layer
	// (PodControlInterface.CreatePods) it names the helper too.
	Via string `json:"via"`
}

// Event is an event recorded through record.EventRecorder or the events/v1
// recorder.
type Event struct {
	Caller FuncRef  `json:"caller"`
	At     Location `json:"at"`
	// Recorder is "record" (core/v1 events via tools/record) or "events"
	// (events.k8s.io/v1 via tools/events).
	Recorder string `json:"recorder"`
	// Method is the recorder method: "Event", "Eventf", "AnnotatedEventf".
	Method string `json:"method"`
	// Type is the event type's value ("Normal", "Warning"), or "" when
	// the code computes it at run time: TypeExpr is then the expression as
	// written and TypeValues the types that reach it. (Schema 5: before,
	// Type held the expression.)
	Type string `json:"type"`
	// TypeExpr is the type argument as written when Type is "". (Schema 5.)
	TypeExpr string `json:"typeExpr,omitempty"`
	// Reason is the reason's constant value ("Pulling"), or "" when it is
	// not constant; ReasonExpr is the expression as written
	// ("events.PullingImage").
	Reason     string `json:"reason"`
	ReasonExpr string `json:"reasonExpr"`
	// Message is the message's format, as far as the code tells it: the
	// constant message or Eventf's format; a fmt.Sprintf's format when the
	// message is one; a concatenation folded, with %v for the parts known
	// only at run time ("Error: " + err.Error() is "Error: %v"). Followed
	// through variables given one value and through the parameters of
	// helpers (see Via). "" when nothing of it is constant.
	Message string `json:"message,omitempty"`
	// MessageExpr is the message argument as written when Message is "".
	// (Schema 5.)
	MessageExpr string `json:"messageExpr,omitempty"`
	// Action is the events/v1 recorder's action argument when constant
	// ("Binding"); "" for the record recorder. (Schema 2.)
	Action string `json:"action,omitempty"`
	// Via is set on an event recorded through a helper that passes its
	// reason parameter on to the recorder (the kubelet's
	// imageManager.logIt, kubeGenericRuntimeManager.recordContainerEvent):
	// the helper's symbol. At and Caller are then the helper's call site,
	// where the reason is a constant; the recorder call inside the helper
	// is reported too, with a non-constant reason. (Schema 2.) A helper
	// may also be a func literal handed over as a func value, named as
	// FuncRef names literals ("…kubelet.Kubelet.syncLoop$1"). (Schema 6.)
	Via string `json:"via,omitempty"`
	// FuncValue is set when At calls the helper Via through a func value
	// rather than by name: where the helper was handed over as a value.
	// The kubelet's node-condition events are so: At is the call
	// recordEventFunc(…, "NodeHasSufficientMemory") in package nodestatus,
	// Via is Kubelet.recordNodeStatusEvent, and FuncValue the argument
	// kl.recordNodeStatusEvent in Kubelet.defaultNodeStatusFuncs. When the
	// value is passed on through further parameters (a setter handing its
	// recordEventFunc to another function), FuncValue is still the first
	// hand-over. (Schema 6.)
	FuncValue *Location `json:"funcValue,omitempty"`
	// Dynamic names the arguments whose value the code computes at run
	// time, in the order "type", "reason", "message": a parameter of a
	// helper (each call of the helper is reported too, see Via), a
	// variable given several values, a field, an error's text. (Schema 5.)
	Dynamic []string `json:"dynamic,omitempty"`
	// TypeValues, ReasonValues and MessageValues list, for a dynamic
	// argument, the values that reach it where the code tells them: the
	// constants the helper's callers pass, the values assigned to the
	// variable or field. Sorted, without repeats. (Schema 5.)
	TypeValues    []string `json:"typeValues,omitempty"`
	ReasonValues  []string `json:"reasonValues,omitempty"`
	MessageValues []string `json:"messageValues,omitempty"`
	// TypeField, ReasonField and MessageField name the struct field the
	// argument's listed values came from ("JobCondition.Reason" for the
	// job controller's finishedCond.Reason): those are every value the
	// field is given anywhere in the roots, whichever object holds it, so
	// not all of them need reach this call; a reader should say so.
	// Empty when the values are those that reach a variable or parameter
	// at this call. (Schema 9.)
	TypeField    string `json:"typeField,omitempty"`
	ReasonField  string `json:"reasonField,omitempty"`
	MessageField string `json:"messageField,omitempty"`
	// Forwards is set on a recorder call inside a method that is itself a
	// recorder (a wrapper implementing EventRecorder, as the kubelet's
	// innerEventRecorder does): its arguments are its own parameters, and
	// the events it records are the calls of the interface it implements,
	// reported where they are made. (Schema 5.)
	Forwards bool `json:"forwards,omitempty"`
}

// IsDynamic reports whether the event's argument arg ("type", "reason",
// "message") is computed at run time. (Schema 5.)
func (e Event) IsDynamic(arg string) bool {
	for _, d := range e.Dynamic {
		if d == arg {
			return true
		}
	}
	return false
}

// ListWatch is a raw list-watch: a ListerWatcher a component makes itself
// (cache.NewListWatchFromClient, a cache.ListWatch literal) rather than
// through an informer factory. (Schema 4.)
type ListWatch struct {
	// Component is the package, as in HandlerRegistration.
	Component string `json:"component"`
	// Caller is the function containing the list-watch; At the call or
	// literal.
	Caller FuncRef  `json:"caller"`
	At     Location `json:"at"`
	// Func is "NewListWatchFromClient", "NewFilteredListWatchFromClient"
	// or "ListWatch" (a literal).
	Func string `json:"func"`
	// Resource is what is listed and watched, as far as the code tells:
	// the resource name alone when the client's group is not known.
	Resource Resource `json:"resource"`
	// Fields are the fields a constant field selector tests
	// ("spec.nodeName"), sorted; FieldSelector is the selector as written.
	Fields        []string `json:"fields,omitempty"`
	FieldSelector string   `json:"fieldSelector,omitempty"`
	// Consumers are the reflectors and informers it is handed to.
	Consumers []ListWatchConsumer `json:"consumers,omitempty"`
}

// Raw reports whether the list-watch is a watch of its own rather than an
// informer's: it feeds a reflector, or nothing the analyzer could follow.
// (A list-watch fed to an informer shows up as that informer's handler
// registrations.)
func (lw ListWatch) Raw() bool {
	informer := false
	for _, c := range lw.Consumers {
		if c.Kind == "reflector" {
			return true
		}
		informer = informer || c.Kind == "informer"
	}
	return !informer
}

// ListWatchConsumer is a client-go reflector or informer constructor
// called with a list-watch.
type ListWatchConsumer struct {
	// Kind is "reflector" or "informer"; Func the constructor called.
	Kind   string   `json:"kind"`
	Func   string   `json:"func"`
	Caller FuncRef  `json:"caller"`
	At     Location `json:"at"`
	// Resource is the example object's (&v1.Pod{}), when one is passed.
	Resource Resource `json:"resource"`
	// Push is the push function of a cache.NewUndeltaStore store: where a
	// reflector's objects go (the kubelet's pod source sends them to a
	// channel).
	Push *FuncRef `json:"push,omitempty"`
}

// Call is a call edge among loaded functions.
type Call struct {
	From string   `json:"from"` // caller symbol
	To   string   `json:"to"`   // callee symbol
	At   Location `json:"at"`
	// Kind is "static", "method value" or "interface" (an interface method
	// call resolved to a concrete method of a loaded type).
	Kind string `json:"kind"`
}

// Facts is everything the discovery passes found, in a stable order.
type Facts struct {
	Schema int `json:"schema"`
	// Tag and Commit identify the release; Commit may be "".
	Tag    string   `json:"tag"`
	Commit string   `json:"commit,omitempty"`
	Roots  []string `json:"roots"`
	// Platform is the GOOS/GOARCH the tree was loaded for, as the go
	// command chose it ("linux/amd64"): files built only for other
	// platforms, such as _windows.go files, are not in the facts.
	// (Schema 8.)
	Platform string `json:"platform,omitempty"`
	// Incomplete lists the packages that did not load cleanly (a list,
	// parse or type error that is not one of the expected kinds): facts in
	// them, and in code that depends on them, may be missing. At a release
	// whose staging modules the module proxy does not all serve, these are
	// the packages importing the missing ones.
	Incomplete []string              `json:"incomplete,omitempty"`
	Handlers   []HandlerRegistration `json:"handlers"`
	Wirings    []Wiring              `json:"wirings"`
	Writes     []Write               `json:"writes"`
	Events     []Event               `json:"events"`
	// ListWatches are the raw list-watches. (Schema 4.)
	ListWatches []ListWatch `json:"listWatches"`
	// InformerRequests are the requests to shared informer factories, in
	// path and line order. (Schema 7.)
	InformerRequests []InformerRequest `json:"informerRequests"`
	Calls            []Call            `json:"calls"`
	// Gates is the release's feature-gate table, by name; GateChecks are
	// the roots' checks of a gate, in path and line order. (Schema 5.)
	Gates      []Gate      `json:"gates"`
	GateChecks []GateCheck `json:"gateChecks"`
	// Controllers are kube-controller-manager's controllers, by name;
	// SchedulerPlugins the scheduler's in-tree plugins, by name. (Schema 5.)
	Controllers      []Controller      `json:"controllers"`
	SchedulerPlugins []SchedulerPlugin `json:"schedulerPlugins"`
}
