package site

import (
	"encoding/json"
	"sort"
	"strconv"
	"strings"

	"github.com/kubewalk/kubewalk/analyzer"
)

// The explain page (issue 6): the reader pastes `kubectl get events`
// output (any column layout, with or without --watch), `kubectl get events
// -o json`, or API server audit JSON lines, and assets/explain.js matches
// each line in the browser against explain-index.js — no server, and a
// script rather than JSON because fetch() fails on file://.
//
// The rules mirror internal/explain's, cut down to what a small script
// can carry: an event by its reason, candidates in the package of the
// reporting component (the JSON's source, else the controller of the
// involved object's kind) ranked first, then those whose constant message
// format matches the message, then by type; an audit record by API verb,
// resource and subresource against the writes, narrowed by the component
// its user name or user agent names. A walkthrough step explains a fact
// when its facts block lists it or one of its references or excerpts
// covers the fact's line.

const (
	explainPage    = "explain.html"
	explainIndexJS = "explain-index.js"
)

// explainSite is one call site in explain-index.js. Field names are short:
// the index holds every event and write of a release.
type explainSite struct {
	File    string `json:"f"`
	Line    int    `json:"l"`
	Caller  string `json:"c"`
	Type    string `json:"t,omitempty"`
	Message string `json:"m,omitempty"`
	GitHub  string `json:"u"`
	Page    string `json:"s"`
	Steps   []int  `json:"st,omitempty"`
}

type explainIndex struct {
	Tag string `json:"tag"`
	// Steps are [title, href] pairs; sites refer to them by index.
	Steps  [][2]string              `json:"steps"`
	Events map[string][]explainSite `json:"events"`
	// Writes are keyed "verb resource[/subresource]" by the API verb and
	// the plural resource: "create pods/binding".
	Writes map[string][]explainSite `json:"writes"`
}

// explainIndexScript builds explain-index.js.
func (b *builder) explainIndexScript() ([]byte, error) {
	idx := explainIndex{Tag: b.in.Tag, Steps: [][2]string{}, Events: map[string][]explainSite{}, Writes: map[string][]explainSite{}}
	type span struct {
		analyzer.Location
		step int
	}
	var covers []span
	byReason := map[string][]int{}
	byWrite := map[string][]int{}
	addStep := func(m map[string][]int, k string, i int) {
		if l := m[k]; len(l) == 0 || l[len(l)-1] != i {
			m[k] = append(m[k], i)
		}
	}
	for _, d := range b.docs {
		for _, s := range d.Steps {
			i := len(idx.Steps)
			idx.Steps = append(idx.Steps, [2]string{d.Title + " · " + s.Title, relURL(explainPage, WalkthroughPage(d.ID), s.ID)})
			for _, r := range s.Refs {
				covers = append(covers, span{r.Resolved.Symbol.Decl, i})
			}
			for _, seg := range s.Segments {
				if e := seg.Excerpt; e != nil {
					covers = append(covers, span{analyzer.Location{Path: e.Resolved.Symbol.Decl.Path, StartLine: e.From, EndLine: e.To}, i})
				}
				if f := seg.Facts; f != nil {
					for _, e := range f.Events {
						addStep(byReason, e.Reason+"\x00"+locKey(e.At), i)
					}
					for _, w := range f.Writes {
						addStep(byWrite, writeKey(w)+"\x00"+locKey(w.At), i)
					}
				}
			}
		}
	}
	steps := func(m map[string][]int, k string, at analyzer.Location) []int {
		seen := map[int]bool{}
		var out []int
		for _, i := range m[k+"\x00"+locKey(at)] {
			seen[i] = true
			out = append(out, i)
		}
		for _, c := range covers {
			if !seen[c.step] && c.Path == at.Path && c.StartLine <= at.StartLine && at.StartLine <= c.EndLine {
				seen[c.step] = true
				out = append(out, c.step)
			}
		}
		sort.Ints(out)
		return out
	}
	site := func(caller analyzer.FuncRef, at analyzer.Location) explainSite {
		return explainSite{
			File: at.Path, Line: at.StartLine, Caller: shortSymbol(caller.Symbol),
			GitHub: b.opts.SourceURL(at.Path, at.StartLine, 0),
			Page:   b.srcLink(explainPage, at.Path, at.StartLine, 0),
		}
	}
	for _, e := range b.in.Facts.Events {
		if e.Reason == "" || e.At.IsZero() {
			continue
		}
		s := site(e.Caller, e.At)
		s.Type, s.Message = e.Type, e.Message
		s.Steps = steps(byReason, e.Reason, e.At)
		idx.Events[e.Reason] = append(idx.Events[e.Reason], s)
	}
	for _, w := range b.in.Facts.Writes {
		if w.At.IsZero() {
			continue
		}
		s := site(w.Caller, w.At)
		s.Steps = steps(byWrite, writeKey(w), w.At)
		idx.Writes[writeKey(w)] = append(idx.Writes[writeKey(w)], s)
	}
	data, err := json.Marshal(idx)
	if err != nil {
		return nil, err
	}
	return append(append([]byte("window.kubewalkExplain = "), data...), ";\n"...), nil
}

// writeKey is how an audit record names a write: API verb, resource,
// subresource.
func writeKey(w analyzer.Write) string {
	verb := w.APIVerb
	if verb == "" {
		verb = w.Verb
	}
	res := w.Resource.Resource
	if res == "" {
		res = strings.ToLower(w.Resource.Kind) + "s"
	}
	if w.Subresource != "" {
		res += "/" + w.Subresource
	}
	return verb + " " + res
}

func (b *builder) explainPage() ([]byte, error) {
	body := struct{ IndexJS, ExplainJS string }{
		relURL(explainPage, explainIndexJS, ""), relURL(explainPage, "assets/explain.js", ""),
	}
	return b.exec("explain", b.pageData(explainPage, b.t("explain.title"), "explain", body))
}

func locKey(l analyzer.Location) string { return l.Path + ":" + strconv.Itoa(l.StartLine) }
