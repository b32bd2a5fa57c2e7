package analyzer

// This file is the call visitor: the one walk of the roots' syntax that
// the discovery passes share, in the manner of x/tools' ast/inspector (a
// walk done once, its nodes kept for the passes to filter) and of
// go/types/typeutil.Callee (each call's callee resolved once, from the
// type checker's Uses and Selections).
//
// The index builds it (buildIndex → addFile → visit): while numbering the
// func literals and recording the values assigned to variables and fields,
// it resolves the callee of every call of a root file and keeps, for every
// unit with a body, the nodes of that body the passes look at, in source
// order and without those of the func literals inside it (units of their
// own): calls with their callee, the func literals, references to a
// function or method that are not called there (func and method values),
// composite literals, assignments, if statements and returns. A pass reads
// them with unit.calls, index.staticCalls or unit.nodes instead of walking
// the body again, and asks index.callee for the callee of a call it meets
// while following a value back to the expression that made it.

import (
	"go/ast"
	"go/types"
	"iter"
	"strconv"

	"github.com/kubewalk/kubewalk/analyzer/fact"
)

// bodyNode is one node of a unit's body that a pass looks at: a
// *ast.CallExpr (fn and sel its callee, as calleeOf resolves it: fn nil for
// a call of a func value, a conversion or a builtin), a *ast.FuncLit, an
// *ast.Ident or *ast.SelectorExpr denoting a function or method where it is
// not called (fn the function; sel the selection of a method value or
// expression, nil for a package's function), a *ast.CompositeLit, an
// *ast.AssignStmt, an *ast.IfStmt or an *ast.ReturnStmt.
type bodyNode struct {
	node ast.Node
	fn   *types.Func
	sel  *types.Selection
}

// callee is a call's resolved callee, as calleeOf returns it.
type callee struct {
	fn  *types.Func
	sel *types.Selection
}

// staticCall is a call of a function or method the type checker
// resolves, in the unit it is written in.
type staticCall struct {
	u    *unit
	call *ast.CallExpr
	fn   *types.Func
	sel  *types.Selection // nil for a call of a function
}

// calls yields the calls of u's body (not of the func literals inside it)
// in source order, with their callees; fn is nil for a call of a func
// value, a conversion or a builtin.
func (u *unit) calls() iter.Seq[staticCall] {
	return func(yield func(staticCall) bool) {
		for _, n := range u.nodes {
			if call, ok := n.node.(*ast.CallExpr); ok && !yield(staticCall{u, call, n.fn, n.sel}) {
				return
			}
		}
	}
}

// returns yields the return statements of u's body (not of the func
// literals inside it) in source order.
func (u *unit) returns() iter.Seq[*ast.ReturnStmt] {
	return func(yield func(*ast.ReturnStmt) bool) {
		for _, n := range u.nodes {
			if ret, ok := n.node.(*ast.ReturnStmt); ok && !yield(ret) {
				return
			}
		}
	}
}

// staticCalls yields the calls in the roots' bodies whose callee is
// statically known, unit by unit in source order, the way the discovery
// passes scan for the calls they recognise.
func (ix *index) staticCalls() iter.Seq[staticCall] {
	return func(yield func(staticCall) bool) {
		for _, u := range ix.bodies() {
			for c := range u.calls() {
				if c.fn != nil && !yield(c) {
					return
				}
			}
		}
	}
}

// callee returns the callee of a call of a root file (the visit resolved
// it) or, for a call the visit did not see, resolves it.
func (ix *index) callee(info *types.Info, call *ast.CallExpr) (*types.Func, *types.Selection) {
	if c, ok := ix.callees[call]; ok {
		return c.fn, c.sel
	}
	return calleeOf(info, call)
}

// visited returns how many calls the visit resolved and how many body
// nodes it kept, for the log.
func (ix *index) visited() (calls, nodes int) {
	for _, u := range ix.units {
		nodes += len(u.nodes)
	}
	return len(ix.callees), nodes
}

// visitor walks the syntax of one unit: a declaration's body, a func
// literal's body, or a package's var declarations (the init unit, which
// keeps no nodes).
type visitor struct {
	ix   *index
	u    *unit
	info *types.Info
	// called holds the callee expressions of the calls seen in the
	// current file (f in f(x), c.m in c.m(x)), which are not func values.
	called map[ast.Expr]bool
}

// visit walks n as the unit v.u: it numbers the func literals inside n
// (nested ones after their parent's, "f$1$1") and walks them as units of
// their own, records origins, resolves every call's callee and keeps the
// nodes of v.u's body the passes look at.
func (v *visitor) visit(n ast.Node) {
	ast.Inspect(n, v.node)
}

func (v *visitor) keep(n ast.Node, fn *types.Func, sel *types.Selection) {
	if v.u.body != nil {
		v.u.nodes = append(v.u.nodes, bodyNode{n, fn, sel})
	}
}

func (v *visitor) node(n ast.Node) bool {
	ix, info, parent := v.ix, v.info, v.u
	switch n := n.(type) {
	case *ast.FuncLit:
		v.keep(n, nil, nil)
		parent.litCount++
		u := &unit{pkg: parent.pkg, file: parent.file, lit: n, body: n.Body, top: parent.top,
			ref: fact.FuncRef{Symbol: parent.ref.Symbol + "$" + strconv.Itoa(parent.litCount), Decl: ix.prog.Loc(n.Pos(), n.End())}}
		ix.units = append(ix.units, u)
		ix.unitOfLit[n] = u
		(&visitor{ix: ix, u: u, info: info, called: v.called}).visit(n.Body)
		return false
	case *ast.CallExpr:
		fn, sel := calleeOf(info, n)
		ix.callees[n] = callee{fn, sel}
		v.called[calledExpr(n)] = true
		v.keep(n, fn, sel)
	case *ast.SelectorExpr:
		if !v.called[n] {
			if s := info.Selections[n]; s != nil {
				if fn, ok := s.Obj().(*types.Func); ok && (s.Kind() == types.MethodVal || s.Kind() == types.MethodExpr) {
					v.keep(n, fn, s)
				}
			} else if fn, ok := info.Uses[n.Sel].(*types.Func); ok {
				v.keep(n, fn, nil)
			}
		}
		// The selected name is part of the selector, not an identifier
		// of its own.
		ast.Inspect(n.X, v.node)
		return false
	case *ast.Ident:
		if !v.called[n] {
			if fn, ok := info.Uses[n].(*types.Func); ok {
				v.keep(n, fn, nil)
			}
		}
	case *ast.AssignStmt:
		v.keep(n, nil, nil)
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
	case *ast.CompositeLit, *ast.IfStmt, *ast.ReturnStmt:
		v.keep(n, nil, nil)
	}
	return true
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

// calledExpr is the expression a call calls, without parentheses or a
// generic instantiation's type arguments: f in f(x), (f)(x) and f[T](x).
func calledExpr(n *ast.CallExpr) ast.Expr {
	fun := ast.Unparen(n.Fun)
	switch f := fun.(type) {
	case *ast.IndexExpr:
		return f.X
	case *ast.IndexListExpr:
		return f.X
	}
	return fun
}
