package analyzer

import (
	"github.com/kubewalk/kubewalk/analyzer/fact"
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
	w     fact.Wiring
	field *types.Var
	owner *types.Named
}

// wiringScan is what runWiring gathers from the root bodies before it
// pairs each wired field with its queue and worker.
type wiringScan struct {
	ix       *index
	rootPkgs map[string]bool
	sites    []wiringSite
	// Per queue field: enqueuers; per func field: callers; per unit: queue
	// fields it Gets from.
	enqueuers    map[*types.Var][]fact.FuncRef
	seenEnq      map[*types.Var]map[string]bool
	fieldCallers map[*types.Var][]*unit
	gets         map[*unit][]*types.Var
}

func runWiring(ix *index, _ *PassRun) (*fact.Facts, error) {
	s := &wiringScan{
		ix:           ix,
		rootPkgs:     map[string]bool{},
		enqueuers:    map[*types.Var][]fact.FuncRef{},
		seenEnq:      map[*types.Var]map[string]bool{},
		fieldCallers: map[*types.Var][]*unit{},
		gets:         map[*unit][]*types.Var{},
	}
	for _, p := range ix.prog.Roots {
		s.rootPkgs[p.PkgPath] = true
	}
	for _, u := range ix.bodies() {
		s.scan(u)
	}

	getters := map[*types.Var]map[string]bool{} // queue → functions that Get from it (workers)
	for u, qs := range s.gets {
		for _, q := range qs {
			if getters[q] == nil {
				getters[q] = map[string]bool{}
			}
			getters[q][u.ref.Symbol] = true
		}
	}
	var out []fact.Wiring
	for _, site := range s.sites {
		out = append(out, s.complete(site, getters))
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
	return &fact.Facts{Wirings: out}, nil
}

// scan records u's assignments of functions to fields, its calls of
// function-typed fields and its calls on work queue fields.
func (s *wiringScan) scan(u *unit) {
	info := u.pkg.TypesInfo
	for _, n := range u.nodes {
		switch x := n.node.(type) {
		case *ast.AssignStmt:
			if len(x.Lhs) != len(x.Rhs) {
				continue
			}
			for i, l := range x.Lhs {
				se, ok := ast.Unparen(l).(*ast.SelectorExpr)
				if !ok {
					continue
				}
				if sel := info.Selections[se]; sel != nil && sel.Kind() == types.FieldVal {
					s.addSite(u, sel.Recv(), sel.Obj().(*types.Var), x.Rhs[i], x)
				}
			}
		case *ast.CompositeLit:
			s.scanLiteral(u, x)
		case *ast.CallExpr:
			s.scanCall(u, x)
		}
	}
}

// scanLiteral records the keyed fields of a struct literal that are
// assigned a function: &Controller{syncHandler: c.sync}.
func (s *wiringScan) scanLiteral(u *unit, n *ast.CompositeLit) {
	info := u.pkg.TypesInfo
	t := info.TypeOf(n)
	if t == nil {
		return
	}
	if _, ok := t.Underlying().(*types.Struct); !ok {
		return
	}
	for id, kv := range keyedElts(n) {
		if f, ok := info.Uses[id].(*types.Var); ok && f.IsField() {
			s.addSite(u, t, f, kv.Value, kv)
		}
	}
}

// scanCall records a call of a function-typed field (c.syncHandler(ctx,
// key)) and Add, AddRateLimited, AddAfter and Get on a work queue field.
func (s *wiringScan) scanCall(u *unit, n *ast.CallExpr) {
	info := u.pkg.TypesInfo
	se, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr)
	if !ok {
		return
	}
	sel := info.Selections[se]
	if sel == nil {
		return
	}
	if sel.Kind() == types.FieldVal { // c.syncHandler(ctx, key)
		f := sel.Obj().(*types.Var)
		if len(s.fieldCallers[f]) == 0 || s.fieldCallers[f][len(s.fieldCallers[f])-1] != u {
			s.fieldCallers[f] = append(s.fieldCallers[f], u)
		}
		return
	}
	// c.queue.Add(key) / c.queue.Get()
	qse, ok := ast.Unparen(se.X).(*ast.SelectorExpr)
	if !ok {
		return
	}
	qsel := info.Selections[qse]
	if qsel == nil || qsel.Kind() != types.FieldVal || !isQueueType(qsel.Obj().Type()) {
		return
	}
	q := qsel.Obj().(*types.Var)
	switch {
	case enqueueMethods[se.Sel.Name]:
		if s.seenEnq[q] == nil {
			s.seenEnq[q] = map[string]bool{}
		}
		if !s.seenEnq[q][u.ref.Symbol] {
			s.seenEnq[q][u.ref.Symbol] = true
			s.enqueuers[q] = append(s.enqueuers[q], u.ref)
		}
	case se.Sel.Name == "Get":
		s.gets[u] = append(s.gets[u], q)
	}
}

// addSite records the assignment at at of rhs to field of owner, when
// field is function-typed, owner a type of the roots and rhs a function
// declared in the tree.
func (s *wiringScan) addSite(u *unit, owner types.Type, field *types.Var, rhs ast.Expr, at ast.Node) {
	if _, ok := field.Type().Underlying().(*types.Signature); !ok {
		return
	}
	// Only types of the roots: controllers, not client-go's
	// ResourceEventHandlerFuncs (the handlers pass covers those).
	on := namedOf(owner)
	if on == nil || on.Obj().Pkg() == nil || !s.rootPkgs[on.Obj().Pkg().Path()] {
		return
	}
	if se, ok := ast.Unparen(rhs).(*ast.SelectorExpr); ok {
		if sel := u.pkg.TypesInfo.Selections[se]; sel != nil {
			if fn, ok := sel.Obj().(*types.Func); ok && isAbstract(fn) {
				return // c.podListerSynced = podInformer.Informer().HasSynced: an interface's method, not a sync function
			}
		}
	}
	h := s.ix.handlerFunc(u.pkg, rhs, maxOriginDepth) // no following variables: what is written
	if h.Form == "unknown" || h.Symbol == "" || (h.Form != "func literal" && h.Decl.IsZero()) {
		return
	}
	s.sites = append(s.sites, wiringSite{
		w: fact.Wiring{
			Type:  on.Obj().Pkg().Path() + "." + on.Obj().Name(),
			Field: field.Name(),
			Sync:  h.FuncRef,
			At:    s.ix.prog.Loc(at.Pos(), at.End()),
		},
		field: field,
		owner: on,
	})
}

// complete adds to a wired field its type's work queue, the queue's
// enqueuers (without the functions in getters[queue], the workers) and
// the worker.
func (s *wiringScan) complete(site wiringSite, getters map[*types.Var]map[string]bool) fact.Wiring {
	w := site.w
	st, _ := site.owner.Underlying().(*types.Struct)
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
	for _, c := range s.fieldCallers[site.field] {
		for _, q := range s.gets[c] {
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
			if queue == nil || len(s.enqueuers[q]) > len(s.enqueuers[queue]) {
				queue = q
			}
		}
	}
	if queue != nil {
		w.Queue = queue.Name()
		for _, e := range s.enqueuers[queue] {
			// A worker's re-adds (AddRateLimited on error) are retries,
			// not enqueuers.
			if !getters[queue][e.Symbol] {
				w.Enqueuers = append(w.Enqueuers, e)
			}
		}
		sort.Slice(w.Enqueuers, func(i, j int) bool { return w.Enqueuers[i].Symbol < w.Enqueuers[j].Symbol })
	}
	return w
}

func containsVar(vs []*types.Var, v *types.Var) bool {
	for _, x := range vs {
		if x == v {
			return true
		}
	}
	return false
}
