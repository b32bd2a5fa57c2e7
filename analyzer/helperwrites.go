package analyzer

// This file finds the writes the typed-client rules of writes.go cannot
// see at the call: writes through a client-go interface whose
// implementation lives in a package the analyzer does not take as a root
// (record.EventSink), and writes in generic code whose resource is a type
// argument (the API Priority and Fairness configuration ensurer's
// ObjectOps[ObjectType].Create, instantiated with *v1.FlowSchema and
// *v1.PriorityLevelConfiguration).

import (
	"go/ast"
	"go/types"
	"sort"
	"strings"

	"github.com/kubewalk/kubewalk/analyzer/fact"
)

// eventSinkWrite reports a call of client-go's record.EventSink: the
// core/v1 event broadcaster writes each event through it (recordToSink →
// recordEvent: Create, Patch for a repeated event, Update), and its one
// implementation, EventSinkImpl in k8s.io/client-go/kubernetes/typed/
// core/v1, sends CreateWithEventNamespace & co. as REST requests in a
// package of generated typed clients that is not a root. The write is
// reported where the broadcaster calls the sink.
func (ix *index) eventSinkWrite(u *unit, call *ast.CallExpr, fn *types.Func, sel *types.Selection) (fact.Write, bool) {
	if !isNamed(sel.Recv(), recordPkg, "EventSink") {
		return fact.Write{}, false
	}
	apiVerb, _, ok := writeVerb(fn.Name())
	if !ok {
		return fact.Write{}, false
	}
	return fact.Write{
		Caller:   u.ref,
		At:       ix.prog.Loc(call.Pos(), call.End()),
		Resource: fact.Resource{Version: "v1", Kind: "Event", Resource: "events"},
		Verb:     strings.ToLower(fn.Name()),
		APIVerb:  apiVerb,
		Via:      "EventSink." + fn.Name(),
	}, true
}

// genericResources returns, for a write whose receiver type t is a
// generic client, the resources of its type arguments: an API type given
// directly (client[*v1.Pod]), or a type parameter of the enclosing
// declaration of u (ops ObjectOps[ObjectType] inside
// ensureConfiguration[ObjectType]) through the API types that parameter
// is instantiated with in the roots, each once, in the order the instantiations are found. A
// type parameter instantiated with another function's type parameter
// (EnsureConfigurations[ObjectType] calling ensureConfiguration) is
// followed to that function's instantiations.
//
// Only a method that takes an API request's options (metav1.CreateOptions,
// UpdateOptions, PatchOptions, ApplyOptions or DeleteOptions), as a
// client's do, counts: a generic store's Update(obj T) is no write.
func (ix *index) genericResources(u *unit, t types.Type, fn *types.Func) []fact.Resource {
	n := namedOf(t)
	if n == nil || u.top.obj == nil || !takesWriteOptions(fn) {
		return nil
	}
	var out []fact.Resource
	seen := map[fact.Resource]bool{}
	for i := 0; i < n.TypeArgs().Len(); i++ {
		args := []types.Type{n.TypeArgs().At(i)}
		if tp, ok := args[0].(*types.TypeParam); ok {
			args = ix.typeParamArgs(tp, 0)
		}
		for _, arg := range args {
			r := ix.apiResource(arg)
			if r.Resource == "" || seen[r] {
				continue
			}
			seen[r] = true
			out = append(out, r)
		}
	}
	return out
}

// typeParamArgs returns the types the roots instantiate tp with: tp is a
// type parameter of a root function, whose instantiations (go/types'
// Info.Instances of its uses) give its arguments; an argument that is
// itself a type parameter is followed, up to maxOriginDepth.
func (ix *index) typeParamArgs(tp *types.TypeParam, depth int) []types.Type {
	if depth > maxOriginDepth {
		return nil
	}
	fn := ix.typeParamOwner(tp)
	if fn == nil {
		return nil
	}
	var out []types.Type
	for _, targs := range ix.instances()[fn] {
		if tp.Index() >= targs.Len() {
			continue
		}
		a := targs.At(tp.Index())
		if atp, ok := a.(*types.TypeParam); ok {
			out = append(out, ix.typeParamArgs(atp, depth+1)...)
		} else {
			out = append(out, a)
		}
	}
	return out
}

// typeParamOwner returns the generic root function declaring tp, or nil.
func (ix *index) typeParamOwner(tp *types.TypeParam) *types.Func {
	u := ix.unitAt(tp.Obj())
	if u == nil || u.obj == nil {
		return nil
	}
	tps := u.obj.Type().(*types.Signature).TypeParams()
	for i := 0; i < tps.Len(); i++ {
		if tps.At(i) == tp {
			return u.obj
		}
	}
	return nil
}

// unitAt returns the root declaration whose span holds obj's position.
func (ix *index) unitAt(obj types.Object) *unit {
	for _, u := range ix.units {
		if u.decl != nil && u.decl.Pos() <= obj.Pos() && obj.Pos() < u.decl.End() && u.pkg.Types == obj.Pkg() {
			return u
		}
	}
	return nil
}

// instances returns, for each generic function of the roots, the type
// argument lists it is instantiated with in the roots, in package and
// source order; computed once per index, on first use.
func (ix *index) instances() map[*types.Func][]*types.TypeList {
	ix.instOnce.Do(func() {
		ix.inst = map[*types.Func][]*types.TypeList{}
		for _, pkg := range ix.prog.Roots {
			if pkg.TypesInfo == nil {
				continue
			}
			ids := make([]*ast.Ident, 0, len(pkg.TypesInfo.Instances))
			for id := range pkg.TypesInfo.Instances {
				ids = append(ids, id)
			}
			sort.Slice(ids, func(i, j int) bool { return ids[i].Pos() < ids[j].Pos() })
			for _, id := range ids {
				if fn, ok := pkg.TypesInfo.Uses[id].(*types.Func); ok {
					ix.inst[fn.Origin()] = append(ix.inst[fn.Origin()], pkg.TypesInfo.Instances[id].TypeArgs)
				}
			}
		}
	})
	return ix.inst
}

// takesWriteOptions reports whether fn has a parameter of one of the
// write options types of k8s.io/apimachinery/pkg/apis/meta/v1.
func takesWriteOptions(fn *types.Func) bool {
	params := fn.Type().(*types.Signature).Params()
	for i := 0; i < params.Len(); i++ {
		for _, name := range []string{"CreateOptions", "UpdateOptions", "PatchOptions", "ApplyOptions", "DeleteOptions"} {
			if isNamed(params.At(i).Type(), metav1Pkg, name) {
				return true
			}
		}
	}
	return false
}
