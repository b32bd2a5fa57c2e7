package trace

import (
	"sort"
	"strings"

	"github.com/kubewalk/kubewalk/analyzer"
)

// tracer holds the indexes one Derive builds over the facts.
type tracer struct {
	in   Input
	opts Options
	// out lists each function's call edges in source order (call site,
	// then callee), which makes breadth-first search deterministic: of
	// two paths of the same length, the one whose calls come first in
	// the source wins.
	out map[string][]analyzer.Call
	// writes by calling function, in the facts' order.
	writes map[string][]analyzer.Write
	// decls locates functions named by the facts or the symbol index.
	decls map[string]analyzer.Location
	// wirings by controller type.
	wirings map[string][]analyzer.Wiring
	// componentDirs are the directories that register handlers or wire
	// sync functions: a write or call inside another component's
	// directory does not belong to a watcher's sync path.
	componentDirs map[string]bool
	reflectors    []reflector
	unknownLW     []Step
	// expanded marks components already expanded somewhere in the tree.
	expanded map[string]bool
	kinds    []analyzer.Resource
}

func newTracer(in Input, opts Options) *tracer {
	f := in.Facts
	t := &tracer{
		in:            in,
		opts:          opts,
		out:           map[string][]analyzer.Call{},
		writes:        map[string][]analyzer.Write{},
		decls:         map[string]analyzer.Location{},
		wirings:       map[string][]analyzer.Wiring{},
		componentDirs: map[string]bool{},
		expanded:      map[string]bool{},
		kinds:         Kinds(f),
	}
	for _, c := range f.Calls {
		t.out[c.From] = append(t.out[c.From], c)
	}
	for _, cs := range t.out {
		sort.SliceStable(cs, func(i, j int) bool {
			a, b := cs[i], cs[j]
			if a.At.Path != b.At.Path {
				return a.At.Path < b.At.Path
			}
			if a.At.StartLine != b.At.StartLine {
				return a.At.StartLine < b.At.StartLine
			}
			return a.To < b.To
		})
	}
	ref := func(r analyzer.FuncRef) {
		if r.Symbol != "" && !r.Decl.IsZero() {
			t.decls[r.Symbol] = r.Decl
		}
	}
	for _, w := range f.Writes {
		t.writes[w.Caller.Symbol] = append(t.writes[w.Caller.Symbol], w)
		ref(w.Caller)
	}
	for _, h := range f.Handlers {
		ref(h.Caller)
		for _, x := range []*analyzer.Handler{h.Add, h.Update, h.Delete, h.Filter} {
			if x != nil {
				ref(x.FuncRef)
			}
		}
		t.componentDirs[dirOf(h.At.Path)] = true
	}
	for _, w := range f.Wirings {
		t.wirings[w.Type] = append(t.wirings[w.Type], w)
		ref(w.Sync)
		for _, e := range w.Enqueuers {
			ref(e)
		}
		if w.Worker != nil {
			ref(*w.Worker)
		}
		t.componentDirs[dirOf(w.At.Path)] = true
	}
	for _, e := range f.Events {
		ref(e.Caller)
	}
	t.findReflectors()
	return t
}

// decl returns the declaration of a function: from the facts, else from
// the symbol index (func literals are only in the facts).
func (t *tracer) decl(sym string) analyzer.Location {
	if l, ok := t.decls[sym]; ok {
		return l
	}
	if s, ok := t.lookup(sym); ok {
		return s.Decl
	}
	return analyzer.Location{}
}

func (t *tracer) lookup(name string) (analyzer.Symbol, bool) {
	syms := t.in.Symbols
	i := sort.Search(len(syms), func(i int) bool { return syms[i].Name >= name })
	if i < len(syms) && syms[i].Name == name {
		return syms[i], true
	}
	return analyzer.Symbol{}, false
}

func (t *tracer) step(sym string, at analyzer.Location, kind string) Step {
	return Step{Symbol: sym, Decl: t.decl(sym), At: at, Kind: kind}
}

// search is a breadth-first search over call edges from the entries.
type search struct {
	parent map[string]analyzer.Call // the edge that reached a function; From "" for an entry
	dist   map[string]int
	order  []string // functions in the order reached
}

// bfs searches from entries up to maxDepth edges, not entering functions
// that lie in another component's directory than home (home "" means no
// restriction).
func (t *tracer) bfs(entries []string, maxDepth int, home string) *search {
	s := &search{parent: map[string]analyzer.Call{}, dist: map[string]int{}}
	queue := []string{}
	for _, e := range entries {
		if _, ok := s.dist[e]; ok {
			continue
		}
		s.dist[e] = 0
		s.parent[e] = analyzer.Call{}
		s.order = append(s.order, e)
		queue = append(queue, e)
	}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		if s.dist[n] >= maxDepth {
			continue
		}
		for _, c := range t.out[n] {
			if _, ok := s.dist[c.To]; ok {
				continue
			}
			if home != "" && t.foreign(pkgDir(c.To), home) {
				continue
			}
			s.dist[c.To] = s.dist[n] + 1
			s.parent[c.To] = c
			s.order = append(s.order, c.To)
			queue = append(queue, c.To)
		}
	}
	return s
}

// path returns the steps from an entry to fn; the last step's At is last.
func (t *tracer) path(s *search, fn string, last analyzer.Location) []Step {
	var rev []analyzer.Call
	for x := fn; ; {
		c := s.parent[x]
		if c.From == "" {
			break
		}
		rev = append(rev, c)
		x = c.From
	}
	var steps []Step
	kind := ""
	for i := len(rev) - 1; i >= 0; i-- {
		c := rev[i]
		steps = append(steps, t.step(c.From, c.At, kind))
		kind = c.Kind
	}
	steps = append(steps, t.step(fn, last, kind))
	return steps
}

// foreign reports whether dir belongs to another component than home: it
// lies under a component directory that is neither home, nor one of
// home's parents (shared helpers such as pkg/controller), nor inside home.
func (t *tracer) foreign(dir, home string) bool {
	owner := ""
	for d := dir; d != "." && d != "" && d != "/"; d = parentDir(d) {
		if t.componentDirs[d] {
			owner = d
			break
		}
	}
	if owner == "" || owner == home {
		return false
	}
	return !within(home, owner) && !within(owner, home)
}

// within reports whether dir is d or inside it.
func within(dir, d string) bool {
	return dir == d || strings.HasPrefix(dir, d+"/")
}

func parentDir(d string) string {
	if i := strings.LastIndexByte(d, '/'); i >= 0 {
		return d[:i]
	}
	return ""
}

func dirOf(path string) string { return parentDir(path) }

// pkgDir returns the tree directory of a symbol's package: the
// k8s.io/kubernetes module at the root, staging modules under
// staging/src.
func pkgDir(sym string) string {
	p := pkgOf(sym)
	if rest, ok := strings.CutPrefix(p, "k8s.io/kubernetes/"); ok {
		return rest
	}
	if strings.HasPrefix(p, "k8s.io/") {
		return "staging/src/" + p
	}
	return p
}

// pkgOf returns a symbol's import path: everything up to the first dot
// after the last slash.
func pkgOf(sym string) string {
	slash := strings.LastIndexByte(sym, '/')
	dot := strings.IndexByte(sym[slash+1:], '.')
	if dot < 0 {
		return sym
	}
	return sym[:slash+1+dot]
}

// nameOf returns the part of a symbol after its package: "T.m", "f", "f$1".
func nameOf(sym string) string {
	p := pkgOf(sym)
	if len(p) < len(sym) {
		return sym[len(p)+1:]
	}
	return sym
}

// recvType returns the receiver type of a method symbol, with its
// package ("pkg.T"), or "" for a function. Func literals count as their
// enclosing declaration's.
func recvType(sym string) string {
	name := nameOf(sym)
	if i := strings.IndexByte(name, '$'); i >= 0 {
		name = name[:i]
	}
	if i := strings.IndexByte(name, '.'); i >= 0 {
		return pkgOf(sym) + "." + name[:i]
	}
	return ""
}

// funcName returns the last name of a symbol: "syncDeployment".
func funcName(sym string) string {
	name := nameOf(sym)
	if i := strings.IndexByte(name, '$'); i >= 0 {
		name = name[:i]
	}
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		name = name[i+1:]
	}
	return name
}

// topLevel strips func literal suffixes: "pkg.f$1$2" → "pkg.f", the
// declaration a walkthrough reference can name.
func topLevel(sym string) string {
	if i := strings.IndexByte(sym, '$'); i >= 0 {
		return sym[:i]
	}
	return sym
}

// Short drops the import path from a symbol: "deployment.DeploymentController.syncDeployment".
func Short(sym string) string {
	if i := strings.LastIndexByte(sym, '/'); i >= 0 {
		return sym[i+1:]
	}
	return sym
}
