package analyzer

import (
	"go/ast"
	"go/types"
	"sort"
)

// WiringPass finds how controllers reach their sync functions.
//
// What it finds: every assignment, in a non-test file of a root package,
// of a function declared in the tree (method value, named function or func
// literal) to a function-typed struct field — `dc.syncHandler =
// dc.syncDeployment`, and keyed fields of struct literals,
// `&Controller{syncHandler: c.sync}`. For the struct type holding the
// field it adds:
//   - Queue: the type's work queue field (a field whose type is declared in
//     k8s.io/client-go/util/workqueue: RateLimitingInterface, the generic
//     TypedRateLimitingInterface[T] of v0.31+, DelayingInterface, …),
//   - Enqueuers: the root functions that call Add, AddRateLimited or
//     AddAfter on that field,
//   - Worker: the root function that calls the wired field and also takes
//     items from a queue field with Get — processNextWorkItem in most
//     controllers.
//
// When the type has several queue fields, the one the worker reads wins,
// else the one with the most enqueuers.
//
// What it misses: sync functions reached without a function-typed field
// (a worker calling c.sync directly is visible through call edges instead),
// fields assigned through setters or reflection, queues held outside the
// controller type.
var WiringPass = &Pass{
	Name:     "wiring",
	Doc:      "sync-handler fields assigned a function, with the work queue, its enqueuers and the worker that calls the field",
	Requires: []*Pass{indexPass},
	Run:      withIndex(runWiring),
}

var enqueueMethods = map[string]bool{"Add": true, "AddRateLimited": true, "AddAfter": true}

// isQueueType reports whether t is declared in client-go's workqueue package.
func isQueueType(t types.Type) bool {
	n := namedOf(t)
	return n != nil && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == workqueuePkg
}

type wiringSite struct {
	w     Wiring
	field *types.Var
	owner *types.Named
}

func runWiring(ix *index, facts *Facts) error {
	var sites []wiringSite
	// Per queue field: enqueuers; per func field: callers; per unit: queue fields it Gets from.
	enqueuers := map[*types.Var][]FuncRef{}
	seenEnq := map[*types.Var]map[string]bool{}
	fieldCallers := map[*types.Var][]*unit{}
	gets := map[*unit][]*types.Var{}

	rootPkgs := map[string]bool{}
	for _, p := range ix.prog.Roots {
		rootPkgs[p.PkgPath] = true
	}
	addSite := func(u *unit, owner types.Type, field *types.Var, rhs ast.Expr, at ast.Node) {
		if _, ok := field.Type().Underlying().(*types.Signature); !ok {
			return
		}
		// Only types of the roots: controllers, not client-go's
		// ResourceEventHandlerFuncs (the handlers pass covers those).
		on := namedOf(owner)
		if on == nil || on.Obj().Pkg() == nil || !rootPkgs[on.Obj().Pkg().Path()] {
			return
		}
		if se, ok := ast.Unparen(rhs).(*ast.SelectorExpr); ok {
			if sel := u.pkg.TypesInfo.Selections[se]; sel != nil {
				if fn, ok := sel.Obj().(*types.Func); ok && isAbstract(fn) {
					return // c.podListerSynced = podInformer.Informer().HasSynced: an interface's method, not a sync function
				}
			}
		}
		h := ix.handlerFunc(u.pkg, rhs, maxOriginDepth) // no following variables: what is written
		if h.Form == "unknown" || h.Symbol == "" || (h.Form != "func literal" && h.Decl.IsZero()) {
			return
		}
		sites = append(sites, wiringSite{
			w: Wiring{
				Type:  on.Obj().Pkg().Path() + "." + on.Obj().Name(),
				Field: field.Name(),
				Sync:  h.FuncRef,
				At:    ix.prog.Loc(at.Pos(), at.End()),
			},
			field: field,
			owner: on,
		})
	}

	for _, u := range ix.bodies() {
		info := u.pkg.TypesInfo
		shallow(u.body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				if len(n.Lhs) != len(n.Rhs) {
					return true
				}
				for i, l := range n.Lhs {
					se, ok := ast.Unparen(l).(*ast.SelectorExpr)
					if !ok {
						continue
					}
					if sel := info.Selections[se]; sel != nil && sel.Kind() == types.FieldVal {
						addSite(u, sel.Recv(), sel.Obj().(*types.Var), n.Rhs[i], n)
					}
				}
			case *ast.CompositeLit:
				t := info.TypeOf(n)
				if t == nil {
					return true
				}
				if _, ok := t.Underlying().(*types.Struct); !ok {
					return true
				}
				for _, elt := range n.Elts {
					kv, ok := elt.(*ast.KeyValueExpr)
					if !ok {
						continue
					}
					id, _ := kv.Key.(*ast.Ident)
					if id == nil {
						continue
					}
					if f, ok := info.Uses[id].(*types.Var); ok && f.IsField() {
						addSite(u, t, f, kv.Value, kv)
					}
				}
			case *ast.CallExpr:
				se, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr)
				if !ok {
					return true
				}
				sel := info.Selections[se]
				if sel == nil {
					return true
				}
				if sel.Kind() == types.FieldVal { // c.syncHandler(ctx, key)
					f := sel.Obj().(*types.Var)
					if len(fieldCallers[f]) == 0 || fieldCallers[f][len(fieldCallers[f])-1] != u {
						fieldCallers[f] = append(fieldCallers[f], u)
					}
					return true
				}
				// c.queue.Add(key) / c.queue.Get()
				qse, ok := ast.Unparen(se.X).(*ast.SelectorExpr)
				if !ok {
					return true
				}
				qsel := info.Selections[qse]
				if qsel == nil || qsel.Kind() != types.FieldVal || !isQueueType(qsel.Obj().Type()) {
					return true
				}
				q := qsel.Obj().(*types.Var)
				switch {
				case enqueueMethods[se.Sel.Name]:
					if seenEnq[q] == nil {
						seenEnq[q] = map[string]bool{}
					}
					if !seenEnq[q][u.ref.Symbol] {
						seenEnq[q][u.ref.Symbol] = true
						enqueuers[q] = append(enqueuers[q], u.ref)
					}
				case se.Sel.Name == "Get":
					gets[u] = append(gets[u], q)
				}
			}
			return true
		})
	}

	getters := map[*types.Var]map[string]bool{} // queue → functions that Get from it (workers)
	for u, qs := range gets {
		for _, q := range qs {
			if getters[q] == nil {
				getters[q] = map[string]bool{}
			}
			getters[q][u.ref.Symbol] = true
		}
	}
	var out []Wiring
	for _, s := range sites {
		w := s.w
		st, _ := s.owner.Underlying().(*types.Struct)
		var queues []*types.Var
		if st != nil {
			for i := 0; i < st.NumFields(); i++ {
				if isQueueType(st.Field(i).Type()) {
					queues = append(queues, st.Field(i))
				}
			}
		}
		// The worker: a caller of the field that also Gets from a queue of the type.
		var queue *types.Var
		for _, c := range fieldCallers[s.field] {
			for _, q := range gets[c] {
				if containsVar(queues, q) {
					ref := c.ref
					w.Worker, queue = &ref, q
					break
				}
			}
			if w.Worker != nil {
				break
			}
		}
		if queue == nil {
			for _, q := range queues {
				if queue == nil || len(enqueuers[q]) > len(enqueuers[queue]) {
					queue = q
				}
			}
		}
		if queue != nil {
			w.Queue = queue.Name()
			for _, e := range enqueuers[queue] {
				// A worker's re-adds (AddRateLimited on error) are retries,
				// not enqueuers.
				if !getters[queue][e.Symbol] {
					w.Enqueuers = append(w.Enqueuers, e)
				}
			}
			sort.Slice(w.Enqueuers, func(i, j int) bool { return w.Enqueuers[i].Symbol < w.Enqueuers[j].Symbol })
		}
		out = append(out, w)
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if less, eq := locLess(a.At, b.At); !eq {
			return less
		}
		if a.Field != b.Field {
			return a.Field < b.Field
		}
		return a.Sync.Symbol < b.Sync.Symbol
	})
	facts.Wirings = append(facts.Wirings, out...)
	return nil
}

func containsVar(vs []*types.Var, v *types.Var) bool {
	for _, x := range vs {
		if x == v {
			return true
		}
	}
	return false
}
