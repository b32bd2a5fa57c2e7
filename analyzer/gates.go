package analyzer

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"iter"
	"sort"

	"github.com/kubewalk/kubewalk/analyzer/fact"
)

// GatesPass finds the release's feature gates and the code that runs only
// when one is on (or off).
//
// What it finds: the gate table (gatetable.go) — every map literal of
// component-base's featuregate (map[Feature]FeatureSpec, or
// map[Feature]VersionedSpecs from 1.31) or client-go's features package in
// a loaded package of the tree: kube's pkg/features and the staging
// modules' feature files — with each gate's stage and default at the
// release; and every call, in a root package, of a method Enabled whose
// one parameter is featuregate.Feature or client-go's features.Feature
// and whose argument is a constant: `utilfeature.DefaultFeatureGate.
// Enabled(features.X)`, `feature.DefaultFeatureGate`,
// `DefaultMutableFeatureGate`, a FeatureGate passed as a parameter or kept
// in a field, client-go's `clientfeatures.FeatureGates()`. The method is
// told by its parameter's type, not by the receiver's name: featuregate's
// FeatureGate, MutableFeatureGate and MutableVersionedFeatureGate
// interfaces, the featureGate struct behind them and kube's client
// adapter all declare Enabled(Feature) bool, and no other method takes a
// Feature.
//
// For each call it records the lines whose running depends on the answer
// (fact.GateCheck): the body of an if whose condition needs the gate on
// (`Enabled(X)`, `Enabled(X) && …`) or off (`!Enabled(X)`), its else, the
// rest of the enclosing block after `if !Enabled(X) { return }` (or
// `|| …`, or a break, continue or panic), and otherwise the call's line.
//
// Answers kept for later: a bool variable or field every value of which,
// in the roots, is one gate's answer — the call itself, or another such
// variable — holds that gate (the scheduler builds a feature.Features
// struct of them once, `EnableDRAExtendedResource: feature.
// DefaultFeatureGate.Enabled(features.DRAExtendedResource)`, and its
// plugins copy them into fields of their own, `if pl.
// enableDRAExtendedResource {`). An if deciding on one is a check of the
// gate like a call; other reads of it are not reported (they are the
// copying).
//
// What it misses: a gate name passed in a variable (a helper taking the
// Feature as a parameter, a loop over a list of gates) — no single gate
// guards that code; an answer kept in a variable that is also given other
// values (a default, a negation, a flag), which then no longer stands for
// the gate alone; code a gate guards in its callers (only the lines around
// the check are known to depend on it).
var GatesPass = &Pass{
	Name:     "gates",
	Doc:      "the release's feature-gate table and the code each gate guards",
	Requires: []*Pass{indexPass},
	Run:      withIndex(runGates),
}

// Import paths of the two feature-gate packages: component-base's, which
// Kubernetes' components use, and client-go's own (client-go does not
// import component-base; kube wires the two together at init).
const (
	featuregatePkg    = "k8s.io/component-base/featuregate"
	clientFeaturesPkg = "k8s.io/client-go/features"
)

func runGates(ix *index, run *PassRun) (*fact.Facts, error) {
	gates, err := gateTable(ix, run.Tag)
	if err != nil {
		return nil, err
	}
	held := gateVars(ix)
	var checks []fact.GateCheck
	for _, u := range ix.bodies() {
		checks = append(checks, gateChecks(ix, u, held)...)
	}
	sort.SliceStable(checks, func(i, j int) bool {
		a, b := checks[i], checks[j]
		if less, eq := locLess(a.At, b.At); !eq {
			return less
		}
		if a.Gate != b.Gate {
			return a.Gate < b.Gate
		}
		if less, eq := locLess(a.Guarded, b.Guarded); !eq {
			return less
		}
		return a.Kind < b.Kind
	})
	return &fact.Facts{Gates: gates, GateChecks: checks}, nil
}

// gateChecks returns the gate checks in u's body (not in the func
// literals inside it, which are units of their own): calls of Enabled,
// and ifs deciding on a variable in held. The calls and the ifs are the
// visit's (unit.nodes); the nodes around each check are found again from
// the body down.
func gateChecks(ix *index, u *unit, held map[*types.Var]string) []fact.GateCheck {
	info := u.pkg.TypesInfo
	type found struct {
		pos    token.Pos
		checks []fact.GateCheck
	}
	var all []found
	for _, n := range u.nodes {
		switch x := n.node.(type) {
		case *ast.CallExpr:
			if gate, via, ok := gateQuery(info, x, n.fn, n.sel); ok {
				base := fact.GateCheck{Gate: gate, Caller: u.ref, At: ix.prog.Loc(x.Pos(), x.End()), Via: via}
				all = append(all, found{x.Pos(), guards(ix.prog, info, pathTo(u.body, x), x, base)})
			}
		case *ast.IfStmt:
			// A variable holding an answer decides only in the
			// condition of the if around it (elsewhere it is a use,
			// which is not reported).
			if len(held) == 0 {
				continue
			}
			for e := range heldIn(info, x.Cond, held) {
				base := fact.GateCheck{Gate: held[varOf(info, e)], Caller: u.ref, At: ix.prog.Loc(e.Pos(), e.End()), Via: exprString(e)}
				var checks []fact.GateCheck
				for _, g := range guards(ix.prog, info, pathTo(u.body, e), e, base) {
					if g.Kind != "use" {
						checks = append(checks, g)
					}
				}
				all = append(all, found{e.Pos(), checks})
			}
		}
	}
	// In source order, as a walk of the body would find them: an if's
	// condition comes after the calls of its init statement.
	sort.SliceStable(all, func(i, j int) bool { return all[i].pos < all[j].pos })
	var out []fact.GateCheck
	for _, f := range all {
		out = append(out, f.checks...)
	}
	return out
}

// heldIn yields the identifiers and selectors in cond (not in func
// literals) that denote a variable or field in held; a selector's
// selected name is seen as the selector (pl.enableX), not on its own.
func heldIn(info *types.Info, cond ast.Expr, held map[*types.Var]string) iter.Seq[ast.Expr] {
	return func(yield func(ast.Expr) bool) {
		stop := false
		var visit func(n ast.Node) bool
		visit = func(n ast.Node) bool {
			if stop {
				return false
			}
			switch e := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.SelectorExpr:
				if v := varOf(info, e); v != nil && held[v] != "" && !yield(e) {
					stop = true
					return false
				}
				ast.Inspect(e.X, visit)
				return false
			case *ast.Ident:
				if v := varOf(info, e); v != nil && held[v] != "" && !yield(e) {
					stop = true
					return false
				}
			}
			return true
		}
		ast.Inspect(cond, visit)
	}
}

// pathTo returns the nodes from root down to target, both included, as
// a walk of root that does not enter func literals has them stacked when
// it reaches target; nil when target is not under root.
func pathTo(root, target ast.Node) []ast.Node {
	var stack []ast.Node
	done := false
	ast.Inspect(root, func(n ast.Node) bool {
		if done {
			return false
		}
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		if _, ok := n.(*ast.FuncLit); ok || n.Pos() > target.Pos() || n.End() < target.End() {
			return false
		}
		stack = append(stack, n)
		if n == target {
			done = true
			return false
		}
		return true
	})
	if !done {
		return nil
	}
	return stack
}

// gateQuery reports whether call, of fn (sel its selection), asks a
// feature gate about a constant gate, and returns the gate's name and the gate as written.
func gateQuery(info *types.Info, call *ast.CallExpr, fn *types.Func, sel *types.Selection) (gate, via string, ok bool) {
	if fn == nil || sel == nil || fn.Name() != "Enabled" || len(call.Args) != 1 {
		return "", "", false
	}
	sig := fn.Type().(*types.Signature)
	if sig.Params().Len() != 1 || sig.Results().Len() != 1 {
		return "", "", false
	}
	pt := sig.Params().At(0).Type()
	if !isNamed(pt, featuregatePkg, "Feature") && !isNamed(pt, clientFeaturesPkg, "Feature") {
		return "", "", false
	}
	tv := info.Types[call.Args[0]]
	if tv.Value == nil || tv.Value.Kind() != constant.String {
		return "", "", false
	}
	return constant.StringVal(tv.Value), exprString(call.Fun.(*ast.SelectorExpr).X), true
}

// guards returns what the gate's answer call (an Enabled call, or a
// variable holding one) guards: stack holds the nodes from the function
// body down to call.
func guards(prog *Program, info *types.Info, stack []ast.Node, call ast.Expr, base fact.GateCheck) []fact.GateCheck {
	var out []fact.GateCheck
	add := func(kind string, from, to token.Pos, on bool) {
		g := base
		g.Kind, g.Guarded, g.WhenEnabled = kind, prog.Loc(from, to), on
		out = append(out, g)
	}
	// The innermost if around the call decides: the call is in its
	// condition, or it is in its body and only used there.
	for i := len(stack) - 2; i >= 0; i-- {
		ifs, ok := stack[i].(*ast.IfStmt)
		if !ok {
			continue
		}
		if !within(call, ifs.Cond) {
			break
		}
		if on, ok := forces(ifs.Cond, call, true); ok && len(ifs.Body.List) > 0 {
			add("if", ifs.Body.List[0].Pos(), ifs.Body.List[len(ifs.Body.List)-1].End(), on)
		}
		if on, ok := forces(ifs.Cond, call, false); ok {
			switch e := ifs.Else.(type) {
			case *ast.BlockStmt:
				if len(e.List) > 0 {
					add("else", e.List[0].Pos(), e.List[len(e.List)-1].End(), on)
				}
			case *ast.IfStmt:
				add("else", e.Pos(), e.End(), on)
			case nil:
				if rest := after(stack[:i], ifs); len(rest) > 0 && terminates(info, ifs.Body) {
					add("rest", rest[0].Pos(), rest[len(rest)-1].End(), on)
				}
			}
		}
		break
	}
	if len(out) == 0 {
		add("use", call.Pos(), call.End(), true)
	}
	return out
}

// forces reports whether cond having the value v tells the value of call
// (a gate query inside it), and that value: `Enabled(X) && ok` true
// means X is on, `!Enabled(X) || ok` false means X is on.
func forces(cond ast.Expr, call ast.Expr, v bool) (on, ok bool) {
	if cond == call {
		return v, true
	}
	switch e := cond.(type) {
	case *ast.ParenExpr:
		return forces(e.X, call, v)
	case *ast.UnaryExpr:
		if e.Op == token.NOT {
			return forces(e.X, call, !v)
		}
	case *ast.BinaryExpr:
		side := e.X
		if !within(call, side) {
			side = e.Y
		}
		if (e.Op == token.LAND && v) || (e.Op == token.LOR && !v) {
			return forces(side, call, v)
		}
	}
	return false, false
}

func within(n, outer ast.Node) bool {
	return outer != nil && outer.Pos() <= n.Pos() && n.End() <= outer.End()
}

// after returns the statements that follow s in the statement list of
// its parent, the last node of stack.
func after(stack []ast.Node, s ast.Stmt) []ast.Stmt {
	if len(stack) == 0 {
		return nil
	}
	var list []ast.Stmt
	switch p := stack[len(stack)-1].(type) {
	case *ast.BlockStmt:
		list = p.List
	case *ast.CaseClause:
		list = p.Body
	case *ast.CommClause:
		list = p.Body
	}
	for i, x := range list {
		if x == s {
			return list[i+1:]
		}
	}
	return nil
}

// terminates reports whether a block never falls through to what follows
// it: it ends in a return, a break, continue or goto, or a panic.
func terminates(info *types.Info, b *ast.BlockStmt) bool {
	if len(b.List) == 0 {
		return false
	}
	switch s := b.List[len(b.List)-1].(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.BranchStmt:
		return s.Tok != token.FALLTHROUGH
	case *ast.ExprStmt:
		if c, ok := s.X.(*ast.CallExpr); ok {
			if id, ok := ast.Unparen(c.Fun).(*ast.Ident); ok {
				_, builtin := info.Uses[id].(*types.Builtin)
				return builtin && id.Name == "panic"
			}
		}
	}
	return false
}

// gateVars returns the bool variables and fields that hold one gate's
// answer and nothing else, with the gate: every value the roots give them
// is a constant Enabled call of that gate or another such variable (the
// least fixed point, so a cycle of copies holds no gate).
func gateVars(ix *index) map[*types.Var]string {
	held := map[*types.Var]string{}
	gateOf := func(o origin) string {
		if o.index != 0 {
			return ""
		}
		switch e := ast.Unparen(o.expr).(type) {
		case *ast.CallExpr:
			fn, sel := ix.callee(o.pkg.TypesInfo, e)
			gate, _, _ := gateQuery(o.pkg.TypesInfo, e, fn, sel)
			return gate
		case *ast.Ident, *ast.SelectorExpr:
			return held[varOf(o.pkg.TypesInfo, e)]
		}
		return ""
	}
	for changed := true; changed; {
		changed = false
		for v := range ix.origins {
			if held[v] != "" || !types.Identical(v.Type(), types.Typ[types.Bool]) {
				continue
			}
			gate := ""
			for _, o := range ix.originsOf(v) {
				g := gateOf(o)
				if g == "" || gate != "" && g != gate {
					gate = ""
					break
				}
				gate = g
			}
			if gate != "" {
				held[v], changed = gate, true
			}
		}
	}
	return held
}
