package analyzer

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
	"sort"
	"sync"
	"time"

	"github.com/kubewalk/kubewalk/analyzer/fact"
)

// Config says what to analyze.
type Config struct {
	// Dir is the tree root: the Kubernetes repository layout at a tag.
	Dir string
	// Env is extra environment for the go command, after the process's own
	// (source.Tree.Env: GOWORK=…, GOFLAGS=-mod=readonly).
	Env []string
	// Roots are package patterns relative to Dir ("./pkg/controller/...")
	// or import paths. Empty means DefaultRoots.
	Roots []string
	// Tag and Commit identify the release; they are copied into Facts and
	// are part of the cache key.
	Tag, Commit string
	// Logf, when not nil, receives progress and every unexpected package
	// error. It may be called from several goroutines at once.
	Logf func(format string, args ...any)
	// MemoryLimit is the soft memory limit (bytes, see
	// runtime/debug.SetMemoryLimit) set while loading, with the GC
	// otherwise relaxed; the previous settings are restored afterwards.
	// 0 means DefaultMemoryLimit; negative leaves the GC alone.
	MemoryLimit int64
}

// DefaultMemoryLimit is the soft memory limit while loading: generous
// enough that the GC seldom runs during a load of DefaultRoots, whose live
// heap stays below it, and low enough to bound the load's peak RSS. The
// figures, and a higher limit tried, are in bench/README.md.
const DefaultMemoryLimit = 1200 << 20

func (c Config) logf() func(string, ...any) {
	if c.Logf == nil {
		return func(string, ...any) {}
	}
	return c.Logf
}

func (c Config) roots() []string {
	if len(c.Roots) == 0 {
		return DefaultRoots
	}
	return c.Roots
}

// DefaultRoots are the packages analyzed when Config.Roots is empty: the
// controllers, the scheduler and the kubelet, the controller manager that
// starts the controllers, the API server's request path (endpoint
// handlers, generic registry, etcd3 storage and its watch cache), and what
// the built-in walkthroughs reference beyond those: kubectl apply and
// kube-proxy. Symbols of every in-tree package these import are indexed
// too, so walkthroughs can reference client-go, apimachinery or
// pkg/registry without listing them here; roots additionally get facts
// and cross-referenced source pages.
var DefaultRoots = []string{
	"./cmd/kube-controller-manager/app",
	"./pkg/controller/...",
	"./pkg/scheduler/...",
	"./pkg/kubelet/...",
	// The kubelet's status manager patches pods/status through
	// statusutil.PatchPodStatus, outside pkg/kubelet: without it the
	// write a node makes most often has no call site.
	"./pkg/util/pod",
	"k8s.io/apiserver/pkg/endpoints/handlers",
	"k8s.io/apiserver/pkg/registry/generic/registry",
	"k8s.io/apiserver/pkg/storage/etcd3",
	"k8s.io/apiserver/pkg/storage/cacher",
	"k8s.io/kubectl/pkg/cmd/apply",
	// The other kubectl commands the recorded scenarios run, whose
	// writes are theirs: kubectl scale and delete. (kubectl set image's
	// package holds every set command; its write is left to the
	// scenario's step.)
	"k8s.io/kubectl/pkg/cmd/scale",
	"k8s.io/kubectl/pkg/cmd/delete",
	"./cmd/kube-proxy/app",
	"./pkg/proxy/...",
	// The endpointslice controller's writes are made by the reconciler
	// of the k8s.io/endpointslice staging module (since v1.28), which
	// pkg/controller/endpointslice calls: without it the EndpointSlice a
	// Service gets has no call site.
	"k8s.io/endpointslice",
	// What writes and watches while the control plane starts, before
	// anyone calls it: the API server's post-start hooks and their
	// controllers (the kubernetes Service and its endpoints, system
	// namespaces, identity leases, the extension-apiserver-authentication
	// config map), the bootstrap RBAC policy and its reconciliation, the
	// API Priority and Fairness configuration and its status, the
	// aggregator's APIService registration, the built-in priority
	// classes; the API server's admission plugins (their informers are
	// the API server's watches); kube-controller-manager's client builder
	// (a service account token per controller); the leases of nodes and
	// API servers; the event broadcasters' sinks. Every one of them is
	// already a dependency of the roots above, so they add bodies to
	// check, not packages to load.
	"./pkg/controlplane",
	"./pkg/controlplane/apiserver",
	"./pkg/controlplane/controller/...",
	"./pkg/controlplane/reconcilers",
	"./pkg/registry/rbac/rest",
	"k8s.io/component-helpers/auth/rbac/reconciliation",
	"./pkg/registry/flowcontrol/ensurer",
	"./pkg/registry/flowcontrol/rest",
	"k8s.io/apiserver/pkg/util/flowcontrol",
	"k8s.io/kube-aggregator/pkg/controllers/autoregister",
	// The aggregator's availability controllers watch APIServices,
	// Services and Endpoints from the API server's start on.
	"k8s.io/kube-aggregator/pkg/controllers/status/...",
	"./pkg/registry/scheduling/rest",
	"./plugin/pkg/admission/...",
	"k8s.io/apiserver/pkg/admission/plugin/...",
	// The admission webhooks' configuration informers.
	"k8s.io/apiserver/pkg/admission/configuration",
	// The API server's authenticators watch the
	// extension-apiserver-authentication config map with informers of
	// their own.
	"k8s.io/apiserver/pkg/authentication/request/headerrequest",
	"k8s.io/apiserver/pkg/server/dynamiccertificates",
	"k8s.io/controller-manager/pkg/clientbuilder",
	"k8s.io/component-helpers/apimachinery/lease",
	// The kubelet patches its node's status through component-helpers'
	// nodeutil; the controller manager and the scheduler hold their
	// leader-election leases through resourcelock.
	"k8s.io/component-helpers/node/util",
	"k8s.io/client-go/tools/leaderelection/resourcelock",
	"k8s.io/client-go/tools/events",
	"k8s.io/client-go/tools/record",
	// The API server's other watches at start-up: the RBAC authorizer's
	// listers and the Node authorizer's graph (its informers' handlers
	// are registered in the graph populator), the ClusterIP allocator and
	// its repair loops (service CIDRs, IP addresses), the endpoint slice
	// getter of the service resolver the API server reaches aggregated
	// APIs and webhooks with, and the quota evaluators the ResourceQuota
	// admission plugin (and the controller manager's quota controller)
	// use, which watch device classes and resource claims. Like the
	// start-up roots above, each is already a dependency of the roots.
	"./pkg/kubeapiserver/authorizer",
	"./plugin/pkg/auth/authorizer/node",
	"./pkg/registry/core/service/ipallocator",
	"./pkg/registry/core/service/ipallocator/controller",
	"k8s.io/apiserver/pkg/util/proxy",
	"./pkg/quota/v1/evaluator/core",
	// The scheduler's resource slice tracker for dynamic resource
	// allocation, which the scheduler hands its informers; the kubelet's
	// CSI node info manager, which creates the node's CSINode. The
	// tracker is newer than some releases kubewalk reads (v1.31 has none):
	// as a pattern it matches nothing there, where an import path would
	// be a missing root.
	"k8s.io/dynamic-resource-allocation/resourceslice/tracker/...",
	"./pkg/volume/csi/nodeinfomanager",
}

// Result is an analyzed tree: facts, the symbol index and identifier
// cross-references. It holds no go/types or go/ast values, so a Result
// read from the cache is as good as a fresh one.
type Result struct {
	// Symbols are sorted by Name: every package-level declaration and
	// method of every loaded package whose files lie in the tree.
	Symbols []fact.Symbol
	// Xrefs are sorted by Path, one per non-test Go file of the root
	// packages.
	Xrefs []fact.FileXref

	facts fact.Facts
	// dir is the tree root, for reading declarations in Resolve.
	dir string
	// stats are the load's counters; zero for a result read from the cache.
	stats loadStats
	// pkgs is the set of import paths with symbols; built once, lazily.
	pkgsOnce sync.Once
	pkgs     map[string]bool
}

// Facts returns the discovered facts. The walkthrough resolver and the
// site read them through this method (walkthrough.Resolver).
func (r *Result) Facts() *fact.Facts { return &r.facts }

// Dir returns the tree root the result was computed from.
func (r *Result) Dir() string { return r.dir }

// Analyze loads the tree, runs Passes (side by side), and builds the symbol
// index and the cross-references of the root files.
func Analyze(ctx context.Context, cfg Config) (*Result, error) {
	logf := cfg.logf()
	if cfg.MemoryLimit >= 0 {
		limit := cfg.MemoryLimit
		if limit == 0 {
			limit = DefaultMemoryLimit
		}
		// The GC dominates a load at the default GOGC (the heap is
		// mostly live data, so a cycle frees little): let the heap grow
		// to the limit instead, then restore.
		oldLimit := debug.SetMemoryLimit(limit)
		oldPercent := debug.SetGCPercent(400)
		defer func() {
			debug.SetGCPercent(oldPercent)
			debug.SetMemoryLimit(oldLimit)
		}()
	}
	t0 := time.Now()
	prog, syms, stats, err := load(ctx, cfg)
	if err != nil {
		return nil, err
	}
	platform, err := goPlatform(ctx, prog.Dir, cfg.Env)
	if err != nil {
		return nil, err
	}
	facts := fact.Facts{Schema: fact.SchemaVersion, Tag: cfg.Tag, Commit: cfg.Commit, Roots: sortedCopy(cfg.roots()), Platform: platform}
	for path, p := range prog.Packages {
		if len(p.Errors) > 0 {
			facts.Incomplete = append(facts.Incomplete, path)
		}
	}
	sort.Strings(facts.Incomplete)
	t1 := time.Now()
	// The cross-references only read the program: build them beside the
	// passes.
	xrefc := make(chan []fact.FileXref, 1)
	go func() { xrefc <- buildXrefs(prog) }()
	if err := runSideBySide(ctx, prog, &facts, Passes, logf); err != nil {
		return nil, err
	}
	t2 := time.Now()
	xrefs := <-xrefc
	logf("analyzer: %d symbols; passes %v; xrefs of %d files (waited %v); total %v",
		len(syms), t2.Sub(t1).Round(time.Millisecond), len(xrefs), time.Since(t2).Round(time.Millisecond), time.Since(t0).Round(time.Millisecond))
	return &Result{Symbols: syms, Xrefs: xrefs, facts: facts, dir: prog.Dir, stats: stats}, nil
}

// goPlatform is the GOOS/GOARCH the go command lists packages for in dir
// with env, as listAndCheck runs it: the platform the facts describe.
func goPlatform(ctx context.Context, dir string, env []string) (string, error) {
	v, err := goEnv(ctx, dir, env, "GOOS", "GOARCH")
	if err != nil {
		return "", err
	}
	return v[0] + "/" + v[1], nil
}

// Lookup returns the symbol named name ("importpath.Name" or
// "importpath.Type.Method"). When a name is declared more than once (init
// functions) the first in path order is returned.
func (r *Result) Lookup(name string) (fact.Symbol, bool) { return lookupSymbol(r.Symbols, name) }

func lookupSymbol(syms []fact.Symbol, name string) (fact.Symbol, bool) {
	if name == "" {
		return fact.Symbol{}, false
	}
	i := sort.Search(len(syms), func(i int) bool { return syms[i].Name >= name })
	if i < len(syms) && syms[i].Name == name {
		return syms[i], true
	}
	return fact.Symbol{}, false
}

func sortedCopy(s []string) []string {
	c := append([]string(nil), s...)
	sort.Strings(c)
	return c
}

// runSideBySide runs passes as RunPasses does, but, when every pass
// requires the index at most, builds the index once and then runs the
// passes on GOMAXPROCS goroutines, the longest (the calls pass, listed
// last) first: they run one after another otherwise, on one core of two
// for over a second. Each discovery pass returns facts of its own kinds
// only and reads the index and the program, neither of which changes
// once built, so the facts are the same as in order; they are added to
// facts in the passes' order once all have run. A pass that
// requires another falls back to RunPasses.
func runSideBySide(ctx context.Context, prog *Program, facts *fact.Facts, passes []*Pass, logf func(string, ...any)) error {
	for _, p := range passes {
		for _, r := range p.Requires {
			if r != indexPass {
				return RunPasses(ctx, prog, facts, passes, logf)
			}
		}
	}
	t := time.Now()
	ix := buildIndex(prog)
	calls, nodes := ix.visited()
	logf("analyzer: pass %s: %v (%d calls resolved, %d body nodes kept)", indexPass.Name, time.Since(t).Round(time.Millisecond), calls, nodes)
	errs := make([]error, len(passes))
	took := make([]time.Duration, len(passes))
	found := make([]any, len(passes))
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for i := len(passes) - 1; i >= 0; i-- {
		p := passes[i]
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			if errs[i] = ctx.Err(); errs[i] != nil {
				return
			}
			pr := &PassRun{Prog: prog, Tag: facts.Tag, ResultOf: map[*Pass]any{}}
			if len(p.Requires) > 0 {
				pr.ResultOf[indexPass] = ix
			}
			t := time.Now()
			res, err := p.Run(pr)
			if err != nil {
				errs[i] = fmt.Errorf("analyzer pass %s: %w", p.Name, err)
				return
			}
			found[i] = res
			took[i] = time.Since(t)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return err
		}
		// Logged here, in order, from this goroutine alone.
		logf("analyzer: pass %s: %v", passes[i].Name, took[i].Round(time.Millisecond))
	}
	for _, res := range found {
		if f, ok := res.(*fact.Facts); ok {
			addFacts(facts, f)
		}
	}
	return nil
}
