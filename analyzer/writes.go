package analyzer

import (
	"github.com/kubewalk/kubewalk/analyzer/fact"
	"go/ast"
	"go/types"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"
)

// WritesPass finds API writes made through client-go's typed clients.
//
// What it finds: every call, in a non-test file of a root package, of a
// writing method (Create…, Update…, Patch…, Apply…, Delete…, Bind, Evict…,
// Finalize, Rollback) whose receiver is
//   - a client-gen typed client: an interface or type of a package
//     …/kubernetes/typed/<group>/<version> (or a clientset's
//     …/clientset/versioned/typed/<group>/<version>), e.g. ReplicaSetInterface
//     from `client.AppsV1().ReplicaSets(ns)`; expansion methods such as
//     PodExpansion.Bind count through the interface the call was made on;
//   - one of client-go v0.31+'s generic clients in k8s.io/client-go/gentype
//     (Client[T], ClientWithList[T, L], …), the resource read from T;
//   - a dynamic or metadata client (k8s.io/client-go/dynamic,
//     k8s.io/client-go/metadata), the resource read from the constant GVR
//     passed to Resource(gvr) in the same expression; when the GVR is not
//     told (a parameter also given what discovery returns, as in the
//     namespace deleter), the write is marked ResourceDynamic.
//
// Reads (Get, List, Watch, ProxyGet, GetLogs, …) are not writes.
//
// How: since v0.31 the typed clients embed gentype types, so the method's
// declaring type may be generic; the resource therefore comes from the
// static type of the receiver expression: its Get result type
// (*appsv1.ReplicaSet) gives kind, group (GroupName) and version, client-gen's
// getter (ReplicaSetsGetter.ReplicaSets) gives the resource name. Verb is
// the method name lower-cased; APIVerb and Subresource follow from it
// (UpdateStatus → update status, Bind → create binding, Evict → create
// eviction, UpdateScale → update scale, …) or, for Patch and the dynamic
// client, from constant `subresources ...string` arguments.
//
// Via reads as the client call chain written at the call site, from the
// first method call to the write: "CoreV1().Pods().Create" for
// `r.KubeClient.CoreV1().Pods(ns).Create(…)`; when the receiver is a
// variable or field, the receiver's type and the method:
// "PodInterface.Create". Helper layers are not unfolded here: the write
// inside controller.RealPodControl.createPods is reported once, with that
// method as Caller, and the calls pass links PodControlInterface.CreatePods
// at its callers to RealPodControl.CreatePods (an "interface" edge) and on
// to createPods, so a path handler → sync → helper → write can be followed.
//
// Writes that are not typed-client calls (restwrites.go): cli-runtime's
// resource.Helper (Create, Replace, Patch, Delete…: kubectl's writes of
// the objects in its files, whose resource is known only at run time and
// marked ResourceDynamic), and REST request chains ending in Do or DoRaw
// (`c.Post().Resource("pods").SubResource("binding").Body(b).Do(ctx)`),
// the verb from Post, Put, Patch or Delete in the chain and the resource
// and subresource from constant Resource and SubResource arguments
// (ResourceDynamic when Resource is not constant).
//
// Writes through helper layers (helperwrites.go): calls of client-go's
// record.EventSink (the core/v1 event broadcaster's Create and Patch, its
// implementation being generated typed-client code that is not a root),
// and writes in generic code through a client whose resource is a type
// argument — given directly, or a type parameter followed to the API
// types the roots instantiate it with (the API Priority and Fairness
// ensurer's ObjectOps[ObjectType].Create: one write for flowschemas, one
// for prioritylevelconfigurations, at the same line).
//
// What it misses: a REST request whose verb is set away from the chain
// that sends it, writes through controller-runtime clients, or through clients held in values whose static type is not one
// of the above (a hand-written interface narrowing PodInterface is
// followed only if its methods are declared by the typed client).
var WritesPass = &Pass{
	Name:     "writes",
	Doc:      "API writes through client-go typed (including gentype), dynamic and metadata clients: resource, verb, subresource",
	Requires: []*Pass{indexPass},
	Run:      withIndex(runWrites),
}

const (
	dynamicPkg  = "k8s.io/client-go/dynamic"
	metadataPkg = "k8s.io/client-go/metadata"
	scalePkg    = "k8s.io/client-go/scale"
)

func runWrites(ix *index, _ *PassRun) (*fact.Facts, error) {
	var out []fact.Write
	for c := range ix.staticCalls() {
		out = append(out, ix.callWrites(c)...)
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if less, eq := locLess(a.At, b.At); !eq {
			return less
		}
		if a.Resource.Resource != b.Resource.Resource {
			return a.Resource.Resource < b.Resource.Resource
		}
		return a.Verb < b.Verb
	})
	return &fact.Facts{Writes: out}, nil
}

// callWrites returns the writes a call makes: none, one, or one per
// resource a generic client is instantiated with.
func (ix *index) callWrites(c staticCall) []fact.Write {
	u, call, fn, sel := c.u, c.call, c.fn, c.sel
	if sel == nil || sel.Kind() != types.MethodVal {
		return nil
	}
	if w, ok := ix.otherWrite(u, call, fn, sel); ok {
		return []fact.Write{w}
	}
	if w, ok := ix.eventSinkWrite(u, call, fn, sel); ok {
		return []fact.Write{w}
	}
	apiVerb, sub, ok := writeVerb(fn.Name())
	if !ok {
		return nil
	}
	recvExpr := ast.Unparen(call.Fun).(*ast.SelectorExpr).X
	res, client, ok := ix.clientResource(u, recvExpr, sel.Recv(), fn)
	if !ok && types.IsInterface(sel.Recv()) {
		res, ok = ix.clientOrigins(u.pkg, recvExpr, fn, 0)
		client = typeName(sel.Recv())
	}
	var resources []fact.Resource
	if ok {
		resources = []fact.Resource{res}
	} else {
		// Generic code writing through a client of its type
		// parameter: one write per instantiation.
		resources = ix.genericResources(u, sel.Recv(), fn)
		client = typeName(sel.Recv())
	}
	if len(resources) == 0 {
		return nil
	}
	sig := fn.Type().(*types.Signature)
	if s := constSubresources(u, call, sig); s != "" {
		sub = s
	}
	if client == "ScaleInterface" && sub == "" {
		sub = "scale"
	}
	// A dynamic or metadata client whose GroupVersionResource the code
	// does not tell writes a resource known only at run time.
	dyn := false
	if n := namedOf(sel.Recv()); n != nil && n.Obj().Pkg() != nil {
		p := n.Obj().Pkg().Path()
		dyn = p == dynamicPkg || p == metadataPkg
	}
	var out []fact.Write
	for _, res := range resources {
		out = append(out, fact.Write{
			Caller:          u.ref,
			At:              ix.prog.Loc(call.Pos(), call.End()),
			Resource:        res,
			Verb:            strings.ToLower(fn.Name()),
			Subresource:     sub,
			APIVerb:         apiVerb,
			ResourceDynamic: dyn && res.Resource == "",
			Via:             viaOf(recvExpr, client, fn.Name()),
		})
	}
	return out
}

// writeVerb maps a client method to the API verb and subresource, and
// reports whether the method writes at all.
func writeVerb(name string) (apiVerb, sub string, ok bool) {
	switch {
	case name == "Bind":
		return "create", "binding", true
	case strings.HasPrefix(name, "Evict"): // Evict, EvictV1, EvictV1beta1
		return "create", "eviction", true
	case name == "Finalize":
		return "update", "finalize", true
	case name == "Rollback":
		return "create", "rollback", true
	case name == "DeleteCollection":
		return "deletecollection", "", true
	}
	for _, v := range []struct{ prefix, verb string }{
		{"Create", "create"}, {"Update", "update"}, {"Patch", "patch"}, {"Apply", "patch"}, {"Delete", "delete"},
	} {
		if !strings.HasPrefix(name, v.prefix) {
			continue
		}
		rest := name[len(v.prefix):]
		switch rest {
		case "", "WithEventNamespace":
			return v.verb, "", true
		}
		if rest[0] < 'A' || rest[0] > 'Z' { // "Created", "Updater": not a client verb
			return "", "", false
		}
		return v.verb, strings.ToLower(rest), true
	}
	return "", "", false
}

// constSubresources joins the constant arguments of a trailing
// `subresources ...string` parameter ("status"), or "".
func constSubresources(u *unit, call *ast.CallExpr, sig *types.Signature) string {
	n := sig.Params().Len()
	if !sig.Variadic() || n == 0 || sig.Params().At(n-1).Name() != "subresources" || call.Ellipsis.IsValid() {
		return ""
	}
	var parts []string
	for _, a := range call.Args[min(n-1, len(call.Args)):] {
		s, ok := stringConst(u.pkg.TypesInfo, a)
		if !ok {
			return ""
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, "/")
}

// clientResource tells whether recv (static type t) is an API client and
// which resource it serves; client names the client type for Via.
func (ix *index) clientResource(u *unit, recvExpr ast.Expr, t types.Type, fn *types.Func) (fact.Resource, string, bool) {
	n := namedOf(t)
	if n == nil || n.Obj().Pkg() == nil {
		return fact.Resource{}, "", false
	}
	p := n.Obj().Pkg().Path()
	switch {
	case typedClientPkg(p) != "":
		r := ix.typedResource(n)
		return r, n.Obj().Name(), r.Kind != "" || r.Resource != ""
	case p == gentypePkg:
		if n.TypeArgs().Len() > 0 {
			r := ix.apiResource(n.TypeArgs().At(0))
			return r, n.Obj().Name(), r.Kind != ""
		}
	case p == scalePkg && n.Obj().Name() == "ScaleInterface":
		// Scales(ns).Update(ctx, groupResource, scale, opts): the target's
		// resource is a run-time value; the subresource is scale.
		return fact.Resource{}, n.Obj().Name(), true
	case p == dynamicPkg || p == metadataPkg:
		if !strings.HasSuffix(n.Obj().Name(), "ResourceInterface") {
			return fact.Resource{}, "", false
		}
		// Find Resource(gvr) in the chain: dyn.Resource(gvr).Namespace(ns).Create.
		for x := ast.Unparen(recvExpr); ; {
			call, ok := x.(*ast.CallExpr)
			if !ok {
				break
			}
			s, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
			if !ok {
				break
			}
			if s.Sel.Name == "Resource" && len(call.Args) == 1 {
				return ix.gvrResource(u.pkg, call.Args[0], 0), n.Obj().Name(), true
			}
			x = ast.Unparen(s.X)
		}
		return fact.Resource{}, n.Obj().Name(), true
	}
	// A type embedding a typed client (a wrapper struct): the method's own
	// receiver tells.
	if fn.Pkg() != nil && (typedClientPkg(fn.Pkg().Path()) != "" || fn.Pkg().Path() == gentypePkg) {
		if rt := fn.Type().(*types.Signature).Recv(); rt != nil {
			if rn := namedOf(rt.Type()); rn != nil && rn != n {
				return ix.clientResource(u, recvExpr, rn, fn)
			}
		}
	}
	return fact.Resource{}, "", false
}

// typedResource returns the resource a typed client type serves:
// ReplicaSetInterface, the unexported replicaSets struct, or an expansion
// interface (PodExpansion).
func (ix *index) typedResource(n *types.Named) fact.Resource {
	gv := typedClientPkg(n.Obj().Pkg().Path())
	name := n.Obj().Name()
	if strings.HasSuffix(name, "Client") || (strings.HasSuffix(name, "Interface") && isVersionedGroupIface(name)) {
		return fact.Resource{} // AppsV1Client, AppsV1Interface: the group client, not a resource's
	}
	if get := methodResult(n, "Get"); get != nil {
		if r := ix.apiResource(get); r.Kind != "" {
			return r
		}
	}
	kind := strings.TrimSuffix(strings.TrimSuffix(name, "Interface"), "Expansion")
	if kind == name { // the unexported struct: named after the plural
		if k, ok := ix.kinds[gv+"/"+strings.ToLower(name)]; ok {
			kind = k
		} else {
			return fact.Resource{}
		}
	}
	r := fact.Resource{Kind: kind, Version: pathBase(gv), Resource: ix.plural(gv, kind)}
	r.Group = groupFromImports(n.Obj().Pkg(), gv)
	return r
}

// isVersionedGroupIface reports names like AppsV1Interface, CoreV1Interface.
func isVersionedGroupIface(name string) bool {
	s := strings.TrimSuffix(name, "Interface")
	i := strings.LastIndexAny(s, "V")
	return i > 0 && isVersion("v"+s[i+1:])
}

// viaOf renders the client chain of a write (see the pass doc).
func viaOf(recv ast.Expr, client, method string) string {
	var parts []string
	for x := ast.Unparen(recv); ; {
		call, ok := x.(*ast.CallExpr)
		if !ok {
			break
		}
		s, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			break
		}
		parts = append([]string{s.Sel.Name + "()"}, parts...)
		x = ast.Unparen(s.X)
	}
	if len(parts) == 0 {
		return client + "." + method
	}
	return strings.Join(parts, ".") + "." + method
}

// clientOrigins follows a receiver of a hand-written client interface
// (ClusterTrustBundlePublisher's clusterTrustBundlesClient[T]) back to the
// typed clients assigned to it.
func (ix *index) clientOrigins(pkg *packages.Package, e ast.Expr, fn *types.Func, depth int) (fact.Resource, bool) {
	v := varOf(pkg.TypesInfo, e)
	if v == nil || depth > maxOriginDepth {
		return fact.Resource{}, false
	}
	var res fact.Resource
	found := false
	for _, o := range ix.originsOf(v) {
		if o.index != 0 {
			continue
		}
		x := ast.Unparen(o.expr)
		var u unit
		u.pkg = o.pkg
		if r, _, ok := ix.clientResource(&u, x, o.pkg.TypesInfo.TypeOf(x), fn); ok {
			res, found = mergeResource(res, r), true
		} else if r, ok := ix.clientOrigins(o.pkg, x, fn, depth+1); ok {
			res, found = mergeResource(res, r), true
		}
	}
	return res, found
}

// typeName is t's name without its package path, for Via.
func typeName(t types.Type) string {
	if n := namedOf(t); n != nil {
		return n.Obj().Name()
	}
	return types.TypeString(t, func(*types.Package) string { return "" })
}
