package analyzer

// This file evaluates the string arguments of a recorder call — type,
// reason, action and message — as far as the code tells: constants,
// variables given one value, parameters (followed at the callers by the
// events pass), fmt.Sprintf and friends, and string concatenation.

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/packages"
)

// argVal is one evaluated argument.
type argVal struct {
	val     string // constant value, or the format when isFormat
	isConst bool
	// isFormat says val is a printf format whose verbs stand for the parts
	// only known at run time ("Pulling image %q", "Error: %v").
	isFormat bool
	expr     string // as written
	param    int    // index of the enclosing function's parameter it is, or -1
	// lit is set when that function is the func literal the argument is
	// written in (a literal recorder handed over as a func value), nil
	// when it is the enclosing top-level declaration.
	lit *ast.FuncLit
	// values are the constants (or formats) that reach a value the code
	// computes at run time: the values assigned to a variable or field.
	values []string
	// field, when values came from a struct field, names it
	// ("JobCondition.Reason"): they are every value the field is given in
	// the roots, whichever object it belongs to, not only those that
	// reach this use.
	field string
}

// known reports whether the argument's value, or its format, is told.
func (a argVal) known() bool { return a.isConst || a.isFormat }

// maxEvalDepth bounds how far evaluation follows variables and calls; a
// message is rarely built in more than three steps, and each step may
// fan out to every assignment of a field.
const maxEvalDepth = 5

// strEval evaluates expressions within one top-level declaration, whose
// parameters are reported as such rather than followed, and so are those
// of the func literal lit when the expression is written in one.
type strEval struct {
	ix  *index
	top *unit
	lit *unit
	// seen guards against variables defined in terms of themselves
	// (msg = strings.Replace(msg, …)).
	seen   map[*types.Var]bool
	seenFn map[*unit]bool
}

func evalArg(ix *index, u *unit, e ast.Expr) argVal {
	ev := &strEval{ix: ix, top: u.top, seen: map[*types.Var]bool{}, seenFn: map[*unit]bool{}}
	if u.lit != nil {
		ev.lit = u
	}
	v, _ := ev.eval(u.pkg, e, 0)
	v.expr = exprString(e)
	return v
}

// eval evaluates e, written in pkg. ok is false when evaluation ran into
// a variable it is already evaluating: that value adds nothing.
func (ev *strEval) eval(pkg *packages.Package, e ast.Expr, depth int) (argVal, bool) {
	v := argVal{expr: exprString(e), param: -1}
	info := pkg.TypesInfo
	if s, ok := stringConst(info, e); ok {
		v.val, v.isConst = s, true
		return v, true
	}
	if depth > maxEvalDepth {
		return v, true
	}
	switch x := ast.Unparen(e).(type) {
	case *ast.BinaryExpr:
		if x.Op != token.ADD {
			return v, true
		}
		l, okl := ev.eval(pkg, x.X, depth+1)
		r, okr := ev.eval(pkg, x.Y, depth+1)
		if !okl || !okr {
			return v, false
		}
		if l.known() || r.known() {
			v.val, v.isFormat = formatPart(l)+formatPart(r), true
		}
	case *ast.CallExpr:
		return ev.evalCall(pkg, x, v, depth)
	case *ast.Ident, *ast.SelectorExpr:
		obj := varOf(info, x)
		if obj == nil {
			return v, true
		}
		if i, lit := ev.paramIndex(obj); i >= 0 {
			v.param, v.lit = i, lit
			return v, true
		}
		r, ok := ev.evalVar(obj, v, depth, pkg, x)
		if obj.IsField() && !r.known() && r.param < 0 && len(r.values) > 0 {
			r.field = fieldName(info, x, obj)
		}
		return r, ok
	}
	return v, true
}

// formatPart is a as part of a format: its constant text, its format, or
// a verb for what is known only at run time.
func formatPart(a argVal) string {
	if a.known() {
		return a.val
	}
	return "%v"
}

// evalCall evaluates the calls that build messages: fmt.Sprintf (its
// format), fmt.Sprint and Sprintln (their operands), fmt.Errorf(…).Error()
// and errors.New(…).Error(), and the strings functions that keep a
// message's shape.
func (ev *strEval) evalCall(pkg *packages.Package, call *ast.CallExpr, v argVal, depth int) (argVal, bool) {
	info := pkg.TypesInfo
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && sel.Sel.Name == "Error" && len(call.Args) == 0 && isError(info.TypeOf(sel.X)) {
		// An error's text: what the error was made from.
		ev2, ok := ev.eval(pkg, sel.X, depth+1)
		ev2.expr = v.expr
		return ev2, ok
	}
	fn, _ := ev.ix.callee(info, call)
	if fn == nil || fn.Pkg() == nil {
		return v, true
	}
	if u := ev.ix.unitOfObj[fn.Origin()]; u != nil && u.body != nil {
		return ev.returned(u, 0, v, depth)
	}
	if len(call.Args) == 0 {
		return v, true
	}
	switch fn.Pkg().Path() + "." + fn.Name() {
	case "fmt.Sprintf", "fmt.Errorf", "errors.New", "strings.Replace", "strings.ReplaceAll", "strings.TrimSpace":
		f, ok := ev.eval(pkg, call.Args[0], depth+1)
		if !ok {
			return v, false
		}
		// The result has the format's shape (a Replace of a container ID
		// by its name keeps it).
		f.expr = v.expr
		if f.isConst && (fn.Name() == "Sprintf" || fn.Name() == "Errorf") {
			f.isConst, f.isFormat = false, true
		}
		return f, true
	case "fmt.Sprint", "fmt.Sprintln":
		var b strings.Builder
		known := false
		for i, a := range call.Args {
			av, ok := ev.eval(pkg, a, depth+1)
			if !ok {
				return v, false
			}
			if i > 0 && fn.Name() == "Sprintln" {
				b.WriteByte(' ')
			}
			b.WriteString(formatPart(av))
			known = known || av.known()
		}
		if known {
			v.val, v.isFormat = strings.TrimSuffix(b.String(), "\n"), true
		}
	}
	return v, true
}

// returned evaluates result i of a root function from its return
// statements: the one value they agree on, else the values they list
// (an error's text is one of the formats the function returns it with).
func (ev *strEval) returned(u *unit, i int, v argVal, depth int) (argVal, bool) {
	if ev.seenFn[u] {
		return v, false
	}
	ev.seenFn[u] = true
	defer delete(ev.seenFn, u)
	inner := &strEval{ix: ev.ix, top: u.top, seen: ev.seen, seenFn: ev.seenFn}
	var got []argVal
	for ret := range u.returns() {
		if len(ret.Results) == 0 && u.top == u && u.obj != nil {
			// A bare return: the named result's values.
			if res := u.obj.Type().(*types.Signature).Results(); i < res.Len() && res.At(i).Name() != "" {
				if rv, ok := inner.evalVar(res.At(i).Origin(), argVal{param: -1}, depth+1, nil, nil); ok {
					rv.param, rv.lit = -1, nil
					got = append(got, rv)
				}
			}
			continue
		}
		if i >= len(ret.Results) || len(ret.Results) == 1 && i > 0 {
			continue
		}
		r := ret.Results[i]
		if id, ok := ast.Unparen(r).(*ast.Ident); ok && id.Name == "nil" {
			continue
		}
		if rv, ok := inner.eval(u.pkg, r, depth+1); ok {
			rv.param, rv.lit = -1, nil // the callee's parameters are not the caller's
			got = append(got, rv)
		}
	}
	return merge(got, v), true
}

// isError reports whether t is the error interface.
func isError(t types.Type) bool {
	return t != nil && types.Identical(t, types.Universe.Lookup("error").Type())
}

// paramIndex returns the index of obj among the parameters (not the
// variadic one) of the literal the expression is written in, with that
// literal, or else of the top declaration; -1 when it is neither's.
func (ev *strEval) paramIndex(obj *types.Var) (int, *ast.FuncLit) {
	if ev.lit != nil {
		if sig, ok := ev.lit.pkg.TypesInfo.TypeOf(ev.lit.lit).(*types.Signature); ok {
			if i := paramOf(sig, obj); i >= 0 {
				return i, ev.lit.lit
			}
		}
	}
	if ev.top == nil || ev.top.obj == nil {
		return -1, nil
	}
	return paramOf(ev.top.obj.Type().(*types.Signature), obj), nil
}

// paramOf returns the index of obj among sig's parameters but a variadic
// one, or -1.
func paramOf(sig *types.Signature, obj *types.Var) int {
	for i := 0; i < sig.Params().Len(); i++ {
		if sig.Params().At(i).Origin() == obj && !(sig.Variadic() && i == sig.Params().Len()-1) {
			return i
		}
	}
	return -1
}

// evalVar evaluates a variable or field through the values assigned to it
// in the roots. One value, or values that agree, are the variable's; a
// parameter they all come from is that parameter; otherwise the variable
// is only known at run time and the constants among its values are listed.
// When use, written in pkg, is the variable as the expression evaluated
// names it, a local variable's values are those whose assignment reaches
// that use (reach.go); nil use takes every value.
func (ev *strEval) evalVar(obj *types.Var, v argVal, depth int, pkg *packages.Package, use ast.Expr) (argVal, bool) {
	if ev.seen[obj] {
		return v, false
	}
	ev.seen[obj] = true
	defer delete(ev.seen, obj)
	var got []argVal
	// A parameter of another root function takes the arguments of its
	// static calls (a condition's Message set by newCondition's callers).
	os := ev.ix.originsOf(obj)
	if use != nil {
		os = ev.ix.reaching(pkg, obj, use, os)
	}
	for _, o := range os {
		if o.index != 0 {
			// One of several results (x, err := f()): f's return statements.
			call, ok := ast.Unparen(o.expr).(*ast.CallExpr)
			if !ok {
				continue
			}
			fn, _ := ev.ix.callee(o.pkg.TypesInfo, call)
			if fn == nil || ev.ix.unitOfObj[fn.Origin()] == nil {
				continue
			}
			if ov, ok := ev.returned(ev.ix.unitOfObj[fn.Origin()], o.index, argVal{param: -1}, depth+1); ok {
				got = append(got, ov)
			}
			continue
		}
		if ov, ok := ev.eval(o.pkg, o.expr, depth+1); ok {
			got = append(got, ov)
		}
	}
	return merge(got, v), true
}

// merge combines the values an expression may take: the one they agree
// on, or v with the told ones listed as its values.
func merge(got []argVal, v argVal) argVal {
	if len(got) == 0 {
		return v
	}
	first := got[0]
	same := true
	for _, g := range got[1:] {
		same = same && g.param == first.param && g.lit == first.lit && g.known() == first.known() && g.val == first.val && g.isFormat == first.isFormat && first.values == nil && g.values == nil
	}
	if same && (first.known() || first.param >= 0 || first.values != nil) {
		first.expr = v.expr
		return first
	}
	for _, g := range got {
		if g.known() {
			v.values = append(v.values, g.val)
		}
		v.values = append(v.values, g.values...)
		if v.field == "" {
			v.field = g.field
		}
	}
	v.values = sortedUniq(v.values)
	return v
}

// sortedUniq sorts ss and drops repeats.
func sortedUniq(ss []string) []string {
	if len(ss) == 0 {
		return nil
	}
	slices.Sort(ss)
	return slices.Compact(ss)
}

// fieldName names the field obj that e selects by its struct type and
// name, "JobCondition.Reason"; the bare name when the type is unnamed or
// the field is promoted from an embedded one.
func fieldName(info *types.Info, e ast.Expr, obj *types.Var) string {
	se, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return obj.Name()
	}
	if sel := info.Selections[se]; sel != nil && len(sel.Index()) == 1 {
		if n := namedOf(sel.Recv()); n != nil {
			return n.Obj().Name() + "." + obj.Name()
		}
	}
	return obj.Name()
}
