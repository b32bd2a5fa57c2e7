package explain

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/kubewalk/kubewalk/analyzer/fact"
)

// wholeCode explains an audit record of a whole run (a recording, an
// audit log) as One does, and goes further where pasted lines stop: a
// watch names the code that opened it and its parameters, and a write
// no fact explains says who made it and why the analysis does not show
// the line. The site's explain page pastes lines, so One stays as
// explain.js has it; a whole run is only ever explained here. The
// answer waits for its steps (withSteps), as oneCode's does.
func (x *Explainer) wholeCode(r Record, run *wholeRun) pending {
	p := x.oneCode(r)
	ex := &p.ex
	a := r.Audit
	if a == nil || a.Verb == "" || a.Resource == "" {
		return p
	}
	comp, _ := auditComponent(a)
	kcmItself := a.Username == "system:kube-controller-manager" && run.perController
	if kcmItself && writeVerbs[a.Verb] {
		// With a credential per controller, what the controller
		// manager writes as itself is its own start-up code's (the
		// client builder's), not a controller's.
		own := Component{Name: comp.Name, Dirs: []string{"cmd/kube-controller-manager", "staging/src/k8s.io/controller-manager"}, From: comp.From}
		ex.Code, ex.Handlers, ex.Note = nil, nil, ""
		p.q, p.handlers = stepQuery{}, nil
		x.auditWriters(ex, a, own, true)
		// Its own code only: a controller's write reached from the
		// code that starts it ran with the controller's credential.
		ex.Code = slices.DeleteFunc(ex.Code, func(c Code) bool { return !inDirs(c.Path, own.Dirs) })
		if len(ex.Code) == 0 {
			ex.Note = fmt.Sprintf("no client write of %s %s in kube-controller-manager's own code (%s) at %s; its controllers write with credentials of their own", a.Verb, a.Resource, strings.Join(own.Dirs, ", "), x.facts.Tag)
		}
	}
	if !writeVerbs[a.Verb] {
		ex.Watch = parseWatch(a.RequestURI)
		ex.Code, ex.Note, ex.Rule = nil, "", ""
		x.opened(ex, a, comp)
		p.q = stepQuery{sites: codeSites(ex.Code)}
	} else {
		if len(ex.Code) == 0 && len(comp.Dirs) > 0 && !kcmItself {
			// The component's code beyond componentDirs: the
			// aggregator's, the client builder's.
			wc := comp
			wc.Dirs = wholeDirs(comp)
			ex.Note = ""
			x.auditWriters(ex, a, wc, true)
		}
		x.narrow(ex, comp, a, run.hops)
		x.writeSteps(&p)
	}
	if len(ex.Code) == 0 {
		// Unless a step explains the item after all.
		p.q.unexplained = x.notAnalyzed(a, comp)
	}
	return p
}

// wholeRun is what explaining one item of a run needs of the others.
type wholeRun struct {
	// hops are the run's writes before the item, oldest first: the
	// chain that chooses among a component's write sites (narrow).
	hops []hop
	// perController is true when kube-controller-manager's controllers
	// use credentials of their own (--use-service-account-credentials):
	// some write of the run is by a controller's service account.
	perController bool
}

// writeSteps puts a write under the steps that cite its line, else under
// those that explain the function that made it (callerSites), never under
// a step for an informer that merely watches the resource (One's last
// resort for pasted lines): it sets p's stepQuery.
func (x *Explainer) writeSteps(p *pending) {
	ex := &p.ex
	var sites []fact.Location
	for _, c := range ex.Code {
		if c.Role == "wrote" {
			sites = append(sites, fact.Location{Path: c.Path, StartLine: c.Line, EndLine: c.Line})
		}
	}
	if len(sites) == 0 {
		// An Event's write gets its steps from the event (eventWrite);
		// the user's own request (kubectl, whose code is not analysed)
		// keeps the steps of the code that handles it, which explain it;
		// any other is not explained by who watches its resource.
		if ex.Component != nil && ex.Component.Name == "kubectl" {
			return
		}
		if ex.Audit == nil || ex.Audit.Resource != "events" {
			p.q = stepQuery{}
		}
		return
	}
	p.q = stepQuery{sites: sites, orElse: x.callerSites(ex)}
}

// codeSites are the locations of cs.
func codeSites(cs []Code) []fact.Location {
	var out []fact.Location
	for _, c := range cs {
		out = append(out, fact.Location{Path: c.Path, StartLine: c.Line, EndLine: c.Line})
	}
	return out
}

// wholeDirs are the directories of a component's code for a whole run:
// componentDirs', moreDirs' and linkedDirs'.
func wholeDirs(c Component) []string {
	more := append(slices.Clone(moreDirs[c.Name]), linkedDirs[c.Name]...)
	if len(more) == 0 {
		return c.Dirs
	}
	return append(slices.Clone(c.Dirs), more...)
}

// moreDirs are the directories of a component's code beyond
// componentDirs (which explain.js shares): its command, and the staging
// packages only it runs. Helpers several components run (client-go, the
// lease controller) count for a component through the call graph instead
// (reachedFrom).
var moreDirs = map[string][]string{
	"kube-apiserver": {"pkg/kubeapiserver", "cmd/kube-apiserver", "plugin/pkg",
		"staging/src/k8s.io/kube-aggregator", "staging/src/k8s.io/apiextensions-apiserver"},
	"kube-controller-manager": {"staging/src/k8s.io/controller-manager"},
	"kube-scheduler":          {"cmd/kube-scheduler"},
	"kubelet":                 {"cmd/kubelet"},
}

// opened puts into ex.Code the code that opened a watch (or made the
// list before it) by component comp, by the first rule that finds any,
// and says in ex.Rule which:
//
//  1. a list-watch the component makes itself (cache.ListWatch,
//     NewListWatchFromClient) of the resource, whose field selector tests
//     the fields the request's does: the kubelet's pods of its node;
//  2. the component's requests to an informer factory for the resource
//     (fact.InformerRequest: Informer(), Lister(), InformerFor) whose
//     factory has the request's field selector, or none when the request
//     has none, with the handlers registered on that informer: one watch
//     serves them all;
//     Else an informer the component builds itself with a generated
//     constructor (NewFilteredConfigMapInformer), outside any factory;
//  3. a list-watch the component makes for objects of several resources
//     (the kubelet's watch of each config map it mounts), by selector;
//  4. in kube-controller-manager, for a watch without a selector, the
//     requests for resources chosen at run time (ForResource: the
//     garbage collector and the quota monitor watch every resource they
//     can).
//
// The rules stay one function, in the order they are tried: each falls
// through to the next only when it found nothing, and the reader checks
// the order against the list above in one place.
func (x *Explainer) opened(ex *Explanation, a *AuditRecord, comp Component) {
	dirs := wholeDirs(comp)
	if len(dirs) == 0 {
		ex.Note = fmt.Sprintf("%s is not a component of the tree: its watches are its own code", first(comp.Name, "the client"))
		return
	}
	var fields []string
	if ex.Watch != nil && ex.Watch.FieldSelector != "" {
		fields = selectorFields(ex.Watch.FieldSelector)
	}
	if x.listWatches(ex, a, dirs, fields, false) {
		ex.Rule = "a list-watch of " + a.Resource + " the component makes itself, with the request's field selector"
		return
	}
	// Rule 2: the component's requests for the resource, those whose
	// factory's field selector tests the request's fields first.
	var selected []fact.InformerRequest
	for _, r := range x.facts.InformerRequests {
		if r.ResourceDynamic || r.Resource.Resource != a.Resource || !sameGroup(r.Resource.Group, a.Group) || !inDirs(r.At.Path, dirs) {
			continue
		}
		// A selector set at run time may be the request's; so may
		// one an InformerFor's own constructor sets (the scheduler's
		// pods that are not finished), which the fact does not see.
		runTime := r.FieldSelector != "" && len(r.Fields) == 0 && len(fields) > 0
		ownConstructor := r.Method == "InformerFor" && r.FieldSelector == "" && len(fields) > 0
		if slices.Equal(r.Fields, fields) && (len(fields) > 0 || r.FieldSelector == "") || runTime || ownConstructor {
			selected = append(selected, r)
		}
	}
	// A watch with a field selector no request's factory is known to
	// have is not put on the requests of every object: another list-watch
	// may have made it (the delegated authentication's).
	if len(selected) > 0 {
		ex.Rule = "the component's requests to an informer factory for " + a.Resource + ": one watch serves every one of them"
		if len(fields) > 0 {
			ex.Rule += ", with a factory made with the request's field selector"
		}
		for _, r := range selected {
			ex.Code = append(ex.Code, x.requestCode(r))
		}
		for _, h := range x.facts.Handlers {
			if h.Informer.Resource == a.Resource && inDirs(h.At.Path, dirs) {
				ex.Code = append(ex.Code, x.watchesCode(h))
			}
		}
		return
	}
	// Rule 2b: an informer the component builds itself with a generated
	// constructor, outside any factory: NewFilteredConfigMapInformer,
	// whose tweak sets the field selector, for a watch with one, and
	// NewConfigMapInformer for a watch without.
	for _, ic := range x.informerCallsOf() {
		c, m := ic.call, ic.ctor
		if m == nil || m[1] != groupPkg(a.Group) || resourceOf(m[4]) != a.Resource || !inDirs(c.At.Path, dirs) || (len(fields) > 0) != (m[3] != "") {
			continue
		}
		if v := uriVersion(a.RequestURI); v != "" && v != m[2] {
			continue // the v1beta1 publisher's informer, for a v1 watch
		}
		ex.Code = append(ex.Code, x.code("opened", c.From, c.At, "builds its own informer ("+fact.ReadableSymbol(c.To)+")", ""))
	}
	if len(ex.Code) > 0 {
		ex.Rule = "an informer of " + a.Resource + " the component builds itself, outside an informer factory"
		if len(fields) > 0 {
			ex.Rule += "; its options set the field selector"
		}
		return
	}
	// Rule 3: a list-watch of any resource, by a selector the request fits: the
	// kubelet's watch of each config map and secret it mounts, by name.
	if len(fields) > 0 && x.listWatches(ex, a, dirs, fields, true) {
		ex.Rule = "a list-watch the component makes itself for objects of several resources, by the request's field selector"
		return
	}
	// Rule 4: requests for resources chosen at run time, in
	// kube-controller-manager only: there they are the garbage
	// collector's and the quota monitor's, which watch every resource
	// they can. Elsewhere a ForResource asks for resources a
	// configuration names (an admission policy's parameters, a scheduler
	// plugin's custom resources), which need not be this one.
	// They watch every object of a resource: a watch with a selector
	// is not theirs.
	if comp.Name == "kube-controller-manager" && len(fields) == 0 && (ex.Watch == nil || ex.Watch.LabelSelector == "") {
		seen := map[fact.Location]bool{}
		for _, r := range x.facts.InformerRequests {
			if r.ResourceDynamic && inDirs(r.At.Path, dirs) && !seen[r.At] {
				seen[r.At] = true
				ex.Code = append(ex.Code, x.requestCode(r))
			}
		}
		// The garbage collector asks through controller-manager's
		// InformerFactory interface, which InformerRequests does not
		// follow; the call graph resolves it to the factories'
		// ForResource. One call resolved to two factories is one request.
		for _, ic := range x.informerCallsOf() {
			if c := ic.call; ic.ctor == nil && inDirs(c.At.Path, dirs) && !seen[c.At] {
				seen[c.At] = true
				ex.Code = append(ex.Code, x.code("requested", c.From, c.At, "ForResource: asks an informer factory for a resource chosen at run time ("+fact.ReadableSymbol(c.To)+")", ""))
			}
		}
	}
	if len(ex.Code) > 0 {
		ex.Rule = "no code of the component asks for " + a.Resource + " by name; these ask an informer factory for resources chosen at run time"
		return
	}
	ex.Note = fmt.Sprintf("no list-watch or informer request of %s found in %s at %s", a.Resource, comp.Name, x.facts.Tag)
}

// informerCall is a call rules 2b and 4 of opened look for: to a
// generated informer's constructor (ctor, constructorRe's submatches) or,
// ctor nil, to an informer factory's ForResource (forResourceRe).
type informerCall struct {
	call fact.Call
	ctor []string
}

// informerCallsOf returns the release's informerCalls in the order of
// its calls, found once: a watch that no rule before explains would
// otherwise test every call of the release by its callee's name.
func (x *Explainer) informerCallsOf() []informerCall {
	x.informerCallsOnce.Do(func() {
		for _, c := range x.facts.Calls {
			if m := constructorRe.FindStringSubmatch(c.To); m != nil {
				x.informerCalls = append(x.informerCalls, informerCall{call: c, ctor: m})
			} else if forResourceRe.MatchString(c.To) {
				x.informerCalls = append(x.informerCalls, informerCall{call: c})
			}
		}
	})
	return x.informerCalls
}

// constructorRe matches the constructors of generated informers
// (k8s.io/client-go/informers/core/v1.NewFilteredConfigMapInformer): the
// group's package, the version, "Filtered" or "", the kind.
var constructorRe = regexp.MustCompile(`/informers/(?:externalversions/)?([a-z0-9]+)/([a-z0-9]+)\.New(Filtered)?(\w+)Informer$`)

// uriVersion is the API version of a request URI: "v1" of
// /api/v1/pods and of /apis/apps/v1/deployments; "" when it names none.
func uriVersion(uri string) string {
	p, _, _ := strings.Cut(uri, "?")
	segs := strings.Split(strings.Trim(p, "/"), "/")
	switch {
	case len(segs) >= 2 && segs[0] == "api":
		return segs[1]
	case len(segs) >= 3 && segs[0] == "apis":
		return segs[2]
	}
	return ""
}

// groupPkg is the package name generated informers give an API group:
// its first label, "core" for the core group.
func groupPkg(group string) string {
	if group == "" {
		return "core"
	}
	g, _, _ := strings.Cut(group, ".")
	return g
}

// resourceOf is the resource of a kind as generated code names it:
// "ConfigMap" → "configmaps", "IngressClass" → "ingressclasses",
// "NetworkPolicy" → "networkpolicies", "Endpoints" → "endpoints".
func resourceOf(kind string) string {
	n := strings.ToLower(kind)
	switch {
	case strings.HasSuffix(n, "ss"):
		return n + "es"
	case strings.HasSuffix(n, "s"):
		return n
	case strings.HasSuffix(n, "y"):
		return n[:len(n)-1] + "ies"
	}
	return n + "s"
}

// forResourceRe matches the ForResource methods of client-go's and
// controller-manager's informer factories.
var forResourceRe = regexp.MustCompile(`^k8s\.io/(?:client-go/informers|client-go/metadata/metadatainformer|client-go/dynamic/dynamicinformer|controller-manager/pkg/informerfactory)\.\w+\.ForResource$`)

// requestCode is an informer request as the code that asked for a
// watch.
func (x *Explainer) requestCode(r fact.InformerRequest) Code {
	what := "the " + r.Resource.Resource + " informer"
	if r.ResourceDynamic {
		what = "the informer of a resource chosen at run time"
	}
	d := r.Method + " on " + r.Expr + ": asks " + first(r.Factory, "an informer factory") + " for " + what
	if r.FieldSelector != "" {
		d += ", field selector " + r.FieldSelector
	}
	return x.code("requested", r.Caller.Symbol, r.At, d, "")
}

// sameGroup reports whether a fact's API group is the request's; a
// request that names none (a pasted line without objectRef) matches any.
func sameGroup(factGroup, group string) bool {
	return group == "" || factGroup == group
}

// listWatches puts into ex.Code the component's own list-watches of the
// request's resource (or, with anyResource, those that name none) whose
// field selector tests the request's fields, and their reflectors; false
// when there are none.
func (x *Explainer) listWatches(ex *Explanation, a *AuditRecord, dirs, fields []string, anyResource bool) bool {
	n := len(ex.Code)
	for _, lw := range x.facts.ListWatches {
		if anyResource != (lw.Resource.Resource == "") || !anyResource && lw.Resource.Resource != a.Resource || !inDirs(lw.At.Path, dirs) {
			continue
		}
		// A selector set at run time (fieldSelector, a variable) has
		// no constant fields: it may be any the request shows.
		runTime := lw.FieldSelector != "" && len(lw.Fields) == 0 && len(fields) > 0
		if !slices.Equal(lw.Fields, fields) && !runTime {
			continue
		}
		ex.Code = append(ex.Code, x.code("opened", lw.Caller.Symbol, lw.At, lw.Func+listWatchDetail(lw), ""))
		for _, c := range lw.Consumers {
			ex.Code = append(ex.Code, x.code("opened", c.Caller.Symbol, c.At, c.Kind+": "+c.Func, ""))
		}
	}
	return len(ex.Code) > n
}

func listWatchDetail(lw fact.ListWatch) string {
	var s string
	if lw.Resource.Resource != "" {
		s = " of " + lw.Resource.Resource
	}
	if lw.FieldSelector != "" {
		s += ", field selector " + lw.FieldSelector
	}
	return s
}
