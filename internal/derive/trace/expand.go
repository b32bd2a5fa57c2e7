package trace

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/kubewalk/kubewalk/analyzer/fact"
)

// queueSearchDepth bounds the search from a handler to its controller's
// enqueuer: handlers call the enqueuer directly or through one or two
// helpers (addPod → enqueueRS, resolveControllerRef → …).
const queueSearchDepth = 4

// syncSearchDepth bounds the search from a Run method to a sync… method:
// Run → (goroutine literal) → worker → processNextWorkItem → sync → syncX.
const syncSearchDepth = 6

// apiServerSymbols are the API server's side of every write and watch, for
// the one note at the top of a trace, in the order a request meets them.
var apiServerSymbols = []string{
	"k8s.io/apiserver/pkg/endpoints/handlers.createHandler",
	"k8s.io/apiserver/pkg/registry/generic/registry.Store.Create",
	"k8s.io/apiserver/pkg/storage/cacher.Cacher.Watch",
}

func (t *tracer) apiServer() []Step {
	var out []Step
	for _, name := range apiServerSymbols {
		if s, ok := t.lookup(name); ok {
			out = append(out, Step{Symbol: name, Decl: s.Decl, At: s.Decl})
		}
	}
	return out
}

// node builds the node of a written (or, at the root, created) resource.
func (t *tracer) node(res fact.Resource, event, sub string, level int, ancestors []string) *Node {
	n := &Node{Resource: res, Event: event, Subresource: sub}
	var ws []*Watcher
	for i := range t.in.Facts.Handlers {
		h := &t.in.Facts.Handlers[i]
		if sameResource(h.Informer, res) {
			ws = append(ws, t.informerWatcher(h, event))
		}
	}
	for _, r := range t.reflectors {
		if sameResource(r.res, res) {
			ws = append(ws, t.reflectorWatcher(r))
		}
	}
	// One component may register several handlers on a resource (the
	// scheduler's assigned and unassigned pods): the one reaching the
	// queue is expanded first.
	sort.SliceStable(ws, func(i, j int) bool {
		a, b := ws[i], ws[j]
		if a.Component != b.Component {
			return a.Component < b.Component
		}
		if (len(a.Queue) > 0) != (len(b.Queue) > 0) {
			return len(a.Queue) > 0
		}
		return locLess(a.Registration.At, b.Registration.At)
	})
	for _, w := range ws {
		t.decide(w, res, event, sub, level, ancestors)
		n.Watchers = append(n.Watchers, w)
	}
	// Watchers that do the work first (expanded, and of those the ones
	// that write what is followed), then the rest, each group by
	// component.
	sort.SliceStable(n.Watchers, func(i, j int) bool {
		a, b := n.Watchers[i], n.Watchers[j]
		if statusRank[a.Status] != statusRank[b.Status] {
			return statusRank[a.Status] < statusRank[b.Status]
		}
		return len(a.Writes) > 0 && len(b.Writes) == 0
	})
	if len(ws) == 0 {
		n.Notes = append(n.Notes, note("no-watcher", res.Resource))
	}
	if level == 0 && len(t.unknownLW) > 0 {
		var names []string
		for _, s := range t.unknownLW {
			names = append(names, fmt.Sprintf("%s (%s:%d)", fact.ShortSymbol(s.Symbol), s.At.Path, s.At.StartLine))
		}
		n.Notes = append(n.Notes, note("unknown-lw", len(names), strings.Join(names, ", ")))
	}
	return n
}

var statusRank = map[string]int{
	"expanded": 0, "unconnected": 1, "depth": 2, "seen": 3, "after-binding": 4, "ancestor": 5, "secondary": 6,
}

// decide sets a watcher's status and expands it when it is due.
func (t *tracer) decide(w *Watcher, res fact.Resource, event, sub string, level int, ancestors []string) {
	switch {
	case contains(ancestors, w.Component):
		w.Status, w.Reason = "ancestor", note("ancestor")
	case w.Via == "reflector" && w.FieldSelector == "spec.nodeName" && sub != "binding":
		w.Status, w.Reason = "after-binding", note("after-binding")
	case w.Status == "secondary" || w.Status == "unconnected":
	case w.Via == "reflector":
		// Status "unconnected" set by reflectorWatcher; nothing to expand.
	case level >= t.opts.Depth:
		w.Status, w.Reason = "depth", note("depth", t.opts.Depth)
	case t.expanded[w.Component]:
		w.Status, w.Reason = "seen", note("seen")
	default:
		t.expanded[w.Component] = true
		w.Status = "expanded"
		t.expand(w, res, level, append(append([]string(nil), ancestors...), w.Component))
	}
}

func contains(s []string, x string) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

// handlerFor picks the handler for an event, falling back to the others.
func handlerFor(h *fact.HandlerRegistration, event string) (*fact.Handler, string) {
	order := []string{"add", "update", "delete"}
	switch event {
	case "update":
		order = []string{"update", "add", "delete"}
	case "delete":
		order = []string{"delete", "update", "add"}
	}
	for _, e := range order {
		var x *fact.Handler
		switch e {
		case "add":
			x = h.Add
		case "update":
			x = h.Update
		case "delete":
			x = h.Delete
		}
		if x != nil && x.Symbol != "" {
			return x, e
		}
	}
	return nil, ""
}

func (t *tracer) informerWatcher(h *fact.HandlerRegistration, event string) *Watcher {
	w := &Watcher{
		Component:    dirOf(h.At.Path),
		Via:          "informer",
		Registration: t.step(h.Caller.Symbol, h.At, ""),
	}
	w.Name = ComponentName(w.Component)
	hd, which := handlerFor(h, event)
	if hd == nil {
		what := h.HandlerExpr
		if what == "" {
			what = "no handler"
		}
		w.Unconnected = append(w.Unconnected, note("handler-dynamic", what))
	} else {
		s := t.step(hd.Symbol, hd.Decl, "")
		s.Decl = hd.Decl
		w.Handler = &s
		if which != event {
			w.Reason = note("other-handler", event, which)
		}
	}
	// Handler functions: the chosen one first, then the others, with the
	// methods literals forward to.
	var hfs []string
	for _, x := range []*fact.Handler{hd, h.Add, h.Update, h.Delete} {
		if x != nil && x.Symbol != "" && !contains(hfs, x.Symbol) {
			hfs = append(hfs, x.Symbol)
			for _, c := range x.Calls {
				if !contains(hfs, c) {
					hfs = append(hfs, c)
				}
			}
		}
	}
	t.connect(w, h, hfs)
	return w
}

// connect finds the watcher's wiring (queue and sync) or, failing that,
// the entry its writes are searched from, and tells primary from
// secondary watches.
func (t *tracer) connect(w *Watcher, h *fact.HandlerRegistration, hfs []string) {
	types, cands := t.controllerTypes(w, h, hfs)
	var entry string
	if wiring := bestWiring(cands); wiring != nil {
		entry = wiring.Sync.Symbol
		s := t.step(entry, wiring.Sync.Decl, "")
		s.At = wiring.At
		w.Sync = &s
		w.QueueField = wiring.Queue
		t.queuePath(w, wiring, hfs)
	} else {
		entry = t.syncByName(w, types)
	}
	if entry == "" && len(hfs) > 0 {
		entry = hfs[0]
		w.Unconnected = append(w.Unconnected, note("no-sync"))
	}
	if entry == "" {
		w.Status = "unconnected"
		w.Reason = note("nothing")
		return
	}
	t.classify(w, h, entry, types)
	w.entry = entry
}

// controllerTypes returns the candidate controller types of a watch — the
// handlers' receivers, then the types of wirings made in the registering
// function (the constructor) — and the wirings of those types and made
// there. Only types of the component's own packages count: handlers also
// call client-go (cache.ResourceEventHandlerFuncs.OnAdd) and helpers.
func (t *tracer) controllerTypes(w *Watcher, h *fact.HandlerRegistration, hfs []string) (types []string, cands []fact.Wiring) {
	addType := func(rt string) {
		if rt != "" && !contains(types, rt) && within(fact.SymbolDir(rt), w.Component) {
			types = append(types, rt)
		}
	}
	for _, fn := range hfs {
		addType(recvType(fn))
	}
	addType(recvType(h.Caller.Symbol))
	for _, ty := range types {
		cands = append(cands, t.wirings[ty]...)
	}
	for _, ws := range t.sortedWirings() {
		if ws.At.Path == h.Caller.Decl.Path && ws.At.StartLine >= h.Caller.Decl.StartLine && ws.At.EndLine <= h.Caller.Decl.EndLine {
			if within(fact.SymbolDir(ws.Type), w.Component) {
				cands = append(cands, ws)
				addType(ws.Type)
			}
		}
	}
	return types, cands
}

// syncByName finds, for a controller without a sync-handler wiring, the
// entry its writes are searched from: the sync method its Run loop
// reaches, else Run itself. It sets w.Sync and says how in w.Unconnected;
// "" when no type has a Run method with calls.
func (t *tracer) syncByName(w *Watcher, types []string) string {
	for _, ty := range types {
		run := ty + ".Run"
		if len(t.out[run]) == 0 {
			continue
		}
		entry := run
		// The worker loop usually calls a method named sync…
		// directly (statefulset: Run → worker →
		// processNextWorkItem → sync → syncStatefulSet): take the
		// first one naming a watched kind, else the first.
		watched := t.watchedKinds(w.Component)
		s := t.bfs([]string{run}, syncSearchDepth, w.Component)
		var syncs []string
		for _, fn := range s.order {
			if recvType(fn) == ty && strings.HasPrefix(funcName(fn), "sync") && !strings.Contains(nameOf(fn), "$") {
				syncs = append(syncs, fn)
			}
		}
		if len(syncs) > 0 {
			entry = syncs[0]
			for _, fn := range syncs {
				if k, _ := primaryKinds([]string{funcName(fn)}, watched); len(k) > 0 {
					entry = fn
					break
				}
			}
			path := t.path(s, entry, t.decl(entry))
			var names []string
			for _, st := range path {
				names = append(names, funcName(st.Symbol))
			}
			w.Unconnected = append(w.Unconnected, note("sync-by-name", fact.ShortSymbol(ty), strings.Join(names, " → ")))
		} else {
			w.Unconnected = append(w.Unconnected, note("sync-from-run", fact.ShortSymbol(ty), fact.ShortSymbol(run)))
		}
		st := t.step(entry, t.decl(entry), "")
		st.At = st.Decl
		w.Sync = &st
		return entry
	}
	return ""
}

// classify tells a secondary watch — one whose sync works on another
// resource than the one watched — from a primary one, by the names of
// the sync, the controller types and the component.
func (t *tracer) classify(w *Watcher, h *fact.HandlerRegistration, entry string, types []string) {
	var names []string
	names = append(names, funcName(entry))
	for _, ty := range types {
		for _, x := range t.wirings[ty] {
			names = append(names, funcName(x.Sync.Symbol))
		}
	}
	for _, ty := range types {
		names = append(names, funcName(ty))
	}
	names = append(names, path.Base(w.Component))
	watched := t.watchedKinds(w.Component)
	primary, by := primaryKinds(names, watched)
	switch {
	case len(primary) > 0 && !contains(primary, h.Informer.Kind):
		w.Status = "secondary"
		w.Reason = note("secondary", strings.Join(primary, ", "), by)
	case len(primary) == 0 && len(watched) > 1:
		w.Status = "secondary"
		w.Reason = note("secondary-unknown", strings.Join(watched, ", "), funcName(entry))
	}
}

func (t *tracer) sortedWirings() []fact.Wiring { return t.in.Facts.Wirings }

// bestWiring picks a controller's sync wiring: one with a worker loop,
// else a field named sync…, else one with a queue whose sync is not itself
// an enqueuer (`enqueueDeployment = dc.enqueue` wires an enqueuer, not a
// sync).
func bestWiring(ws []fact.Wiring) *fact.Wiring {
	for _, pass := range []func(w fact.Wiring) bool{
		func(w fact.Wiring) bool { return w.Worker != nil },
		func(w fact.Wiring) bool { return strings.Contains(strings.ToLower(w.Field), "sync") },
		func(w fact.Wiring) bool {
			// A field given a function of another package is a hook
			// (the node lifecycle controller's now = metav1.Now), not a sync.
			if w.Queue == "" || fact.SymbolDir(w.Sync.Symbol) != fact.SymbolDir(w.Type) || !syncLike(w) {
				return false
			}
			for _, e := range w.Enqueuers {
				if e.Symbol == w.Sync.Symbol {
					return false
				}
			}
			return true
		},
	} {
		for i := range ws {
			if pass(ws[i]) {
				return &ws[i]
			}
		}
	}
	return nil
}

// syncLike reports whether a wiring's field or function is named as a
// sync function is: sync…, handle…, process…, reconcile…, work… (the node
// lifecycle controller's enterPartialDisruptionFunc = nc.ReducedQPSFunc
// is a hook beside a queue, not what the queue's worker calls).
func syncLike(w fact.Wiring) bool {
	for _, n := range []string{w.Field, funcName(w.Sync.Symbol)} {
		n = strings.ToLower(n)
		for _, p := range []string{"sync", "handle", "process", "reconcile", "work"} {
			if strings.Contains(n, p) {
				return true
			}
		}
	}
	return false
}

// queuePath finds the path from the handler to the wiring's enqueuers.
func (t *tracer) queuePath(w *Watcher, wiring *fact.Wiring, hfs []string) {
	if wiring.Queue == "" || len(hfs) == 0 {
		if wiring.Queue == "" {
			w.Unconnected = append(w.Unconnected, note("no-queue", fact.ShortSymbol(wiring.Type)))
		}
		return
	}
	enq := map[string]bool{}
	for _, e := range wiring.Enqueuers {
		enq[e.Symbol] = true
	}
	// The chosen handler alone first: its own path is the one to show.
	for _, from := range [][]string{hfs[:1], hfs} {
		s := t.bfs(from, queueSearchDepth, "")
		for _, fn := range s.order {
			if enq[fn] {
				w.Queue = t.path(s, fn, t.enqueueSite(fn, wiring))
				return
			}
		}
	}
	// A handler calling the enqueuer through a func field
	// (dc.enqueueDeployment = dc.enqueue): call edges stop at the field.
	for _, x := range t.wirings[wiring.Type] {
		if enq[x.Sync.Symbol] && x.Sync.Symbol != wiring.Sync.Symbol {
			s := t.step(x.Sync.Symbol, x.Sync.Decl, "func field")
			s.At = t.enqueueSite(x.Sync.Symbol, wiring)
			w.Queue = []Step{s}
			w.Unconnected = append(w.Unconnected, note("queue-by-field", x.Field, fmt.Sprintf("%s:%d", x.At.Path, x.At.StartLine)))
			return
		}
	}
	w.Unconnected = append(w.Unconnected, note("no-queue-path", fact.ShortSymbol(wiring.Type)+"."+wiring.Queue, queueSearchDepth))
}

// enqueueSite is where an enqueuer adds to the queue: its declaration
// (the facts record the enqueuer, not the Add call).
func (t *tracer) enqueueSite(fn string, _ *fact.Wiring) fact.Location {
	return t.decl(fn)
}

// watchedKinds returns the kinds a component watches, sorted.
func (t *tracer) watchedKinds(component string) []string {
	var ks []string
	for _, h := range t.in.Facts.Handlers {
		if dirOf(h.At.Path) == component && h.Informer.Kind != "" && !contains(ks, h.Informer.Kind) {
			ks = append(ks, h.Informer.Kind)
		}
	}
	sort.Strings(ks)
	return ks
}

// primaryKinds returns the watched kinds the first name that names any
// of them names (case-insensitively; a kind inside a longer matched kind,
// Pod inside PodGroup, does not count), and that name.
func primaryKinds(names, kinds []string) ([]string, string) {
	for _, n := range names {
		ln := strings.ToLower(n)
		var m []string
		for _, k := range kinds {
			if strings.Contains(ln, strings.ToLower(k)) {
				m = append(m, k)
			}
		}
		var out []string
		for _, k := range m {
			inside := false
			for _, k2 := range m {
				if len(k2) > len(k) && strings.Contains(strings.ToLower(k2), strings.ToLower(k)) {
					inside = true
				}
			}
			if !inside {
				out = append(out, k)
			}
		}
		if len(out) > 0 {
			return out, n
		}
	}
	return nil, ""
}

func (t *tracer) reflectorWatcher(r reflector) *Watcher {
	w := &Watcher{
		Component:     r.component,
		Name:          ComponentName(r.component),
		Via:           "reflector",
		Registration:  r.lw,
		FieldSelector: r.selector,
		Handler:       r.refl,
		Status:        "unconnected",
		Reason:        note("raw-reflector"),
	}
	if r.push != nil {
		w.Queue = []Step{*r.push}
	}
	if r.refl == nil {
		w.Unconnected = append(w.Unconnected, note("no-reflector"))
	}
	w.Unconnected = append(w.Unconnected, note("reflector-push"))
	return w
}

// expand searches the watcher's sync path for writes and follows them.
func (t *tracer) expand(w *Watcher, watched fact.Resource, level int, ancestors []string) {
	if w.entry == "" {
		return
	}
	s := t.bfs([]string{w.entry}, t.opts.MaxCallDepth, w.Component)
	type group struct {
		key   string
		sites []WriteSite
		dist  int
		verbs []string
		w     fact.Write
	}
	groups := map[string]*group{}
	var keys []string
	for _, fn := range s.order {
		for _, wr := range t.writes[fn] {
			if t.foreign(dirOf(wr.At.Path), w.Component) {
				continue
			}
			k := wr.Resource.Group + "/" + wr.Resource.Resource + "/" + wr.Subresource + "/" + wr.APIVerb
			g := groups[k]
			if g == nil {
				g = &group{key: k, dist: s.dist[fn], w: wr}
				groups[k] = g
				keys = append(keys, k)
			}
			g.sites = append(g.sites, WriteSite{Write: wr, Path: t.path(s, fn, wr.At)})
			if !contains(g.verbs, wr.Verb) {
				g.verbs = append(g.verbs, wr.Verb)
			}
		}
	}
	// keys are in the order first reached: nearest first.
	for _, k := range keys {
		g := groups[k]
		sort.Strings(g.verbs)
		if followed(g.w) {
			hop := &WriteHop{Resource: g.w.Resource, Verb: strings.Join(g.verbs, ","), APIVerb: g.w.APIVerb, Subresource: g.w.Subresource}
			n := min(len(g.sites), t.opts.PathsPerWrite)
			hop.Sites, hop.More = g.sites[:n], len(g.sites)-n
			event := "add"
			if g.w.Subresource == "binding" {
				event = "update"
			}
			hop.Next = t.node(g.w.Resource, event, g.w.Subresource, level+1, ancestors)
			w.Writes = append(w.Writes, hop)
			continue
		}
		w.Other = append(w.Other, WriteSummary{
			Resource: g.w.Resource, APIVerb: g.w.APIVerb, Subresource: g.w.Subresource,
			Verbs: g.verbs, Same: sameResource(g.w.Resource, watched),
			First: g.sites[0], Count: len(g.sites),
		})
	}
	// Writes of other resources first, then the watched resource's own
	// (status updates, finalizer patches), each nearest first.
	sort.SliceStable(w.Other, func(i, j int) bool { return !w.Other[i].Same && w.Other[j].Same })
	if len(w.Writes) == 0 && len(w.Other) == 0 {
		w.Unconnected = append(w.Unconnected, note("no-write", t.opts.MaxCallDepth, fact.ReadableSymbol(w.entry)))
	}
}

// followed reports whether a write leads to a next hop: a creation makes
// watchers see a new object (an add event), and a binding makes the pod
// appear to its node's kubelet. Updates, patches and deletes are listed,
// not followed: every controller patches statuses, and following those
// would put every watcher of every resource into every trace.
func followed(w fact.Write) bool {
	return w.APIVerb == "create" && (w.Subresource == "" || w.Subresource == "binding")
}

func locLess(a, b fact.Location) bool {
	if a.Path != b.Path {
		return a.Path < b.Path
	}
	return a.StartLine < b.StartLine
}

// ComponentName is a reader's label for a component directory:
// "deployment controller", "kube-scheduler", "kubelet", "kube-proxy".
func ComponentName(dir string) string {
	switch {
	case within(dir, "pkg/scheduler"):
		return "kube-scheduler"
	case within(dir, "pkg/kubelet"):
		return "kubelet"
	case within(dir, "pkg/proxy") || within(dir, "cmd/kube-proxy"):
		return "kube-proxy"
	case strings.HasPrefix(dir, "pkg/controller/"):
		rest := strings.TrimPrefix(dir, "pkg/controller/")
		return strings.ReplaceAll(rest, "/", " ") + " controller"
	case within(dir, "cmd/kube-controller-manager"):
		return "kube-controller-manager"
	case strings.Contains(dir, "k8s.io/apiserver/"):
		return "kube-apiserver"
	}
	return dir
}
