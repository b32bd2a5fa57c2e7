package analyzer

import (
	"go/ast"
	"go/types"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/kubewalk/kubewalk/analyzer/fact"
)

// HandlersPass finds informer event handler registrations.
//
// What it finds: every call, in a non-test file of a root package, of a
// method named AddEventHandler, AddEventHandlerWithResyncPeriod or
// AddEventHandlerWithOptions (client-go v0.33+) whose first parameter is
// k8s.io/client-go/tools/cache.ResourceEventHandler — so client-go's
// SharedInformer/SharedIndexInformer and any type implementing or wrapping
// them (the scheduler's AssumeCache, conversion wrappers) count, and an
// unrelated AddEventHandler does not; and every call of a tools/cache
// function that takes a ResourceEventHandler (NewInformer,
// NewIndexerInformer, NewTransformingInformer, NewInformerWithOptions, …).
//
// How: the informer's resource comes from the receiver's static type. A
// typed informer (`dInformer.Informer()` with dInformer an
// appsinformers.DeploymentInformer, or `f.Core().V1().Pods().Informer()`)
// gives its kind through its Lister's List result type (*v1.Deployment),
// the group from that API package's GroupName constant, the version from
// its path and the resource from client-gen's typed client getter
// (DeploymentsGetter.Deployments → "deployments"). A variable or field is
// followed to the values assigned to it in the roots; a generic or dynamic
// informer (`ForResource(gvr)`) gives the constant GVR; an informer made by
// cache.NewSharedIndexInformer / NewInformer gives its example object's
// type (&v1.Pod{}). The handler argument is taken apart when it is a
// ResourceEventHandlerFuncs / ResourceEventHandlerDetailedFuncs literal
// (AddFunc, UpdateFunc, DeleteFunc), a FilteringResourceEventHandler
// (FilterFunc and the inner Handler), a variable holding one, a call of a
// root function returning one literal, or a value of a named type with
// OnAdd/OnUpdate/OnDelete methods.
//
// What it misses: informers reached only through interface values or
// function results other than the shapes above (InformerExpr still says what
// was written, Informer is then empty); handlers built by arbitrary
// function calls (Form "unknown", or HandlerExpr when nothing could be
// told); registrations in dependencies outside the roots. Calls inside
// k8s.io/client-go/tools/cache itself are left out on purpose: they are
// the registration API's implementation passing its caller's handler on,
// not registrations.
var HandlersPass = &Pass{
	Name:     "handlers",
	Doc:      "informer event handler registrations (AddEventHandler and friends) with the informer's resource and the handlers resolved to declarations",
	Requires: []*Pass{indexPass},
	Run:      withIndex(runHandlers),
}

var registrationMethods = map[string]bool{
	"AddEventHandler":                 true,
	"AddEventHandlerWithResyncPeriod": true,
	"AddEventHandlerWithOptions":      true,
}

// maxOriginDepth bounds how far values are followed through variables,
// fields and returns: deep enough for field ← parameter ← call, shallow
// enough to stay cheap and to avoid cycles.
const maxOriginDepth = 4

func runHandlers(ix *index, _ *PassRun) (*fact.Facts, error) {
	var out []fact.HandlerRegistration
	for c := range ix.staticCalls() {
		if c.u.pkg.PkgPath == cachePkg {
			// client-go's own informer machinery: AddEventHandler
			// forwarding its parameter, NewInformer making the
			// informer. The registrations are its callers'.
			continue
		}
		if r, ok := ix.registration(c.u, c.call, c.fn, c.sel); ok {
			out = append(out, r)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if less, eq := locLess(out[i].At, out[j].At); !eq {
			return less
		}
		return out[i].InformerExpr < out[j].InformerExpr
	})
	return &fact.Facts{Handlers: out}, nil
}

// isHandlerType reports whether t is cache.ResourceEventHandler.
func isHandlerType(t types.Type) bool { return isNamed(t, cachePkg, "ResourceEventHandler") }

// registration returns the HandlerRegistration of call when it is one.
func (ix *index) registration(u *unit, call *ast.CallExpr, fn *types.Func, sel *types.Selection) (fact.HandlerRegistration, bool) {
	info := u.pkg.TypesInfo
	sig := fn.Type().(*types.Signature)
	r := fact.HandlerRegistration{
		Component: fact.Component(u.pkg.Types.Path()),
		Caller:    u.ref,
		At:        ix.prog.Loc(call.Pos(), call.End()),
		Method:    fn.Name(),
	}
	var handler ast.Expr
	switch {
	case sel != nil && registrationMethods[fn.Name()]:
		if sig.Params().Len() < 1 || !isHandlerType(sig.Params().At(0).Type()) || len(call.Args) < 1 {
			return r, false
		}
		recv := ast.Unparen(call.Fun).(*ast.SelectorExpr).X
		r.InformerExpr = exprString(recv)
		r.Informer = ix.informerOf(u.pkg, recv, 0)
		r.InformerDynamic = r.Informer == (fact.Resource{}) && ix.forResource(u.pkg, recv, 0)
		handler = call.Args[0]
		switch fn.Name() {
		case "AddEventHandlerWithResyncPeriod":
			if len(call.Args) > 1 {
				r.Resync = exprString(call.Args[1])
			}
		case "AddEventHandlerWithOptions":
			if len(call.Args) > 1 {
				if v := ix.fieldOfLiteral(u.pkg, call.Args[1], "ResyncPeriod", 0); v != nil {
					r.Resync = exprString(v)
				}
			}
		}
	case sel == nil && fn.Pkg() != nil && fn.Pkg().Path() == cachePkg:
		// cache.NewInformer(lw, &v1.Pod{}, resync, handler) and friends.
		found := false
		for i := 0; i < sig.Params().Len() && i < len(call.Args); i++ {
			p := sig.Params().At(i)
			switch {
			case isHandlerType(p.Type()):
				handler, found = call.Args[i], true
			case isNamed(p.Type(), runtimePkg, "Object"):
				r.Informer = ix.apiResource(info.TypeOf(call.Args[i]))
			case isNamed(p.Type(), "time", "Duration"):
				r.Resync = exprString(call.Args[i])
			case isNamed(p.Type(), cachePkg, "InformerOptions") && len(call.Args) > i:
				// NewInformerWithOptions(InformerOptions{ObjectType:, Handler:, ResyncPeriod:}).
				if v := ix.fieldOfLiteral(u.pkg, call.Args[i], "Handler", 0); v != nil {
					handler, found = v, true
				}
				if v := ix.fieldOfLiteral(u.pkg, call.Args[i], "ObjectType", 0); v != nil {
					r.Informer = ix.apiResource(info.TypeOf(v))
				}
				if v := ix.fieldOfLiteral(u.pkg, call.Args[i], "ResyncPeriod", 0); v != nil {
					r.Resync = exprString(v)
				}
			}
		}
		if !found {
			return r, false
		}
		r.InformerExpr = exprString(call.Fun)
	default:
		return r, false
	}
	ix.handlersOf(u.pkg, handler, &r, 0)
	if r.Add == nil && r.Update == nil && r.Delete == nil {
		r.HandlerExpr = exprString(handler)
	}
	return r, true
}

// fieldOfLiteral returns the value of field name in the struct literal e
// (or &T{…}, or a variable assigned one), or nil.
func (ix *index) fieldOfLiteral(pkg *packages.Package, e ast.Expr, name string, depth int) ast.Expr {
	e = ast.Unparen(e)
	if u, ok := e.(*ast.UnaryExpr); ok {
		e = ast.Unparen(u.X)
	}
	if cl, ok := e.(*ast.CompositeLit); ok {
		for id, kv := range keyedElts(cl) {
			if id.Name == name {
				return kv.Value
			}
		}
		return nil
	}
	if depth < maxOriginDepth {
		if v := varOf(pkg.TypesInfo, e); v != nil {
			for _, o := range ix.originsOf(v) {
				if o.index == 0 {
					if x := ix.fieldOfLiteral(o.pkg, o.expr, name, depth+1); x != nil {
						return x
					}
				}
			}
		}
	}
	return nil
}

// informerOf returns the resource of the informer expression e.
func (ix *index) informerOf(pkg *packages.Package, e ast.Expr, depth int) fact.Resource {
	info := pkg.TypesInfo
	e = ast.Unparen(e)
	if r := ix.informerTypeResource(info.TypeOf(e)); r.Kind != "" {
		return r
	}
	if depth > maxOriginDepth {
		return fact.Resource{}
	}
	switch x := e.(type) {
	case *ast.CallExpr:
		fn, sel := ix.callee(info, x)
		if fn == nil {
			for _, o := range ix.returnsOf(pkg, x) {
				if r := ix.informerOf(o.pkg, o.expr, depth+1); r.Kind != "" || r.Resource != "" {
					return r
				}
			}
			return fact.Resource{}
		}
		if sel != nil && fn.Name() == "Informer" {
			// typed.Informer() or generic.Informer().
			recv := ast.Unparen(x.Fun).(*ast.SelectorExpr).X
			if r := ix.informerTypeResource(info.TypeOf(recv)); r.Kind != "" || r.Resource != "" {
				return r
			}
			return ix.informerOf(pkg, recv, depth+1)
		}
		if sel != nil && fn.Name() == "ForResource" && len(x.Args) == 1 {
			return ix.gvrResource(pkg, x.Args[0], depth+1)
		}
		if fn.Pkg() != nil && fn.Pkg().Path() == cachePkg {
			// cache.NewSharedIndexInformer(lw, &v1.Pod{}, …).
			sig := fn.Type().(*types.Signature)
			for i := 0; i < sig.Params().Len() && i < len(x.Args); i++ {
				if isNamed(sig.Params().At(i).Type(), runtimePkg, "Object") {
					return ix.apiResource(info.TypeOf(x.Args[i]))
				}
			}
		}
		// NewFilteredPodInformer(client, ns, resync, indexers, tweak).
		if r := ix.informerFuncResource(fn); r.Kind != "" {
			return r
		}
		// A root function returning an informer: follow its returns.
		for _, o := range ix.returnsOf(pkg, x) {
			if r := ix.informerOf(o.pkg, o.expr, depth+1); r.Kind != "" || r.Resource != "" {
				return r
			}
		}
	case *ast.Ident, *ast.SelectorExpr:
		if v := varOf(info, x); v != nil {
			var found fact.Resource
			for _, o := range ix.originsOf(v) {
				var r fact.Resource
				if o.index == 0 {
					r = ix.informerOf(o.pkg, o.expr, depth+1)
				} else if call, ok := ast.Unparen(o.expr).(*ast.CallExpr); ok {
					// inf, err := factory.ForResource(gvr)
					if fn, sel := ix.callee(o.pkg.TypesInfo, call); fn != nil && sel != nil && fn.Name() == "ForResource" && len(call.Args) == 1 {
						r = ix.gvrResource(o.pkg, call.Args[0], depth+1)
					}
				}
				if r.Kind == "" && r.Resource == "" {
					continue
				}
				found = mergeResource(found, r)
			}
			return found
		}
	}
	return fact.Resource{}
}

// forResource reports whether the informer expression e is made by a
// factory's ForResource (a generic, dynamic or metadata informer), as the
// garbage collector and the quota controller make one per resource they
// discover at run time.
func (ix *index) forResource(pkg *packages.Package, e ast.Expr, depth int) bool {
	if depth > maxOriginDepth {
		return false
	}
	info := pkg.TypesInfo
	switch x := ast.Unparen(e).(type) {
	case *ast.CallExpr:
		fn, sel := ix.callee(info, x)
		if fn == nil || sel == nil {
			return false
		}
		switch fn.Name() {
		case "ForResource":
			return true
		case "Informer":
			return ix.forResource(pkg, ast.Unparen(x.Fun).(*ast.SelectorExpr).X, depth+1)
		}
	case *ast.Ident, *ast.SelectorExpr:
		v := varOf(info, x)
		if v == nil {
			return false
		}
		for _, o := range ix.originsOf(v) {
			if call, ok := ast.Unparen(o.expr).(*ast.CallExpr); ok && o.index != 0 {
				if fn, sel := ix.callee(o.pkg.TypesInfo, call); fn != nil && sel != nil && fn.Name() == "ForResource" {
					return true
				}
			} else if o.index == 0 && ix.forResource(o.pkg, o.expr, depth+1) {
				return true
			}
		}
	}
	return false
}

// informerTypeResource returns the resource of a typed informer
// (DeploymentInformer from an informers/<group>/<version> package), read
// from its Lister's List result (`List(selector) ([]*v1.Deployment, error)`).
func (ix *index) informerTypeResource(t types.Type) fact.Resource {
	n := namedOf(t)
	if n == nil || n.Obj().Pkg() == nil || informerPkg(n.Obj().Pkg().Path()) == "" || !strings.HasSuffix(n.Obj().Name(), "Informer") {
		return fact.Resource{}
	}
	if lister := methodResult(n, "Lister"); lister != nil {
		if list := methodResult(lister, "List"); list != nil {
			if sl, ok := types.Unalias(list).Underlying().(*types.Slice); ok {
				if r := ix.apiResource(sl.Elem()); r.Kind != "" {
					return r
				}
			}
		}
	}
	// No lister to read (a hand-written informer type): the type's name.
	gv := informerPkg(n.Obj().Pkg().Path())
	kind := strings.TrimSuffix(n.Obj().Name(), "Informer")
	if kind == "" || kind == "Generic" {
		return fact.Resource{}
	}
	g := strings.Split(gv, "/")[0]
	if g == "core" {
		g = ""
	}
	return fact.Resource{Group: g, Version: strings.Split(gv, "/")[1], Kind: kind, Resource: ix.plural(gv, kind)}
}

// methodResult returns the first result type of t's method name, or nil.
func methodResult(t types.Type, name string) types.Type {
	obj, _, _ := types.LookupFieldOrMethod(t, true, nil, name)
	fn, ok := obj.(*types.Func)
	if !ok {
		return nil
	}
	sig := fn.Type().(*types.Signature)
	if sig.Results().Len() == 0 {
		return nil
	}
	// Instantiated generic listers (listers.ResourceIndexer[*v1.Pod]) are
	// handled by LookupFieldOrMethod substituting type arguments.
	return sig.Results().At(0).Type()
}

// gvrResource evaluates a schema.GroupVersionResource argument:
// a keyed composite literal with constant fields, a variable or parameter
// every value of which names the same resource, or `gv.WithResource("pods")`
// on a package's SchemeGroupVersion. The zero Resource when it is not told.
func (ix *index) gvrResource(pkg *packages.Package, e ast.Expr, depth int) fact.Resource {
	info := pkg.TypesInfo
	e = ast.Unparen(e)
	var r fact.Resource
	switch x := e.(type) {
	case *ast.CompositeLit:
		for _, elt := range x.Elts {
			kv, ok := elt.(*ast.KeyValueExpr)
			if !ok {
				return fact.Resource{}
			}
			id, _ := kv.Key.(*ast.Ident)
			s, ok := stringConst(info, kv.Value)
			if id == nil || !ok {
				return fact.Resource{}
			}
			switch id.Name {
			case "Group":
				r.Group = s
			case "Version":
				r.Version = s
			case "Resource":
				r.Resource = s
			}
		}
	case *ast.CallExpr:
		fn, sel := ix.callee(info, x)
		if fn == nil || sel == nil || fn.Name() != "WithResource" || len(x.Args) != 1 {
			return fact.Resource{}
		}
		s, ok := stringConst(info, x.Args[0])
		if !ok {
			return fact.Resource{}
		}
		gv := ast.Unparen(x.Fun).(*ast.SelectorExpr).X
		v := varOf(info, gv)
		if v == nil || v.Pkg() == nil || v.Parent() != v.Pkg().Scope() || !isVersion(pathBase(v.Pkg().Path())) {
			return fact.Resource{}
		}
		r = fact.Resource{Group: groupOf(v.Pkg()), Version: pathBase(v.Pkg().Path()), Resource: s}
		r.Kind = ix.kinds[groupVersionDir(v.Pkg().Path())+"/"+s]
		return r
	case *ast.Ident, *ast.SelectorExpr:
		if depth > maxOriginDepth {
			return fact.Resource{}
		}
		// A variable or parameter names a resource when every value it is
		// given names the same one: a value found at run time (the
		// namespace deleter's gvr, ranging over what discovery returns)
		// beside a constant one leaves it unknown, not the constant's.
		v := varOf(info, x)
		if v == nil {
			return fact.Resource{}
		}
		var got fact.Resource
		for i, o := range ix.originsOf(v) {
			if o.index != 0 {
				return fact.Resource{}
			}
			r := ix.gvrResource(o.pkg, o.expr, depth+1)
			if r.Resource == "" || i > 0 && r != got {
				return fact.Resource{}
			}
			got = r
		}
		return got
	default:
		return fact.Resource{}
	}
	// Kind from the typed clients when the group's directory is the
	// group's first label (apps, batch) or "core".
	dir := r.Group
	if dir == "" {
		dir = "core"
	}
	dir = strings.Split(dir, ".")[0]
	r.Kind = ix.kinds[dir+"/"+r.Version+"/"+r.Resource]
	return r
}

func pathBase(p string) string { return p[strings.LastIndex(p, "/")+1:] }

// handlersOf fills r's Add, Update, Delete and Filter from a handler value.
func (ix *index) handlersOf(pkg *packages.Package, e ast.Expr, r *fact.HandlerRegistration, depth int) {
	e = ast.Unparen(e)
	if depth > maxOriginDepth {
		return
	}
	if ix.handlerFuncsOf(pkg, e, r, depth) || ix.handlersThrough(pkg, e, r, depth) {
		return
	}
	ix.handlerMethodsOf(pkg.TypesInfo.TypeOf(e), r)
}

// handlerFuncsOf fills r from a literal of client-go's
// ResourceEventHandlerFuncs, ResourceEventHandlerDetailedFuncs or
// FilteringResourceEventHandler, and reports whether e was one.
func (ix *index) handlerFuncsOf(pkg *packages.Package, e ast.Expr, r *fact.HandlerRegistration, depth int) bool {
	lit := e
	if u, ok := lit.(*ast.UnaryExpr); ok {
		lit = ast.Unparen(u.X)
	}
	cl, ok := lit.(*ast.CompositeLit)
	if !ok {
		return false
	}
	t := pkg.TypesInfo.TypeOf(cl)
	switch {
	case isNamed(t, cachePkg, "ResourceEventHandlerFuncs"), isNamed(t, cachePkg, "ResourceEventHandlerDetailedFuncs"):
		for id, kv := range keyedElts(cl) {
			h := ix.handlerFunc(pkg, kv.Value, 0)
			switch id.Name {
			case "AddFunc":
				r.Add = h
			case "UpdateFunc":
				r.Update = h
			case "DeleteFunc":
				r.Delete = h
			}
		}
		return true
	case isNamed(t, cachePkg, "FilteringResourceEventHandler"):
		for id, kv := range keyedElts(cl) {
			switch id.Name {
			case "FilterFunc":
				r.Filter = ix.handlerFunc(pkg, kv.Value, 0)
			case "Handler":
				ix.handlersOf(pkg, kv.Value, r, depth+1)
			}
		}
		return true
	}
	return false
}

// handlersThrough fills r from what a variable or field e was assigned
// (whole, or field by field), or from what the function e calls
// returns, and reports whether that gave r a handler.
func (ix *index) handlersThrough(pkg *packages.Package, e ast.Expr, r *fact.HandlerRegistration, depth int) bool {
	resolved := func() bool { return r.Add != nil || r.Update != nil || r.Delete != nil }
	switch x := e.(type) {
	case *ast.Ident, *ast.SelectorExpr:
		v := varOf(pkg.TypesInfo, x)
		if v == nil {
			return false
		}
		for _, o := range ix.originsOf(v) {
			if o.index == 0 {
				ix.handlersOf(o.pkg, o.expr, r, depth+1)
				if resolved() {
					break
				}
			}
		}
		// funcs := cache.ResourceEventHandlerFuncs{}; funcs.AddFunc = …
		for _, fa := range ix.fieldAssigns[v] {
			switch fa.field {
			case "AddFunc":
				r.Add = ix.handlerFunc(fa.o.pkg, fa.o.expr, 0)
			case "UpdateFunc":
				r.Update = ix.handlerFunc(fa.o.pkg, fa.o.expr, 0)
			case "DeleteFunc":
				r.Delete = ix.handlerFunc(fa.o.pkg, fa.o.expr, 0)
			case "FilterFunc":
				r.Filter = ix.handlerFunc(fa.o.pkg, fa.o.expr, 0)
			case "Handler":
				ix.handlersOf(fa.o.pkg, fa.o.expr, r, depth+1)
			}
		}
		return resolved()
	case *ast.CallExpr:
		// A root function (or a func literal held in a variable) building
		// the handler: follow its returns.
		for _, o := range ix.returnsOf(pkg, x) {
			ix.handlersOf(o.pkg, o.expr, r, depth+1)
			if resolved() {
				return true
			}
		}
	}
	return false
}

// handlerMethodsOf fills r from a value of a named type t that implements
// ResourceEventHandler itself (OnAdd, OnUpdate, OnDelete).
func (ix *index) handlerMethodsOf(t types.Type, r *fact.HandlerRegistration) {
	n := namedOf(t)
	if n == nil || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() == cachePkg {
		return
	}
	if _, isIface := n.Underlying().(*types.Interface); isIface {
		return
	}
	for _, m := range []struct {
		name string
		dst  **fact.Handler
	}{{"OnAdd", &r.Add}, {"OnUpdate", &r.Update}, {"OnDelete", &r.Delete}} {
		obj, _, _ := types.LookupFieldOrMethod(t, true, nil, m.name)
		if fn, ok := obj.(*types.Func); ok && ix.inTree(fn) {
			*m.dst = &fact.Handler{FuncRef: ix.funcRef(fn, t), Form: "method"}
		}
	}
}

// handlerFunc resolves a func-valued expression to its declaration.
func (ix *index) handlerFunc(pkg *packages.Package, e ast.Expr, depth int) *fact.Handler {
	info := pkg.TypesInfo
	e = ast.Unparen(e)
	switch x := e.(type) {
	case *ast.FuncLit:
		u := ix.unitOfLit[x]
		if u == nil {
			return &fact.Handler{Form: "func literal"}
		}
		return &fact.Handler{FuncRef: u.ref, Form: "func literal", Calls: ix.directCalls(u)}
	case *ast.SelectorExpr:
		if sel := info.Selections[x]; sel != nil {
			if fn, ok := sel.Obj().(*types.Func); ok && sel.Kind() == types.MethodVal {
				return &fact.Handler{FuncRef: ix.funcRef(fn, sel.Recv()), Form: "method value"}
			}
			if fn, ok := sel.Obj().(*types.Func); ok && sel.Kind() == types.MethodExpr {
				return &fact.Handler{FuncRef: ix.funcRef(fn, sel.Recv()), Form: "func"}
			}
		} else if fn, ok := info.Uses[x.Sel].(*types.Func); ok { // pkg.Func
			return &fact.Handler{FuncRef: ix.funcRef(fn, nil), Form: "func"}
		}
	case *ast.Ident:
		if fn, ok := info.Uses[x].(*types.Func); ok {
			return &fact.Handler{FuncRef: ix.funcRef(fn, nil), Form: "func"}
		}
	case *ast.IndexExpr: // generic function instantiated explicitly
		return ix.handlerFunc(pkg, x.X, depth)
	case *ast.CallExpr:
		// A handler made by a call (controllerutil.CreateAddNodeHandler(func…)):
		// the function called, and the functions handed to it.
		h := &fact.Handler{Form: "call"}
		if fn, sel := ix.callee(info, x); fn != nil && ix.inTree(fn) {
			var recv types.Type
			if sel != nil {
				recv = sel.Recv()
			}
			h.FuncRef = ix.funcRef(fn, recv)
		} else {
			h.Form = "unknown"
		}
		for _, a := range x.Args {
			if ah := ix.handlerFunc(pkg, a, maxOriginDepth); ah.Symbol != "" && ah.Form != "call" {
				h.Calls = append(h.Calls, ah.Symbol)
			}
		}
		return h
	}
	if depth < maxOriginDepth {
		if v := varOf(info, e); v != nil {
			os := ix.originsOf(v)
			if len(os) == 1 && os[0].index == 0 {
				return ix.handlerFunc(os[0].pkg, os[0].expr, depth+1)
			}
		}
	}
	return &fact.Handler{Form: "unknown", Calls: nil}
}

// directCalls lists the loaded functions a unit calls directly, in source
// order, deduplicated: how a literal that only forwards to a method stays
// connected to that method.
func (ix *index) directCalls(u *unit) []string {
	var out []string
	seen := map[string]bool{}
	for c := range u.calls() {
		if c.fn == nil || !ix.inTree(c.fn) {
			continue
		}
		var recv types.Type
		if c.sel != nil {
			recv = c.sel.Recv()
		}
		s := ix.funcRef(c.fn, recv).Symbol
		if s != "" && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// returnsOf returns the first results of the return statements of the
// function a call calls, when it is a root function or a func literal
// held in a variable: how a handler or informer built by a helper is
// followed.
func (ix *index) returnsOf(pkg *packages.Package, call *ast.CallExpr) []origin {
	var u *unit
	if fn, _ := ix.callee(pkg.TypesInfo, call); fn != nil {
		u = ix.unitOfObj[fn.Origin()]
	} else if v := varOf(pkg.TypesInfo, call.Fun); v != nil {
		for _, o := range ix.origins[v] {
			if lit, ok := ast.Unparen(o.expr).(*ast.FuncLit); ok && o.index == 0 {
				u = ix.unitOfLit[lit]
			}
		}
	}
	if u == nil || u.body == nil {
		return nil
	}
	var out []origin
	for ret := range u.returns() {
		if len(ret.Results) > 0 {
			out = append(out, origin{u.pkg, ret.Results[0], 0})
		}
	}
	return out
}

// informerFuncResource reads the resource from an informer package's
// constructor: NewPodInformer, NewFilteredPodInformer.
func (ix *index) informerFuncResource(fn *types.Func) fact.Resource {
	if fn.Pkg() == nil || fn.Type().(*types.Signature).Recv() != nil {
		return fact.Resource{}
	}
	gv := informerPkg(fn.Pkg().Path())
	name := fn.Name()
	if gv == "" || !strings.HasPrefix(name, "New") || !strings.HasSuffix(name, "Informer") {
		return fact.Resource{}
	}
	kind := strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(name, "New"), "Filtered"), "Informer")
	if kind == "" {
		return fact.Resource{}
	}
	r := fact.Resource{Kind: kind, Version: pathBase(gv), Resource: ix.plural(gv, kind)}
	r.Group = groupFromImports(fn.Pkg(), gv)
	return r
}
