package analyzer

import (
	"go/ast"
	"go/types"
	"path"
	"regexp"
	"sort"
	"strings"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"golang.org/x/tools/go/packages"
)

// ControllersPass finds kube-controller-manager's controller list.
//
// What it finds: the entries of the function that lists the controllers,
// in a root package. Since v1.29 that is NewControllerDescriptors: each
// entry is a call of a function returning a *ControllerDescriptor whose
// struct literal gives the name, aliases, the constructor (initFunc before
// v1.33), requiredFeatureGates, isDisabledByDefault,
// isCloudProviderController and requiresSpecialHandling. Before, it is
// NewControllerInitializers: a map from name to init function, filled
// through a local register(name, fn) or controllers[name] = fn, with the
// disabled ones in the package variable ControllersDisabledByDefault and
// cloud and gated entries inside an if on IncludeCloudLoops or a gate.
//
// For each entry it follows the start function (and the functions of the
// manager's own package it calls, two levels down) to the constructors of
// controller packages it calls: New… functions of another root package,
// with the types they return. The conditions under which the start
// function returns no controller (`if !...AllocateNodeCIDRs { return nil,
// nil }`) are kept as written.
//
// What it misses: entries added outside the listing function, and
// constructors reached through func values.
var ControllersPass = &Pass{
	Name:     "controllers",
	Doc:      "kube-controller-manager's controller list: names, aliases, start functions, defaults, feature gates, and the controller constructors each start function calls",
	Requires: []*Pass{indexPass},
	Run:      withIndex(runControllers),
}

// Names of the functions that list the controllers, and of the package
// variable holding the disabled ones before descriptors.
const (
	descriptorsFunc  = "NewControllerDescriptors"
	initializersFunc = "NewControllerInitializers"
	disabledVar      = "ControllersDisabledByDefault"
)

func runControllers(ix *index, _ *PassRun) (*fact.Facts, error) {
	var out []fact.Controller
	for _, u := range ix.bodies() {
		if u.decl == nil || u.decl.Recv != nil {
			continue
		}
		switch u.decl.Name.Name {
		case descriptorsFunc:
			out = append(out, ix.descriptorEntries(u)...)
		case initializersFunc:
			out = append(out, ix.initializerEntries(u)...)
		}
	}
	for i := range out {
		ix.connectController(&out[i])
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Manager != out[j].Manager {
			return out[i].Manager < out[j].Manager
		}
		return out[i].Name < out[j].Name
	})
	return &fact.Facts{Controllers: out}, nil
}

// descriptorEntries reads NewControllerDescriptors: every call in it of a
// function returning a *ControllerDescriptor is an entry.
func (ix *index) descriptorEntries(reg *unit) []fact.Controller {
	var out []fact.Controller
	for call := range reg.calls() {
		fn := call.fn
		if fn == nil || !returnsDescriptor(fn) {
			continue
		}
		c := fact.Controller{Manager: path.Dir(reg.ref.Decl.Path), Registry: reg.ref, At: ix.prog.Loc(call.call.Pos(), call.call.End())}
		d := ix.funcRef(fn, nil)
		c.Descriptor = &d
		if du := ix.unitOfObj[fn.Origin()]; du != nil && du.body != nil {
			ix.readDescriptor(du, &c)
		}
		if c.Name != "" {
			out = append(out, c)
		}
	}
	return out
}

// returnsDescriptor reports whether fn returns one *ControllerDescriptor.
func returnsDescriptor(fn *types.Func) bool {
	res := fn.Type().(*types.Signature).Results()
	return res.Len() == 1 && namedOf(res.At(0).Type()) != nil && namedOf(res.At(0).Type()).Obj().Name() == "ControllerDescriptor"
}

// readDescriptor reads the ControllerDescriptor literal a descriptor
// function returns.
func (ix *index) readDescriptor(du *unit, c *fact.Controller) {
	info := du.pkg.TypesInfo
	ast.Inspect(du.body, func(n ast.Node) bool {
		cl, ok := n.(*ast.CompositeLit)
		if !ok || !isNamedObj(info.TypeOf(cl), "ControllerDescriptor") {
			return true
		}
		for key, kv := range keyedElts(cl) {
			switch key.Name {
			case "name":
				c.Name, _ = stringConst(info, kv.Value)
				c.NameExpr = exprString(kv.Value)
			case "aliases":
				c.Aliases = constStrings(info, kv.Value)
			case "constructor", "initFunc":
				c.Start = ix.startRef(du, kv.Value)
			case "requiredFeatureGates":
				c.FeatureGates = constStrings(info, kv.Value)
			case "isDisabledByDefault":
				c.DisabledByDefault = isTrue(info, kv.Value)
			case "isCloudProviderController":
				c.Cloud = isTrue(info, kv.Value)
			case "requiresSpecialHandling":
				c.Special = isTrue(info, kv.Value)
			}
		}
		return false
	})
}

// isNamedObj reports whether t (through one pointer) is a named type called name.
func isNamedObj(t types.Type, name string) bool {
	n := namedOf(t)
	return n != nil && n.Obj().Name() == name
}

// isTrue reports whether e is the constant true.
func isTrue(info *types.Info, e ast.Expr) bool {
	tv, ok := info.Types[e]
	return ok && tv.Value != nil && tv.Value.String() == "true"
}

// constStrings returns the constant strings of a composite literal's
// elements ([]string{"deployment"}, []featuregate.Feature{features.X}),
// in order; elements that are not constant are skipped.
func constStrings(info *types.Info, e ast.Expr) []string {
	cl, ok := ast.Unparen(e).(*ast.CompositeLit)
	if !ok {
		return nil
	}
	var out []string
	for _, elt := range cl.Elts {
		if s, ok := stringConst(info, elt); ok {
			out = append(out, s)
		}
	}
	return out
}

// startRef names the start function an entry gives: a function, or a
// func literal (which the literal's unit names, $N and all).
func (ix *index) startRef(u *unit, e ast.Expr) fact.FuncRef {
	e = ast.Unparen(e)
	if lit, ok := e.(*ast.FuncLit); ok {
		if lu := ix.unitOfLit[lit]; lu != nil {
			return lu.ref
		}
	}
	if fn := funcObj(u.pkg.TypesInfo, e); fn != nil {
		return ix.funcRef(fn, nil)
	}
	return fact.FuncRef{Symbol: ""}
}

// funcObj returns the function an identifier or selector denotes.
func funcObj(info *types.Info, e ast.Expr) *types.Func {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		fn, _ := info.Uses[e].(*types.Func)
		return fn
	case *ast.SelectorExpr:
		if sel := info.Selections[e]; sel != nil {
			fn, _ := sel.Obj().(*types.Func)
			return fn
		}
		fn, _ := info.Uses[e.Sel].(*types.Func)
		return fn
	}
	return nil
}

// initializerEntries reads NewControllerInitializers: calls of two
// arguments (a constant name and a function) and map assignments
// controllers["name"] = fn. The if statements around an entry tell
// whether it is a cloud loop or gated.
func (ix *index) initializerEntries(reg *unit) []fact.Controller {
	info := reg.pkg.TypesInfo
	disabled := ix.disabledByDefault(reg.pkg)
	var out []fact.Controller
	var conds []ast.Expr
	add := func(at ast.Node, name, fn ast.Expr) {
		s, ok := stringConst(info, name)
		start := ix.startRef(reg, fn)
		if !ok || start.Symbol == "" {
			return
		}
		c := fact.Controller{Name: s, NameExpr: exprString(name), Manager: path.Dir(reg.ref.Decl.Path),
			Registry: reg.ref, At: ix.prog.Loc(at.Pos(), at.End()), Start: start, DisabledByDefault: disabled[s]}
		for _, cond := range conds {
			if strings.Contains(exprString(cond), "IncludeCloudLoops") {
				c.Cloud = true
			}
			c.FeatureGates = append(c.FeatureGates, gatesIn(info, cond)...)
		}
		out = append(out, c)
	}
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit: // the register helper itself
			return false
		case *ast.IfStmt:
			conds = append(conds, n.Cond)
			ast.Inspect(n.Body, visit)
			conds = conds[:len(conds)-1]
			if n.Else != nil {
				ast.Inspect(n.Else, visit)
			}
			return false
		case *ast.CallExpr:
			if len(n.Args) == 2 && funcObj(info, n.Args[1]) != nil {
				add(n, n.Args[0], n.Args[1])
			}
		case *ast.AssignStmt:
			if len(n.Lhs) == 1 && len(n.Rhs) == 1 {
				if ie, ok := n.Lhs[0].(*ast.IndexExpr); ok {
					add(n, ie.Index, n.Rhs[0])
					return false
				}
			}
		}
		return true
	}
	ast.Inspect(reg.body, visit)
	return out
}

// disabledByDefault reads the package variable listing the controllers
// disabled by default before descriptors: sets.NewString("bootstrapsigner", …).
func (ix *index) disabledByDefault(pkg *packages.Package) map[string]bool {
	out := map[string]bool{}
	v, ok := pkg.Types.Scope().Lookup(disabledVar).(*types.Var)
	if !ok {
		return out
	}
	for _, o := range ix.origins[v] {
		if call, ok := ast.Unparen(o.expr).(*ast.CallExpr); ok {
			for _, a := range call.Args {
				if s, ok := stringConst(o.pkg.TypesInfo, a); ok {
					out[s] = true
				}
			}
		}
	}
	return out
}

// gatesIn returns the constant gate names passed to Enabled calls in e.
func gatesIn(info *types.Info, e ast.Expr) []string {
	var out []string
	ast.Inspect(e, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && len(call.Args) == 1 {
			if se, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && se.Sel.Name == "Enabled" {
				if s, ok := stringConst(info, call.Args[0]); ok {
					out = append(out, s)
				}
			}
		}
		return true
	})
	return out
}

// startFollowDepth is how far calls from a start function into functions
// of the manager's own package are followed to find the constructors:
// start → a helper building its arguments (newServiceAccountTokenController
// behind the descriptor's literal) → the constructor.
const startFollowDepth = 2

// connectController finds the constructors the start function calls and
// the conditions under which it starts nothing.
func (ix *index) connectController(c *fact.Controller) {
	su := ix.unitBySymbol(c.Start)
	if su == nil {
		return
	}
	c.DisabledWhen = disabledConds(su)
	c.Run = ix.returnedRun(su)
	seen := map[*unit]bool{}
	var visit func(u *unit, depth int)
	visit = func(u *unit, depth int) {
		if u == nil || u.body == nil || seen[u] || depth > startFollowDepth {
			return
		}
		seen[u] = true
		info := u.pkg.TypesInfo
		ast.Inspect(u.body, func(n ast.Node) bool {
			// Constructors are called, or handed over as values (the
			// ClusterTrustBundle publisher picks one per API version
			// from a map of them).
			var fn *types.Func
			switch n := n.(type) {
			case *ast.Ident:
				fn = funcObj(info, n)
			case *ast.SelectorExpr:
				fn = funcObj(info, n)
			}
			if fn == nil || fn.Type().(*types.Signature).Recv() != nil {
				return true
			}
			fn = fn.Origin()
			if fn.Pkg() == su.pkg.Types {
				visit(ix.unitOfObj[fn], depth+1)
			} else if ix.isControllerConstructor(fn) {
				ix.addConstructor(c, fn)
			}
			return true
		})
	}
	visit(su, 0)
}

// returnedRun returns the Run method of the value a start function
// returns, when its return statements build a type of the function's own
// package (&garbageCollectorController{…}) that has one.
func (ix *index) returnedRun(su *unit) *fact.FuncRef {
	var run *fact.FuncRef
	info := su.pkg.TypesInfo
	shallow(su.body, func(n ast.Node) bool {
		ret, ok := n.(*ast.ReturnStmt)
		if !ok || len(ret.Results) == 0 || run != nil {
			return run == nil
		}
		e := ast.Unparen(ret.Results[0])
		if u, ok := e.(*ast.UnaryExpr); ok {
			e = u.X
		}
		cl, ok := e.(*ast.CompositeLit)
		if !ok {
			return true
		}
		t := namedOf(info.TypeOf(cl))
		if t == nil || t.Obj().Pkg() != su.pkg.Types {
			return true
		}
		if obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(t), true, t.Obj().Pkg(), "Run"); obj != nil {
			if fn, ok := obj.(*types.Func); ok && fn.Pkg() == su.pkg.Types {
				r := ix.funcRef(fn, types.NewPointer(t))
				run = &r
			}
		}
		return true
	})
	return run
}

// unitBySymbol finds the unit of a root function or literal by its ref.
func (ix *index) unitBySymbol(r fact.FuncRef) *unit {
	for _, u := range ix.units {
		if u != nil && u.ref.Symbol == r.Symbol && u.ref.Decl == r.Decl {
			return u
		}
	}
	return nil
}

// isControllerConstructor reports whether fn is a New… function (not a
// method) of a root package, or of a tree package in a controllers
// directory: the controllers live in the roots, but the cloud-provider
// ones of releases before v1.32 live in k8s.io/cloud-provider/controllers,
// which is not analysed; helpers the start functions also call (client
// builders, informer factories, quota configuration) are neither.
func (ix *index) isControllerConstructor(fn *types.Func) bool {
	if fn.Pkg() == nil || !strings.HasPrefix(fn.Name(), "New") {
		return false
	}
	for _, r := range ix.prog.Roots {
		if r.Types == fn.Pkg() {
			return true
		}
	}
	return ix.inTree(fn) && controllerDir.MatchString(fn.Pkg().Path())
}

// controllerDir matches an import path with a controller or controllers
// directory.
var controllerDir = regexp.MustCompile(`/controllers?(/|$)`)

func (ix *index) addConstructor(c *fact.Controller, fn *types.Func) {
	ref := ix.funcRef(fn, nil)
	for _, x := range c.Constructors {
		if x.Symbol == ref.Symbol {
			return
		}
	}
	c.Constructors = append(c.Constructors, ref)
	if dir := path.Dir(ref.Decl.Path); ref.Decl.Path != "" && !containsString(c.Packages, dir) {
		c.Packages = append(c.Packages, dir)
	}
	res := fn.Type().(*types.Signature).Results()
	for i := 0; i < res.Len(); i++ {
		if n := namedOf(res.At(i).Type()); n != nil && n.Obj().Pkg() == fn.Pkg() {
			if _, iface := n.Underlying().(*types.Interface); !iface {
				if s := n.Obj().Pkg().Path() + "." + n.Obj().Name(); !containsString(c.Types, s) {
					c.Types = append(c.Types, s)
				}
			}
		}
	}
}

// disabledConds returns the conditions, as written, of the if statements
// at the top of a start function's body that return no controller: every
// result nil or false (`return nil, nil`, `return nil, false, nil`).
func disabledConds(u *unit) []string {
	var out []string
	for _, st := range u.body.List {
		ifs, ok := st.(*ast.IfStmt)
		if !ok || len(ifs.Body.List) == 0 {
			continue
		}
		ret, ok := ifs.Body.List[len(ifs.Body.List)-1].(*ast.ReturnStmt)
		if !ok || len(ret.Results) == 0 || !allNilOrFalse(ret.Results) {
			continue
		}
		out = append(out, exprString(ifs.Cond))
	}
	return out
}

func allNilOrFalse(es []ast.Expr) bool {
	for _, e := range es {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok || id.Name != "nil" && id.Name != "false" {
			return false
		}
	}
	return true
}
