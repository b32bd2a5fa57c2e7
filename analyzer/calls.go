package analyzer

import (
	"github.com/kubewalk/kubewalk/analyzer/fact"
	"go/ast"
	"go/types"
	"sort"
	"strings"
)

// CallsPass finds call edges among the loaded functions.
//
// What it finds, from every function of a non-test file of a root package
// (declarations and func literals, named go/ssa style "f$1"), to functions
// and methods declared in the tree (roots and in-tree dependencies such as
// client-go; the standard library and third-party modules are left out):
//   - "static": a call of a function or of a method on a concrete type;
//   - "method value" / "func value": a method or function used as a value
//     and not called there (`go wait.Until(dc.worker, …)`,
//     `dc.syncHandler = dc.syncDeployment`), since the value is usually
//     called later by the code it is handed to;
//   - "func literal": from a function to each func literal it contains,
//     so a path can descend into handlers and goroutines written inline;
//   - "interface": a call of an interface method resolved to the methods of
//     the named types of the loaded program that implement the interface
//     (with pointer receivers considered): `rsc.podControl.CreatePods` →
//     controller.RealPodControl.CreatePods;
//   - "func field" / "func variable": a call of a func value held in a
//     field or variable, resolved to the functions the roots assign to it
//     (or pass for it, when it is a parameter of a root function):
//     `dc.enqueueDeployment(d)` → DeploymentController.enqueue after
//     `dc.enqueueDeployment = dc.enqueue`, `dc.syncHandler(ctx, key)` →
//     syncDeployment.
//
// How: go/types selections. Interface calls are resolved against an index
// of concrete named types by method name, built only for the method names
// that interface calls use, then checked with types.Implements on T and *T.
//
// What it misses, on purpose, to keep the volume readable: interfaces
// declared outside the tree (error, fmt.Stringer, io.Writer,
// context.Context); implementations in fake and testing packages (paths
// with a "fake", "testing", "testutil" element) and types named Fake…;
// interface methods with more than maxImpls implementations in the program (runtime.Object's
// DeepCopyObject has thousands) — those calls get no edge, nor do calls of
// a func value given more than maxImpls functions. Func values assigned
// outside the roots, or passed through more than one parameter, are not
// followed. Generic types are matched through their origin only when not
// instantiated at the call.
var CallsPass = &Pass{
	Name:     "calls",
	Doc:      "call edges among loaded functions: static calls, method and func values, func literals, interface calls resolved to in-tree implementations",
	Requires: []*Pass{indexPass},
	Run:      withIndex(runCalls),
}

// maxImpls is the most implementations an interface method call is
// resolved to. Controllers' helper interfaces (PodControlInterface,
// the scheduler's framework plugins' handles) have a few; above this the
// edges say little and cost much. The threshold of 12 is arbitrary but
// keeps the edge count of the default roots within a few times the
// static edges.
const maxImpls = 12

type ifaceCall struct {
	u    *unit
	call *ast.CallExpr
	fn   *types.Func
	recv types.Type
}

// callEdges gathers runCalls' edges, each once.
type callEdges struct {
	ix     *index
	seen   map[callKey]bool
	out    []fact.Call
	icalls []ifaceCall // resolved after the scan, against every unit's types
}

type callKey struct {
	from, to string
	line     int
	kind     string
}

func runCalls(ix *index, _ *PassRun) (*fact.Facts, error) {
	e := &callEdges{ix: ix, seen: map[callKey]bool{}}
	for _, u := range ix.bodies() {
		e.scan(u)
	}
	if len(e.icalls) > 0 {
		impl := ix.implementations(e.icalls)
		for _, c := range e.icalls {
			at := ix.prog.Loc(c.call.Pos(), c.call.End())
			for _, to := range impl(c.fn, c.recv) {
				e.add(c.u, to, at, "interface")
			}
		}
	}
	out := e.out
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if less, eq := locLess(a.At, b.At); !eq {
			return less
		}
		if a.From != b.From {
			return a.From < b.From
		}
		if a.To != b.To {
			return a.To < b.To
		}
		return a.Kind < b.Kind
	})
	return &fact.Facts{Calls: out}, nil
}

// add records an edge from u to the function named to, at most once per
// line and kind.
func (e *callEdges) add(u *unit, to string, at fact.Location, kind string) {
	if to == "" || at.IsZero() {
		return
	}
	k := callKey{u.ref.Symbol, to, at.StartLine, kind}
	if e.seen[k] {
		return
	}
	e.seen[k] = true
	e.out = append(e.out, fact.Call{From: u.ref.Symbol, To: to, At: at, Kind: kind})
}

// scan adds the edges of u's body, in the order the visit kept its nodes:
// its func literals, its calls, and the functions it uses as values.
func (e *callEdges) scan(u *unit) {
	for _, n := range u.nodes {
		switch x := n.node.(type) {
		case *ast.FuncLit:
			if lu := e.ix.unitOfLit[x]; lu != nil {
				e.add(u, lu.ref.Symbol, e.ix.prog.Loc(x.Pos(), x.Pos()), "func literal")
			}
		case *ast.CallExpr:
			e.call(u, x, n.fn, n.sel)
		case *ast.SelectorExpr:
			// A method value or expression, or a package's function,
			// not called here.
			if !e.ix.inTree(n.fn) {
				continue
			}
			if n.sel != nil {
				if !types.IsInterface(n.sel.Recv()) {
					e.add(u, e.ix.funcRef(n.fn, n.sel.Recv()).Symbol, e.ix.prog.Loc(x.Pos(), x.End()), "method value")
				}
			} else {
				e.add(u, e.ix.funcRef(n.fn, nil).Symbol, e.ix.prog.Loc(x.Pos(), x.End()), "func value")
			}
		case *ast.Ident:
			if e.ix.inTree(n.fn) && n.fn.Type().(*types.Signature).Recv() == nil {
				e.add(u, e.ix.funcRef(n.fn, nil).Symbol, e.ix.prog.Loc(x.Pos(), x.End()), "func value")
			}
		}
	}
}

// call adds the edge of a call in u of fn (sel its selection, nil for a
// function; fn nil for a call of a func value): static, through a func
// value, or (later, in runCalls) to an interface method's
// implementations.
func (e *callEdges) call(u *unit, n *ast.CallExpr, fn *types.Func, sel *types.Selection) {
	if fn == nil {
		// A func value in a field or variable:
		// dc.enqueueDeployment(d), dc.syncHandler(ctx, key).
		if v := varOf(u.pkg.TypesInfo, calledExpr(n)); v != nil {
			at := e.ix.prog.Loc(n.Pos(), n.End())
			for _, to := range e.ix.funcValues(v) {
				e.add(u, to, at, funcValueKind(v))
			}
		}
		return
	}
	if sel != nil && isAbstract(fn) {
		// An interface method, called on an interface value or
		// through a struct embedding the interface: resolved to
		// implementations in runCalls.
		recv := sel.Recv()
		if !types.IsInterface(recv) {
			recv = fn.Type().(*types.Signature).Recv().Type()
		}
		e.icalls = append(e.icalls, ifaceCall{u, n, fn, recv})
		return
	}
	if !e.ix.inTree(fn) {
		return
	}
	var recv types.Type
	if sel != nil {
		recv = sel.Recv()
	}
	e.add(u, e.ix.funcRef(fn, recv).Symbol, e.ix.prog.Loc(n.Pos(), n.End()), "static")
}

// funcValueKind names the edge of a call through a func value held in v.
func funcValueKind(v *types.Var) string {
	if v.IsField() {
		return "func field"
	}
	return "func variable"
}

// funcValues returns the functions a func-typed variable or field is given
// in the roots — method values (dc.enqueueDeployment = dc.enqueue), named
// functions and func literals assigned to it, or passed for it when it is
// a parameter of a root function — or nil when there are more than
// maxImpls of them, as for interface calls.
func (ix *index) funcValues(v *types.Var) []string {
	if _, ok := v.Type().Underlying().(*types.Signature); !ok {
		return nil
	}
	var out []string
	for _, o := range ix.originsOf(v) {
		if o.index != 0 {
			continue
		}
		if s := ix.funcOfValue(o.pkg.TypesInfo, o.expr); s != "" {
			out = append(out, s)
		}
	}
	sort.Strings(out)
	out = dedupSorted(out)
	if len(out) > maxImpls {
		return nil
	}
	return out
}

// funcOfValue returns the function an expression used as a func value
// denotes, when it is one declared in the tree: a method value on a
// concrete type, a named function, or a func literal of the roots.
func (ix *index) funcOfValue(info *types.Info, e ast.Expr) string {
	switch e := ast.Unparen(e).(type) {
	case *ast.FuncLit:
		if u := ix.unitOfLit[e]; u != nil {
			return u.ref.Symbol
		}
	case *ast.SelectorExpr:
		if sel := info.Selections[e]; sel != nil {
			fn, ok := sel.Obj().(*types.Func)
			if ok && sel.Kind() == types.MethodVal && ix.inTree(fn) && !types.IsInterface(sel.Recv()) {
				return ix.funcRef(fn, sel.Recv()).Symbol
			}
			return ""
		}
		if fn, ok := info.Uses[e.Sel].(*types.Func); ok && ix.inTree(fn) {
			return ix.funcRef(fn, nil).Symbol
		}
	case *ast.Ident:
		if fn, ok := info.Uses[e].(*types.Func); ok && ix.inTree(fn) {
			return ix.funcRef(fn, nil).Symbol
		}
	}
	return ""
}

// skipImplPkg reports packages whose implementations are test doubles.
func skipImplPkg(p string) bool {
	for _, el := range strings.Split(p, "/") {
		switch el {
		case "fake", "fakes", "testing", "testutil", "testutils", "testhelper":
			return true
		}
	}
	return false
}

// implementations indexes the concrete named types of the tree by the
// method names the interface calls use and returns a resolver.
func (ix *index) implementations(calls []ifaceCall) func(fn *types.Func, recv types.Type) []string {
	names := map[string]bool{}
	for _, c := range calls {
		names[c.fn.Name()] = true
	}
	x := &implIndex{
		ix:           ix,
		byName:       map[string][]*types.Named{},
		methodNames:  map[*types.Named]map[string]bool{},
		cache:        map[implKey][]string{},
		implementers: map[string][]types.Type{},
		ptrSets:      map[*types.Named]*types.MethodSet{},
		valueSets:    map[*types.Named]*types.MethodSet{},
	}
	x.indexTypes(names)
	return x.resolve
}

// implIndex resolves interface method calls to the in-tree methods that
// implement them.
type implIndex struct {
	ix *index
	// byName lists, per method name the calls use, the candidate types
	// whose method set (of *T) has it.
	byName map[string][]*types.Named
	// methodNames holds each candidate's method names, so types missing one
	// of an interface's methods are dismissed before types.Implements,
	// which dominated this pass's time.
	methodNames map[*types.Named]map[string]bool
	cache       map[implKey][]string
	// implementers caches, per interface type, the candidates (T or *T)
	// that implement it: one interface's calls usually use several of its
	// methods.
	implementers map[string][]types.Type
	// ptrSets and valueSets are the candidates' method sets, of *T (made
	// by indexTypes) and of T (on first use): whether T or *T implements
	// an interface is read from them, once per candidate rather than once
	// per candidate and interface as types.Implements would look the
	// methods up again.
	ptrSets, valueSets map[*types.Named]*types.MethodSet
}

type implKey struct {
	recv string
	name string
}

// indexTypes fills byName and methodNames with the tree's concrete,
// non-generic named types that have one of names among their methods,
// leaving out test doubles.
func (x *implIndex) indexTypes(names map[string]bool) {
	ix := x.ix
	paths := make([]string, 0, len(ix.prog.Packages))
	for p := range ix.prog.Packages {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		pkg := ix.prog.Packages[p]
		if pkg.Types == nil || skipImplPkg(p) {
			continue
		}
		sc := pkg.Types.Scope()
		for _, name := range sc.Names() {
			tn, ok := sc.Lookup(name).(*types.TypeName)
			if !ok || tn.IsAlias() || !ix.inTree(tn) || strings.HasPrefix(strings.ToLower(name), "fake") {
				continue // record.FakeRecorder and the like are test doubles
			}
			n, ok := tn.Type().(*types.Named)
			if !ok || n.TypeParams().Len() > 0 || types.IsInterface(n) || !mayHaveMethod(n, names) {
				continue
			}
			ms := types.NewMethodSet(types.NewPointer(n))
			var set map[string]bool
			for i := 0; i < ms.Len(); i++ {
				if m := ms.At(i).Obj(); names[m.Name()] {
					x.byName[m.Name()] = append(x.byName[m.Name()], n)
					if set == nil {
						set = make(map[string]bool, ms.Len())
						for j := 0; j < ms.Len(); j++ {
							set[ms.At(j).Obj().Name()] = true
						}
						x.methodNames[n] = set
						x.ptrSets[n] = ms
					}
				}
			}
		}
	}
}

// mayHaveMethod reports whether *n's method set may have one of names:
// n declares one, or it is a struct with embedded fields, which promote
// methods. Making the method set of every named type of the program only
// to find it has none of names was most of indexTypes' time.
func mayHaveMethod(n *types.Named, names map[string]bool) bool {
	if st, ok := n.Underlying().(*types.Struct); ok {
		for i := 0; i < st.NumFields(); i++ {
			if st.Field(i).Embedded() {
				return true
			}
		}
	}
	for i := 0; i < n.NumMethods(); i++ {
		if names[n.Method(i).Name()] {
			return true
		}
	}
	return false
}

// resolve returns the in-tree methods that a call of fn on recv (an
// interface declared in the tree) may reach, sorted; none when there are
// more than maxImpls.
func (x *implIndex) resolve(fn *types.Func, recv types.Type) []string {
	ix := x.ix
	iface, ok := recv.Underlying().(*types.Interface)
	if !ok {
		return nil
	}
	if rn := namedOf(recv); rn == nil || !ix.inTree(rn.Obj()) {
		return nil // error, fmt.Stringer, context.Context, …
	}
	rs := types.TypeString(recv, nil)
	k := implKey{rs, fn.Id()}
	if r, ok := x.cache[k]; ok {
		return r
	}
	impls, ok := x.implementers[rs]
	if !ok {
		impls = x.implementersOf(iface, fn)
		x.implementers[rs] = impls
	}
	var out, beside []string
	home := namedOf(recv).Obj().Pkg()
	for _, t := range impls {
		obj, _, _ := types.LookupFieldOrMethod(t, false, fn.Pkg(), fn.Name())
		m, ok := obj.(*types.Func)
		if !ok || !ix.inTree(m) || isAbstract(m) {
			continue // promoted from an embedded interface: not an implementation
		}
		if s := ix.funcRef(m, t).Symbol; s != "" {
			out = append(out, s)
			if m.Pkg() == home {
				beside = append(beside, s)
			}
		}
	}
	sort.Strings(out)
	out = dedupSorted(out)
	if len(out) > maxImpls {
		// So many types implement it (an interface of one common method,
		// such as lease.Controller's Run(ctx)) that the edges would say
		// little: keep only the implementations declared beside the
		// interface, the ones its package's constructors return
		// (lease.NewController's *controller), if they are few.
		sort.Strings(beside)
		out = dedupSorted(beside)
	}
	if len(out) > maxImpls {
		out = nil
	}
	x.cache[k] = out
	return out
}

// implementersOf returns the candidates, T or *T, that implement iface.
// Every implementer has fn's method, so byName[fn.Name()] holds them all.
func (x *implIndex) implementersOf(iface *types.Interface, fn *types.Func) []types.Type {
	var impls []types.Type
candidates:
	for _, n := range x.byName[fn.Name()] {
		for i := 0; i < iface.NumMethods(); i++ {
			if !x.methodNames[n][iface.Method(i).Name()] {
				continue candidates
			}
		}
		vs := x.valueSets[n]
		if vs == nil {
			vs = types.NewMethodSet(n)
			x.valueSets[n] = vs
		}
		var t types.Type = n
		if !hasMethods(vs, iface) {
			if !hasMethods(x.ptrSets[n], iface) {
				continue
			}
			t = types.NewPointer(n)
		}
		impls = append(impls, t)
	}
	return impls
}

// hasMethods reports whether a type of method set ms implements iface,
// as types.Implements tells for a concrete type: every method of iface is
// in ms, a method (not blocked by a field or an ambiguous selector) of
// an identical signature.
func hasMethods(ms *types.MethodSet, iface *types.Interface) bool {
	for i := 0; i < iface.NumMethods(); i++ {
		m := iface.Method(i)
		sel := ms.Lookup(m.Pkg(), m.Name())
		if sel == nil {
			return false
		}
		f, ok := sel.Obj().(*types.Func)
		if !ok || !types.Identical(f.Type(), m.Type()) {
			return false
		}
	}
	return true
}

func dedupSorted(s []string) []string {
	var out []string
	for i, x := range s {
		if i == 0 || x != s[i-1] {
			out = append(out, x)
		}
	}
	return out
}

// isAbstract reports whether fn is an interface method.
func isAbstract(fn *types.Func) bool {
	recv := fn.Type().(*types.Signature).Recv()
	return recv != nil && types.IsInterface(recv.Type())
}
