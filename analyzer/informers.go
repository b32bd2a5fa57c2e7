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
// Informer() or Lister() on a typed informer (a type named …Informer of a
// package k8s.io/client-go/informers/<group>/<version>, or of a generated
// clientset's informers/externalversions/<group>/<version>), of
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
	Doc:      "requests to shared informer factories: Informer() and Lister() of typed informers, InformerFor and ForResource, with the resource asked for",
	Requires: []*Pass{indexPass},
	Run:      withIndex(runInformers),
}

// Import paths of the untyped factories.
const (
	dynamicInformerPkg  = "k8s.io/client-go/dynamic/dynamicinformer"
	metadataInformerPkg = "k8s.io/client-go/metadata/metadatainformer"
)

func runInformers(ix *index, facts *fact.Facts) error {
	var out []fact.InformerRequest
	for c := range ix.staticCalls() {
		u, call, fn, sel := c.u, c.call, c.fn, c.sel
		if sel == nil || isFactoryPkg(u.pkg.PkgPath) {
			continue // the factories' own implementation
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
		case "Informer", "Lister":
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
		ix.factoryOptions(u.pkg, recv, &r, 0)
		out = append(out, r)
	}
	sort.SliceStable(out, func(i, j int) bool {
		less, eq := locLess(out[i].At, out[j].At)
		if eq {
			return out[i].Method < out[j].Method
		}
		return less
	})
	facts.InformerRequests = append(facts.InformerRequests, out...)
	return nil
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
		fn, sel := calleeOf(info, x)
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
				ofn, _ := calleeOf(info, opt)
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
