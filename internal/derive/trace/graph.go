package trace

import (
	"sort"
	"strings"

	"github.com/kubewalk/kubewalk/analyzer/fact"
)

// tracer holds the indexes one Derive builds over the facts.
type tracer struct {
	in   Input
	opts Options
	// out lists each function's call edges in source order (call site,
	// then callee), which makes breadth-first search deterministic: of
	// two paths of the same length, the one whose calls come first in
	// the source wins.
	out map[string][]fact.Call
	// writes by calling function, in the facts' order.
	writes map[string][]fact.Write
	// decls locates functions named by the facts or the symbol index.
	decls map[string]fact.Location
	// wirings by controller type.
	wirings map[string][]fact.Wiring
	// componentDirs are the directories that register handlers or wire
	// sync functions: a write or call inside another component's
	// directory does not belong to a watcher's sync path.
	componentDirs map[string]bool
	reflectors    []reflector
	unknownLW     []Step
	// expanded marks components already expanded somewhere in the tree.
	expanded map[string]bool
	kinds    []fact.Resource
}

func newTracer(in Input, opts Options) *tracer {
	f := in.Facts
	t := &tracer{
		in:            in,
		opts:          opts,
		out:           map[string][]fact.Call{},
		writes:        map[string][]fact.Write{},
		decls:         map[string]fact.Location{},
		wirings:       map[string][]fact.Wiring{},
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
	ref := func(r fact.FuncRef) {
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
		for _, x := range []*fact.Handler{h.Add, h.Update, h.Delete, h.Filter} {
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
func (t *tracer) decl(sym string) fact.Location {
	if l, ok := t.decls[sym]; ok {
		return l
	}
	if s, ok := t.lookup(sym); ok {
		return s.Decl
	}
	return fact.Location{}
}

func (t *tracer) lookup(name string) (fact.Symbol, bool) {
	syms := t.in.Symbols
	i := sort.Search(len(syms), func(i int) bool { return syms[i].Name >= name })
	if i < len(syms) && syms[i].Name == name {
		return syms[i], true
	}
	return fact.Symbol{}, false
}

func (t *tracer) step(sym string, at fact.Location, kind string) Step {
	return Step{Symbol: sym, Decl: t.decl(sym), At: at, Kind: kind}
}

// search is a breadth-first search over call edges from the entries.
type search struct {
	parent map[string]fact.Call // the edge that reached a function; From "" for an entry
	dist   map[string]int
	order  []string // functions in the order reached
}

// bfs searches from entries up to maxDepth edges, not entering functions
// that lie in another component's directory than home (home "" means no
// restriction).
func (t *tracer) bfs(entries []string, maxDepth int, home string) *search {
	s := &search{parent: map[string]fact.Call{}, dist: map[string]int{}}
	queue := []string{}
	for _, e := range entries {
		if _, ok := s.dist[e]; ok {
			continue
		}
		s.dist[e] = 0
		s.parent[e] = fact.Call{}
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
			if home != "" && t.foreign(fact.SymbolDir(c.To), home) {
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
func (t *tracer) path(s *search, fn string, last fact.Location) []Step {
	var rev []fact.Call
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

// nameOf returns the part of a symbol after its package: "T.m", "f", "f$1".
func nameOf(sym string) string {
	_, name, _ := fact.SplitSymbol(sym)
	return name
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
		return fact.SymbolPackage(sym) + "." + name[:i]
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
