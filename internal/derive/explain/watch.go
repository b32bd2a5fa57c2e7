package explain

import (
	"net/url"
	"slices"
	"strings"
)

// Watch is what a watch request's URI says, beside the code that opened
// it: the selectors that narrow it and the parameters a reader should
// notice, each with what it means and the client-go code that adds it.
type Watch struct {
	// FieldSelector and LabelSelector are the request's, unescaped
	// ("spec.nodeName=node1"); "" when it has none.
	FieldSelector string `json:"fieldSelector,omitempty"`
	LabelSelector string `json:"labelSelector,omitempty"`
	// Params are the parameters of watchParams the request carries, in
	// that table's order.
	Params []WatchParam `json:"params,omitempty"`
}

// WatchParam is one query parameter of a watch request.
type WatchParam struct {
	Name  string `json:"name"`
	Value string `json:"value"`
	// Meaning is one sentence on what the parameter asks of the API
	// server.
	Meaning string `json:"meaning"`
	// Symbol is the client-go function that sets it, for a link by
	// symbol (the site resolves it at the release; a release that
	// renamed it leaves the link out); "" when the request could not
	// have come from a reflector (sendInitialEvents on a plain watch).
	Symbol string `json:"symbol,omitempty"`
}

const reflectorPkg = "k8s.io/client-go/tools/cache"

// watchParams are the parameters of a reflector's watch, in the order a
// reader meets them, and the client-go function that sets each. A
// streaming list (sendInitialEvents, from client-go v0.30 behind the
// WatchListClient gate) is opened by Reflector.watchList, which sets all
// four; the watch after a LIST by Reflector.watch. The REST client sends
// TimeoutSeconds again as the request's own timeout.
var watchParams = []struct{ name, meaning, streaming, plain string }{
	{"sendInitialEvents", "the watch begins with every object that exists as an ADDED event, so the reflector fills its cache without a LIST first (a streaming list)",
		reflectorPkg + ".Reflector.watchList", ""},
	{"resourceVersionMatch", "with NotOlderThan, those first events are at least as recent as the resource version asked for (none: the most recent), so the cache never starts from older data than a LIST would give",
		reflectorPkg + ".Reflector.watchList", ""},
	{"allowWatchBookmarks", "the API server may send BOOKMARK events that carry only a newer resource version, so a watch that ends resumes from there instead of listing everything again",
		reflectorPkg + ".Reflector.watchList", reflectorPkg + ".Reflector.watch"},
	{"timeoutSeconds", "the API server ends the watch after this many seconds and the reflector opens a new one; the reflector picks the span at random between its minimum and maximum watch timeout, so the watches of many clients do not all end at once",
		reflectorPkg + ".Reflector.watchList", reflectorPkg + ".Reflector.watch"},
	{"timeout", "the client's own deadline for the request, the same span as timeoutSeconds",
		"k8s.io/client-go/rest.Request.Timeout", "k8s.io/client-go/rest.Request.Timeout"},
	{"resourceVersion", "where the watch starts: after this resource version, the one the LIST before it returned or the last event seen",
		reflectorPkg + ".Reflector.watchList", reflectorPkg + ".Reflector.watch"},
}

// parseWatch reads the selectors and parameters of a request URI; nil
// when the URI has no query.
func parseWatch(uri string) *Watch {
	_, q, ok := strings.Cut(uri, "?")
	if !ok {
		return nil
	}
	vals, err := url.ParseQuery(q)
	if err != nil {
		return nil
	}
	w := &Watch{FieldSelector: vals.Get("fieldSelector"), LabelSelector: vals.Get("labelSelector")}
	streaming := vals.Get("sendInitialEvents") == "true"
	for _, p := range watchParams {
		v, ok := vals[p.name]
		if !ok || len(v) == 0 {
			continue
		}
		sym := p.plain
		if streaming {
			sym = p.streaming
		}
		w.Params = append(w.Params, WatchParam{Name: p.name, Value: v[0], Meaning: p.meaning, Symbol: sym})
	}
	return w
}

// selectorFields are the fields a field selector tests, sorted:
// "metadata.name=x,spec.nodeName=y" → [metadata.name spec.nodeName].
func selectorFields(sel string) []string {
	var out []string
	for _, term := range strings.Split(sel, ",") {
		k, _, _ := strings.Cut(term, "=")
		k = strings.TrimRight(k, "!")
		if k != "" {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
