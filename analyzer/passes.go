package analyzer

// This file declares the discovery passes in run order and the index they
// share: every function of the root packages (declarations and func
// literals) with its go/ssa-style symbol, every function declaration of the
// loaded program by object, and the values assigned to variables and
// fields in the roots ("origins"), which lets a pass follow
// `inf := f.Core().V1().Pods().Informer()` or `c.podInformer = ...` back to
// the expression that made the value.

import (
	"github.com/kubewalk/kubewalk/analyzer/fact"
	"go/ast"
	"go/constant"
	"go/types"
	"iter"
	"path"
	"sort"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/tools/go/packages"
)

// Passes are the discovery passes in run order. Calls runs last: it is the
// most voluminous and no other pass reads its output. Analyze runs them
// side by side once the index is built (runSideBySide), so a pass adds
// facts of its own kinds only, reads no other pass's facts, and leaves
// the index and the program as it found them.
var Passes = []*Pass{HandlersPass, WiringPass, WritesPass, EventsPass, ListWatchesPass, InformersPass, GatesPass, ControllersPass, PluginsPass, CallsPass}

// Import paths the passes recognise by type. client-go is vendored into
// kubernetes as the staging module k8s.io/client-go, so its import paths
// are the same whichever way the tree is laid out.
const (
	cachePkg     = "k8s.io/client-go/tools/cache"
	recordPkg    = "k8s.io/client-go/tools/record"
	eventsPkg    = "k8s.io/client-go/tools/events"
	workqueuePkg = "k8s.io/client-go/util/workqueue"
	gentypePkg   = "k8s.io/client-go/gentype"
	runtimePkg   = "k8s.io/apimachinery/pkg/runtime"
	schemaPkg    = "k8s.io/apimachinery/pkg/runtime/schema"
	metav1Pkg    = "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// unit is one function of a root package: a declaration or a func literal.
type unit struct {
	pkg  *packages.Package
	file *ast.File
	ref  fact.FuncRef
	obj  *types.Func    // nil for literals
	decl *ast.FuncDecl  // nil for literals
	lit  *ast.FuncLit   // nil for declarations
	body *ast.BlockStmt // nil for declarations without body
	// top is the enclosing top-level declaration's unit (itself for a declaration).
	top *unit
	// litCount numbers the func literals directly inside this unit, go/ssa style.
	litCount int
}

// origin is an expression assigned to a variable or field, in the package
// whose TypesInfo describes it; index is the result index when the
// expression is a call with several results (a, b := f()).
type origin struct {
	pkg   *packages.Package
	expr  ast.Expr
	index int
}

type fieldAssign struct {
	field string
	o     origin
}

type paramPos struct {
	fn *types.Func
	i  int
}

// index is what the discovery passes share about one Program: indexPass's
// result.
type index struct {
	prog  *Program
	units []*unit
	// unitOfLit and unitOfDecl find the unit of a func literal or declaration.
	unitOfLit map[*ast.FuncLit]*unit
	unitOfObj map[*types.Func]*unit
	initUnits map[*packages.Package]*unit
	treePkgs  map[*types.Package]bool
	// funcDecls holds every function declaration with syntax in the
	// loaded program (dependencies keep their declarations even when their
	// bodies were dropped at parse time, so spans stay right).
	funcDecls map[*types.Func]*ast.FuncDecl
	// origins maps a variable or field to the values assigned to it in the roots.
	origins map[*types.Var][]origin
	// fieldAssigns maps a variable v to the assignments `v.F = x` of its
	// fields, in source order (funcs.AddFunc = …).
	fieldAssigns map[*types.Var][]fieldAssign
	// params maps a parameter of a root function to the function and index;
	// callsTo lists the static calls of each function in the roots, so a
	// parameter can be followed to the arguments passed for it.
	params  map[*types.Var]paramPos
	callsTo map[*types.Func][]callSite
	// varCalls lists the calls in the roots of each variable, parameter
	// or field of func type (recordEventFunc(…), c.syncHandler(…)).
	varCalls map[*types.Var][]callSite
	// flows maps a func value — a *types.Func (a function or method value),
	// an *ast.FuncLit, or a *types.Var of func type — to the variables,
	// parameters and fields it is handed to in the roots: passed as an
	// argument of a static call, assigned, or set in a struct literal.
	// Following flows from a function to the calls of what it reaches
	// finds the calls of the function made through func values.
	flows map[any][]valueFlow
	// plurals maps "<group dir>/<version>/<Kind>" to the resource name
	// client-gen chose, read from the typed clients' XxxGetter interfaces.
	plurals map[string]string
	kinds   map[string]string // "<group dir>/<version>/<resource>" → Kind
	// inst holds the instantiations of the roots' generic functions,
	// built on first use (instances).
	instOnce sync.Once
	inst     map[*types.Func][]*types.TypeList
}

// indexPass builds the index; the discovery passes require it, so it is
// built once per RunPasses and dropped with the call's results.
var indexPass = &Pass{
	Name: "index",
	Doc:  "the functions of the root packages, the function declarations of the program, and the values assigned to variables and fields, for the discovery passes",
	Run:  func(run *PassRun) (any, error) { return buildIndex(run.Prog), nil },
}

// withIndex adapts a discovery function — it reads the index and adds to
// the facts — to Pass.Run, for a pass that requires indexPass.
func withIndex(discover func(ix *index, facts *fact.Facts) error) func(*PassRun) (any, error) {
	return func(run *PassRun) (any, error) {
		return nil, discover(run.ResultOf[indexPass].(*index), run.Facts)
	}
}

func isTestFile(name string) bool { return strings.HasSuffix(name, "_test.go") }

func buildIndex(prog *Program) *index {
	ix := &index{
		prog:         prog,
		unitOfLit:    map[*ast.FuncLit]*unit{},
		unitOfObj:    map[*types.Func]*unit{},
		initUnits:    map[*packages.Package]*unit{},
		treePkgs:     map[*types.Package]bool{},
		funcDecls:    map[*types.Func]*ast.FuncDecl{},
		origins:      map[*types.Var][]origin{},
		fieldAssigns: map[*types.Var][]fieldAssign{},
		params:       map[*types.Var]paramPos{},
		callsTo:      map[*types.Func][]callSite{},
		varCalls:     map[*types.Var][]callSite{},
		flows:        map[any][]valueFlow{},
		plurals:      map[string]string{},
		kinds:        map[string]string{},
	}
	// Declarations of every loaded package with syntax, in import path order.
	paths := make([]string, 0, len(prog.Packages))
	for p := range prog.Packages {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		pkg := prog.Packages[p]
		if pkg.Types != nil && len(pkg.GoFiles) > 0 {
			// A package's files share a directory.
			_, ix.treePkgs[pkg.Types] = prog.RelPath(pkg.GoFiles[0])
		}
		if pkg.TypesInfo != nil {
			for _, f := range pkg.Syntax {
				for _, d := range f.Decls {
					if fd, ok := d.(*ast.FuncDecl); ok {
						if fn, ok := pkg.TypesInfo.Defs[fd.Name].(*types.Func); ok {
							ix.funcDecls[fn] = fd
						}
					}
				}
			}
		}
		if pkg.Types != nil && typedClientPkg(pkg.Types.Path()) != "" {
			ix.addPlurals(pkg.Types)
		}
	}
	for _, pkg := range prog.Roots {
		if pkg.TypesInfo == nil {
			continue
		}
		for _, f := range pkg.Syntax {
			name := prog.Fset.File(f.FileStart).Name()
			if isTestFile(name) {
				continue
			}
			if _, ok := prog.RelPath(name); !ok {
				continue
			}
			ix.addFile(pkg, f)
		}
	}
	for _, u := range ix.bodies() {
		if u.obj != nil {
			sig := u.obj.Type().(*types.Signature)
			for i := 0; i < sig.Params().Len(); i++ {
				ix.params[sig.Params().At(i).Origin()] = paramPos{u.obj, i}
			}
		}
		info := u.pkg.TypesInfo
		shallow(u.body, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if fn, _ := calleeOf(info, call); fn != nil {
					ix.callsTo[fn.Origin()] = append(ix.callsTo[fn.Origin()], callSite{u, call})
					ix.addArgFlows(u, fn, call)
				} else if v := varOf(info, call.Fun); v != nil {
					ix.varCalls[v] = append(ix.varCalls[v], callSite{u, call})
				}
			}
			return true
		})
	}
	for _, v := range sortedVars(ix.origins) {
		for _, o := range ix.origins[v] {
			if o.index != 0 {
				continue
			}
			if k := funcValueKey(o.pkg.TypesInfo, o.expr); k != nil {
				ix.flows[k] = append(ix.flows[k], valueFlow{to: v, at: ix.prog.Loc(o.expr.Pos(), o.expr.End())})
			}
		}
	}
	return ix
}

// valueFlow is a func value handed to a variable, parameter or field.
type valueFlow struct {
	to *types.Var
	// at is the expression handed over (kl.recordNodeStatusEvent).
	at fact.Location
}

// addArgFlows records the func values a static call passes as arguments,
// each to the callee's parameter.
func (ix *index) addArgFlows(u *unit, fn *types.Func, call *ast.CallExpr) {
	sig, ok := fn.Origin().Type().(*types.Signature)
	if !ok {
		return
	}
	n := sig.Params().Len()
	for i, a := range call.Args {
		if i >= n || (sig.Variadic() && i >= n-1) {
			break
		}
		if k := funcValueKey(u.pkg.TypesInfo, a); k != nil {
			ix.flows[k] = append(ix.flows[k], valueFlow{to: sig.Params().At(i).Origin(), at: ix.prog.Loc(a.Pos(), a.End())})
		}
	}
}

// funcValueKey returns what a func-typed expression denotes, as the key of
// index.flows: the function of a function or method value, the literal,
// or the variable, parameter or field holding it; nil for anything else
// (a call's result, a value of another type).
func funcValueKey(info *types.Info, e ast.Expr) any {
	if t := info.TypeOf(e); t == nil {
		return nil
	} else if _, ok := t.Underlying().(*types.Signature); !ok {
		return nil
	}
	switch x := ast.Unparen(e).(type) {
	case *ast.FuncLit:
		return x
	case *ast.Ident:
		switch o := info.Uses[x].(type) {
		case *types.Func:
			return o.Origin()
		case *types.Var:
			return o.Origin()
		}
	case *ast.SelectorExpr:
		if sel := info.Selections[x]; sel != nil {
			switch sel.Kind() {
			case types.MethodVal:
				if fn, ok := sel.Obj().(*types.Func); ok {
					return fn.Origin()
				}
			case types.FieldVal:
				return sel.Obj().(*types.Var).Origin()
			}
			return nil
		}
		switch o := info.Uses[x.Sel].(type) { // pkg.Func, pkg.Var
		case *types.Func:
			return o.Origin()
		case *types.Var:
			return o.Origin()
		}
	}
	return nil
}

// valueCall is a call of a func value that holds a given function.
type valueCall struct {
	callSite
	// handed is where the function was first handed over as a value.
	handed fact.Location
}

// valueCalls returns the calls made through func values of key (a
// *types.Func or *ast.FuncLit): the calls of every variable, parameter
// and field it reaches by index.flows, through any number of hand-overs
// (a parameter passed on as another function's argument), each with the
// first hand-over, in source order. A call reached by several hand-overs
// is listed once, with the first of them in source order.
func (ix *index) valueCalls(key any) []valueCall {
	type item struct {
		v  *types.Var
		at fact.Location
	}
	var queue []item
	for _, f := range ix.flows[key] {
		queue = append(queue, item{f.to, f.at})
	}
	seen := map[*types.Var]bool{}
	byCall := map[*ast.CallExpr]valueCall{}
	for len(queue) > 0 {
		it := queue[0]
		queue = queue[1:]
		if seen[it.v] {
			continue
		}
		seen[it.v] = true
		for _, cs := range ix.varCalls[it.v] {
			if old, ok := byCall[cs.call]; !ok || locBefore(it.at, old.handed) {
				byCall[cs.call] = valueCall{cs, it.at}
			}
		}
		for _, f := range ix.flows[it.v] {
			queue = append(queue, item{f.to, it.at})
		}
	}
	out := make([]valueCall, 0, len(byCall))
	for _, vc := range byCall {
		out = append(out, vc)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := ix.prog.Loc(out[i].call.Pos(), out[i].call.End()), ix.prog.Loc(out[j].call.Pos(), out[j].call.End())
		if less, eq := locLess(a, b); !eq {
			return less
		}
		return locBefore(out[i].handed, out[j].handed)
	})
	return out
}

func locBefore(a, b fact.Location) bool {
	less, _ := locLess(a, b)
	return less
}

// sortedVars returns the keys of m in declaration order (position, then
// name), for deterministic output from a map.
func sortedVars[T any](m map[*types.Var]T) []*types.Var {
	vs := make([]*types.Var, 0, len(m))
	for v := range m {
		vs = append(vs, v)
	}
	sort.Slice(vs, func(i, j int) bool {
		if vs[i].Pos() != vs[j].Pos() {
			return vs[i].Pos() < vs[j].Pos()
		}
		return vs[i].Name() < vs[j].Name()
	})
	return vs
}

// originsOf returns the values a variable or field is given in the roots:
// what is assigned to it and, for a parameter of a root function, the
// arguments passed for it at that function's static call sites.
func (ix *index) originsOf(v *types.Var) []origin {
	os := ix.origins[v]
	if pp, ok := ix.params[v]; ok {
		sig := pp.fn.Type().(*types.Signature)
		variadic := sig.Variadic() && pp.i == sig.Params().Len()-1
		for _, cs := range ix.callsTo[pp.fn.Origin()] {
			if pp.i < len(cs.call.Args) && !variadic && len(cs.call.Args) == sig.Params().Len() {
				os = append(os, origin{cs.u.pkg, cs.call.Args[pp.i], 0})
			}
		}
	}
	return os
}

// addFile makes units for the functions of one root file and records the
// origins of its variables and fields.
func (ix *index) addFile(pkg *packages.Package, f *ast.File) {
	info := pkg.TypesInfo
	for _, d := range f.Decls {
		var u *unit
		switch d := d.(type) {
		case *ast.FuncDecl:
			fn, _ := info.Defs[d.Name].(*types.Func)
			sym := ""
			if fn != nil {
				sym = ObjectName(fn)
			}
			if sym == "" { // init functions and methods of unnamed receivers
				sym = pkg.Types.Path() + "." + d.Name.Name
			}
			u = &unit{pkg: pkg, file: f, obj: fn, decl: d, body: d.Body,
				ref: fact.FuncRef{Symbol: sym, Decl: ix.declLoc(d)}}
			u.top = u
			ix.units = append(ix.units, u)
			if fn != nil {
				ix.unitOfObj[fn] = u
			}
		case *ast.GenDecl:
			u = ix.pkgInit(pkg, f) // "pkg.init", as go/ssa names var initialisers
		}
		ix.walk(u, d)
	}
}

// pkgInit returns the pseudo unit holding a package's var initialisers;
// literals there are numbered across the package, as go/ssa does for init.
// It has no body of its own to scan.
func (ix *index) pkgInit(pkg *packages.Package, f *ast.File) *unit {
	if u := ix.initUnits[pkg]; u != nil {
		return u
	}
	u := &unit{pkg: pkg, file: f, ref: fact.FuncRef{Symbol: pkg.Types.Path() + ".init"}}
	u.top = u
	ix.initUnits[pkg] = u
	return u
}

// walk numbers the func literals inside n (nested ones after their
// parent's, "f$1$1") and records origins.
func (ix *index) walk(parent *unit, n ast.Node) {
	info := parent.pkg.TypesInfo
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			parent.litCount++
			u := &unit{pkg: parent.pkg, file: parent.file, lit: n, body: n.Body, top: parent.top,
				ref: fact.FuncRef{Symbol: parent.ref.Symbol + "$" + strconv.Itoa(parent.litCount), Decl: ix.prog.Loc(n.Pos(), n.End())}}
			ix.units = append(ix.units, u)
			ix.unitOfLit[n] = u
			ix.walk(u, n.Body)
			return false
		case *ast.AssignStmt:
			if len(n.Lhs) == len(n.Rhs) {
				for i, l := range n.Lhs {
					ix.addOrigin(info, l, origin{parent.pkg, n.Rhs[i], 0})
					if se, ok := ast.Unparen(l).(*ast.SelectorExpr); ok {
						if id, ok := ast.Unparen(se.X).(*ast.Ident); ok {
							if v, ok := info.Uses[id].(*types.Var); ok && !v.IsField() {
								ix.fieldAssigns[v] = append(ix.fieldAssigns[v], fieldAssign{se.Sel.Name, origin{parent.pkg, n.Rhs[i], 0}})
							}
						}
					}
				}
			} else if len(n.Rhs) == 1 {
				for i, l := range n.Lhs {
					ix.addOrigin(info, l, origin{parent.pkg, n.Rhs[0], i})
				}
			}
		case *ast.ValueSpec:
			if len(n.Names) == len(n.Values) {
				for i, l := range n.Names {
					ix.addOrigin(info, l, origin{parent.pkg, n.Values[i], 0})
				}
			} else if len(n.Values) == 1 {
				for i, l := range n.Names {
					ix.addOrigin(info, l, origin{parent.pkg, n.Values[0], i})
				}
			}
		case *ast.KeyValueExpr:
			if id, ok := n.Key.(*ast.Ident); ok {
				if v, ok := info.Uses[id].(*types.Var); ok && v.IsField() {
					v = v.Origin()
					ix.origins[v] = append(ix.origins[v], origin{parent.pkg, n.Value, 0})
				}
			}
		}
		return true
	})
}

func (ix *index) addOrigin(info *types.Info, lhs ast.Expr, o origin) {
	if v := varOf(info, lhs); v != nil {
		ix.origins[v] = append(ix.origins[v], o)
	}
}

// varOf returns the variable or field an expression denotes, or nil.
func varOf(info *types.Info, e ast.Expr) *types.Var {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		if v, ok := info.Defs[e].(*types.Var); ok {
			return v.Origin()
		}
		if v, ok := info.Uses[e].(*types.Var); ok {
			return v.Origin()
		}
	case *ast.SelectorExpr:
		// Fields of instantiated generic types are distinct objects; their
		// Origin is the field as declared, which is what origins are keyed by.
		if sel := info.Selections[e]; sel != nil {
			if v, ok := sel.Obj().(*types.Var); ok && sel.Kind() == types.FieldVal {
				return v.Origin()
			}
		} else if v, ok := info.Uses[e.Sel].(*types.Var); ok { // pkg.Var
			return v.Origin()
		}
	}
	return nil
}

// keyedElts yields the elements of a composite literal written
// key: value with an identifier key — a struct literal's named fields —
// with that key.
func keyedElts(cl *ast.CompositeLit) iter.Seq2[*ast.Ident, *ast.KeyValueExpr] {
	return func(yield func(*ast.Ident, *ast.KeyValueExpr) bool) {
		for _, elt := range cl.Elts {
			kv, ok := elt.(*ast.KeyValueExpr)
			if !ok {
				continue
			}
			if id, ok := kv.Key.(*ast.Ident); ok && !yield(id, kv) {
				return
			}
		}
	}
}

// mergeResource combines the resources of several values of one
// expression: fields that agree are kept, the others cleared (a
// ClusterTrustBundle informer of v1alpha1 or v1beta1 has Version "").
func mergeResource(a, b fact.Resource) fact.Resource {
	if a == (fact.Resource{}) {
		return b
	}
	if b == (fact.Resource{}) {
		return a
	}
	if a.Group != b.Group {
		a.Group = ""
	}
	if a.Version != b.Version {
		a.Version = ""
	}
	if a.Kind != b.Kind {
		a.Kind = ""
	}
	if a.Resource != b.Resource {
		a.Resource = ""
	}
	return a
}

// shallow inspects n without descending into func literals (they are
// units of their own); f sees the literal itself.
func shallow(n ast.Node, f func(ast.Node) bool) {
	if n == nil {
		return
	}
	ast.Inspect(n, func(m ast.Node) bool {
		if _, ok := m.(*ast.FuncLit); ok && m != n {
			f(m) // seen, not entered
			return false
		}
		return f(m)
	})
}

// staticCall is a call of a function or method the type checker
// resolves: what calleeOf returns for it, in the unit it is written in.
type staticCall struct {
	u    *unit
	call *ast.CallExpr
	fn   *types.Func
	sel  *types.Selection // nil for a call of a function
}

// staticCalls yields the calls in the roots' bodies whose callee is
// statically known, unit by unit in source order, the way the discovery
// passes scan for the calls they recognise.
func (ix *index) staticCalls() iter.Seq[staticCall] {
	return func(yield func(staticCall) bool) {
		for _, u := range ix.bodies() {
			info := u.pkg.TypesInfo
			stop := false
			shallow(u.body, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if stop || !ok {
					return !stop
				}
				if fn, sel := calleeOf(info, call); fn != nil && !yield(staticCall{u, call, fn, sel}) {
					stop = true
				}
				return !stop
			})
			if stop {
				return
			}
		}
	}
}

// sortedUnits returns the units with a body, in a stable order.
func (ix *index) bodies() []*unit {
	var us []*unit
	for _, u := range ix.units {
		if u != nil && u.body != nil {
			us = append(us, u)
		}
	}
	return us
}

// funcRef returns the FuncRef of a function or method of the loaded
// program; recv, when not nil, is the static receiver type through which
// it was selected (for interface methods, which ObjectName cannot name).
func (ix *index) funcRef(fn *types.Func, recv types.Type) fact.FuncRef {
	fn = fn.Origin()
	sym := ObjectName(fn)
	if sym == "" && recv != nil {
		if n := namedOf(recv); n != nil && n.Obj().Pkg() != nil {
			sym = n.Obj().Pkg().Path() + "." + n.Obj().Name() + "." + fn.Name()
		}
	}
	ref := fact.FuncRef{Symbol: sym}
	if d := ix.funcDecls[fn]; d != nil {
		ref.Decl = ix.declLoc(d)
	} else if s, ok := ix.symbol(sym); ok {
		ref.Decl = s.Decl
	} else if fn.Pos().IsValid() {
		ref.Decl = ix.prog.Loc(fn.Pos(), fn.Pos())
	}
	return ref
}

// declLoc spans a declaration as the symbol index does: from its doc
// comment's first line, when it has one, to its last line.
func (ix *index) declLoc(d *ast.FuncDecl) fact.Location {
	from := d.Pos()
	if d.Doc != nil {
		from = d.Doc.Pos()
	}
	return ix.prog.Loc(from, d.End())
}

// symbol looks name up in the loader's symbol index (dependencies whose
// syntax the loader has already dropped).
func (ix *index) symbol(name string) (fact.Symbol, bool) {
	syms := ix.prog.symbols
	i := sort.Search(len(syms), func(i int) bool { return syms[i].Name >= name })
	if name != "" && i < len(syms) && syms[i].Name == name {
		return syms[i], true
	}
	return fact.Symbol{}, false
}

// inTree reports whether obj is declared in a file of the tree. A
// package's files share a directory, so the answer is computed per
// package when the index is built: the calls pass asks this for every
// callee and candidate.
func (ix *index) inTree(obj types.Object) bool {
	if obj == nil || !obj.Pos().IsValid() || obj.Pkg() == nil {
		return false
	}
	if in, ok := ix.treePkgs[obj.Pkg()]; ok {
		return in
	}
	// A package the loader did not make (the gates pass's second check
	// of a table): not cached, as passes may run side by side and the
	// index is read-only once built.
	_, in := ix.prog.RelPath(ix.prog.Fset.Position(obj.Pos()).Filename)
	return in
}

// namedOf returns the named type of t, through pointers and aliases.
func namedOf(t types.Type) *types.Named {
	if t == nil {
		return nil
	}
	t = types.Unalias(t)
	if p, ok := t.(*types.Pointer); ok {
		t = types.Unalias(p.Elem())
	}
	n, _ := t.(*types.Named)
	return n
}

// isNamed reports whether t (through one pointer) is pkgPath.name.
func isNamed(t types.Type, pkgPath, name string) bool {
	n := namedOf(t)
	return n != nil && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == pkgPath && n.Obj().Name() == name
}

// calleeOf returns the function a call calls statically, with the
// selection when it is a method call; nil for calls of func values,
// conversions and builtins.
func calleeOf(info *types.Info, call *ast.CallExpr) (*types.Func, *types.Selection) {
	fun := ast.Unparen(call.Fun)
	if ix, ok := fun.(*ast.IndexExpr); ok { // f[T](…)
		fun = ix.X
	} else if ix, ok := fun.(*ast.IndexListExpr); ok {
		fun = ix.X
	}
	switch f := fun.(type) {
	case *ast.Ident:
		fn, _ := info.Uses[f].(*types.Func)
		return fn, nil
	case *ast.SelectorExpr:
		if sel := info.Selections[f]; sel != nil {
			if sel.Kind() == types.FieldVal {
				return nil, nil
			}
			fn, _ := sel.Obj().(*types.Func)
			return fn, sel
		}
		fn, _ := info.Uses[f.Sel].(*types.Func)
		return fn, nil
	}
	return nil, nil
}

// stringConst returns the constant string value of e, if it has one.
func stringConst(info *types.Info, e ast.Expr) (string, bool) {
	tv, ok := info.Types[e]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
		return "", false
	}
	return constant.StringVal(tv.Value), true
}

// exprString renders an expression as written, on one line.
func exprString(e ast.Expr) string { return types.ExprString(e) }

// --- API resources --------------------------------------------------------

// typedClientPkg returns "<group>/<version>" when path is a client-gen typed
// client package (k8s.io/client-go/kubernetes/typed/apps/v1, or a
// clientset's .../clientset/versioned/typed/<group>/<version>), else "".
func typedClientPkg(p string) string {
	i := strings.LastIndex(p, "/typed/")
	if i < 0 || strings.Contains(p[i:], "/fake") {
		return ""
	}
	rest := p[i+len("/typed/"):]
	if strings.Count(rest, "/") != 1 || !isVersion(path.Base(rest)) {
		return ""
	}
	return rest
}

// informerPkg returns "<group>/<version>" when p is an informer package
// (k8s.io/client-go/informers/apps/v1, …/informers/externalversions/<g>/<v>).
func informerPkg(p string) string {
	i := strings.LastIndex(p, "/informers/")
	if i < 0 {
		return ""
	}
	rest := strings.TrimPrefix(p[i+len("/informers/"):], "externalversions/")
	if strings.Count(rest, "/") != 1 || !isVersion(path.Base(rest)) {
		return ""
	}
	return rest
}

// isVersion reports whether s is a Kubernetes API version: v1, v1beta2, v2alpha1.
func isVersion(s string) bool {
	if len(s) < 2 || s[0] != 'v' || s[1] < '0' || s[1] > '9' {
		return false
	}
	rest := strings.TrimLeft(s[1:], "0123456789")
	for _, q := range []string{"alpha", "beta"} {
		if strings.HasPrefix(rest, q) {
			rest = strings.TrimLeft(rest[len(q):], "0123456789")
			break
		}
	}
	return rest == ""
}

// addPlurals reads a typed client package's getters: client-gen emits, for
// each resource, `type DeploymentsGetter interface { Deployments(namespace
// string) DeploymentInterface }`, whose method name is the resource's
// plural as the API server spells it (Endpoints, Ingresses, NetworkPolicies).
func (ix *index) addPlurals(p *types.Package) {
	gv := typedClientPkg(p.Path())
	sc := p.Scope()
	for _, name := range sc.Names() {
		if !strings.HasSuffix(name, "Getter") {
			continue
		}
		tn, ok := sc.Lookup(name).(*types.TypeName)
		if !ok {
			continue
		}
		it, ok := tn.Type().Underlying().(*types.Interface)
		if !ok || it.NumMethods() != 1 {
			continue
		}
		m := it.Method(0)
		sig := m.Type().(*types.Signature)
		if sig.Results().Len() != 1 {
			continue
		}
		rn := namedOf(sig.Results().At(0).Type())
		if rn == nil || !strings.HasSuffix(rn.Obj().Name(), "Interface") {
			continue
		}
		kind := strings.TrimSuffix(rn.Obj().Name(), "Interface")
		plural := strings.ToLower(m.Name())
		ix.plurals[gv+"/"+kind] = plural
		ix.kinds[gv+"/"+plural] = kind
	}
}

// groupVersionDir returns "<group dir>/<version>" for an API package path
// (k8s.io/api/apps/v1 → apps/v1).
func groupVersionDir(p string) string {
	v := path.Base(p)
	g := path.Base(path.Dir(p))
	return g + "/" + v
}

// apiResource describes API type t (*v1.Pod, v1.Deployment): kind from its
// name, group from its package's GroupName constant (every k8s.io/api and
// generated API package declares one in register.go), version from its
// package path, resource from the typed client's getter or, failing that,
// from the plural rules client-gen applies.
func (ix *index) apiResource(t types.Type) fact.Resource {
	n := namedOf(t)
	if n == nil || n.Obj().Pkg() == nil {
		return fact.Resource{}
	}
	p := n.Obj().Pkg()
	r := fact.Resource{Kind: n.Obj().Name(), Version: path.Base(p.Path())}
	if !isVersion(r.Version) {
		return fact.Resource{Kind: r.Kind}
	}
	r.Group = groupOf(p)
	r.Resource = ix.plural(groupVersionDir(p.Path()), r.Kind)
	return r
}

// groupOf returns an API package's group name.
func groupOf(p *types.Package) string {
	if c, ok := p.Scope().Lookup("GroupName").(*types.Const); ok && c.Val().Kind() == constant.String {
		return constant.StringVal(c.Val())
	}
	// No GroupName (a package loaded without its register.go?): the
	// directory name, which is right for the core group and the short ones.
	g := path.Base(path.Dir(p.Path()))
	if g == "core" {
		return ""
	}
	return g
}

// groupFromImports returns the API group of gv ("apps/v1") as a typed
// client, informer or lister package p sees it: the group of the API
// package for gv that p imports (the one declaring GroupName), else gv's
// directory name, "core" being the core group "".
func groupFromImports(p *types.Package, gv string) string {
	for _, imp := range p.Imports() {
		if groupVersionDir(imp.Path()) != gv || strings.Contains(imp.Path(), "/informers/") || strings.Contains(imp.Path(), "/listers/") {
			continue
		}
		if c, ok := imp.Scope().Lookup("GroupName").(*types.Const); ok && c != nil {
			return groupOf(imp)
		}
	}
	if g := strings.Split(gv, "/")[0]; g != "core" {
		return g
	}
	return ""
}

func (ix *index) plural(gv, kind string) string {
	if p, ok := ix.plurals[gv+"/"+kind]; ok {
		return p
	}
	return pluralize(kind)
}

// pluralize lower-cases and pluralises a kind the way client-gen's namer
// does when no typed client tells us: Endpoints stays, -s/-x/-ch/-sh take
// -es, consonant+y becomes -ies.
func pluralize(kind string) string {
	k := strings.ToLower(kind)
	switch {
	case k == "":
		return ""
	case strings.HasSuffix(k, "endpoints"):
		return k
	case strings.HasSuffix(k, "s"), strings.HasSuffix(k, "x"), strings.HasSuffix(k, "ch"), strings.HasSuffix(k, "sh"):
		return k + "es"
	case strings.HasSuffix(k, "y") && len(k) > 1 && !strings.ContainsRune("aeiou", rune(k[len(k)-2])):
		return k[:len(k)-1] + "ies"
	}
	return k + "s"
}

// sortLoc orders by path then line; the passes break ties on their own fields.
func locLess(a, b fact.Location) (less, equal bool) {
	if a.Path != b.Path {
		return a.Path < b.Path, false
	}
	if a.StartLine != b.StartLine {
		return a.StartLine < b.StartLine, false
	}
	if a.EndLine != b.EndLine {
		return a.EndLine < b.EndLine, false
	}
	return false, true
}
