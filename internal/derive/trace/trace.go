package trace

import (
	"fmt"
	"sort"
	"strings"

	"github.com/kubewalk/kubewalk/analyzer/fact"
)

// Input is what a trace is derived from: the analyzer's facts and symbol
// index, and optionally the tree's files. Nothing here is read from disk by
// this package; Source is the caller's.
type Input struct {
	Facts   *fact.Facts
	Symbols []fact.Symbol // sorted by Name, as analyzer.Result.Symbols
	// Source returns a file of the tree by its repo-relative path. It is
	// optional: without it Markdown excerpts carry no lines: pattern.
	Source func(path string) ([]byte, error)
}

// Options tune a trace.
type Options struct {
	// Depth is how many resource hops (a write seen by watchers of the
	// written resource) are followed below the root. 0 means DefaultDepth.
	Depth int
	// MaxCallDepth bounds the call path searched from a sync function to
	// a write. 0 means DefaultMaxCallDepth.
	MaxCallDepth int
	// PathsPerWrite is how many call sites are shown for one kind of
	// write (resource, subresource, verb) of one watcher; further sites
	// are counted. 0 means DefaultPathsPerWrite.
	PathsPerWrite int
}

// Defaults. Depth 4 covers the whole chain from a Deployment (ReplicaSet,
// Pod, Pod binding → the kubelet) with one hop to spare. Call paths in
// the default roots are at most 8 deep from a sync function to the writes
// that matter (the scheduler's Run → … → DefaultBinder.Bind is 8); 12
// leaves room and still keeps a breadth-first search within one
// component's code. Three paths per kind of write shows alternatives
// (the scheduler binds through DefaultBinder.Bind and through its API
// dispatcher) without listing every helper that patches a status.
const (
	DefaultDepth         = 4
	DefaultMaxCallDepth  = 12
	DefaultPathsPerWrite = 3
)

// Trace is a derived chain: the root resource, its watchers, their writes
// and, recursively, the watchers of what they write.
type Trace struct {
	Tag  string `json:"tag"`
	Root *Node  `json:"root"`
	// Depth is the depth the trace was derived to.
	Depth int `json:"depth"`
	// APIServer is where the API server handles a write before any
	// watcher sees it (the generic registry's Store.Create, the create
	// endpoint handler), for the one note at the top; empty when those
	// symbols are not in the index.
	APIServer []Step `json:"apiServer,omitempty"`
}

// Node is a resource as the watchers below see it: the root resource, or
// a resource written by the watcher above.
type Node struct {
	Resource fact.Resource `json:"resource"`
	// Event is the watch event the write produces for informers: "add"
	// for a create, "update" for a binding (the API server sets
	// spec.nodeName on the pod).
	Event string `json:"event"`
	// Subresource is the written subresource ("binding"), "" for the
	// object itself.
	Subresource string     `json:"subresource,omitempty"`
	Watchers    []*Watcher `json:"watchers,omitempty"`
	// Notes explain what could not be connected at this node.
	Notes []Note `json:"notes,omitempty"`
}

// Watcher is one component watching a Node's resource.
type Watcher struct {
	// Component is the registering package relative to the tree layout,
	// "pkg/controller/deployment"; Name is a reader's label for it,
	// "deployment controller".
	Component string `json:"component"`
	Name      string `json:"name"`
	// Via is "informer" (an event handler registration) or "reflector"
	// (a raw list-watch, such as the kubelet's API-server pod source).
	Via string `json:"via"`
	// Registration is the AddEventHandler call or the list-watch.
	Registration Step `json:"registration"`
	// FieldSelector is a reflector's field selector as written, when the
	// source shows one ("spec.nodeName").
	FieldSelector string `json:"fieldSelector,omitempty"`
	// Handler is the event handler for Node.Event (falling back to the
	// registration's other handlers), or the reflector's store.
	Handler *Step `json:"handler,omitempty"`
	// Queue is the path from the handler to the function adding to the
	// controller's work queue (its last step), when found.
	Queue []Step `json:"queue,omitempty"`
	// QueueField is the work queue field, "queue".
	QueueField string `json:"queueField,omitempty"`
	// Sync is the function the worker calls (Wiring.Sync), or the
	// entry point the writes were searched from when there is no wiring.
	Sync *Step `json:"sync,omitempty"`
	// Status says how far this watcher was followed: "expanded",
	// "ancestor" (already on the path above: a feedback loop), "seen"
	// (expanded elsewhere in the tree), "secondary" (its sync works on
	// another resource; this watch only enqueues owners or dependents),
	// "depth" (at --depth), "after-binding" (a nodeName-selected source
	// that sees the object only once it is bound) or "unconnected".
	Status string `json:"status"`
	// Reason explains any Status but "expanded", and the fallbacks taken.
	Reason Note `json:"reason,omitzero"`
	// Unconnected lists the hops that could not be connected, and why.
	Unconnected []Note `json:"unconnected,omitempty"`
	// Writes are the followed writes (creations and bindings), each with
	// the watchers of what it writes.
	Writes []*WriteHop `json:"writes,omitempty"`
	// Other summarises the writes that are not followed.
	Other []WriteSummary `json:"other,omitempty"`

	entry string // the function the writes are searched from
}

// Step is one function on a chain.
type Step struct {
	Symbol string        `json:"symbol"`
	Decl   fact.Location `json:"decl"`
	// At is where this step hands over to the next: the call site of the
	// next step, or the write or registration itself.
	At fact.Location `json:"at"`
	// Kind is the call edge's kind into this step ("static",
	// "interface", "method value", …), "" for the first step.
	Kind string `json:"kind,omitempty"`
}

// WriteHop is one kind of write a watcher's sync path makes and follows.
type WriteHop struct {
	Resource    fact.Resource `json:"resource"`
	Verb        string        `json:"verb"`
	APIVerb     string        `json:"apiVerb"`
	Subresource string        `json:"subresource,omitempty"`
	// Sites are the shortest call paths, sync → … → write, at most
	// Options.PathsPerWrite; More counts the others.
	Sites []WriteSite `json:"sites"`
	More  int         `json:"more,omitempty"`
	// Next is the written resource and its watchers.
	Next *Node `json:"next,omitempty"`
}

// WriteSite is one write and the path reaching it.
type WriteSite struct {
	Write fact.Write `json:"write"`
	Path  []Step     `json:"path"`
}

// WriteSummary is a group of writes that is listed but not followed.
type WriteSummary struct {
	Resource    fact.Resource `json:"resource"`
	APIVerb     string        `json:"apiVerb"`
	Subresource string        `json:"subresource,omitempty"`
	// Verbs are the client verbs, deduplicated and sorted.
	Verbs []string `json:"verbs"`
	// Same is true for writes of the watched resource itself.
	Same bool `json:"same,omitempty"`
	// First is the nearest site; Count the number of sites.
	First WriteSite `json:"first"`
	Count int       `json:"count"`
}

// Hops flattens the trace depth first into one line per hop: watchers as
// "watch <resource> <component> <status>", write sites as
// "write <resource>[/<sub>] <caller>" with the caller's short name. It is
// the chain without its call paths and locations, to compare two traces
// or look for a hop by name.
func (tr *Trace) Hops() []string {
	var out []string
	var node func(n *Node)
	node = func(n *Node) {
		for _, w := range n.Watchers {
			out = append(out, fmt.Sprintf("watch %s %s %s", n.Resource.Resource, w.Name, w.Status))
			for _, h := range w.Writes {
				res := h.Resource.Resource
				if h.Subresource != "" {
					res += "/" + h.Subresource
				}
				for _, s := range h.Sites {
					out = append(out, fmt.Sprintf("write %s %s", res, fact.ShortSymbol(s.Write.Caller.Symbol)))
				}
				if h.Next != nil {
					node(h.Next)
				}
			}
		}
	}
	node(tr.Root)
	return out
}

// ErrUnknownKind is returned (wrapped) when no fact names the kind asked for.
var ErrUnknownKind = fmt.Errorf("unknown resource kind")

// Kinds returns the resources the facts know (watched or written), sorted
// by resource then group, for suggestions and completions.
func Kinds(f *fact.Facts) []fact.Resource {
	seen := map[string]fact.Resource{}
	add := func(r fact.Resource) {
		if r.Resource != "" {
			seen[r.Group+"/"+r.Resource] = r
		}
	}
	for _, h := range f.Handlers {
		add(h.Informer)
	}
	for _, w := range f.Writes {
		add(w.Resource)
	}
	return sortedResources(seen)
}

// FindKind resolves a kind as the user types it — Kind, plural resource or
// kubectl short name (deploy, rs, po, svc, …), in any case, optionally
// "resource.group" — against the facts. Of several
// groups with the same name, the core group wins, then the first group
// alphabetically.
func FindKind(f *fact.Facts, name string) (fact.Resource, error) {
	q := strings.ToLower(strings.TrimSpace(name))
	group := ""
	hasGroup := false
	if i := strings.IndexByte(q, '.'); i >= 0 {
		q, group, hasGroup = q[:i], q[i+1:], true
	}
	if long, ok := shortNames[q]; ok {
		q = long
	}
	var match []fact.Resource
	for _, r := range Kinds(f) {
		if hasGroup && r.Group != group {
			continue
		}
		if strings.ToLower(r.Kind) == q || r.Resource == q {
			match = append(match, r)
		}
	}
	if len(match) == 0 {
		var names []string
		for _, r := range Kinds(f) {
			names = append(names, r.Resource)
		}
		return fact.Resource{}, fmt.Errorf("%w %q (known: %s)", ErrUnknownKind, name, strings.Join(dedup(names), ", "))
	}
	sort.SliceStable(match, func(i, j int) bool {
		if (match[i].Group == "") != (match[j].Group == "") {
			return match[i].Group == ""
		}
		return match[i].Group < match[j].Group
	})
	return match[0], nil
}

// shortNames are the short names kubectl accepts for the built-in
// resources (each type's ShortNames() in the API server's REST storage,
// as `kubectl api-resources` lists them), to their plural resource.
var shortNames = map[string]string{
	"cm":     "configmaps",
	"cj":     "cronjobs",
	"cs":     "componentstatuses",
	"csr":    "certificatesigningrequests",
	"deploy": "deployments",
	"ds":     "daemonsets",
	"ep":     "endpoints",
	"ev":     "events",
	"hpa":    "horizontalpodautoscalers",
	"ing":    "ingresses",
	"limits": "limitranges",
	"netpol": "networkpolicies",
	"no":     "nodes",
	"ns":     "namespaces",
	"pc":     "priorityclasses",
	"pdb":    "poddisruptionbudgets",
	"po":     "pods",
	"pv":     "persistentvolumes",
	"pvc":    "persistentvolumeclaims",
	"quota":  "resourcequotas",
	"rc":     "replicationcontrollers",
	"rs":     "replicasets",
	"sa":     "serviceaccounts",
	"sc":     "storageclasses",
	"sts":    "statefulsets",
	"svc":    "services",
}

func dedup(s []string) []string {
	var out []string
	for i, x := range s {
		if i == 0 || x != s[i-1] {
			out = append(out, x)
		}
	}
	return out
}

// sameResource compares group and resource; versions differ between an
// informer and a client of the same resource without changing what is
// watched.
func sameResource(a, b fact.Resource) bool {
	return a.Group == b.Group && a.Resource == b.Resource
}

// Derive derives the trace from root.
func Derive(in Input, root fact.Resource, opts Options) *Trace {
	return DeriveMany(in, []fact.Resource{root}, opts)[0]
}

// DeriveMany derives the trace of each root with one set of indexes over
// the facts (building them is most of a single Derive's cost); each trace
// is the one Derive gives for its root.
func DeriveMany(in Input, roots []fact.Resource, opts Options) []*Trace {
	if opts.Depth <= 0 {
		opts.Depth = DefaultDepth
	}
	if opts.MaxCallDepth <= 0 {
		opts.MaxCallDepth = DefaultMaxCallDepth
	}
	if opts.PathsPerWrite <= 0 {
		opts.PathsPerWrite = DefaultPathsPerWrite
	}
	t := newTracer(in, opts)
	out := make([]*Trace, len(roots))
	for i, root := range roots {
		t.expanded = map[string]bool{}
		tr := &Trace{Tag: in.Facts.Tag, Depth: opts.Depth, APIServer: t.apiServer()}
		tr.Root = t.node(root, "add", "", 0, nil)
		out[i] = tr
	}
	return out
}

// sortedResources returns a set's resources sorted by resource then group.
func sortedResources(seen map[string]fact.Resource) []fact.Resource {
	out := make([]fact.Resource, 0, len(seen))
	for _, r := range seen {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Resource != out[j].Resource {
			return out[i].Resource < out[j].Resource
		}
		return out[i].Group < out[j].Group
	})
	return out
}
