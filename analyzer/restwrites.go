package analyzer

// Writes that are not typed-client calls: cli-runtime's resource.Helper,
// which kubectl writes every object of a file through, and the REST
// client's request chain (`c.Post().Resource("pods").Body(pod).Do(ctx)`),
// which typed clients wrap and a few components call themselves.

import (
	"go/ast"
	"go/types"
	"strings"

	"github.com/kubewalk/kubewalk/analyzer/fact"
)

const (
	cliResourcePkg = "k8s.io/cli-runtime/pkg/resource"
	restPkg        = "k8s.io/client-go/rest"
)

// helperVerbs maps resource.Helper's writing methods to the API verb.
var helperVerbs = map[string]string{
	"Create": "create", "CreateWithOptions": "create",
	"Replace": "update",
	"Patch":   "patch",
	"Delete":  "delete", "DeleteWithOptions": "delete",
}

// restVerbs maps the REST client's verb methods to the API verb.
var restVerbs = map[string]string{"Post": "create", "Put": "update", "Patch": "patch", "Delete": "delete"}

// otherWrite returns the write a call of a resource.Helper method or of a
// REST request's Do makes, if it is one.
func (ix *index) otherWrite(u *unit, call *ast.CallExpr, fn *types.Func, sel *types.Selection) (fact.Write, bool) {
	if u.pkg.Types.Path() == cliResourcePkg {
		// The Helper's own methods, which its callers' writes go through:
		// each write is reported where kubectl calls the Helper.
		return fact.Write{}, false
	}
	recv := ast.Unparen(call.Fun).(*ast.SelectorExpr).X
	w := fact.Write{Caller: u.ref, At: ix.prog.Loc(call.Pos(), call.End())}
	switch {
	case isNamed(sel.Recv(), cliResourcePkg, "Helper") && helperVerbs[fn.Name()] != "":
		// The resource is the mapping's, from the objects kubectl reads.
		w.Verb, w.APIVerb, w.ResourceDynamic = strings.ToLower(fn.Name()), helperVerbs[fn.Name()], true
		w.Subresource, _ = chainArg(u, recv, "WithSubresource")
		w.Via = "resource.Helper." + fn.Name()
		return w, true
	case isNamed(sel.Recv(), restPkg, "Request") && (fn.Name() == "Do" || fn.Name() == "DoRaw"):
		for x := ast.Unparen(recv); ; {
			c, ok := x.(*ast.CallExpr)
			if !ok {
				break
			}
			s, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr)
			if !ok {
				break
			}
			if v := restVerbs[s.Sel.Name]; v != "" && w.APIVerb == "" {
				w.APIVerb = v
			}
			x = ast.Unparen(s.X)
		}
		if w.APIVerb == "" {
			return w, false // a Get, or a verb set where the chain does not show it
		}
		w.Verb = w.APIVerb
		res, ok := chainArg(u, recv, "Resource")
		w.Resource.Resource, w.ResourceDynamic = res, !ok
		w.Subresource, _ = chainArg(u, recv, "SubResource")
		w.Via = viaOf(recv, "Request", fn.Name())
		return w, true
	}
	return w, false
}

// chainArg returns the constant arguments, joined by "/", of the call of
// method in the call chain recv (`…Resource("pods")…`); ok is false when
// there is no such call or an argument is not constant.
func chainArg(u *unit, recv ast.Expr, method string) (string, bool) {
	for x := ast.Unparen(recv); ; {
		c, ok := x.(*ast.CallExpr)
		if !ok {
			return "", false
		}
		s, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr)
		if !ok {
			return "", false
		}
		if s.Sel.Name == method {
			var parts []string
			for _, a := range c.Args {
				v, ok := stringConst(u.pkg.TypesInfo, a)
				if !ok {
					return "", false
				}
				parts = append(parts, v)
			}
			return strings.Join(parts, "/"), len(parts) > 0
		}
		x = ast.Unparen(s.X)
	}
}
