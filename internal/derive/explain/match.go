package explain

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/walkthrough"
)

// Options are the link rules of an Explainer.
type Options struct {
	// Permalink returns the GitHub URL of lines from..to of a file at the
	// tag (source.Tree.Permalink); nil leaves Code.Permalink empty.
	Permalink func(path string, from, to int) string
	// StepPage returns the site path of a walkthrough step; nil:
	// "walkthroughs/<id>.html#<step>".
	StepPage func(docID, stepID string) string
	// SourcePage returns the site's page for a line of a file, for
	// Index; nil leaves IndexSite.Page empty.
	SourcePage func(path string, line int) string
}

// Explanation is what Explain says about one Record.
type Explanation struct {
	Record
	// Summary is the record in one line: "Normal ScalingReplicaSet
	// deployment/nginx-deployment", "create pods/binding nginx-x".
	Summary string `json:"summary"`
	// Component is who reported the event or made the request, when the
	// input or the matched code tells.
	Component *Component `json:"component,omitempty"`
	// Code is the code that emitted the event (Role "emitted"), made the
	// write ("wrote") or watches the resource read ("watches"), best
	// candidates first.
	Code []Code `json:"code,omitempty"`
	// Handlers are the informer handlers an audited write reaches (Role
	// "handles"): who reacts to it next.
	Handlers []Code `json:"handlers,omitempty"`
	// Steps are the walkthrough steps that explain the record, best first.
	Steps []StepRef `json:"steps,omitempty"`
	// Explained is true when code or a step was found.
	Explained bool `json:"explained"`
	// Note says why nothing was found, or what to keep in mind about what
	// was ("2 call sites share reason SuccessfulCreate").
	Note string `json:"note,omitempty"`
	// Watch is what a watch's (or list's) request URI says: its
	// selectors and parameters. Set for recordings and audit logs only
	// (Attribute, AttributeAudit), never for pasted input.
	Watch *Watch `json:"watch,omitempty"`
	// Rule says which rule chose Code among the component's call sites
	// of the same verb and resource, when one did. Attribute only.
	Rule string `json:"rule,omitempty"`
}

// Code is one place in the tree.
type Code struct {
	Role      string `json:"role"`
	Symbol    string `json:"symbol"`
	Path      string `json:"path"`
	Line      int    `json:"line"`
	Permalink string `json:"permalink,omitempty"`
	// Detail is the call as the analyzer saw it: the recorder method and
	// message format, the client method, the informer registration.
	Detail string `json:"detail,omitempty"`
	// Via names a helper the call passes through (the kubelet's
	// recordContainerEvent), or "".
	Via string `json:"via,omitempty"`
}

// Where returns "path:line".
func (c Code) Where() string { return fmt.Sprintf("%s:%d", c.Path, c.Line) }

// StepRef is a walkthrough step.
type StepRef struct {
	Walkthrough string `json:"walkthrough"` // Doc.ID
	Title       string `json:"title"`       // Doc.Title
	Step        string `json:"step"`        // Step.ID
	StepTitle   string `json:"stepTitle"`
	// File and Line are the step heading's in the Markdown.
	File string `json:"file"`
	Line int    `json:"line"`
	// Page is the step's site path with its anchor.
	Page string `json:"page"`
}

// Explainer matches records against one release's facts and walkthroughs.
// It is safe for concurrent use.
type Explainer struct {
	facts *fact.Facts
	opts  Options
	steps []stepIndex
	// reasonSteps are the steps whose facts blocks name a reason, by
	// position in steps.
	reasonSteps map[string][]int

	callersOnce sync.Once
	callers     map[string][]string // callee symbol → caller symbols
	reachMu     sync.Mutex
	reaches     map[string][]string // symbol → reach(symbol)

	fmtMu sync.Mutex
	fmts  map[string]*regexp.Regexp

	calleesOnce sync.Once
	callees     map[string][]string        // caller symbol → callee symbols
	sites       map[string][]fact.Location // callee symbol → call sites

	informerCallsOnce sync.Once
	informerCalls     []informerCall // informerCallsOf

	// factSteps and fileSpans index the steps for siteSteps, which
	// attribution asks about for every call site of every item: the
	// steps whose facts blocks list a call site (by site), and the
	// declarations (or matched lines) the steps refer to (by file), each
	// in step order.
	factSteps map[fact.Location][]int
	fileSpans map[string][]stepSpan
}

type stepIndex struct {
	ref     StepRef
	reasons map[string]bool
}

// stepSpan is lines from..to of a file that step (a position in
// Explainer.steps) refers to.
type stepSpan struct {
	step, from, to int
}

// New indexes facts and the walkthroughs' steps. docs may be nil; they are
// taken in walkthrough order (walkthrough.Compare), whatever order they
// come in, so that steps that explain a record equally well are listed
// alike by the command line and the site.
func New(facts *fact.Facts, docs []*walkthrough.Doc, opts Options) *Explainer {
	if facts == nil {
		facts = &fact.Facts{}
	}
	if opts.StepPage == nil {
		opts.StepPage = func(id, step string) string { return "walkthroughs/" + id + ".html#" + step }
	}
	x := &Explainer{facts: facts, opts: opts, fmts: map[string]*regexp.Regexp{}, reasonSteps: map[string][]int{}, reaches: map[string][]string{},
		factSteps: map[fact.Location][]int{}, fileSpans: map[string][]stepSpan{}}
	docs = slices.DeleteFunc(slices.Clone(docs), func(d *walkthrough.Doc) bool { return d == nil })
	slices.SortStableFunc(docs, walkthrough.Compare)
	for _, d := range docs {
		for _, s := range d.Steps {
			si := stepIndex{
				ref: StepRef{
					Walkthrough: d.ID, Title: d.Title, Step: s.ID, StepTitle: s.Title,
					File: d.File, Line: s.Line, Page: opts.StepPage(d.ID, s.ID),
				},
				reasons: map[string]bool{},
			}
			i := len(x.steps)
			span := func(l fact.Location) {
				x.fileSpans[l.Path] = append(x.fileSpans[l.Path], stepSpan{i, l.StartLine, l.EndLine})
			}
			// facts lists the facts its facts blocks embed, by call site.
			facts := map[fact.Location]bool{}
			for _, r := range s.Refs {
				span(r.Resolved.Symbol.Decl)
			}
			for _, seg := range s.Segments {
				if seg.Excerpt != nil {
					span(seg.Excerpt.Resolved.Symbol.Decl)
				}
				if f := seg.Facts; f != nil {
					for _, e := range f.Events {
						facts[e.At] = true
						if e.Reason != "" {
							si.reasons[e.Reason] = true
						}
					}
					for _, w := range f.Writes {
						facts[w.At] = true
					}
					for _, h := range f.Handlers {
						facts[h.At] = true
					}
				}
			}
			for at := range facts {
				x.factSteps[at] = append(x.factSteps[at], i)
			}
			for _, r := range slices.Sorted(maps.Keys(si.reasons)) {
				x.reasonSteps[r] = append(x.reasonSteps[r], i)
			}
			x.steps = append(x.steps, si)
		}
	}
	return x
}

// Explain explains each record, in order: one Explanation per Record.
func (x *Explainer) Explain(recs []Record) []Explanation {
	out := make([]Explanation, len(recs))
	for i, r := range recs {
		out[i] = x.One(r)
	}
	return out
}

// One explains one record.
func (x *Explainer) One(r Record) Explanation {
	return x.withSteps(x.oneCode(r), nil)
}

// oneCode is One's answer before its steps (see pending): the code that
// explains r and what its steps are to be found from.
func (x *Explainer) oneCode(r Record) pending {
	p := pending{ex: Explanation{Record: r, Summary: summary(r)}}
	switch {
	case r.Kind == KindEvent && r.Event != nil:
		x.event(&p, r.Event)
	case r.Kind == KindAudit && r.Audit != nil:
		x.audit(&p, r.Audit)
	default:
		p.ex.Note = "not a kubectl event line or an audit record"
	}
	return p
}

type scored[T any] struct {
	v     T
	score int
	// tie breaks equal scores: for events, whether the message format
	// begins as the message does (opening).
	tie int
}

// best keeps the candidates with the highest score, and among them the
// highest tie, in their order.
func best[T any](cs []scored[T]) []T {
	top, tie := -1<<30, -1<<30
	for _, c := range cs {
		if c.score > top || c.score == top && c.tie > tie {
			top, tie = c.score, c.tie
		}
	}
	var out []T
	for _, c := range cs {
		if c.score == top && c.tie == tie {
			out = append(out, c.v)
		}
	}
	return out
}

// event puts into p the recorder calls that may have emitted e; its
// steps are those that explain them, or name its reason.
func (x *Explainer) event(p *pending, e *EventRecord) {
	ex := &p.ex
	if e.Reason == "" {
		ex.Note = "the event has no reason"
		return
	}
	comp, hasComp := eventComponent(e)
	var cands []scored[fact.Event]
	worded, formats := false, false
	for _, f := range x.facts.Events {
		s, ok := x.eventScore(f, e, comp, hasComp)
		if !ok {
			continue
		}
		m := x.messageScore(f, e.Message)
		worded, formats = worded || m > 0, formats || m != 0
		cands = append(cands, scored[fact.Event]{f, s + m, x.opening(f, e.Message, m)})
	}
	if len(cands) == 0 {
		if hasComp {
			ex.Component = &comp
		}
		ex.Note = fmt.Sprintf("no recorder call with reason %q at %s", e.Reason, x.facts.Tag)
		// A facts block may still name the reason.
		p.q = stepQuery{reason: e.Reason}
		return
	}
	top := best(cands)
	var locs []fact.Location
	for _, f := range top {
		ex.Code = append(ex.Code, x.eventCode(f))
		locs = append(locs, f.At)
	}
	var notes []string
	if len(cands) > 1 {
		notes = append(notes, fmt.Sprintf("%d call sites record reason %s; %d shown", len(cands), e.Reason, len(top)))
	}
	if formats && !worded {
		// Messages are reworded between releases ("Created container
		// nginx", from v1.35 "Container created"), reasons seldom.
		notes = append(notes, fmt.Sprintf("no call site at %s words the message so: it may come from another release", x.facts.Tag))
	}
	ex.Note = strings.Join(notes, "; ")
	if hasComp {
		ex.Component = &comp
	} else {
		ex.Component = codeComponent(top[0].At.Path)
	}
	p.q = stepQuery{sites: locs, reason: e.Reason}
}

// eventScore scores an event fact against a record by all but its
// message; ok is false when the fact cannot have recorded it.
func (x *Explainer) eventScore(f fact.Event, e *EventRecord, comp Component, hasComp bool) (s int, ok bool) {
	if f.Reason != e.Reason {
		// A call whose reason is set at run time (a field, a helper's
		// parameter) explains the record when the reason reaches it,
		// less surely than a call that names it.
		if f.Reason != "" || !slices.Contains(f.ReasonValues, e.Reason) {
			return 0, false
		}
		s--
	}
	if hasComp && len(comp.Dirs) > 0 {
		switch {
		case inDirs(f.At.Path, comp.Dirs):
			s += 4
		case x.reachedFrom(f.Caller.Symbol, comp.Dirs):
			s += 3
		}
	}
	if e.Type != "" && f.Type == e.Type {
		s++
	}
	if e.Action != "" && f.Action == e.Action {
		s++
	}
	return s, true
}

var writeVerbs = map[string]bool{"create": true, "update": true, "patch": true, "delete": true, "deletecollection": true}

// audit puts into p the code that made (or, for a read, watches) a's
// request and, for a write, the handlers it sets off; its steps are
// those that explain the code, else the handlers.
func (x *Explainer) audit(p *pending, a *AuditRecord) {
	ex := &p.ex
	if a.Verb == "" || a.Resource == "" {
		ex.Note = "the audit record names no verb or resource"
		return
	}
	comp, hasComp := auditComponent(a)
	if hasComp {
		ex.Component = &comp
	}
	own := hasComp && len(comp.Dirs) > 0
	var locs, handled []fact.Location
	if writeVerbs[a.Verb] {
		locs = x.auditWriters(ex, a, comp, own)
		handled = x.auditHandlers(ex, a)
	} else {
		locs = x.auditReaders(ex, a, comp, own)
	}
	if !hasComp && len(ex.Code) > 0 {
		ex.Component = codeComponent(ex.Code[0].Path)
	}
	// Writes made by the component explain the record better than the
	// handlers it reaches; steps for the handlers only when there are none.
	p.q = stepQuery{sites: locs}
	if len(handled) > 0 {
		p.q.orElse = [][]fact.Location{handled}
	}
	p.handlers = handled
}

// auditWriters puts into ex.Code the client writes that may have
// made a write request — the component's own (own: the record names a
// component with directories) or reached from its code, else any — and
// returns their call sites.
func (x *Explainer) auditWriters(ex *Explanation, a *AuditRecord, comp Component, own bool) []fact.Location {
	what := a.Verb + " " + a.Resource
	if a.Subresource != "" {
		what += "/" + a.Subresource
	}
	var cands []scored[fact.Write]
	for _, w := range x.facts.Writes {
		// A write whose resource is known only at run time (kubectl's
		// resource.Helper) explains the component's own request for any
		// resource, after a write that names the resource.
		dyn := w.ResourceDynamic && own
		if w.APIVerb != a.Verb || (w.Resource.Resource != a.Resource && !dyn) || w.Subresource != a.Subresource {
			continue
		}
		if a.Group != "" && w.Resource.Group != "" && a.Group != w.Resource.Group {
			continue
		}
		s := 0
		switch {
		case own && inDirs(w.At.Path, comp.Dirs):
			s = 2
		case own && x.reachedFrom(w.Caller.Symbol, comp.Dirs):
			s = 1
		case own:
			continue // another component's write: not what this record shows
		}
		if dyn {
			s--
		}
		cands = append(cands, scored[fact.Write]{w, s, 0})
	}
	var locs []fact.Location
	for _, w := range best(cands) {
		ex.Code = append(ex.Code, x.writeCode(w))
		locs = append(locs, w.At)
	}
	switch {
	case len(ex.Code) == 0 && own:
		ex.Note = fmt.Sprintf("no client write of %s by %s found at %s", what, comp.Name, x.facts.Tag)
	case len(ex.Code) == 0:
		ex.Note = fmt.Sprintf("no client write of %s found at %s", what, x.facts.Tag)
	case !own && len(ex.Code) > 1:
		ex.Note = fmt.Sprintf("%d writers of %s; the request does not say which", len(ex.Code), what)
	}
	return locs
}

// auditHandlers puts into ex.Handlers the informer handlers a write
// request sets off (add for a create, delete for a delete, update for the
// rest), in the facts' order, and returns where they are registered, in
// the same order; withSteps puts those a walkthrough explains first
// (rankHandlers).
func (x *Explainer) auditHandlers(ex *Explanation, a *AuditRecord) []fact.Location {
	var handled []fact.Location
	ex.Handlers = []Code{} // none is a list too, as it always was
	for _, h := range x.facts.Handlers {
		if h.Informer.Resource != a.Resource {
			continue
		}
		var hd *fact.Handler
		switch {
		case a.Verb == "create" && a.Subresource == "":
			hd = h.Add
		case a.Verb == "delete" || a.Verb == "deletecollection":
			hd = h.Delete
		default: // update, patch, and subresource writes (a binding sets spec.nodeName)
			hd = h.Update
		}
		if hd == nil {
			continue
		}
		ex.Handlers = append(ex.Handlers, x.handlesCode(h, hd))
		handled = append(handled, h.At)
	}
	return handled
}

// auditReaders explains a read (get, list, watch) by the informers of
// the resource, the component's when the record names one, and returns
// where they are registered.
func (x *Explainer) auditReaders(ex *Explanation, a *AuditRecord, comp Component, own bool) []fact.Location {
	var locs []fact.Location
	for _, h := range x.facts.Handlers {
		if h.Informer.Resource != a.Resource || own && !inDirs(h.At.Path, comp.Dirs) {
			continue
		}
		ex.Code = append(ex.Code, x.watchesCode(h))
		locs = append(locs, h.At)
	}
	if len(ex.Code) == 0 {
		ex.Note = fmt.Sprintf("no informer of %s found", a.Resource)
		if own {
			ex.Note += " in " + comp.Name
		}
	}
	return locs
}

// codeComponent names the component of a call site when the input did not:
// the package directory.
// the known component whose directory holds it (the longest match), else
// the package directory.
func codeComponent(path string) *Component {
	name, dir := "", ""
	for _, m := range []map[string][]string{componentDirs, controllerDirs} {
		for n, ds := range m {
			for _, d := range ds {
				if inDirs(path, []string{d}) && (len(d) > len(dir) || len(d) == len(dir) && n < name) {
					name, dir = n, d
				}
			}
		}
	}
	if name == "" || name == "kube-controller-manager" {
		d := pkgDir(path)
		if x, ok := strings.CutPrefix(d, "pkg/controller/"); ok && !strings.Contains(x, "/") {
			return &Component{Name: x + "-controller", Dirs: []string{d}, From: "code"}
		}
		if name == "" {
			return &Component{Name: d, Dirs: []string{d}, From: "code"}
		}
	}
	return &Component{Name: name, Dirs: []string{dir}, From: "code"}
}

// eventCode is the recorder call of an event fact.
func (x *Explainer) eventCode(f fact.Event) Code {
	detail := fmt.Sprintf("%s(%s, %s", f.Method, first(f.Type, f.TypeExpr), first(f.ReasonExpr, f.Reason))
	if f.Message != "" {
		detail += fmt.Sprintf(", %q", f.Message)
	}
	return x.code("emitted", f.Caller.Symbol, f.At, detail+")", f.Via)
}

// writeCode is the client call of a write fact.
func (x *Explainer) writeCode(w fact.Write) Code {
	return x.code("wrote", w.Caller.Symbol, w.At, w.Via, "")
}

// watchesCode is a handler registration as the code that reads (lists and
// watches) its resource.
func (x *Explainer) watchesCode(h fact.HandlerRegistration) Code {
	return x.code("watches", h.Caller.Symbol, h.At, h.Method+" on "+h.InformerExpr, "")
}

// handlesCode is handler hd of registration h, as what reacts to a write.
func (x *Explainer) handlesCode(h fact.HandlerRegistration, hd *fact.Handler) Code {
	sym := hd.Symbol
	if sym == "" {
		sym = hd.Form
	}
	return x.code("handles", sym, h.At, h.Component+": "+h.Method+" on "+h.InformerExpr, "")
}

func (x *Explainer) code(role, sym string, at fact.Location, detail, via string) Code {
	c := Code{Role: role, Symbol: sym, Path: at.Path, Line: at.StartLine, Detail: detail, Via: via}
	if x.opts.Permalink != nil && at.Path != "" {
		c.Permalink = x.opts.Permalink(at.Path, at.StartLine, at.EndLine)
	}
	return c
}

// stepScore says how well a step explains a call site: 3 when one of
// its facts blocks lists the site, 2 when one of its references or
// excerpts covers the site's line, 1 (for a reason) when a facts block
// names the reason.
type stepScore struct {
	Step  int // position in Explainer.steps
	Score int
}

// siteSteps returns the steps that explain the call site at, in step
// order, each with its score (3 or 2).
func (x *Explainer) siteSteps(at fact.Location) []stepScore {
	var out []stepScore
	for _, i := range x.factSteps[at] {
		out = append(out, stepScore{i, 3})
	}
	listed := len(out)
	for _, sp := range x.fileSpans[at.Path] {
		if sp.from > at.StartLine || at.StartLine > sp.to {
			continue
		}
		// A step's spans are together, in step order: one scores once,
		// and a step whose facts list the site keeps its 3.
		if n := len(out); n > listed && out[n-1].Step == sp.step ||
			slices.ContainsFunc(out[:listed], func(s stepScore) bool { return s.Step == sp.step }) {
			continue
		}
		out = append(out, stepScore{sp.step, 2})
	}
	if listed > 0 && len(out) > listed {
		slices.SortFunc(out, func(a, b stepScore) int { return a.Step - b.Step })
	}
	return out
}

// stepsFor returns the steps that explain the code sites (or, with none,
// whose facts blocks name reason), best first, at most three: each step
// scores the best of siteSteps over the sites, and 1 for the reason.
func (x *Explainer) stepsFor(sites []fact.Location, reason string) []StepRef {
	score := make([]int, len(x.steps))
	for _, at := range sites {
		for _, ss := range x.siteSteps(at) {
			score[ss.Step] = max(score[ss.Step], ss.Score)
		}
	}
	if reason != "" {
		for _, i := range x.reasonSteps[reason] {
			score[i] = max(score[i], 1)
		}
	}
	var cs []scored[StepRef]
	for i, s := range score {
		if s > 0 {
			cs = append(cs, scored[StepRef]{x.steps[i].ref, s, 0})
		}
	}
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].score > cs[j].score })
	var out []StepRef
	for _, c := range cs {
		if len(out) == 3 || c.score < cs[0].score {
			break
		}
		out = append(out, c.v)
	}
	return out
}

// reachedFrom reports whether a function in one of dirs calls sym,
// directly or through a few loaded functions: a shared helper
// (RealPodControl.createPods in pkg/controller) used by the component.
func (x *Explainer) reachedFrom(sym string, dirs []string) bool {
	for _, p := range x.reach(sym) {
		if inDirs(p+"/", dirs) {
			return true
		}
	}
	return false
}

// reach returns the package directories of the functions that call sym,
// directly or through others, breadth first up to maxDepth calls away and
// until maxSeen functions are seen (a level is always finished), sorted.
// reachedFrom is a question about this set, so Index can hand the set to
// the browser and the answer is the same there.
func (x *Explainer) reach(sym string) []string {
	x.callersOnce.Do(func() {
		x.callers = map[string][]string{}
		for _, c := range x.facts.Calls {
			x.callers[c.To] = append(x.callers[c.To], c.From)
		}
	})
	x.reachMu.Lock()
	defer x.reachMu.Unlock()
	if r, ok := x.reaches[sym]; ok {
		return r
	}
	const maxDepth, maxSeen = 5, 2000
	seen := map[string]bool{sym: true}
	dirs := map[string]bool{}
	frontier := []string{sym}
	for d := 0; d < maxDepth && len(frontier) > 0 && len(seen) < maxSeen; d++ {
		var next []string
		for _, f := range frontier {
			for _, c := range x.callers[f] {
				if seen[c] {
					continue
				}
				seen[c] = true
				dirs[fact.SymbolDir(c)] = true
				next = append(next, c)
			}
		}
		frontier = next
	}
	r := slices.Sorted(maps.Keys(dirs))
	x.reaches[sym] = r
	return r
}

// formatMatches reports whether msg could have been printed by format
// (a Printf format: verbs match anything). kubectl may prefix aggregated
// events with "(combined from similar events): ".
// messageScore says how well a recorder call's message format explains a
// message: 2 when the format, or one of the formats that reach a message
// set at run time, could have printed it (1 when the format is nothing
// but verbs, which print anything), -2 when none could, 0 when either is
// unknown.
func (x *Explainer) messageScore(f fact.Event, msg string) int {
	formats := f.MessageValues
	if f.Message != "" {
		formats = []string{f.Message}
	}
	if len(formats) == 0 || msg == "" {
		return 0
	}
	score := -2
	for _, m := range formats {
		if x.formatMatches(m, msg) {
			if verbRe.ReplaceAllString(m, "") != "" {
				return 2
			}
			score = 1
		}
	}
	return score
}

// opening breaks ties between call sites scored alike: 1 when one of the
// message formats begins with the words msg begins with (its text before
// the first verb) or could print msg, 0 when none does. A message from a
// release that reworded a format's tail ("Successfully pulled image %q in
// %v (%v including waiting)", before the image size was added) then ranks
// the call site whose format prints it above those that merely record the
// same reason ("Container image %q already present on machine").
func (x *Explainer) opening(f fact.Event, msg string, m int) int {
	if m != -2 {
		return 1
	}
	formats := f.MessageValues
	if f.Message != "" {
		formats = []string{f.Message}
	}
	msg = strings.TrimPrefix(msg, "(combined from similar events): ")
	for _, format := range formats {
		head := format
		if i := verbRe.FindStringIndex(format); i != nil {
			head = format[:i[0]]
		}
		if head != "" && strings.HasPrefix(msg, head) {
			return 1
		}
	}
	return 0
}

func (x *Explainer) formatMatches(format, msg string) bool {
	x.fmtMu.Lock()
	re, ok := x.fmts[format]
	if !ok {
		re = formatRegexp(format)
		x.fmts[format] = re
	}
	x.fmtMu.Unlock()
	msg = strings.TrimPrefix(msg, "(combined from similar events): ")
	return re != nil && re.MatchString(msg)
}

var verbRe = regexp.MustCompile(`%[-+# 0]*(?:\d+|\*)?(?:\.(?:\d+|\*))?[a-zA-Z%]`)

// verbPattern is what a Printf verb prints: %d an integer (padded as its
// width asks), %q a quoted string, %% a percent sign, any other verb
// anything. explain.js's verbPattern is the same table.
func verbPattern(verb string) string {
	switch verb[len(verb)-1] {
	case '%':
		return "%"
	case 'd':
		return ` *[-+]?[0-9]+`
	case 'q':
		// A quoted string, rune, or a slice of them.
		return `(?:"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|\[.*?\])`
	}
	return ".*?"
}

func formatRegexp(format string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString(`(?s)^`)
	last := 0
	for _, m := range verbRe.FindAllStringIndex(format, -1) {
		b.WriteString(regexp.QuoteMeta(format[last:m[0]]))
		b.WriteString(verbPattern(format[m[0]:m[1]]))
		last = m[1]
	}
	b.WriteString(regexp.QuoteMeta(format[last:]))
	b.WriteString(`$`)
	re, err := regexp.Compile(b.String())
	if err != nil {
		return nil
	}
	return re
}
