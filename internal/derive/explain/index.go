package explain

import "github.com/kubewalk/kubewalk/analyzer/fact"

// Index is what an Explainer knows, as plain data for a matcher that runs
// somewhere Go does not: the site's explain page, whose script
// (templates/assets/explain.js) reads pasted text in the browser.
//
// Everything that does not depend on the input is computed here, by the
// code Explain itself uses: each call site's Code (symbol, location,
// permalink, detail), the steps that explain it (with their scores), the
// package directories it is reached from through the call graph, and the
// component name tables. The script is left with the rules that read the
// input and rank candidates — Parse, the scoring in Explain, stepsFor's
// ranking, the component rules — ported line for line, and
// site/explain_parity_test.go holds its answers to Explain's on a shared
// corpus (testdata/corpus).
type Index struct {
	Tag   string      `json:"tag"`
	Steps []IndexStep `json:"steps"`
	// Dirs are package directories; IndexSite.Reach refers to them by
	// position.
	Dirs []string `json:"dirs"`
	// Events, Writes and Handlers are the facts', in the facts' order
	// (which is the order Explain lists tied candidates in).
	Events   []IndexEvent   `json:"events"`
	Writes   []IndexWrite   `json:"writes"`
	Handlers []IndexHandler `json:"handlers"`
	// Reasons maps a reason to the steps (positions in Steps) whose facts
	// blocks name it.
	Reasons map[string][]int `json:"reasons"`
	// Controllers, Components and Kinds are component.go's tables:
	// controllerDirs, componentDirs and kindController.
	Controllers map[string][]string `json:"controllers"`
	Components  map[string][]string `json:"components"`
	Kinds       map[string]string   `json:"kinds"`
}

// IndexStep is a walkthrough step, in the Explainer's step order.
type IndexStep struct {
	Title     string `json:"t"` // the walkthrough's title
	StepTitle string `json:"s"`
	Page      string `json:"p"` // Options.StepPage
}

// IndexSite is one call site: the Code Explain reports for it, less the
// role (which depends on the record), and what ranks it.
type IndexSite struct {
	Symbol    string `json:"c"`
	Path      string `json:"f"`
	Line      int    `json:"l"`
	Permalink string `json:"u,omitempty"`
	// Page is Options.SourcePage of the site's line.
	Page   string `json:"s,omitempty"`
	Detail string `json:"d,omitempty"`
	Via    string `json:"v,omitempty"`
	// Steps are the steps that explain the site, as [position in
	// Index.Steps, score] pairs in step order.
	Steps [][2]int `json:"st,omitempty"`
	// Reach lists, as positions in Index.Dirs, the package directories
	// the calling function is reached from (Explainer.reach), less those
	// no component name can ask about (nameable).
	Reach []int `json:"r,omitempty"`
}

// IndexEvent is an event fact.
type IndexEvent struct {
	IndexSite
	Reason  string `json:"reason"`
	Type    string `json:"t,omitempty"`
	Message string `json:"m,omitempty"`
	Action  string `json:"a,omitempty"`
	// ReasonValues and MessageValues are the fact's, for a reason or a
	// message set at run time.
	ReasonValues  []string `json:"rv,omitempty"`
	MessageValues []string `json:"mv,omitempty"`
}

// IndexWrite is a write fact, by the API verb an audit record shows.
type IndexWrite struct {
	IndexSite
	Verb        string `json:"verb"`
	Resource    string `json:"res"`
	Subresource string `json:"sub,omitempty"`
	Group       string `json:"g,omitempty"`
	// Dynamic is the fact's ResourceDynamic.
	Dynamic bool `json:"dyn,omitempty"`
}

// IndexHandler is a handler registration. Its IndexSite is the Code of a
// read ("watches": the registering function); Handles is the detail of
// the Code of a write it reacts to, whose symbol is Add, Update or Delete
// (nil when the registration has no such handler).
type IndexHandler struct {
	IndexSite
	Resource string  `json:"res"`
	Handles  string  `json:"hd"`
	Add      *string `json:"add,omitempty"`
	Update   *string `json:"upd,omitempty"`
	Delete   *string `json:"del,omitempty"`
}

// Index returns the Explainer's data for a matcher elsewhere (see Index).
func (x *Explainer) Index() *Index {
	idx := &Index{
		Tag:   x.facts.Tag,
		Steps: []IndexStep{}, Dirs: []string{},
		Events: []IndexEvent{}, Writes: []IndexWrite{}, Handlers: []IndexHandler{},
		Reasons:     x.reasonSteps,
		Controllers: controllerDirs, Components: componentDirs, Kinds: kindController,
	}
	for _, st := range x.steps {
		idx.Steps = append(idx.Steps, IndexStep{st.ref.Title, st.ref.StepTitle, st.ref.Page})
	}
	dirPos := map[string]int{}
	reach := func(sym string) []int {
		var out []int
		for _, p := range x.reach(sym) {
			if !nameable(p) {
				continue
			}
			i, ok := dirPos[p]
			if !ok {
				i = len(idx.Dirs)
				dirPos[p] = i
				idx.Dirs = append(idx.Dirs, p)
			}
			out = append(out, i)
		}
		return out
	}
	site := func(c Code, at fact.Location) IndexSite {
		s := IndexSite{Symbol: c.Symbol, Path: c.Path, Line: c.Line, Permalink: c.Permalink, Detail: c.Detail, Via: c.Via}
		if x.opts.SourcePage != nil && at.Path != "" {
			s.Page = x.opts.SourcePage(at.Path, at.StartLine)
		}
		for _, ss := range x.siteSteps(at) {
			s.Steps = append(s.Steps, [2]int{ss.Step, ss.Score})
		}
		return s
	}
	for _, f := range x.facts.Events {
		s := site(x.eventCode(f), f.At)
		s.Reach = reach(f.Caller.Symbol)
		idx.Events = append(idx.Events, IndexEvent{IndexSite: s, Reason: f.Reason, Type: f.Type, Message: f.Message, Action: f.Action,
			ReasonValues: f.ReasonValues, MessageValues: f.MessageValues})
	}
	for _, w := range x.facts.Writes {
		s := site(x.writeCode(w), w.At)
		s.Reach = reach(w.Caller.Symbol)
		idx.Writes = append(idx.Writes, IndexWrite{IndexSite: s, Verb: w.APIVerb, Resource: w.Resource.Resource, Subresource: w.Subresource, Group: w.Resource.Group, Dynamic: w.ResourceDynamic})
	}
	for _, h := range x.facts.Handlers {
		sym := func(hd *fact.Handler) *string {
			if hd == nil {
				return nil
			}
			s := x.handlesCode(h, hd).Symbol
			return &s
		}
		idx.Handlers = append(idx.Handlers, IndexHandler{
			IndexSite: site(x.watchesCode(h), h.At),
			Resource:  h.Informer.Resource,
			Handles:   x.handlesCode(h, &fact.Handler{}).Detail,
			Add:       sym(h.Add), Update: sym(h.Update), Delete: sym(h.Delete),
		})
	}
	return idx
}
