package analyzer

import (
	"go/ast"
	"go/types"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/kubewalk/kubewalk/analyzer/fact"
)

// InformersPass finds the requests the roots make to shared informer
// factories (fact.InformerRequest): which code asked for the informer of
// which resource, so that a watch seen on the wire can be traced back to
// every piece of code sharing it.
//
// What it finds: every call, in a non-test file of a root package, of
// Informer(), TypedInformer() or Lister() on a typed informer (a type
// named …Informer of a package k8s.io/client-go/informers/<group>/<version>,
// or of a generated clientset's informers/externalversions/<group>/<version>), of
// InformerFor on a type whose InformerFor takes a runtime.Object and a
// NewInformerFunc (the typed factories and their internal interface), and
// of ForResource on a factory (typed, dynamic or metadata).
//
// How: the resource of a typed informer comes from its type as in the
// handlers pass (its Lister's List result); InformerFor's from its
// example object's type; ForResource's from a constant GVR, followed
// through variables as the handlers pass follows it.
//
// What it misses: requests made through an interface of the roots' own
// that hides the factory (the request is then its implementation's, where
// that is a root); requests made by dependencies outside the roots (the
// API server's admission plugins and authenticators are requests only
// when their packages are roots). Informer() and Lister() of a
// GenericInformer are not requests: ForResource made the informer.
var InformersPass = &Pass{
	Name:     "informers",
	Doc:      "requests to shared informer factories: Informer(), TypedInformer() and Lister() of typed informers, InformerFor and ForResource, with the resource asked for",
	Requires: []*Pass{indexPass},
	Run:      withIndex(runInformers),
}

// Import paths of the untyped factories.
const (
	dynamicInformerPkg  = "k8s.io/client-go/dynamic/dynamicinformer"
	metadataInformerPkg = "k8s.io/client-go/metadata/metadatainformer"
)

func runInformers(ix *index, _ *PassRun) (*fact.Facts, error) {
	var out []fact.InformerRequest
	for c := range ix.staticCalls() {
		u, call, fn, sel := c.u, c.call, c.fn, c.sel
		if isFactoryPkg(u.pkg.PkgPath) {
			continue // the factories' own implementation
		}
		if sel == nil {
			if r, ok := ix.ownInformer(u, call, fn); ok {
				out = append(out, r)
			}
			continue
		}
		info := u.pkg.TypesInfo
		recv := ast.Unparen(call.Fun).(*ast.SelectorExpr).X
		r := fact.InformerRequest{
			Component: fact.Component(u.pkg.Types.Path()),
			Caller:    u.ref,
			At:        ix.prog.Loc(call.Pos(), call.End()),
			Method:    fn.Name(),
			Expr:      exprString(recv),
		}
		switch fn.Name() {
		case "Informer", "TypedInformer", "Lister":
			if len(call.Args) != 0 {
				continue
			}
			n := namedOf(sel.Recv())
			if n == nil || n.Obj().Pkg() == nil || informerPkg(n.Obj().Pkg().Path()) == "" {
				continue
			}
			r.Resource = ix.informerTypeResource(sel.Recv())
			if r.Resource.Kind == "" {
				continue
			}
			r.Factory = factoryOf(n.Obj().Pkg().Path())
		case "InformerFor":
			sig := fn.Type().(*types.Signature)
			if sig.Params().Len() != 2 || len(call.Args) != 2 || !isNamed(sig.Params().At(0).Type(), runtimePkg, "Object") {
				continue
			}
			r.Resource = ix.apiResource(info.TypeOf(call.Args[0]))
			r.Factory = factoryOf(namedPkgPath(sel.Recv()))
			ix.newFuncSelector(u.pkg, call.Args[1], &r)
		case "ForResource":
			p := namedPkgPath(sel.Recv())
			switch {
			case p == dynamicInformerPkg || p == metadataInformerPkg:
				r.Factory = p
			case strings.HasSuffix(p, "/informers") || strings.HasSuffix(p, "/informers/externalversions"):
				r.Factory = p
			default:
				continue
			}
			if len(call.Args) != 1 {
				continue
			}
			r.Resource = ix.gvrResource(u.pkg, call.Args[0], 0)
			r.ResourceDynamic = r.Resource.Resource == ""
			if r.ResourceDynamic {
				r.Resource = fact.Resource{}
			}
		default:
			continue
		}
		if r.FieldSelector == "" {
			ix.factoryOptions(u.pkg, recv, &r, 0)
		}
		out = append(out, r)
	}
	sort.SliceStable(out, func(i, j int) bool {
		less, eq := locLess(out[i].At, out[j].At)
		if eq {
			return out[i].Method < out[j].Method
		}
		return less
	})
	return &fact.Facts{InformerRequests: out}, nil
}

// namedPkgPath returns the package path of t's named type (through a
// pointer), or "".
func namedPkgPath(t types.Type) string {
	n := namedOf(t)
	if n == nil || n.Obj().Pkg() == nil {
		return ""
	}
	return n.Obj().Pkg().Path()
}

// factoryOf returns the factory package of an informers package: the
// path up to and including "/informers" (and "/externalversions" for a
// generated clientset's), "" when p is none.
func factoryOf(p string) string {
	i := strings.LastIndex(p+"/", "/informers/")
	if i < 0 {
		return ""
	}
	f := p[:i+len("/informers")]
	if rest := p[len(f):]; rest == "/externalversions" || strings.HasPrefix(rest, "/externalversions/") {
		f += "/externalversions"
	}
	return f
}

// isFactoryPkg reports whether p is part of an informer factory: an
// informers package, its internal interfaces, or the dynamic and metadata
// factories.
func isFactoryPkg(p string) bool {
	return p == dynamicInformerPkg || p == metadataInformerPkg || factoryOf(p) != "" && !strings.Contains(p[len(factoryOf(p)):], "/fake")
}

// factoryOptions fills r's FieldSelector, Fields and Namespace from the
// options of the factory behind the informer expression e: e's method
// chain (f.Core().V1().Nodes()) and the variables it goes through are
// followed back to NewSharedInformerFactoryWithOptions or
// NewFilteredSharedInformerFactory.
func (ix *index) factoryOptions(pkg *packages.Package, e ast.Expr, r *fact.InformerRequest, depth int) bool {
	if depth > maxOriginDepth {
		return false
	}
	info := pkg.TypesInfo
	switch x := ast.Unparen(e).(type) {
	case *ast.CallExpr:
		fn, sel := ix.callee(info, x)
		if fn == nil {
			return false
		}
		if sel != nil {
			return ix.factoryOptions(pkg, ast.Unparen(x.Fun).(*ast.SelectorExpr).X, r, depth)
		}
		if fn.Pkg() == nil || factoryOf(fn.Pkg().Path()) != fn.Pkg().Path() {
			return false
		}
		var lw fact.ListWatch
		switch fn.Name() {
		case "NewFilteredSharedInformerFactory", "NewFilteredDynamicSharedInformerFactory":
			// (client, resync, namespace, tweakListOptions)
			if len(x.Args) == 4 {
				r.Namespace = exprString(x.Args[2])
				ix.optionsSelector(pkg, x.Args[3], &lw)
			}
		case "NewSharedInformerFactoryWithOptions":
			for _, a := range x.Args[min(2, len(x.Args)):] {
				opt, ok := ast.Unparen(a).(*ast.CallExpr)
				if !ok || len(opt.Args) != 1 {
					continue
				}
				ofn, _ := ix.callee(info, opt)
				switch {
				case ofn == nil:
				case ofn.Name() == "WithTweakListOptions":
					ix.optionsSelector(pkg, opt.Args[0], &lw)
				case ofn.Name() == "WithNamespace":
					r.Namespace = exprString(opt.Args[0])
				}
			}
		default:
			return true // a factory over every object
		}
		r.FieldSelector, r.Fields = lw.FieldSelector, lw.Fields
		return true
	case *ast.Ident, *ast.SelectorExpr:
		if v := varOf(info, x); v != nil {
			for _, o := range ix.originsOf(v) {
				if o.index == 0 && ix.factoryOptions(o.pkg, o.expr, r, depth+1) {
					return true
				}
			}
		}
	}
	return false
}

// ownInformer reports a call of a typed informer constructor of an
// informers/<group>/<version> package (NewFilteredConfigMapInformer,
// NewPodInformer): an informer of its own, outside any factory, with its
// own list and watch — the API server's watch of the
// extension-apiserver-authentication config map is one. Method is the
// constructor's name, Factory is "", and the field selector is the one
// its tweak function sets.
func (ix *index) ownInformer(u *unit, call *ast.CallExpr, fn *types.Func) (fact.InformerRequest, bool) {
	res := ix.informerFuncResource(fn)
	if res.Kind == "" {
		return fact.InformerRequest{}, false
	}
	r := fact.InformerRequest{
		Component: fact.Component(u.pkg.Types.Path()),
		Caller:    u.ref,
		At:        ix.prog.Loc(call.Pos(), call.End()),
		Method:    fn.Name(),
		Resource:  res,
		Expr:      exprString(call.Fun),
	}
	sig := fn.Type().(*types.Signature)
	for i := 0; i < sig.Params().Len() && i < len(call.Args); i++ {
		switch n := namedOf(sig.Params().At(i).Type()); {
		case n != nil && n.Obj().Name() == "TweakListOptionsFunc":
			var lw fact.ListWatch
			ix.optionsSelector(u.pkg, call.Args[i], &lw)
			r.FieldSelector, r.Fields = lw.FieldSelector, lw.Fields
		case sig.Params().At(i).Name() == "namespace":
			r.Namespace = exprString(call.Args[i])
		}
	}
	return r, true
}

// newFuncSelector fills r's FieldSelector and Fields from the informer
// function InformerFor is given, when it sets a field selector of its
// own: the function (a literal or a root function), and the root
// functions it calls, are searched for an assignment to a FieldSelector
// — the scheduler's pod informer lists only pods that have not finished.
func (ix *index) newFuncSelector(pkg *packages.Package, e ast.Expr, r *fact.InformerRequest) {
	if fl := ix.funcLitOf(pkg, e); fl != nil {
		ix.unitSelector(ix.unitOfLit[fl], r, 0)
	} else if id, ok := ast.Unparen(e).(*ast.Ident); ok {
		if fn, ok := pkg.TypesInfo.Uses[id].(*types.Func); ok {
			ix.unitSelector(ix.unitOfObj[fn.Origin()], r, 0)
		}
	}
}

// unitSelector searches u, its literals, and the root functions they call
// (two calls deep) for the first assignment to a FieldSelector.
func (ix *index) unitSelector(u *unit, r *fact.InformerRequest, depth int) {
	if u == nil || u.body == nil || depth > 2 {
		return
	}
	var callees []*unit
	ast.Inspect(u.body, func(n ast.Node) bool {
		if r.FieldSelector != "" {
			return false
		}
		switch n := n.(type) {
		case *ast.AssignStmt:
			for i, l := range n.Lhs {
				if se, ok := ast.Unparen(l).(*ast.SelectorExpr); ok && se.Sel.Name == "FieldSelector" && len(n.Lhs) == len(n.Rhs) {
					r.FieldSelector = exprString(n.Rhs[i])
					r.Fields = ix.selectorFields(u.pkg, n.Rhs[i], 0)
				}
			}
		case *ast.CallExpr:
			if fn, _ := ix.callee(u.pkg.TypesInfo, n); fn != nil {
				if cu := ix.unitOfObj[fn.Origin()]; cu != nil {
					callees = append(callees, cu)
				}
			}
		}
		return true
	})
	for _, cu := range callees {
		if r.FieldSelector != "" {
			return
		}
		ix.unitSelector(cu, r, depth+1)
	}
}
