package walkthrough

// Facts blocks: a fenced block with the info string "facts" embeds facts
// the analyzer discovered, selected by one query:
//
//	```facts
//	handlers: resource=deployments
//	```
//
// Queries are a kind and space-separated key=value selectors, all of which
// must match (values compare case-insensitively):
//
//	handlers: resource= kind= group= component=
//	events:   reason= type= recorder= component=
//	writes:   resource= kind= group= verb= subresource= component=
//
// component is "pkg/controller/deployment" style: a handler's Component,
// or the tail of the import path of the function that records or writes.
// An empty result is an error: the walkthrough promised something the code
// at this tag no longer has.

import (
	"strings"

	"github.com/yuin/goldmark/ast"

	"github.com/kubewalk/kubewalk/analyzer/fact"
)

var factsSelectors = map[string][]string{
	"handlers": {"resource", "kind", "group", "component"},
	"events":   {"reason", "type", "recorder", "component"},
	"writes":   {"resource", "kind", "group", "verb", "subresource", "component"},
}

// factsSpec is a facts block as written.
type factsSpec struct {
	line  int // the opening fence
	qline int // the query
	kind  string
	query string
	sel   []kvLine // key=value selectors, in order
	col   int      // of the query
}

func (s *Source) parseFacts(n *ast.FencedCodeBlock, errs *errorList) *factsSpec {
	f := &factsSpec{line: s.fenceLine(n)}
	seen := false
	for i := 0; i < n.Lines().Len(); i++ {
		seg := n.Lines().At(i)
		body := strings.TrimRight(string(seg.Value(s.src)), "\r\n")
		trimmed := strings.TrimLeft(body, " \t")
		if strings.TrimSpace(trimmed) == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		line, col0 := s.lineCol(seg.Start)
		col := col0 + len(body) - len(trimmed)
		if seen {
			errs.add(s.File, line, col, "a facts block holds one query; start another block")
			continue
		}
		seen = true
		kind, q, ok := strings.Cut(trimmed, ":")
		kind = strings.TrimSpace(kind)
		keys, known := factsSelectors[kind]
		if !ok || !known {
			errs.add(s.File, line, col, "want handlers:, events: or writes: followed by key=value selectors, got %q", trimmed)
			return nil
		}
		f.kind, f.query, f.qline, f.col = kind, strings.TrimSpace(q), line, col
		off := col + len(kind) + 1
		rest := q
		for len(rest) > 0 {
			sp := len(rest) - len(strings.TrimLeft(rest, " \t"))
			rest, off = rest[sp:], off+sp
			if rest == "" {
				break
			}
			word := rest
			if i := strings.IndexAny(rest, " \t"); i >= 0 {
				word = rest[:i]
			}
			k, v, ok := strings.Cut(word, "=")
			switch {
			case !ok || v == "":
				errs.add(s.File, line, off, "want key=value, got %q", word)
			case !contains(keys, k):
				errs.add(s.File, line, off, "%s: unknown selector %q (want %s)", kind, k, strings.Join(keys, ", "))
			default:
				f.sel = append(f.sel, kvLine{key: k, val: v, line: line, keyCol: off, present: true})
			}
			rest, off = rest[len(word):], off+len(word)
		}
		if len(f.sel) == 0 {
			errs.add(s.File, line, col, "%s: no selector (want %s)", kind, strings.Join(keys, "=, ")+"=")
			return nil
		}
	}
	if !seen {
		errs.add(s.File, f.line, 1, "empty facts block")
		return nil
	}
	return f
}

// query fills a FactsBlock from the resolver's facts.
func (b *builder) query(f *factsSpec) *FactsBlock {
	var facts *fact.Facts
	if b.opts.Resolver != nil {
		facts = b.opts.Resolver.Facts()
	}
	if facts == nil {
		b.errs.add(b.file, f.qline, f.col, "%s: no facts to query", f.kind)
		return nil
	}
	fb := &FactsBlock{Kind: f.kind, Query: f.query, Line: f.line}
	n := 0
	switch f.kind {
	case "handlers":
		for _, h := range facts.Handlers {
			if f.matches(handlerField(h)) {
				fb.Handlers = append(fb.Handlers, h)
			}
		}
		n = len(fb.Handlers)
	case "events":
		for _, e := range facts.Events {
			if f.matches(eventField(e, f.sel)) {
				fb.Events = append(fb.Events, e)
			}
		}
		n = len(fb.Events)
	case "writes":
		for _, w := range facts.Writes {
			if f.matches(writeField(w, f.sel)) {
				fb.Writes = append(fb.Writes, w)
			}
		}
		n = len(fb.Writes)
	}
	if n == 0 {
		b.errs.add(b.file, f.qline, f.col, "%s: %s matches nothing at %s", f.kind, f.query, facts.Tag)
		return nil
	}
	return fb
}

// matches reports whether every selector of f equals, case-insensitively,
// the value field gives for its key.
func (f *factsSpec) matches(field func(key string) string) bool {
	for _, s := range f.sel {
		if !strings.EqualFold(field(s.key), s.val) {
			return false
		}
	}
	return true
}

// handlerField is what a handlers query's selectors read of h.
func handlerField(h fact.HandlerRegistration) func(key string) string {
	return func(key string) string {
		switch key {
		case "resource":
			return h.Informer.Resource
		case "kind":
			return h.Informer.Kind
		case "group":
			return h.Informer.Group
		}
		return h.Component
	}
}

// eventField is what an events query's selectors read of e.
func eventField(e fact.Event, sel []kvLine) func(key string) string {
	return func(key string) string {
		switch key {
		case "reason":
			return e.Reason
		case "type":
			return e.Type
		case "recorder":
			return e.Recorder
		}
		return componentOf(e.Caller.Symbol, sel)
	}
}

// writeField is what a writes query's selectors read of w.
func writeField(w fact.Write, sel []kvLine) func(key string) string {
	return func(key string) string {
		switch key {
		case "resource":
			return w.Resource.Resource
		case "kind":
			return w.Resource.Kind
		case "group":
			return w.Resource.Group
		case "verb":
			return w.Verb
		case "subresource":
			return w.Subresource
		}
		return componentOf(w.Caller.Symbol, sel)
	}
}

// componentOf returns the component selector's value when symbol's import
// path ends in it (so "pkg/controller/deployment" matches
// "k8s.io/kubernetes/pkg/controller/deployment.X"), else the import path.
func componentOf(symbol string, sel []kvLine) string {
	pkg := fact.SymbolPackage(symbol)
	for _, s := range sel {
		if s.key == "component" && (strings.EqualFold(pkg, s.val) || strings.HasSuffix(strings.ToLower(pkg), "/"+strings.ToLower(s.val))) {
			return s.val
		}
	}
	return pkg
}
