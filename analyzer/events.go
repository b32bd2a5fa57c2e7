package analyzer

import (
	"github.com/kubewalk/kubewalk/analyzer/fact"
	"go/ast"
	"go/types"
	"sort"
)

// EventsPass finds Kubernetes events recorded by the roots.
//
// What it finds: every call, in a non-test file of a root package, of
// Event, Eventf or AnnotatedEventf of k8s.io/client-go/tools/record's
// EventRecorder (core/v1 events) and of Eventf of k8s.io/client-go/tools/
// events' EventRecorder (events.k8s.io/v1). A call counts when the method
// is declared in one of those packages (the interfaces themselves,
// EventRecorderLogger, which embeds them, and structs embedding either) or
// when the receiver's type implements one of the two interfaces (a
// hand-written recorder or wrapper declared elsewhere). Methods of the
// same name on unrelated types are not events.
//
// How: arguments are read by position (record: object, type, reason,
// message; AnnotatedEventf adds annotations after object; events: regarding,
// related, type, reason, action, note). Type, reason, action and message
// are evaluated as constants with go/types (`events.PullingImage` →
// "Pulling", `v1.EventTypeNormal` → "Normal"); a non-constant reason is
// reported with Reason "" and ReasonExpr as written.
//
// Helpers: the kubelet records most of its events through small helpers
// that take the reason as a parameter (imageManager.logIt,
// kubeGenericRuntimeManager.recordContainerEvent). When a recorder call's
// reason is a parameter of the function that contains it, every call of
// that function in the roots is reported too, at the call site, with the
// reason, type and message evaluated there and Via naming the helper.
// Helpers of helpers are followed up to three levels.
//
// What it misses: recorders reached through reflection or stored in
// func values; reasons computed at run time (reported with Reason "");
// events written directly through the typed Events client (those are API
// writes and show up in the writes pass).
var EventsPass = &Pass{
	Name:     "events",
	Doc:      "events recorded through client-go's record and events recorders, reasons evaluated through constants, including through helpers that forward the reason",
	Requires: []*Pass{indexPass},
	Run:      withIndex(runEvents),
}

// eventLayout says where an event method's arguments are; -1 for none.
type eventLayout struct {
	recorder                 string
	typ, reason, action, msg int
}

// eventLayoutOf returns the argument layout of a recorder method, by its
// name and parameter count (the two recorders' Eventf differ).
func eventLayoutOf(name string, sig *types.Signature) (eventLayout, bool) {
	n := sig.Params().Len()
	switch {
	case name == "Event" && n == 4:
		return eventLayout{"record", 1, 2, -1, 3}, true
	case name == "Eventf" && n == 5:
		return eventLayout{"record", 1, 2, -1, 3}, true
	case name == "AnnotatedEventf" && n == 6:
		return eventLayout{"record", 2, 3, -1, 4}, true
	case name == "Eventf" && n == 7:
		return eventLayout{"events", 2, 3, 4, 5}, true
	}
	return eventLayout{}, false
}

// argVal is one evaluated argument.
type argVal struct {
	val     string // constant value
	isConst bool
	expr    string // as written
	param   int    // index of the enclosing declaration's parameter it is, or -1
}

// eventHelper is a function that passes its parameters on to a recorder.
type eventHelper struct {
	fn     *types.Func
	rec    string
	method string
	// Each is either a constant (param -1, isConst) or a parameter index.
	typ, reason, action, msg argVal
}

// callSite is a call in the body of a root function.
type callSite struct {
	u    *unit
	call *ast.CallExpr
}

func runEvents(ix *index, facts *fact.Facts) error {
	recIface := ix.lookupInterface(recordPkg, "EventRecorder")
	evIface := ix.lookupInterface(eventsPkg, "EventRecorder")
	var out []fact.Event
	helpers := map[*types.Func]*eventHelper{}
	byCallee := map[*types.Func][]callSite{}
	for _, u := range ix.bodies() {
		info := u.pkg.TypesInfo
		shallow(u.body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			fn, sel := calleeOf(info, call)
			if fn == nil {
				return true
			}
			byCallee[fn.Origin()] = append(byCallee[fn.Origin()], callSite{u, call})
			if sel == nil || sel.Kind() != types.MethodVal {
				return true
			}
			lay, ok := eventLayoutOf(fn.Name(), fn.Type().(*types.Signature))
			if !ok || !isRecorderMethod(fn, sel.Recv(), lay.recorder, recIface, evIface) {
				return true
			}
			vals := evalEventArgs(u, call, lay)
			ev := makeEvent(ix, u, call, lay.recorder, fn.Name(), vals)
			out = append(out, ev)
			if h := helperOf(u, lay.recorder, fn.Name(), vals); h != nil && helpers[h.fn] == nil {
				helpers[h.fn] = h
			}
			return true
		})
	}
	// Follow helpers to their callers, three levels deep.
	for level := 0; level < 3 && len(helpers) > 0; level++ {
		next := map[*types.Func]*eventHelper{}
		for _, h := range sortedHelpers(helpers) {
			for _, cs := range byCallee[h.fn] {
				vals := [4]argVal{}
				for i, a := range []argVal{h.typ, h.reason, h.action, h.msg} {
					if a.param < 0 {
						vals[i] = a
						continue
					}
					if a.param < len(cs.call.Args) {
						vals[i] = evalArg(cs.u, cs.call.Args[a.param])
					} else {
						vals[i] = argVal{param: -1}
					}
				}
				ev := makeEvent(ix, cs.u, cs.call, h.rec, h.method, vals)
				ev.Via = ix.funcRef(h.fn, nil).Symbol
				out = append(out, ev)
				if nh := helperOf(cs.u, h.rec, h.method, vals); nh != nil && helpers[nh.fn] == nil && next[nh.fn] == nil {
					next[nh.fn] = nh
				}
			}
		}
		helpers = next
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if less, eq := locLess(a.At, b.At); !eq {
			return less
		}
		if a.Reason != b.Reason {
			return a.Reason < b.Reason
		}
		if a.ReasonExpr != b.ReasonExpr {
			return a.ReasonExpr < b.ReasonExpr
		}
		return a.Via < b.Via
	})
	facts.Events = append(facts.Events, out...)
	return nil
}

func sortedHelpers(m map[*types.Func]*eventHelper) []*eventHelper {
	hs := make([]*eventHelper, 0, len(m))
	for _, h := range m {
		hs = append(hs, h)
	}
	sort.Slice(hs, func(i, j int) bool {
		return hs[i].fn.Pos() < hs[j].fn.Pos() || (hs[i].fn.Pos() == hs[j].fn.Pos() && hs[i].fn.FullName() < hs[j].fn.FullName())
	})
	return hs
}

// lookupInterface returns the interface pkgPath.name if that package is
// loaded.
func (ix *index) lookupInterface(pkgPath, name string) *types.Interface {
	p := ix.prog.Packages[pkgPath]
	if p == nil || p.Types == nil {
		return nil
	}
	tn, ok := p.Types.Scope().Lookup(name).(*types.TypeName)
	if !ok {
		return nil
	}
	it, _ := tn.Type().Underlying().(*types.Interface)
	return it
}

// isRecorderMethod reports whether fn, selected through recv, is a method
// of the given recorder kind.
func isRecorderMethod(fn *types.Func, recv types.Type, rec string, recIface, evIface *types.Interface) bool {
	if fn.Pkg() != nil {
		switch fn.Pkg().Path() {
		case recordPkg:
			return rec == "record"
		case eventsPkg:
			return rec == "events"
		}
	}
	iface := recIface
	if rec == "events" {
		iface = evIface
	}
	if iface == nil {
		return false
	}
	return types.Implements(recv, iface) || types.Implements(types.NewPointer(recv), iface)
}

func evalEventArgs(u *unit, call *ast.CallExpr, lay eventLayout) [4]argVal {
	var vals [4]argVal
	for i, idx := range []int{lay.typ, lay.reason, lay.action, lay.msg} {
		if idx < 0 || idx >= len(call.Args) {
			vals[i] = argVal{param: -1}
			continue
		}
		vals[i] = evalArg(u, call.Args[idx])
	}
	return vals
}

// evalArg evaluates e in unit u: its constant value, or the index of the
// enclosing declaration's parameter it names.
func evalArg(u *unit, e ast.Expr) argVal {
	v := argVal{expr: exprString(e), param: -1}
	if s, ok := stringConst(u.pkg.TypesInfo, e); ok {
		v.val, v.isConst = s, true
		return v
	}
	if id, ok := ast.Unparen(e).(*ast.Ident); ok && u.top.obj != nil {
		if obj, ok := u.pkg.TypesInfo.Uses[id].(*types.Var); ok {
			sig := u.top.obj.Type().(*types.Signature)
			for i := 0; i < sig.Params().Len(); i++ {
				if sig.Params().At(i) == obj && !(sig.Variadic() && i == sig.Params().Len()-1) {
					v.param = i
				}
			}
		}
	}
	return v
}

func makeEvent(ix *index, u *unit, call *ast.CallExpr, rec, method string, vals [4]argVal) fact.Event {
	ev := fact.Event{
		Caller:     u.ref,
		At:         ix.prog.Loc(call.Pos(), call.End()),
		Recorder:   rec,
		Method:     method,
		ReasonExpr: vals[1].expr,
	}
	if vals[0].isConst {
		ev.Type = vals[0].val
	} else {
		ev.Type = vals[0].expr
	}
	if vals[1].isConst {
		ev.Reason = vals[1].val
	}
	if vals[2].isConst {
		ev.Action = vals[2].val
	}
	if vals[3].isConst {
		ev.Message = vals[3].val
	}
	return ev
}

// helperOf returns the helper spec of u's declaration when the event's
// reason is one of its parameters.
func helperOf(u *unit, rec, method string, vals [4]argVal) *eventHelper {
	if vals[1].isConst || vals[1].param < 0 || u.top.obj == nil {
		return nil
	}
	h := &eventHelper{fn: u.top.obj.Origin(), rec: rec, method: method}
	h.typ, h.reason, h.action, h.msg = vals[0], vals[1], vals[2], vals[3]
	for _, a := range []*argVal{&h.typ, &h.action, &h.msg} {
		if !a.isConst && a.param < 0 {
			a.expr = "" // neither constant nor forwarded: unknown at the call site
		}
	}
	return h
}
