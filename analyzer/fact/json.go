package fact

import (
	"encoding/json"
	"io"
)

// WriteJSON writes f as facts.json: one line of JSON and a newline, its
// schema the Facts type at version f.Schema (field names are the json
// tags). Lists are in the order the passes sorted them, and a list with
// nothing in it is written [] rather than null, so readers need not tell
// the two apart.
//
// It is compact, not indented: indented, a real release's facts are half
// again as large (bench/README.md), and tools read it, not people. <, >
// and & are escaped as encoding/json does by default, so the file is safe
// to serve beside HTML.
func (f *Facts) WriteJSON(w io.Writer) error {
	c := f.withEmptyLists()
	return json.NewEncoder(w).Encode(&c)
}

// withEmptyLists is a copy of f whose nil lists are empty ones, written
// [] rather than null.
func (f *Facts) withEmptyLists() Facts {
	c := *f
	c.Roots = orEmpty(c.Roots)
	c.Handlers = orEmpty(c.Handlers)
	c.Wirings = orEmpty(c.Wirings)
	c.Writes = orEmpty(c.Writes)
	c.Events = orEmpty(c.Events)
	c.ListWatches = orEmpty(c.ListWatches)
	c.InformerRequests = orEmpty(c.InformerRequests)
	c.Calls = orEmpty(c.Calls)
	c.Gates = orEmpty(c.Gates)
	c.GateChecks = orEmpty(c.GateChecks)
	c.Controllers = orEmpty(c.Controllers)
	c.SchedulerPlugins = orEmpty(c.SchedulerPlugins)
	return c
}

func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
