package analyzer

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"sort"

	"github.com/kubewalk/kubewalk/analyzer/fact"
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
// related, type, reason, action, note) and evaluated as far as the code
// tells (eventvals.go): constants with go/types (`events.PullingImage` →
// "Pulling"); fmt.Sprintf's format, fmt.Sprint's operands and string
// concatenation, with %v for a part known only at run time; a local
// variable through the values whose assignment reaches the call
// (reach.go), a field or package variable through every value assigned
// to it in the roots (one value is its value, several are listed, and a
// field's are named by Event.ReasonField and the like, since they need
// not all reach the call); a root
// function's result through its return statements (an error's text is
// one of the formats the function makes it with); Eventf(…, "%s", msg)
// as msg. What stays unknown is marked dynamic (Event.Dynamic).
//
// Helpers: the kubelet records most of its events through small helpers
// that take the type, reason or message as a parameter (imageManager.logIt,
// kubeGenericRuntimeManager.recordContainerEvent). When a recorder call's
// argument is a parameter of the function that contains it, every call of
// that function in the roots is reported too, at the call site, with the
// arguments evaluated there and Via naming the helper; the helper's own
// call lists the values its callers pass. Helpers of helpers are followed
// up to three levels. A recorder call inside a method that is itself a
// recorder (a wrapper implementing EventRecorder) is marked Forwards.
//
// Helpers handed over as func values: the kubelet's node-condition events
// (NodeReady, NodeHasSufficientMemory, …) are recorded by the nodestatus
// setters through a recordEventFunc parameter, which the kubelet fills
// with its method value kl.recordNodeStatusEvent. A helper — a function,
// a method, or a func literal whose own parameters reach the recorder —
// is followed to every variable, parameter or field it is handed to in
// the roots (as an argument of a static call, by assignment, in a struct
// literal, and on through further parameters), and each call of those is
// reported like a static call of the helper, with FuncValue saying where
// the helper was handed over.
//
// What it misses: recorders reached through reflection; func values
// handed over through a map, a slice or a channel, or returned from a
// function; values computed at run time (listed where the code tells
// them); events written directly through the typed Events client (those
// are API writes and show up in the writes pass).
var EventsPass = &Pass{
	Name:     "events",
	Doc:      "events recorded through client-go's record and events recorders, with type, reason and message format evaluated through constants, variables, formatting calls and the helpers that forward them",
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

// eventHelper is a function that passes its parameters on to a recorder.
type eventHelper struct {
	// fn is the helper: a *types.Func, or an *ast.FuncLit handed over as
	// a func value.
	fn     any
	sym    string
	pos    token.Pos
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

// eventSite is a recorder call, or a call of a helper, being reported.
type eventSite struct {
	ev   fact.Event
	vals [4]argVal // type, reason, action, message
	// fwd is the function whose parameters the site passes on (the
	// helper the site is in, as eventHelper.fn), nil when it passes none.
	fwd any
	// via is the helper the site calls, nil for a recorder call.
	via any
}

func runEvents(ix *index, _ *PassRun) (*fact.Facts, error) {
	recIface := ix.lookupInterface(recordPkg, "EventRecorder")
	evIface := ix.lookupInterface(eventsPkg, "EventRecorder")
	var sites []*eventSite
	helpers := map[any]*eventHelper{}
	for c := range ix.staticCalls() {
		u, call, fn, sel := c.u, c.call, c.fn, c.sel
		if sel == nil || sel.Kind() != types.MethodVal {
			continue
		}
		lay, ok := eventLayoutOf(fn.Name(), fn.Type().(*types.Signature))
		if !ok || !isRecorderMethod(fn, sel.Recv(), lay.recorder, recIface, evIface) {
			continue
		}
		vals := evalEventArgs(ix, u, call, lay)
		s := &eventSite{ev: makeEvent(ix, u, call, lay.recorder, fn.Name()), vals: vals}
		s.ev.Forwards = isRecorderWrapper(u, recIface, evIface)
		if h := helperOf(ix, u, lay.recorder, fn.Name(), vals); h != nil {
			s.fwd = h.fn
			if helpers[h.fn] == nil {
				helpers[h.fn] = h
			}
		}
		sites = append(sites, s)
	}
	sites = followHelpers(ix, helpers, sites, recIface, evIface)
	// Values reach a helper's parameters from its callers, which were
	// reported after it: from the last site back, each is complete when
	// its own callers are.
	byVia := map[any][]*eventSite{}
	for _, s := range sites {
		if s.via != nil {
			byVia[s.via] = append(byVia[s.via], s)
		}
	}
	for i := len(sites) - 1; i >= 0; i-- {
		s := sites[i]
		if s.fwd != nil {
			for slot := range s.vals {
				if s.vals[slot].param >= 0 {
					s.vals[slot].values = callerValues(byVia[s.fwd], slot)
				}
			}
		}
	}
	out := make([]fact.Event, len(sites))
	for i, s := range sites {
		setEventArgs(&s.ev, s.vals)
		out[i] = s.ev
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
		if a.Via != b.Via {
			return a.Via < b.Via
		}
		return a.FuncValue != nil && (b.FuncValue == nil || locBefore(*a.FuncValue, *b.FuncValue))
	})
	return &fact.Facts{Events: out}, nil
}

// followHelpers reports each call of a helper, three levels deep (a
// helper of a helper of a helper), with the arguments evaluated at the
// call: its static calls, and the calls of the func values it is handed
// over as (kl.recordNodeStatusEvent passed to a nodestatus setter, which
// calls its recordEventFunc parameter). A call that passes parameters of
// its own on makes its function a helper of the next level.
func followHelpers(ix *index, helpers map[any]*eventHelper, sites []*eventSite, recIface, evIface *types.Interface) []*eventSite {
	done := map[any]bool{}
	for fn := range helpers {
		done[fn] = true
	}
	for level := 0; level < 3 && len(helpers) > 0; level++ {
		next := map[any]*eventHelper{}
		for _, h := range sortedHelpers(helpers) {
			var calls []valueCall
			if fn, ok := h.fn.(*types.Func); ok {
				for _, cs := range ix.callsTo[fn] {
					calls = append(calls, valueCall{callSite: cs})
				}
			}
			calls = append(calls, ix.valueCalls(h.fn)...)
			for _, cs := range calls {
				var vals [4]argVal
				for i, a := range []argVal{h.typ, h.reason, h.action, h.msg} {
					switch {
					case a.param < 0:
						vals[i] = a
					case a.param < len(cs.call.Args):
						vals[i] = evalArg(ix, cs.u, cs.call.Args[a.param])
					default:
						vals[i] = argVal{param: -1}
					}
				}
				s := &eventSite{ev: makeEvent(ix, cs.u, cs.call, h.rec, h.method), vals: vals, via: h.fn}
				s.ev.Via = h.sym
				if !cs.handed.IsZero() {
					at := cs.handed
					s.ev.FuncValue = &at
				}
				s.ev.Forwards = isRecorderWrapper(cs.u, recIface, evIface)
				if nh := helperOf(ix, cs.u, h.rec, h.method, vals); nh != nil {
					s.fwd = nh.fn
					if !done[nh.fn] {
						done[nh.fn] = true
						next[nh.fn] = nh
					}
				}
				sites = append(sites, s)
			}
		}
		helpers = next
	}
	return sites
}

// callerValues are the values the calls of a helper pass for one of its
// event's arguments: each call's value when told, else the values that
// reach it.
func callerValues(calls []*eventSite, slot int) []string {
	var vs []string
	for _, c := range calls {
		if v := c.vals[slot]; v.known() {
			vs = append(vs, v.val)
		} else {
			vs = append(vs, v.values...)
		}
	}
	return sortedUniq(vs)
}

func sortedHelpers(m map[any]*eventHelper) []*eventHelper {
	hs := make([]*eventHelper, 0, len(m))
	for _, h := range m {
		hs = append(hs, h)
	}
	sort.Slice(hs, func(i, j int) bool {
		return hs[i].pos < hs[j].pos || (hs[i].pos == hs[j].pos && hs[i].sym < hs[j].sym)
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

// evalEventArgs evaluates a recorder call's type, reason, action and
// message. A message formatted as "%s" or "%v" of one argument is that
// argument (kubelet's recordEvent passes its message so).
func evalEventArgs(ix *index, u *unit, call *ast.CallExpr, lay eventLayout) [4]argVal {
	var vals [4]argVal
	for i, idx := range []int{lay.typ, lay.reason, lay.action, lay.msg} {
		if idx < 0 || idx >= len(call.Args) {
			vals[i] = argVal{param: -1}
			continue
		}
		vals[i] = evalArg(ix, u, call.Args[idx])
	}
	if m := vals[3]; m.isConst && (m.val == "%s" || m.val == "%v") && len(call.Args) == lay.msg+2 && !call.Ellipsis.IsValid() {
		vals[3] = evalArg(ix, u, call.Args[lay.msg+1])
	}
	return vals
}

// makeEvent starts the event of a call; setEventArgs fills in its
// arguments once the values callers pass are known.
func makeEvent(ix *index, u *unit, call *ast.CallExpr, rec, method string) fact.Event {
	return fact.Event{
		Caller:   u.ref,
		At:       ix.prog.Loc(call.Pos(), call.End()),
		Recorder: rec,
		Method:   method,
	}
}

func setEventArgs(ev *fact.Event, vals [4]argVal) {
	typ, reason, action, msg := vals[0], vals[1], vals[2], vals[3]
	ev.ReasonExpr = reason.expr
	if typ.isConst {
		ev.Type = typ.val
	} else {
		ev.TypeExpr = typ.expr
		ev.Dynamic = append(ev.Dynamic, "type")
		ev.TypeValues, ev.TypeField = typ.values, typ.field
		if typ.isFormat {
			ev.TypeValues = sortedUniq(append(slices.Clone(typ.values), typ.val))
		}
	}
	if reason.isConst {
		ev.Reason = reason.val
	} else {
		ev.Dynamic = append(ev.Dynamic, "reason")
		ev.ReasonValues, ev.ReasonField = reason.values, reason.field
	}
	if action.isConst {
		ev.Action = action.val
	}
	if msg.known() {
		ev.Message = msg.val
	} else {
		ev.MessageExpr = msg.expr
		ev.Dynamic = append(ev.Dynamic, "message")
		ev.MessageValues, ev.MessageField = msg.values, msg.field
	}
}

// helperOf returns the helper spec of the function the event is in when
// its type, reason or message is one of that function's parameters: the
// func literal u when they are the literal's own (a recorder written as a
// literal and handed over as a func value), else u's top-level
// declaration. When both are, the literal is the helper and the values
// of the declaration's parameters are left unknown.
func helperOf(ix *index, u *unit, rec, method string, vals [4]argVal) *eventHelper {
	if vals[0].param < 0 && vals[1].param < 0 && vals[3].param < 0 {
		return nil
	}
	var lit *ast.FuncLit
	for _, v := range vals {
		if v.param >= 0 && v.lit != nil {
			lit = v.lit
		}
	}
	h := &eventHelper{rec: rec, method: method}
	switch {
	case lit != nil:
		lu := ix.unitOfLit[lit]
		if lu == nil {
			return nil
		}
		h.fn, h.sym, h.pos = lit, lu.ref.Symbol, lit.Pos()
	case u.top.obj != nil:
		fn := u.top.obj.Origin()
		h.fn, h.sym, h.pos = fn, ix.funcRef(fn, nil).Symbol, fn.Pos()
	default:
		return nil
	}
	h.typ, h.reason, h.action, h.msg = vals[0], vals[1], vals[2], vals[3]
	for _, a := range []*argVal{&h.typ, &h.reason, &h.action, &h.msg} {
		a.values, a.field = nil, "" // the callers' values are gathered at each call
		if a.param >= 0 && a.lit != lit {
			a.param = -1 // a parameter of the declaration around the literal
		}
	}
	return h
}

// isRecorderWrapper reports whether u is a method that is itself a
// recorder method (Event, Eventf or AnnotatedEventf of a type implementing
// either EventRecorder, as client-go's EventRecorderAdapter implements the
// events one over the record one): its recorder calls pass their own
// arguments on.
func isRecorderWrapper(u *unit, recIface, evIface *types.Interface) bool {
	fn := u.top.obj
	if fn == nil {
		return false
	}
	sig := fn.Type().(*types.Signature)
	switch fn.Name() {
	case "Event", "Eventf", "AnnotatedEventf":
	default:
		return false
	}
	if sig.Recv() == nil {
		return false
	}
	recv := sig.Recv().Type()
	for _, iface := range []*types.Interface{recIface, evIface} {
		if iface != nil && (types.Implements(recv, iface) || types.Implements(types.NewPointer(recv), iface)) {
			return true
		}
	}
	return false
}
