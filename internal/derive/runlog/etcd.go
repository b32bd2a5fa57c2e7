package runlog

import (
	"strings"

	"github.com/kubewalk/kubewalk/internal/derive/explain"
	"github.com/kubewalk/kubewalk/record"
)

// Key is a key of the run with its revisions, each beside the write that
// made it.
type Key struct {
	record.Key
	// Index is the key's place in the recording's Keys.
	Index int
	// Compacted: etcd had compacted the key's first revisions away.
	Compacted bool
	Revs      []Rev
	// Value is the newest value stored (the last before the delete, for
	// a deleted key), without managedFields, at revision ValueRev.
	Value    string
	ValueRev int64
}

// Rev is a revision of a key.
type Rev struct {
	record.Revision
	// Write is the audited write that made it, nil when none was found;
	// ByOrder when it was found by its place among the object's writes
	// (record.RevisionWrites).
	Write   *explain.AttributedAudit
	ByOrder bool
	// Value is the revision's YAML without managedFields, "" when it has
	// none.
	Value string
}

// Keys are the recording's keys with revisions: the objects first, then
// the Event objects, each in key order.
func (r *Run) Keys() (objects, events []Key) {
	for i, k := range r.Rec.Keys {
		if len(k.Revisions) == 0 {
			continue
		}
		v := Key{Key: k, Index: i, Compacted: k.Revisions[0].Version > 1}
		writes := r.Rec.RevisionWrites(k)
		for j, rev := range k.Revisions {
			rv := Rev{Revision: rev, ByOrder: writes[j].ByOrder}
			if w := writes[j].Audit; w >= 0 {
				rv.Write = &r.At.Audit[w]
			}
			if rev.YAML != "" {
				rv.Value = WithoutManagedFields(rev.YAML)
				v.Value, v.ValueRev = rv.Value, rev.Revision
			}
			v.Revs = append(v.Revs, rv)
		}
		if strings.HasPrefix(k.Key, "/registry/events/") {
			events = append(events, v)
		} else {
			objects = append(objects, v)
		}
	}
	return objects, events
}

// HasValues reports whether the run's recording holds etcd values; false
// for a nil run.
func (r *Run) HasValues() bool {
	if r == nil {
		return false
	}
	for _, k := range r.Rec.Keys {
		if len(k.Revisions) > 0 {
			return true
		}
	}
	return false
}

// WithoutManagedFields is an object's YAML without metadata.managedFields,
// as kubectl get -o yaml prints objects: which manager set which fields,
// rewritten by every write, would be most of each change.
func WithoutManagedFields(y string) string {
	lines := strings.SplitAfter(y, "\n")
	var sb strings.Builder
	in := false
	for _, l := range lines {
		switch {
		case l == "  managedFields:\n":
			in = true
			continue
		case in && (strings.HasPrefix(l, "  - ") || strings.HasPrefix(l, "    ")):
			continue
		}
		in = false
		sb.WriteString(l)
	}
	return sb.String()
}
