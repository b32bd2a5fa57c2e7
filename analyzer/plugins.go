package analyzer

import (
	"go/ast"
	"go/types"
	"path"
	"regexp"
	"sort"
	"strings"

	"github.com/kubewalk/kubewalk/analyzer/fact"
)

// PluginsPass finds the scheduler's in-tree plugins and their extension
// points.
//
// What it finds: the entries of the registry literal (a map of type
// Registry) in NewInTreeRegistry, each a plugin name and its factory,
// written as the factory (queuesort.New), wrapped
// (runtime.FactoryAdapter(fts, nodeports.New)) or inside a func literal.
// The plugin's type is what the factory's return statements return. Its
// extension points are the scheduling framework's interfaces it
// implements, by go/types: every interface of the framework package named
// …Plugin, with EnqueueExtensions, ScoreExtensions (NormalizeScore) and
// PreFilterExtensions (AddPod, RemovePod). The framework package is
// k8s.io/kube-scheduler/framework since v1.34, and
// k8s.io/kubernetes/pkg/scheduler/framework before: whichever declares
// FilterPlugin. The events a plugin registers for are the ClusterEvent
// literals of its EventsToRegister method, with the queueing hint given
// beside each.
//
// What it misses: plugins registered outside NewInTreeRegistry (out-of-tree
// registries), and events built outside EventsToRegister's body.
var PluginsPass = &Pass{
	Name:     "plugins",
	Doc:      "the scheduler's in-tree plugins: names, factories, types, the framework interfaces each implements, and the cluster events each registers for",
	Requires: []*Pass{indexPass},
	Run:      withIndex(runPlugins),
}

// frameworkPkgs are where the scheduling framework's plugin interfaces are
// declared, newest first.
var frameworkPkgs = []string{"k8s.io/kube-scheduler/framework", "k8s.io/kubernetes/pkg/scheduler/framework"}

func runPlugins(ix *index, _ *PassRun) (*fact.Facts, error) {
	ifaces := ix.extensionInterfaces()
	var out []fact.SchedulerPlugin
	for _, u := range ix.bodies() {
		if u.decl == nil || u.decl.Recv != nil || u.decl.Name.Name != "NewInTreeRegistry" {
			continue
		}
		info := u.pkg.TypesInfo
		ast.Inspect(u.body, func(n ast.Node) bool {
			cl, ok := n.(*ast.CompositeLit)
			if !ok || !isNamedObj(info.TypeOf(cl), "Registry") {
				return true
			}
			for _, elt := range cl.Elts {
				if kv, ok := elt.(*ast.KeyValueExpr); ok {
					if p, ok := ix.pluginEntry(u, kv, ifaces); ok {
						out = append(out, p)
					}
				}
			}
			return false
		})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return &fact.Facts{SchedulerPlugins: out}, nil
}

// extendedBy names the plugin interface each extensions interface extends.
var extendedBy = map[string]string{"NormalizeScore": "ScorePlugin", "PreFilterExtensions": "PreFilterPlugin"}

// extIface is a framework interface that makes an extension point.
type extIface struct {
	name  string // "Filter", "NormalizeScore"
	qual  string // go doc name of the interface
	iface *types.Interface
	pos   int
}

// extensionInterfaces returns the framework's extension-point interfaces
// in declaration order.
func (ix *index) extensionInterfaces() []extIface {
	for _, p := range frameworkPkgs {
		pkg := ix.prog.Packages[p]
		if pkg == nil || pkg.Types == nil || pkg.Types.Scope().Lookup("FilterPlugin") == nil {
			continue
		}
		var out []extIface
		sc := pkg.Types.Scope()
		for _, name := range sc.Names() {
			tn, ok := sc.Lookup(name).(*types.TypeName)
			if !ok {
				continue
			}
			it, ok := tn.Type().Underlying().(*types.Interface)
			if !ok {
				continue
			}
			point := ""
			switch {
			case name == "ScoreExtensions":
				point = "NormalizeScore"
			case name == "EnqueueExtensions", name == "PreFilterExtensions":
				point = name
			case strings.HasSuffix(name, "Plugin") && name != "Plugin":
				point = strings.TrimSuffix(name, "Plugin")
			}
			if point != "" {
				out = append(out, extIface{point, p + "." + name, it, int(tn.Pos())})
			}
		}
		// An extensions interface follows the plugin interface it extends
		// (ScorePlugin's ScoreExtensions returns it), wherever it is declared.
		for i := range out {
			if base, ok := extendedBy[out[i].name]; ok {
				if tn := sc.Lookup(base); tn != nil {
					out[i].pos = int(tn.Pos()) + 1
				}
			}
		}
		sort.Slice(out, func(i, j int) bool { return out[i].pos < out[j].pos })
		return out
	}
	return nil
}

// pluginEntry reads one registry entry.
func (ix *index) pluginEntry(u *unit, kv *ast.KeyValueExpr, ifaces []extIface) (fact.SchedulerPlugin, bool) {
	info := u.pkg.TypesInfo
	name, ok := stringConst(info, kv.Key)
	if !ok {
		return fact.SchedulerPlugin{}, false
	}
	var factory *types.Func
	ast.Inspect(kv.Value, func(n ast.Node) bool {
		if e, ok := n.(ast.Expr); ok && factory == nil {
			if fn := funcObj(info, e); fn != nil && fn.Pkg() != u.pkg.Types && strings.HasPrefix(fn.Name(), "New") {
				factory = fn.Origin()
			}
		}
		return factory == nil
	})
	if factory == nil {
		return fact.SchedulerPlugin{}, false
	}
	p := fact.SchedulerPlugin{Name: name, NameExpr: exprString(kv.Key), Registry: u.ref,
		At: ix.prog.Loc(kv.Pos(), kv.End()), Factory: ix.funcRef(factory, nil)}
	p.Package = path.Dir(p.Factory.Decl.Path)
	if t := ix.pluginType(factory); t != nil {
		p.Type = t.Obj().Pkg().Path() + "." + t.Obj().Name()
		p.ExtensionPoints = ix.extensionPoints(t, ifaces)
		p.Events = ix.pluginEvents(t)
	}
	return p, true
}

// pluginType returns the concrete type a factory's return statements
// return: the static type of the first result, or, when that is an
// interface, of the values assigned to the variable returned.
func (ix *index) pluginType(factory *types.Func) *types.Named {
	u := ix.unitOfObj[factory]
	if u == nil || u.body == nil {
		return nil
	}
	var found *types.Named
	shallow(u.body, func(n ast.Node) bool {
		ret, ok := n.(*ast.ReturnStmt)
		if !ok || len(ret.Results) == 0 || found != nil {
			return found == nil
		}
		cands := []origin{{u.pkg, ret.Results[0], 0}}
		if v := varOf(u.pkg.TypesInfo, ret.Results[0]); v != nil {
			cands = append(cands, ix.originsOf(v)...)
		}
		for _, o := range cands {
			if t := namedOf(o.pkg.TypesInfo.TypeOf(o.expr)); t != nil && !types.IsInterface(t) && t.Obj().Pkg() == factory.Pkg() {
				found = t
				break
			}
		}
		return found == nil
	})
	return found
}

// extensionPoints lists the interfaces *t implements, with its methods
// each asks for.
func (ix *index) extensionPoints(t *types.Named, ifaces []extIface) []fact.ExtensionPoint {
	ptr := types.NewPointer(t)
	var out []fact.ExtensionPoint
	for _, x := range ifaces {
		if !types.Implements(ptr, x.iface) {
			continue
		}
		ep := fact.ExtensionPoint{Name: x.name, Interface: x.qual, Methods: []fact.FuncRef{}}
		for i := 0; i < x.iface.NumMethods(); i++ {
			m := x.iface.Method(i)
			if m.Name() == "Name" {
				continue
			}
			if obj, _, _ := types.LookupFieldOrMethod(ptr, true, m.Pkg(), m.Name()); obj != nil {
				if fn, ok := obj.(*types.Func); ok {
					ep.Methods = append(ep.Methods, ix.funcRef(fn, ptr))
				}
			}
		}
		out = append(out, ep)
	}
	return out
}

// qualifier matches a package qualifier in an expression as written.
var qualifier = regexp.MustCompile(`\b[a-z][A-Za-z0-9_]*\.`)

// pluginEvents reads the ClusterEvent literals of t's EventsToRegister.
func (ix *index) pluginEvents(t *types.Named) []fact.PluginEvent {
	obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(t), true, t.Obj().Pkg(), "EventsToRegister")
	fn, ok := obj.(*types.Func)
	if !ok {
		return nil
	}
	u := ix.unitOfObj[fn.Origin()]
	if u == nil || u.body == nil {
		return nil
	}
	info := u.pkg.TypesInfo
	// The hint given beside each event literal, and the literal a
	// variable used as Event holds.
	hints := map[*ast.CompositeLit]ast.Expr{}
	ast.Inspect(u.body, func(n ast.Node) bool {
		cl, ok := n.(*ast.CompositeLit)
		if !ok || !isNamedObj(info.TypeOf(cl), "ClusterEventWithHint") {
			return true
		}
		var ev *ast.CompositeLit
		var hint ast.Expr
		for key, kv := range keyedElts(cl) {
			switch key.Name {
			case "Event":
				ev = ix.eventLiteral(u, kv.Value)
			case "QueueingHintFn":
				hint = kv.Value
			}
		}
		if ev != nil && hint != nil {
			hints[ev] = hint
		}
		return true
	})
	var out []fact.PluginEvent
	ast.Inspect(u.body, func(n ast.Node) bool {
		cl, ok := n.(*ast.CompositeLit)
		if !ok || !isNamedObj(info.TypeOf(cl), "ClusterEvent") {
			return true
		}
		ev := fact.PluginEvent{At: ix.prog.Loc(cl.Pos(), cl.End())}
		for key, kv := range keyedElts(cl) {
			switch key.Name {
			case "Resource":
				if s, ok := stringConst(info, kv.Value); ok {
					ev.Resource = s
				} else {
					ev.Resource = exprString(kv.Value)
				}
			case "ActionType":
				ev.ActionType = ix.actionString(u, kv.Value)
			}
		}
		if h := hints[cl]; h != nil {
			if hf := funcObj(info, h); hf != nil {
				r := ix.funcRef(hf, nil)
				ev.Hint = &r
			}
		}
		out = append(out, ev)
		return false
	})
	return out
}

// eventLiteral returns the ClusterEvent literal an Event value is, or
// the one a local variable was given.
func (ix *index) eventLiteral(u *unit, e ast.Expr) *ast.CompositeLit {
	if cl, ok := ast.Unparen(e).(*ast.CompositeLit); ok {
		return cl
	}
	if v := varOf(u.pkg.TypesInfo, e); v != nil {
		if os := ix.origins[v]; len(os) == 1 {
			cl, _ := ast.Unparen(os[0].expr).(*ast.CompositeLit)
			return cl
		}
	}
	return nil
}

// actionString renders an action type without package qualifiers, through
// a local variable given one value.
func (ix *index) actionString(u *unit, e ast.Expr) string {
	if id, ok := ast.Unparen(e).(*ast.Ident); ok {
		if v := varOf(u.pkg.TypesInfo, id); v != nil {
			if os := ix.origins[v]; len(os) == 1 {
				e = os[0].expr
			}
		}
	}
	return strings.ReplaceAll(qualifier.ReplaceAllString(exprString(e), ""), " ", "")
}
