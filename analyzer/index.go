package analyzer

// This file is the index the discovery passes share (indexPass's
// result): every function of the root packages (declarations and func
// literals) with its go/ssa-style symbol and the nodes of its body the
// passes look at (callvisit.go), every function declaration of the loaded
// program by object, and the values assigned to variables and fields in
// the roots ("origins"), which lets a pass follow
// `inf := f.Core().V1().Pods().Informer()` or `c.podInformer = ...` back to
// the expression that made the value.

import (
	"go/ast"
	"go/types"
	"sort"
	"strings"
	"sync"

	"golang.org/x/tools/go/packages"

	"github.com/kubewalk/kubewalk/analyzer/fact"
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
	// nodes are the nodes of body the passes look at (callvisit.go).
	nodes []bodyNode
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
	// callees holds the callee of every call of the root files, resolved
	// once by the visit (callvisit.go).
	callees  map[*ast.CallExpr]callee
	treePkgs map[*types.Package]bool
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
	// cfgs holds the control-flow graphs the reaching-definitions walk
	// built (reach.go).
	cfgs cfgCache
}

// indexPass builds the index; the discovery passes require it, so it is
// built once per RunPasses and dropped with the call's results.
var indexPass = &Pass{
	Name: "index",
	Doc:  "the functions of the root packages, the function declarations of the program, and the values assigned to variables and fields, for the discovery passes",
	Run:  func(run *PassRun) (any, error) { return buildIndex(run.Prog), nil },
}

// withIndex adapts a discovery function — it reads the index and returns
// the facts it finds — to Pass.Run, for a pass that requires indexPass.
func withIndex(discover func(ix *index, run *PassRun) (*fact.Facts, error)) func(*PassRun) (any, error) {
	return func(run *PassRun) (any, error) {
		found, err := discover(run.ResultOf[indexPass].(*index), run)
		if err != nil {
			return nil, err
		}
		return found, nil
	}
}

func isTestFile(name string) bool { return strings.HasSuffix(name, "_test.go") }

// buildIndex makes the symbol index of prog: every table the passes read
// is filled here, in one walk over the packages' syntax, so each package
// is visited once; the function is long because it lists the tables.
func buildIndex(prog *Program) *index {
	ix := &index{
		prog:         prog,
		unitOfLit:    map[*ast.FuncLit]*unit{},
		unitOfObj:    map[*types.Func]*unit{},
		initUnits:    map[*packages.Package]*unit{},
		callees:      map[*ast.CallExpr]callee{},
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
		for c := range u.calls() {
			if c.fn != nil {
				ix.callsTo[c.fn.Origin()] = append(ix.callsTo[c.fn.Origin()], callSite{u, c.call})
				ix.addArgFlows(u, c.fn, c.call)
			} else if v := varOf(info, c.call.Fun); v != nil {
				ix.varCalls[v] = append(ix.varCalls[v], callSite{u, c.call})
			}
		}
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

// addFile makes units for the functions of one root file and visits
// them (callvisit.go): the visit numbers their func literals, records the
// origins of variables and fields, resolves the calls and keeps the body
// nodes the passes read. A declaration's signature holds none of these,
// so only its body is visited.
func (ix *index) addFile(pkg *packages.Package, f *ast.File) {
	info := pkg.TypesInfo
	called := map[ast.Expr]bool{}
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
			if d.Body != nil {
				(&visitor{ix: ix, u: u, info: info, called: called}).visit(d.Body)
			}
		case *ast.GenDecl:
			u = ix.pkgInit(pkg, f) // "pkg.init", as go/ssa names var initialisers
			(&visitor{ix: ix, u: u, info: info, called: called}).visit(d)
		}
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
