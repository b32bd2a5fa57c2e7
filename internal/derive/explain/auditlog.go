package explain

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/kubewalk/kubewalk/record"
)

// ReadAuditLog reads an API server audit log (audit.k8s.io/v1 Events,
// one JSON object a line, as --audit-log-path writes them) into the
// entries of a recording, so that Attribute explains it as it explains a
// recorded run. Each request is kept once, at the stage where it is
// whole: a write or a list when it completed, a watch when it started
// (a watch completes only when it ends). Gets are left out: a read of
// one object by name is no fact's (lists and watches are the
// reflectors'). Times are made relative to the
// first write by kubectl, as a recording's are; in a log without one,
// every entry is at 0 (the cluster running by itself).
//
// A line that is not an audit event is an error naming its line: the
// input is not an audit log.
func ReadAuditLog(r io.Reader) ([]record.AuditEntry, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	var entries []record.AuditEntry
	var abs []time.Time
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			return nil, fmt.Errorf("line %d: not an audit event: %w", n, err)
		}
		rec, ok := objectRecord(n, m)
		if !ok || rec.Audit == nil {
			return nil, fmt.Errorf("line %d: not an audit event", n)
		}
		a := rec.Audit
		switch {
		case a.Verb == "watch" && a.Stage == "ResponseStarted":
		case a.Verb == "get":
			continue // a single read by name: no fact finds those
		case a.Verb != "watch" && a.Stage == "ResponseComplete":
		default:
			continue
		}
		e := record.AuditEntry{
			Stage: a.Stage, Verb: a.Verb, Group: a.Group, Version: str(m, "objectRef.apiVersion"),
			Resource: a.Resource, Subresource: a.Subresource, Namespace: a.Namespace, Name: a.Name,
			User: a.Username, UserAgent: a.UserAgent, RequestURI: a.RequestURI, Code: a.Code,
			ObjectKind: str(m, "requestObject.kind"),
		}
		if e.Name == "" && e.Verb == "create" {
			e.Name = str(m, "requestObject.metadata.name")
		}
		t, _ := time.Parse(time.RFC3339Nano, str(m, "requestReceivedTimestamp"))
		entries = append(entries, e)
		abs = append(abs, t)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	var origin time.Time
	for i, e := range entries {
		if e.IsWrite() && strings.HasPrefix(e.UserAgent, "kubectl/") {
			origin = abs[i]
			break
		}
	}
	if !origin.IsZero() {
		for i := range entries {
			entries[i].At = abs[i].Sub(origin).Milliseconds()
		}
	}
	return entries, nil
}
