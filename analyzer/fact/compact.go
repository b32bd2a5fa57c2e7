package fact

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
)

// The compact form of facts.json, as a site offers it for download
// (facts.json.zst). It is facts.json (WriteJSON) with one difference: the
// call graph, nine tenths of the bytes, is written with a symbol table.
//
//	"calls": {
//	  "symbols": ["k8s.io/kubernetes/cmd/….newDaemonSetController", …],
//	  "callers": [
//	    [from, "cmd/kube-controller-manager/app/apps.go", [[to, 44, 44, "static"], [to, 49, 57, "static"]]],
//	    …
//	  ]
//	}
//
// symbols is every caller and callee, sorted, each once; from and to are
// indexes into it. callers lists the calls in facts.json's order, each run
// of consecutive calls with the same caller and file as one entry:
// [from, at.path, [[to, at.start, at.end, kind], …]]. A caller may have
// more than one entry. Everything else is as WriteJSON writes it, and
// "calls" comes last. With jq the plain form is
//
//	jq -c '.calls as $c | .calls = [$c.callers[] as [$f, $p, $cs] | $cs[] as [$t, $s, $e, $k]
//	  | {from: $c.symbols[$f], to: $c.symbols[$t], at: {path: $p, start: $s, end: $e}, kind: $k}]'
//
// Written this way the call graph's JSON is a fraction of the plain
// form's and compresses smaller too: the symbols, long and named again
// and again across the file, are named once (bench/README.md has the
// figures). ReadJSON reads either form.

// compactFacts is Facts with its Calls shadowed by the compact call graph
// (encoding/json lets the shallower field win, and orders it after every
// field of the embedded Facts).
type compactFacts struct {
	Facts
	Calls compactCalls `json:"calls"`
}

type compactCalls struct {
	Symbols []string      `json:"symbols"`
	Callers []callerCalls `json:"callers"`
}

// callerCalls is one run of calls from one caller in one file, written as
// the array [from, path, [site, …]].
type callerCalls struct {
	From  int
	Path  string
	Sites []callSite
}

// callSite is one call of a run, written as the array [to, start, end, kind].
type callSite struct {
	To         int
	Start, End int
	Kind       string
}

func (c callerCalls) MarshalJSON() ([]byte, error) {
	return json.Marshal([]any{c.From, c.Path, c.Sites})
}

func (c *callerCalls) UnmarshalJSON(b []byte) error {
	return unmarshalTuple(b, &c.From, &c.Path, &c.Sites)
}

func (s callSite) MarshalJSON() ([]byte, error) {
	return json.Marshal([]any{s.To, s.Start, s.End, s.Kind})
}

func (s *callSite) UnmarshalJSON(b []byte) error {
	return unmarshalTuple(b, &s.To, &s.Start, &s.End, &s.Kind)
}

// unmarshalTuple reads a JSON array of exactly len(into) elements, each
// into its pointer.
func unmarshalTuple(b []byte, into ...any) error {
	var elems []json.RawMessage
	if err := json.Unmarshal(b, &elems); err != nil {
		return err
	}
	if len(elems) != len(into) {
		return fmt.Errorf("array of %d elements where %d are expected: %.40s", len(elems), len(into), b)
	}
	for i, e := range elems {
		if err := json.Unmarshal(e, into[i]); err != nil {
			return err
		}
	}
	return nil
}

// WriteCompactJSON writes f as facts.json in its compact form (above): one
// line of JSON and a newline, the same facts as WriteJSON's, the call graph
// with a symbol table. The same facts make the same bytes.
func (f *Facts) WriteCompactJSON(w io.Writer) error {
	c := compactFacts{Facts: f.withEmptyLists()}
	syms := make([]string, 0, 2*len(f.Calls))
	for _, call := range f.Calls {
		syms = append(syms, call.From, call.To)
	}
	slices.Sort(syms)
	syms = slices.Compact(syms)
	index := make(map[string]int, len(syms))
	for i, s := range syms {
		index[s] = i
	}
	c.Calls.Symbols = syms
	c.Calls.Callers = []callerCalls{}
	for _, call := range f.Calls {
		site := callSite{To: index[call.To], Start: call.At.StartLine, End: call.At.EndLine, Kind: call.Kind}
		from := index[call.From]
		if n := len(c.Calls.Callers); n > 0 && c.Calls.Callers[n-1].From == from && c.Calls.Callers[n-1].Path == call.At.Path {
			c.Calls.Callers[n-1].Sites = append(c.Calls.Callers[n-1].Sites, site)
			continue
		}
		c.Calls.Callers = append(c.Calls.Callers, callerCalls{From: from, Path: call.At.Path, Sites: []callSite{site}})
	}
	return json.NewEncoder(w).Encode(&c)
}

// ReadJSON reads facts.json in either form, WriteJSON's or
// WriteCompactJSON's.
func ReadJSON(r io.Reader) (*Facts, error) {
	var in struct {
		Facts
		Calls json.RawMessage `json:"calls"`
	}
	if err := json.NewDecoder(r).Decode(&in); err != nil {
		return nil, err
	}
	f := in.Facts
	calls := bytes.TrimSpace(in.Calls)
	switch {
	case len(calls) == 0 || bytes.Equal(calls, []byte("null")):
	case calls[0] == '[':
		if err := json.Unmarshal(calls, &f.Calls); err != nil {
			return nil, fmt.Errorf("calls: %w", err)
		}
	default:
		var c compactCalls
		if err := json.Unmarshal(calls, &c); err != nil {
			return nil, fmt.Errorf("calls: %w", err)
		}
		f.Calls = []Call{}
		for _, run := range c.Callers {
			if run.From < 0 || run.From >= len(c.Symbols) {
				return nil, fmt.Errorf("calls: caller %d is not one of %d symbols", run.From, len(c.Symbols))
			}
			for _, s := range run.Sites {
				if s.To < 0 || s.To >= len(c.Symbols) {
					return nil, fmt.Errorf("calls: callee %d is not one of %d symbols", s.To, len(c.Symbols))
				}
				f.Calls = append(f.Calls, Call{
					From: c.Symbols[run.From],
					To:   c.Symbols[s.To],
					At:   Location{Path: run.Path, StartLine: s.Start, EndLine: s.End},
					Kind: s.Kind,
				})
			}
		}
	}
	return &f, nil
}
