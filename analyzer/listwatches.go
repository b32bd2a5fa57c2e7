package analyzer

import (
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/kubewalk/kubewalk/analyzer/fact"
)

// ListWatchesPass finds raw list-watches: the ListerWatchers a component
// makes itself, rather than through an informer factory, and what it
// hands them to.
//
// What it finds, in non-test files of the root packages outside client-go's
// tools/cache:
//   - calls of cache.NewListWatchFromClient and
//     cache.NewFilteredListWatchFromClient, the resource read from the
//     constant resource argument and the group and version from the typed
//     client whose RESTClient() is passed (`c.CoreV1().RESTClient(),
//     "pods"` → v1 Pod pods);
//   - cache.ListWatch composite literals, the resource read from the typed
//     client List and Watch calls inside their ListFunc and WatchFunc;
//   - the field selector: the fields it tests when they are constant
//     (`fields.OneTermEqualSelector("spec.nodeName", …)`, `api.PodHostField`,
//     ParseSelector of a constant or of a constant "field=" joined to a
//     value, a fields.Set literal, AndSelectors of those), whether passed as
//     the argument or assigned to ListOptions.FieldSelector in an options
//     modifier or in ListFunc;
//   - the consumers: calls of client-go's reflector constructors
//     (NewReflector, NewReflectorWithOptions, NewNamedReflector) and
//     informer constructors (NewSharedIndexInformer, NewInformer, …)
//     whose ListerWatcher argument is the list-watch (followed through
//     variables, parameters of root functions and wrappers in tools/cache);
//     for a reflector, the example object's resource, and the push function
//     of a cache.NewUndeltaStore store (the kubelet's pod source sends what
//     it pushes to a channel).
//
// This is how the kubelet watches its pods: NewSourceApiserver makes a
// list-watch of pods with a spec.nodeName field selector and a reflector
// over it, with no informer and no handler.
//
// What it misses: list-watches made by functions outside the roots, and
// ListerWatchers implemented by hand-written types.
var ListWatchesPass = &Pass{
	Name:     "listwatches",
	Doc:      "raw list-watches (NewListWatchFromClient, cache.ListWatch literals): resource, constant field selector fields, and the reflectors and informers they feed",
	Requires: []*Pass{indexPass},
	Run:      withIndex(runListWatches),
}

const fieldsPkg = "k8s.io/apimachinery/pkg/fields"

var listWatchFuncs = map[string]bool{
	"NewListWatchFromClient":         true,
	"NewFilteredListWatchFromClient": true,
}

// lwConsumerKinds are client-go's constructors that take a ListerWatcher:
// "reflector" or "informer".
var lwConsumerKinds = map[string]string{
	"NewReflector":                      "reflector",
	"NewReflectorWithOptions":           "reflector",
	"NewNamedReflector":                 "reflector",
	"NewSharedInformer":                 "informer",
	"NewSharedIndexInformer":            "informer",
	"NewSharedIndexInformerWithOptions": "informer",
	"NewInformer":                       "informer",
	"NewIndexerInformer":                "informer",
	"NewTransformingInformer":           "informer",
	"NewTransformingIndexerInformer":    "informer",
	"NewInformerWithOptions":            "informer",
}

func runListWatches(ix *index, _ *PassRun) (*fact.Facts, error) {
	var out []fact.ListWatch
	byNode := map[ast.Node]int{} // list-watch expression → index in out
	type consumerCall struct {
		u    *unit
		call *ast.CallExpr
		fn   *types.Func
	}
	var consumers []consumerCall
	for _, u := range ix.bodies() {
		if u.pkg.PkgPath == cachePkg {
			continue // client-go's own plumbing
		}
		info := u.pkg.TypesInfo
		for _, n := range u.nodes {
			switch x := n.node.(type) {
			case *ast.CallExpr:
				fn := n.fn
				if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != cachePkg {
					continue
				}
				if listWatchFuncs[fn.Name()] {
					byNode[x] = len(out)
					out = append(out, ix.listWatchCall(u, x, fn))
				} else if lwConsumerKinds[fn.Name()] != "" {
					consumers = append(consumers, consumerCall{u, x, fn})
				}
			case *ast.CompositeLit:
				if isNamed(info.TypeOf(x), cachePkg, "ListWatch") {
					byNode[x] = len(out)
					out = append(out, ix.listWatchLit(u, x))
				}
			}
		}
	}
	for _, c := range consumers {
		sig := c.fn.Type().(*types.Signature)
		lc := fact.ListWatchConsumer{
			Kind:   lwConsumerKinds[c.fn.Name()],
			Func:   c.fn.Name(),
			Caller: c.u.ref,
			At:     ix.prog.Loc(c.call.Pos(), c.call.End()),
		}
		var lws []int
		for i := 0; i < sig.Params().Len() && i < len(c.call.Args); i++ {
			arg := c.call.Args[i]
			pt := sig.Params().At(i).Type()
			switch {
			case isNamed(pt, cachePkg, "ListerWatcher") || isNamed(pt, cachePkg, "ListerWatcherWithContext"):
				lws = ix.listWatchesOf(c.u.pkg, arg, byNode, 0)
			case isNamed(pt, runtimePkg, "Object") || sig.Params().At(i).Name() == "expectedType":
				// NewReflector's expectedType is an interface{}.
				lc.Resource = ix.apiResource(c.u.pkg.TypesInfo.TypeOf(arg))
			case isNamed(pt, cachePkg, "Store") || isNamed(pt, cachePkg, "ReflectorStore"):
				// Store until client-go v0.31, ReflectorStore since.
				lc.Push = ix.undeltaPush(c.u.pkg, arg, 0)
			}
		}
		for _, i := range lws {
			out[i].Consumers = append(out[i].Consumers, lc)
			if lc.Kind == "reflector" {
				out[i].Resource = mergeResource(out[i].Resource, lc.Resource)
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		less, _ := locLess(out[i].At, out[j].At)
		return less
	})
	for i := range out {
		cs := out[i].Consumers
		sort.SliceStable(cs, func(a, b int) bool {
			less, _ := locLess(cs[a].At, cs[b].At)
			return less
		})
	}
	return &fact.Facts{ListWatches: out}, nil
}

// listWatchCall describes NewListWatchFromClient(c, resource, namespace,
// fieldSelector) or NewFilteredListWatchFromClient(c, resource, namespace,
// optionsModifier).
func (ix *index) listWatchCall(u *unit, call *ast.CallExpr, fn *types.Func) fact.ListWatch {
	info := u.pkg.TypesInfo
	lw := fact.ListWatch{
		Component: fact.Component(u.pkg.Types.Path()),
		Caller:    u.ref,
		At:        ix.prog.Loc(call.Pos(), call.End()),
		Func:      fn.Name(),
	}
	if len(call.Args) < 4 {
		return lw
	}
	if name, ok := stringConst(info, call.Args[1]); ok {
		lw.Resource = ix.restClientResource(info, call.Args[0], name)
	}
	if fn.Name() == "NewListWatchFromClient" {
		lw.FieldSelector = exprString(call.Args[3])
		lw.Fields = ix.selectorFields(u.pkg, call.Args[3], 0)
	} else {
		ix.optionsSelector(u.pkg, call.Args[3], &lw)
	}
	return lw
}

// listWatchLit describes a cache.ListWatch{ListFunc: …, WatchFunc: …}
// literal: the resource from the typed client calls in its functions, the
// field selector from what they assign to ListOptions.FieldSelector.
func (ix *index) listWatchLit(u *unit, lit *ast.CompositeLit) fact.ListWatch {
	lw := fact.ListWatch{
		Component: fact.Component(u.pkg.Types.Path()),
		Caller:    u.ref,
		At:        ix.prog.Loc(lit.Pos(), lit.End()),
		Func:      "ListWatch",
	}
	for _, el := range lit.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		fl := ix.funcLitOf(u.pkg, kv.Value)
		if fl == nil {
			continue
		}
		fu := ix.unitOfLit[fl]
		if fu == nil {
			continue
		}
		for c := range fu.calls() {
			fn, sel := c.fn, c.sel
			if fn == nil || sel == nil || (fn.Name() != "List" && fn.Name() != "Watch") {
				continue
			}
			recv := ast.Unparen(c.call.Fun).(*ast.SelectorExpr).X
			if r, _, ok := ix.clientResource(fu, recv, sel.Recv(), fn); ok {
				lw.Resource = mergeResource(lw.Resource, r)
			}
		}
		ix.optionsSelector(u.pkg, kv.Value, &lw)
	}
	return lw
}

// funcLitOf returns the func literal e is, or the one a variable holding
// it was given.
func (ix *index) funcLitOf(pkg *packages.Package, e ast.Expr) *ast.FuncLit {
	if fl, ok := ast.Unparen(e).(*ast.FuncLit); ok {
		return fl
	}
	if v := varOf(pkg.TypesInfo, e); v != nil {
		for _, o := range ix.originsOf(v) {
			if fl, ok := ast.Unparen(o.expr).(*ast.FuncLit); ok && o.index == 0 {
				return fl
			}
		}
	}
	return nil
}

// optionsSelector reads, from a function modifying or taking ListOptions
// (an options modifier, a ListFunc), the selector it assigns to
// options.FieldSelector.
func (ix *index) optionsSelector(pkg *packages.Package, e ast.Expr, lw *fact.ListWatch) {
	fl := ix.funcLitOf(pkg, e)
	if fl == nil {
		return
	}
	fu := ix.unitOfLit[fl]
	if fu == nil {
		return
	}
	for _, n := range fu.nodes {
		as, ok := n.node.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != len(as.Rhs) {
			continue
		}
		for i, l := range as.Lhs {
			if se, ok := ast.Unparen(l).(*ast.SelectorExpr); ok && se.Sel.Name == "FieldSelector" {
				lw.FieldSelector = exprString(as.Rhs[i])
				lw.Fields = ix.selectorFields(fu.pkg, as.Rhs[i], 0)
			}
		}
	}
}

// restClientResource tells the resource a list-watch names from the
// REST client it is given: `c.CoreV1().RESTClient()` is the core/v1
// typed client's, so "pods" is v1 Pod.
func (ix *index) restClientResource(info *types.Info, client ast.Expr, name string) fact.Resource {
	r := fact.Resource{Resource: name}
	call, ok := ast.Unparen(client).(*ast.CallExpr)
	if !ok {
		return r
	}
	fn, sel := ix.callee(info, call)
	if fn == nil || sel == nil || fn.Name() != "RESTClient" {
		return r
	}
	n := namedOf(sel.Recv())
	if n == nil || n.Obj().Pkg() == nil {
		return r
	}
	gv := typedClientPkg(n.Obj().Pkg().Path())
	if gv == "" {
		return r
	}
	r.Version = pathBase(gv)
	r.Kind = ix.kinds[gv+"/"+name]
	r.Group = groupFromImports(n.Obj().Pkg(), gv)
	return r
}

// selectorFields returns the fields a field selector tests, when they are
// constant, sorted. It is one switch over the forms a selector is written
// in (a constant string, fields.OneTermEqualSelector and its kin, a
// fields.Set, a variable assigned one of those), each a case a few lines
// long; kept together they read as the list of forms the pass knows.
func (ix *index) selectorFields(pkg *packages.Package, e ast.Expr, depth int) []string {
	info := pkg.TypesInfo
	var out []string
	addTerms := func(s string) {
		for _, term := range strings.Split(s, ",") {
			if i := strings.IndexAny(term, "!="); i > 0 {
				out = append(out, strings.TrimSpace(term[:i]))
			}
		}
	}
	switch x := ast.Unparen(e).(type) {
	case *ast.CallExpr:
		fn, sel := ix.callee(info, x)
		if fn == nil {
			break
		}
		if sel != nil && (fn.Name() == "String" || fn.Name() == "AsSelector") {
			// sel.String(), fields.Set{…}.AsSelector()
			return ix.selectorFields(pkg, ast.Unparen(x.Fun).(*ast.SelectorExpr).X, depth)
		}
		if fn.Pkg() != nil && fn.Pkg().Path() == "fmt" && fn.Name() == "Sprintf" && len(x.Args) > 0 {
			// fmt.Sprintf("status.phase!=%v,status.phase!=%v", …): the
			// format names the fields.
			if f, ok := stringConst(info, x.Args[0]); ok {
				addTerms(f)
			}
			break
		}
		if fn.Pkg() == nil || fn.Pkg().Path() != fieldsPkg {
			break
		}
		switch fn.Name() {
		case "OneTermEqualSelector", "OneTermNotEqualSelector":
			if len(x.Args) > 0 {
				if k, ok := stringConst(info, x.Args[0]); ok {
					out = append(out, k)
				}
			}
		case "AndSelectors", "SelectorFromSet", "SelectorFromValidatedSet":
			for _, a := range x.Args {
				out = append(out, ix.selectorFields(pkg, a, depth)...)
			}
		case "ParseSelector", "ParseSelectorOrDie":
			if len(x.Args) > 0 {
				out = append(out, ix.selectorFields(pkg, x.Args[0], depth)...)
			}
		}
	case *ast.BasicLit:
		if s, ok := stringConst(info, x); ok {
			addTerms(s)
		}
	case *ast.BinaryExpr:
		// "spec.nodeName=" + name: the constant left part names the field.
		if s, ok := stringConst(info, x); ok {
			addTerms(s)
		} else if x.Op == token.ADD {
			if s, ok := stringConst(info, x.X); ok {
				addTerms(s)
			} else {
				out = append(out, ix.selectorFields(pkg, x.X, depth)...)
			}
		}
	case *ast.CompositeLit:
		// fields.Set{"spec.nodeName": name}
		for _, el := range x.Elts {
			if kv, ok := el.(*ast.KeyValueExpr); ok {
				if k, ok := stringConst(info, kv.Key); ok {
					out = append(out, k)
				}
			}
		}
	case *ast.Ident, *ast.SelectorExpr:
		if s, ok := stringConst(info, x); ok {
			addTerms(s)
			break
		}
		if v := varOf(info, x); v != nil && depth < maxOriginDepth {
			for _, o := range ix.originsOf(v) {
				if o.index == 0 {
					out = append(out, ix.selectorFields(o.pkg, o.expr, depth+1)...)
				}
			}
		}
	}
	sort.Strings(out)
	return dedupSorted(out)
}

// listWatchesOf follows a ListerWatcher argument back to the list-watches
// found by the pass: through variables and parameters of root functions,
// & of a literal, and wrappers in tools/cache that take the list-watch
// (ToListWatcherWithWatchListSemantics).
func (ix *index) listWatchesOf(pkg *packages.Package, e ast.Expr, byNode map[ast.Node]int, depth int) []int {
	e = ast.Unparen(e)
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = ast.Unparen(u.X)
	}
	if i, ok := byNode[e]; ok {
		return []int{i}
	}
	if depth > maxOriginDepth {
		return nil
	}
	var out []int
	switch x := e.(type) {
	case *ast.CallExpr:
		if fn, _ := ix.callee(pkg.TypesInfo, x); fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == cachePkg {
			for _, a := range x.Args {
				out = append(out, ix.listWatchesOf(pkg, a, byNode, depth+1)...)
			}
		}
		for _, o := range ix.returnsOf(pkg, x) {
			out = append(out, ix.listWatchesOf(o.pkg, o.expr, byNode, depth+1)...)
		}
	case *ast.Ident, *ast.SelectorExpr:
		if v := varOf(pkg.TypesInfo, x); v != nil {
			for _, o := range ix.originsOf(v) {
				if o.index == 0 {
					out = append(out, ix.listWatchesOf(o.pkg, o.expr, byNode, depth+1)...)
				}
			}
		}
	}
	sort.Ints(out)
	var dedup []int
	for i, x := range out {
		if i == 0 || x != out[i-1] {
			dedup = append(dedup, x)
		}
	}
	return dedup
}

// undeltaPush returns the push function of a cache.NewUndeltaStore(push,
// keyFunc) store, followed through a variable.
func (ix *index) undeltaPush(pkg *packages.Package, e ast.Expr, depth int) *fact.FuncRef {
	e = ast.Unparen(e)
	if v := varOf(pkg.TypesInfo, e); v != nil {
		if depth >= maxOriginDepth {
			return nil
		}
		for _, o := range ix.originsOf(v) {
			if o.index == 0 {
				if r := ix.undeltaPush(o.pkg, o.expr, depth+1); r != nil {
					return r
				}
			}
		}
		return nil
	}
	call, ok := e.(*ast.CallExpr)
	if !ok || len(call.Args) == 0 {
		return nil
	}
	fn, _ := ix.callee(pkg.TypesInfo, call)
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != cachePkg || fn.Name() != "NewUndeltaStore" {
		return nil
	}
	push := ast.Unparen(call.Args[0])
	if fl := ix.funcLitOf(pkg, push); fl != nil {
		if u := ix.unitOfLit[fl]; u != nil {
			r := u.ref
			return &r
		}
	}
	if s := ix.funcOfValue(pkg.TypesInfo, push); s != "" {
		if sym, ok := ix.symbol(s); ok {
			return &fact.FuncRef{Symbol: s, Decl: sym.Decl}
		}
		return &fact.FuncRef{Symbol: s}
	}
	return nil
}
