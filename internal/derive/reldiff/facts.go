package reldiff

import (
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/kubewalk/kubewalk/analyzer/fact"
)

// FactKind is the kind of a fact change.
type FactKind string

const (
	KindHandler FactKind = "handler"
	KindEvent   FactKind = "event"
	KindWrite   FactKind = "write"
)

func (k FactKind) plural() string { return string(k) + "s" }

// Change says whether a fact was added or removed.
type Change string

const (
	Added   Change = "added"
	Removed Change = "removed"
)

// FactChange is a handler registration, an event or a write present at
// one release and not at the other.
//
// Facts are matched by identity, never by line, so code that merely moves
// is not a change:
//
//   - handler: component, informer (group/version/kind, or the informer
//     expression when the kind is unknown), registration method, and the
//     add/update/delete/filter handlers;
//   - event: recorder, reason (or the reason expression when it is not
//     constant) and calling function;
//   - write: calling function, resource (group/resource), verb and
//     subresource.
//
// A func literal is named after its enclosing declaration with a "$N"
// suffix that counts literals in source order (fact.FuncRef); the
// suffix shifts whenever a literal is added above, so identities drop it
// and a literal handler is known by the functions of its own package it
// calls instead (see handlerID).
// Several facts with one identity (the same event recorded twice by one
// function) count as one: a change in their number is not reported.
type FactChange struct {
	Kind   FactKind `json:"kind"`
	Change Change   `json:"change"`
	// Key is the identity above, one line, with full symbol names; it is
	// also the sort key. Label is the same with import paths cut to their
	// last element, for people.
	Key   string `json:"key"`
	Label string `json:"label"`
	// At is where the fact is, at the release that has it (To for added,
	// From for removed); the first one when several share Key.
	At fact.Location `json:"at"`
	// One of these is the fact itself, as the analyzer reported it.
	Handler *fact.HandlerRegistration `json:"handler,omitempty"`
	Event   *fact.Event               `json:"event,omitempty"`
	Write   *fact.Write               `json:"write,omitempty"`
}

// CompareFacts returns the facts of b not in a (added) and of a not in b
// (removed), sorted by Kind, Change, Key.
func CompareFacts(a, b *fact.Facts) []FactChange {
	out := []FactChange{}
	out = appendChanges(out, keyed(a.Handlers, handlerChange), keyed(b.Handlers, handlerChange))
	out = appendChanges(out, keyed(a.Events, eventChange), keyed(b.Events, eventChange))
	out = appendChanges(out, keyed(a.Writes, writeChange), keyed(b.Writes, writeChange))
	sort.Slice(out, func(i, j int) bool {
		x, y := out[i], out[j]
		if x.Kind != y.Kind {
			return x.Kind < y.Kind
		}
		if x.Change != y.Change {
			return x.Change < y.Change
		}
		if x.Key != y.Key {
			return x.Key < y.Key
		}
		return lessLoc(x.At, y.At)
	})
	return out
}

func lessLoc(a, b fact.Location) bool {
	if a.Path != b.Path {
		return a.Path < b.Path
	}
	return a.StartLine < b.StartLine
}

// keyed maps each fact's identity to its first occurrence (facts come
// sorted by location from the analyzer).
func keyed[T any](facts []T, change func(*T) FactChange) map[string]FactChange {
	m := map[string]FactChange{}
	for i := range facts {
		fc := change(&facts[i])
		if _, dup := m[fc.Key]; !dup {
			m[fc.Key] = fc
		}
	}
	return m
}

func appendChanges(out []FactChange, a, b map[string]FactChange) []FactChange {
	for k, fc := range b {
		if _, ok := a[k]; !ok {
			fc.Change = Added
			out = append(out, fc)
		}
	}
	for k, fc := range a {
		if _, ok := b[k]; !ok {
			fc.Change = Removed
			out = append(out, fc)
		}
	}
	return out
}

func handlerChange(h *fact.HandlerRegistration) FactChange {
	inf := h.Informer.Kind
	if inf == "" {
		inf = "(" + h.InformerExpr + ")"
	} else {
		inf = gv(h.Informer.Group, h.Informer.Version) + " " + inf
	}
	key := h.Component + " " + inf + " " + h.Method
	label := key
	for _, p := range []struct {
		name string
		h    *fact.Handler
	}{{"add", h.Add}, {"update", h.Update}, {"delete", h.Delete}, {"filter", h.Filter}} {
		if p.h != nil {
			key += " " + p.name + "=" + handlerID(p.h, noShort)
			label += " " + p.name + "=" + handlerID(p.h, fact.ShortSymbol)
		}
	}
	if h.Add == nil && h.Update == nil && h.Delete == nil && h.HandlerExpr != "" {
		key += " handler=" + h.HandlerExpr
		label += " handler=" + h.HandlerExpr
	}
	return FactChange{Kind: KindHandler, Key: key, Label: label, At: h.At, Handler: h}
}

func gv(group, version string) string {
	if group == "" {
		return "core/" + version
	}
	return group + "/" + version
}

// handlerID names a handler stably: its symbol, or for a func literal the
// enclosing function and the functions of the same package it calls,
// sorted — the method it forwards to (c.enqueueClaim). Calls into other
// packages (metrics, logging, feature gates) are left out: they come and
// go with every edit of the literal's body and would make a registration
// look removed and re-added when only its body changed.
func handlerID(h *fact.Handler, name func(string) string) string {
	if h.Symbol == "" {
		return "?" + h.Form
	}
	if h.Form != "func literal" {
		return name(h.Symbol)
	}
	encl := stripLiteral(h.Symbol)
	s := name(encl) + "$func"
	pkg := fact.SymbolPackage(encl)
	var calls []string
	for _, c := range h.Calls {
		c = stripLiteral(c)
		if fact.SymbolPackage(c) == pkg && !slices.Contains(calls, name(c)) {
			calls = append(calls, name(c))
		}
	}
	if len(calls) > 0 {
		slices.Sort(calls)
		s += "[" + strings.Join(calls, ",") + "]"
	}
	return s
}

func eventChange(e *fact.Event) FactChange {
	reason := e.Reason
	if reason == "" {
		reason = "(" + e.ReasonExpr + ")"
	}
	key := e.Recorder + " " + reason + " "
	label := key + fact.ShortSymbol(stripLiteral(e.Caller.Symbol))
	key += stripLiteral(e.Caller.Symbol)
	if e.Via != "" {
		key += " via " + e.Via
		label += " via " + fact.ShortSymbol(e.Via)
	}
	return FactChange{Kind: KindEvent, Key: key, Label: label, At: e.At, Event: e}
}

func writeChange(w *fact.Write) FactChange {
	res := w.Resource.Resource
	if w.Resource.Group != "" {
		res += "." + w.Resource.Group
	}
	if w.Subresource != "" {
		res += "/" + w.Subresource
	}
	key := w.Verb + " " + res + " "
	label := key + fact.ShortSymbol(stripLiteral(w.Caller.Symbol))
	key += stripLiteral(w.Caller.Symbol)
	return FactChange{Kind: KindWrite, Key: key, Label: label, At: w.At, Write: w}
}

// literalSuffix matches the "$N" (or "$N$M" for nested literals) go/ssa
// style suffix of a func literal's name.
var literalSuffix = regexp.MustCompile(`(\$\d+)+$`)

func stripLiteral(sym string) string { return literalSuffix.ReplaceAllString(sym, "") }

func noShort(sym string) string { return sym }
