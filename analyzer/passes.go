package analyzer

// This file declares the discovery passes in run order and the helpers
// they share; the index they all read is index.go's, the walk that
// resolves calls for them callvisit.go's.

import (
	"github.com/kubewalk/kubewalk/analyzer/fact"
	"go/ast"
	"go/constant"
	"go/types"
	"iter"
	"path"
	"strings"
)

// Passes are the discovery passes in run order. Calls runs last: it is the
// most voluminous and no other pass reads its output. Analyze runs them
// side by side once the index is built (runSideBySide), so a pass returns
// facts of its own kinds only, reads no other pass's facts, and leaves
// the index and the program as it found them.
var Passes = []*Pass{HandlersPass, WiringPass, WritesPass, EventsPass, ListWatchesPass, InformersPass, GatesPass, ControllersPass, PluginsPass, CallsPass}

// Import paths the passes recognise by type. client-go is vendored into
// kubernetes as the staging module k8s.io/client-go, so its import paths
// are the same whichever way the tree is laid out.
const (
	cachePkg     = "k8s.io/client-go/tools/cache"
	recordPkg    = "k8s.io/client-go/tools/record"
	eventsPkg    = "k8s.io/client-go/tools/events"
	workqueuePkg = "k8s.io/client-go/util/workqueue"
	gentypePkg   = "k8s.io/client-go/gentype"
	runtimePkg   = "k8s.io/apimachinery/pkg/runtime"
	schemaPkg    = "k8s.io/apimachinery/pkg/runtime/schema"
	metav1Pkg    = "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// keyedElts yields the elements of a composite literal written
// key: value with an identifier key — a struct literal's named fields —
// with that key.
func keyedElts(cl *ast.CompositeLit) iter.Seq2[*ast.Ident, *ast.KeyValueExpr] {
	return func(yield func(*ast.Ident, *ast.KeyValueExpr) bool) {
		for _, elt := range cl.Elts {
			kv, ok := elt.(*ast.KeyValueExpr)
			if !ok {
				continue
			}
			if id, ok := kv.Key.(*ast.Ident); ok && !yield(id, kv) {
				return
			}
		}
	}
}

// mergeResource combines the resources of several values of one
// expression: fields that agree are kept, the others cleared (a
// ClusterTrustBundle informer of v1alpha1 or v1beta1 has Version "").
func mergeResource(a, b fact.Resource) fact.Resource {
	if a == (fact.Resource{}) {
		return b
	}
	if b == (fact.Resource{}) {
		return a
	}
	if a.Group != b.Group {
		a.Group = ""
	}
	if a.Version != b.Version {
		a.Version = ""
	}
	if a.Kind != b.Kind {
		a.Kind = ""
	}
	if a.Resource != b.Resource {
		a.Resource = ""
	}
	return a
}

// shallow inspects n without descending into func literals (they are
// units of their own); f sees the literal itself.
func shallow(n ast.Node, f func(ast.Node) bool) {
	if n == nil {
		return
	}
	ast.Inspect(n, func(m ast.Node) bool {
		if _, ok := m.(*ast.FuncLit); ok && m != n {
			f(m) // seen, not entered
			return false
		}
		return f(m)
	})
}

// namedOf returns the named type of t, through pointers and aliases.
func namedOf(t types.Type) *types.Named {
	if t == nil {
		return nil
	}
	t = types.Unalias(t)
	if p, ok := t.(*types.Pointer); ok {
		t = types.Unalias(p.Elem())
	}
	n, _ := t.(*types.Named)
	return n
}

// isNamed reports whether t (through one pointer) is pkgPath.name.
func isNamed(t types.Type, pkgPath, name string) bool {
	n := namedOf(t)
	return n != nil && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == pkgPath && n.Obj().Name() == name
}

// stringConst returns the constant string value of e, if it has one.
func stringConst(info *types.Info, e ast.Expr) (string, bool) {
	tv, ok := info.Types[e]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
		return "", false
	}
	return constant.StringVal(tv.Value), true
}

// exprString renders an expression as written, on one line.
func exprString(e ast.Expr) string { return types.ExprString(e) }

// --- API resources --------------------------------------------------------

// typedClientPkg returns "<group>/<version>" when path is a client-gen typed
// client package (k8s.io/client-go/kubernetes/typed/apps/v1, or a
// clientset's .../clientset/versioned/typed/<group>/<version>), else "".
func typedClientPkg(p string) string {
	i := strings.LastIndex(p, "/typed/")
	if i < 0 || strings.Contains(p[i:], "/fake") {
		return ""
	}
	rest := p[i+len("/typed/"):]
	if strings.Count(rest, "/") != 1 || !isVersion(path.Base(rest)) {
		return ""
	}
	return rest
}

// informerPkg returns "<group>/<version>" when p is an informer package
// (k8s.io/client-go/informers/apps/v1, …/informers/externalversions/<g>/<v>).
func informerPkg(p string) string {
	i := strings.LastIndex(p, "/informers/")
	if i < 0 {
		return ""
	}
	rest := strings.TrimPrefix(p[i+len("/informers/"):], "externalversions/")
	if strings.Count(rest, "/") != 1 || !isVersion(path.Base(rest)) {
		return ""
	}
	return rest
}

// isVersion reports whether s is a Kubernetes API version: v1, v1beta2, v2alpha1.
func isVersion(s string) bool {
	if len(s) < 2 || s[0] != 'v' || s[1] < '0' || s[1] > '9' {
		return false
	}
	rest := strings.TrimLeft(s[1:], "0123456789")
	for _, q := range []string{"alpha", "beta"} {
		if strings.HasPrefix(rest, q) {
			rest = strings.TrimLeft(rest[len(q):], "0123456789")
			break
		}
	}
	return rest == ""
}

// addPlurals reads a typed client package's getters: client-gen emits, for
// each resource, `type DeploymentsGetter interface { Deployments(namespace
// string) DeploymentInterface }`, whose method name is the resource's
// plural as the API server spells it (Endpoints, Ingresses, NetworkPolicies).
func (ix *index) addPlurals(p *types.Package) {
	gv := typedClientPkg(p.Path())
	sc := p.Scope()
	for _, name := range sc.Names() {
		if !strings.HasSuffix(name, "Getter") {
			continue
		}
		tn, ok := sc.Lookup(name).(*types.TypeName)
		if !ok {
			continue
		}
		it, ok := tn.Type().Underlying().(*types.Interface)
		if !ok || it.NumMethods() != 1 {
			continue
		}
		m := it.Method(0)
		sig := m.Type().(*types.Signature)
		if sig.Results().Len() != 1 {
			continue
		}
		rn := namedOf(sig.Results().At(0).Type())
		if rn == nil || !strings.HasSuffix(rn.Obj().Name(), "Interface") {
			continue
		}
		kind := strings.TrimSuffix(rn.Obj().Name(), "Interface")
		plural := strings.ToLower(m.Name())
		ix.plurals[gv+"/"+kind] = plural
		ix.kinds[gv+"/"+plural] = kind
	}
}

// groupVersionDir returns "<group dir>/<version>" for an API package path
// (k8s.io/api/apps/v1 → apps/v1).
func groupVersionDir(p string) string {
	v := path.Base(p)
	g := path.Base(path.Dir(p))
	return g + "/" + v
}

// apiResource describes API type t (*v1.Pod, v1.Deployment): kind from its
// name, group from its package's GroupName constant (every k8s.io/api and
// generated API package declares one in register.go), version from its
// package path, resource from the typed client's getter or, failing that,
// from the plural rules client-gen applies.
func (ix *index) apiResource(t types.Type) fact.Resource {
	n := namedOf(t)
	if n == nil || n.Obj().Pkg() == nil {
		return fact.Resource{}
	}
	p := n.Obj().Pkg()
	r := fact.Resource{Kind: n.Obj().Name(), Version: path.Base(p.Path())}
	if !isVersion(r.Version) {
		return fact.Resource{Kind: r.Kind}
	}
	r.Group = groupOf(p)
	r.Resource = ix.plural(groupVersionDir(p.Path()), r.Kind)
	return r
}

// groupOf returns an API package's group name.
func groupOf(p *types.Package) string {
	if c, ok := p.Scope().Lookup("GroupName").(*types.Const); ok && c.Val().Kind() == constant.String {
		return constant.StringVal(c.Val())
	}
	// No GroupName (a package loaded without its register.go?): the
	// directory name, which is right for the core group and the short ones.
	g := path.Base(path.Dir(p.Path()))
	if g == "core" {
		return ""
	}
	return g
}

// groupFromImports returns the API group of gv ("apps/v1") as a typed
// client, informer or lister package p sees it: the group of the API
// package for gv that p imports (the one declaring GroupName), else gv's
// directory name, "core" being the core group "".
func groupFromImports(p *types.Package, gv string) string {
	for _, imp := range p.Imports() {
		if groupVersionDir(imp.Path()) != gv || strings.Contains(imp.Path(), "/informers/") || strings.Contains(imp.Path(), "/listers/") {
			continue
		}
		if c, ok := imp.Scope().Lookup("GroupName").(*types.Const); ok && c != nil {
			return groupOf(imp)
		}
	}
	if g := strings.Split(gv, "/")[0]; g != "core" {
		return g
	}
	return ""
}

func (ix *index) plural(gv, kind string) string {
	if p, ok := ix.plurals[gv+"/"+kind]; ok {
		return p
	}
	return pluralize(kind)
}

// pluralize lower-cases and pluralises a kind the way client-gen's namer
// does when no typed client tells us: Endpoints stays, -s/-x/-ch/-sh take
// -es, consonant+y becomes -ies.
func pluralize(kind string) string {
	k := strings.ToLower(kind)
	switch {
	case k == "":
		return ""
	case strings.HasSuffix(k, "endpoints"):
		return k
	case strings.HasSuffix(k, "s"), strings.HasSuffix(k, "x"), strings.HasSuffix(k, "ch"), strings.HasSuffix(k, "sh"):
		return k + "es"
	case strings.HasSuffix(k, "y") && len(k) > 1 && !strings.ContainsRune("aeiou", rune(k[len(k)-2])):
		return k[:len(k)-1] + "ies"
	}
	return k + "s"
}

// sortLoc orders by path then line; the passes break ties on their own fields.
func locLess(a, b fact.Location) (less, equal bool) {
	if a.Path != b.Path {
		return a.Path < b.Path, false
	}
	if a.StartLine != b.StartLine {
		return a.StartLine < b.StartLine, false
	}
	if a.EndLine != b.EndLine {
		return a.EndLine < b.EndLine, false
	}
	return false, true
}
