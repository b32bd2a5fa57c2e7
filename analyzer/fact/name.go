package fact

import "strings"

// Symbols are named go doc style throughout kubewalk: "importpath.Name",
// "importpath.Type.Method", and for a func literal its enclosing
// declaration's name with "$N" suffixes, as go/ssa names them
// ("k8s.io/kubernetes/pkg/scheduler.addAllEventHandlers$3"). The
// functions below take such names apart; they work on the text alone.
//
// The import path ends at the first dot after the name's last slash. That
// is a guess when a path's last element has a dot of its own
// ("gopkg.in/yaml.v3.Marshal"); Kubernetes' own packages have none, and
// the analyzer's resolver, which knows the loaded packages, corrects the
// guess where it matters.

// SplitSymbol splits a symbol name into its package's import path and the
// name within the package: "k8s.io/kubernetes/pkg/scheduler.Scheduler.ScheduleOne"
// → "k8s.io/kubernetes/pkg/scheduler", "Scheduler.ScheduleOne". ok is
// false when sym has no dot after its last slash, or nothing before it.
func SplitSymbol(sym string) (pkg, name string, ok bool) {
	slash := strings.LastIndexByte(sym, '/')
	dot := strings.IndexByte(sym[slash+1:], '.')
	if dot < 0 {
		return "", "", false
	}
	pkg, name = sym[:slash+1+dot], sym[slash+1+dot+1:]
	if pkg == "" || strings.HasSuffix(pkg, "/") {
		return "", "", false
	}
	return pkg, name, true
}

// SymbolPackage returns the import path of sym's package, or sym itself
// when it names no member of a package (a bare import path).
func SymbolPackage(sym string) string {
	slash := strings.LastIndexByte(sym, '/')
	if dot := strings.IndexByte(sym[slash+1:], '.'); dot >= 0 {
		return sym[:slash+1+dot]
	}
	return sym
}

// ShortSymbol drops the import path up to the package name, as Go code
// writes a qualified name: "k8s.io/kubernetes/pkg/controller/deployment.DeploymentController.sync"
// → "deployment.DeploymentController.sync". Unambiguous enough for a
// reader within one component; identities use full names.
func ShortSymbol(sym string) string {
	return sym[strings.LastIndexByte(sym, '/')+1:]
}

// ReadableSymbol is ShortSymbol for readers' text: a func literal's
// symbol counts literals go/ssa style ("deployment.NewDeploymentController$1"),
// a number that names nothing a reader can find, so it reads "func literal
// in deployment.NewDeploymentController" instead. (The site's pages say
// the same in their language; explain.js's readableSymbol is this rule.)
func ReadableSymbol(sym string) string {
	s := ShortSymbol(sym)
	if i := strings.IndexByte(s, '$'); i >= 0 {
		return "func literal in " + s[:i]
	}
	return s
}

// kubernetesModule is the module at the root of the Kubernetes repository;
// its staging modules are k8s.io/<name>, at staging/src/k8s.io/<name>.
const kubernetesModule = "k8s.io/kubernetes/"

// Component names a package of the tree for readers: its import path
// without the k8s.io/kubernetes/ prefix, "pkg/controller/deployment"; a
// staging or third-party package keeps its import path.
func Component(importPath string) string {
	return strings.TrimPrefix(importPath, kubernetesModule)
}

// PackageDir returns the directory of a package in the repository layout
// every source backend produces: the k8s.io/kubernetes module at the root,
// the other k8s.io modules (the staging modules) under staging/src. Other
// import paths are returned as they are.
func PackageDir(importPath string) string {
	if rest, ok := strings.CutPrefix(importPath, kubernetesModule); ok {
		return rest
	}
	if strings.HasPrefix(importPath, "k8s.io/") {
		return "staging/src/" + importPath
	}
	return importPath
}

// SymbolDir returns the directory of sym's package in the repository
// layout: PackageDir of SymbolPackage.
func SymbolDir(sym string) string { return PackageDir(SymbolPackage(sym)) }

// Key is how pages and search name an event: its reason, or the reason's
// expression when the code computes it at run time.
func (e Event) Key() string {
	if e.Reason != "" {
		return e.Reason
	}
	return e.ReasonExpr
}

// Label is how pages and search name a resource: "deployments.apps",
// "pods" for the core group, the kind lower-cased when the resource's
// plural is not known, "?" when neither is.
func (r Resource) Label() string {
	name := r.Resource
	if name == "" {
		name = strings.ToLower(r.Kind)
	}
	if name == "" {
		return "?"
	}
	if r.Group != "" {
		return name + "." + r.Group
	}
	return name
}
