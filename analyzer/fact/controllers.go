package fact

// This file holds the facts of the controller list and of the scheduler's
// plugins: what kube-controller-manager registers (its controller
// descriptors, or the initializer map of older releases) and what the
// scheduler's in-tree registry holds, each connected to the code that
// builds it. (Schema 5.)

// Controller is one entry of kube-controller-manager's controller list.
type Controller struct {
	// Name is the controller's name as --controllers takes it:
	// "deployment-controller"; Aliases are the other names it accepts
	// ("deployment"), in the order written.
	Name    string   `json:"name"`
	Aliases []string `json:"aliases,omitempty"`
	// NameExpr is the name as written ("names.DeploymentController").
	NameExpr string `json:"nameExpr,omitempty"`
	// Manager is the directory of the function that lists the
	// controllers: "cmd/kube-controller-manager/app".
	Manager string `json:"manager"`
	// Registry is that function (NewControllerDescriptors, or
	// NewControllerInitializers before descriptors); At the entry in it.
	Registry FuncRef  `json:"registry"`
	At       Location `json:"at"`
	// Descriptor is the function returning the entry's descriptor
	// (newDeploymentControllerDescriptor), nil for an initializer map.
	Descriptor *FuncRef `json:"descriptor,omitempty"`
	// Start is the function the manager calls to build and start it: the
	// descriptor's constructor or initFunc, the map's value.
	Start FuncRef `json:"start"`
	// DisabledByDefault is true when the descriptor sets
	// isDisabledByDefault, or the name is in ControllersDisabledByDefault.
	DisabledByDefault bool `json:"disabledByDefault,omitempty"`
	// FeatureGates are the names of the gates that must be on
	// (requiredFeatureGates, or the gate an initializer's registration is
	// conditional on): "SeparateTaintEvictionController".
	FeatureGates []string `json:"featureGates,omitempty"`
	// Cloud is true for a cloud-provider controller (descriptors of
	// isCloudProviderController, initializers registered for
	// IncludeCloudLoops): it runs only with an in-tree cloud provider.
	Cloud bool `json:"cloud,omitempty"`
	// Special is true for a controller the manager starts apart from the
	// others (requiresSpecialHandling: the service account token
	// controller, started first).
	Special bool `json:"special,omitempty"`
	// DisabledWhen are the conditions, as written, under which Start
	// returns without a controller (a flag unset, a gate off).
	DisabledWhen []string `json:"disabledWhen,omitempty"`
	// Constructors are the functions of controller packages that Start
	// calls to build the controller (deployment.NewDeploymentController),
	// in source order; Types the types they return, in the same packages.
	Constructors []FuncRef `json:"constructors,omitempty"`
	Types        []string  `json:"types,omitempty"`
	// Packages are the constructors' directories, "pkg/controller/deployment".
	Packages []string `json:"packages,omitempty"`
	// Run is the Run method of the value Start returns when that is a
	// type of the manager's own package (the garbage collector's
	// garbageCollectorController, whose Run starts its Sync loop); nil
	// otherwise.
	Run *FuncRef `json:"run,omitempty"`
}

// SchedulerPlugin is one plugin of the scheduler's in-tree registry.
type SchedulerPlugin struct {
	// Name is the plugin's name as profiles take it: "TaintToleration";
	// NameExpr as written in the registry ("tainttoleration.Name").
	Name     string `json:"name"`
	NameExpr string `json:"nameExpr"`
	// Registry is the function holding the registry (NewInTreeRegistry);
	// At the entry in it.
	Registry FuncRef  `json:"registry"`
	At       Location `json:"at"`
	// Factory is the function that builds the plugin (tainttoleration.New).
	Factory FuncRef `json:"factory"`
	// Type is the plugin's type, read from what Factory returns:
	// "k8s.io/kubernetes/pkg/scheduler/framework/plugins/tainttoleration.TaintToleration";
	// "" when it could not be told. Package is its directory.
	Type    string `json:"type"`
	Package string `json:"package"`
	// ExtensionPoints are the framework's plugin interfaces the type
	// implements, in the order the framework declares them.
	ExtensionPoints []ExtensionPoint `json:"extensionPoints,omitempty"`
	// Events are the cluster events the plugin registers for in its
	// EventsToRegister method (EnqueueExtensions), in source order.
	Events []PluginEvent `json:"events,omitempty"`
}

// ExtensionPoint is one interface of the scheduling framework a plugin
// implements.
type ExtensionPoint struct {
	// Name is the extension point: the interface's name without "Plugin"
	// ("Filter", "PreFilter", "EnqueueExtensions").
	Name string `json:"name"`
	// Interface is the interface's go doc name.
	Interface string `json:"interface"`
	// Methods are the plugin's methods the interface asks for, beyond
	// Name (every plugin has Name).
	Methods []FuncRef `json:"methods"`
}

// PluginEvent is one cluster event a plugin registers for.
type PluginEvent struct {
	// Resource is the event's resource constant's value ("Pod", "Node"),
	// or the expression as written when it is not constant.
	Resource string `json:"resource"`
	// ActionType is the action expression as written, with package
	// qualifiers dropped ("Add|UpdateNodeLabel").
	ActionType string `json:"actionType"`
	// Hint is the queueing hint function, when one is given.
	Hint *FuncRef `json:"hint,omitempty"`
	// At is the event's literal.
	At Location `json:"at"`
}
