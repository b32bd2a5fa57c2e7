package record

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"time"
)

// auditEvent is what kubewalk reads of an audit.k8s.io/v1 Event.
type auditEvent struct {
	Stage      string `json:"stage"`
	RequestURI string `json:"requestURI"`
	Verb       string `json:"verb"`
	User       struct {
		Username string `json:"username"`
	} `json:"user"`
	UserAgent string `json:"userAgent"`
	ObjectRef *struct {
		Resource    string `json:"resource"`
		Namespace   string `json:"namespace"`
		Name        string `json:"name"`
		APIGroup    string `json:"apiGroup"`
		APIVersion  string `json:"apiVersion"`
		Subresource string `json:"subresource"`
	} `json:"objectRef"`
	ResponseStatus *struct {
		Code int `json:"code"`
	} `json:"responseStatus"`
	RequestObject *struct {
		Kind     string `json:"kind"`
		Metadata struct {
			Name string `json:"name"`
		} `json:"metadata"`
	} `json:"requestObject"`
	ResponseObject *struct {
		Metadata struct {
			Name            string `json:"name"`
			ResourceVersion string `json:"resourceVersion"`
		} `json:"metadata"`
	} `json:"responseObject"`
	RequestReceivedTimestamp time.Time `json:"requestReceivedTimestamp"`
}

// collectAudit reads the audit log: every write once it completed and
// every watch once it started (a watch completes only when it ends). The
// first write by kubectl is the run's origin; every time in rec, the
// events' included, becomes relative to it. It is one pass over the log's
// lines because the origin is known only once kubectl's first write is
// read, and every entry before and after is placed by it.
func (r *run) collectAudit(rec *Recording) error {
	f, err := os.Open(r.auditLog)
	if err != nil {
		return fmt.Errorf("record: the audit log: %w", err)
	}
	defer f.Close()
	var entries []AuditEntry
	var abs []time.Time
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for line := 1; sc.Scan(); line++ {
		var ev auditEvent
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			// A line the API server did not write whole: the run goes on
			// without it, and the recording says so.
			r.logf("%s:%d: %v", r.auditLog, line, err)
			rec.NotObserved = append(rec.NotObserved, fmt.Sprintf("line %d of the audit log is not JSON (%v): its request is not in the recording", line, err))
			continue
		}
		a := AuditEntry{
			Stage:      ev.Stage,
			Verb:       ev.Verb,
			User:       ev.User.Username,
			UserAgent:  ev.UserAgent,
			RequestURI: ev.RequestURI,
		}
		if ev.ObjectRef != nil {
			o := ev.ObjectRef
			a.Group, a.Version, a.Resource, a.Subresource, a.Namespace, a.Name = o.APIGroup, o.APIVersion, o.Resource, o.Subresource, o.Namespace, o.Name
		}
		if ev.ResponseStatus != nil {
			a.Code = ev.ResponseStatus.Code
		}
		switch {
		case a.IsWrite() && a.Stage == "ResponseComplete":
		case a.Verb == "watch" && a.Stage == "ResponseStarted":
		default:
			continue
		}
		if ev.RequestObject != nil {
			a.ObjectKind = ev.RequestObject.Kind
		}
		if ev.ResponseObject != nil && a.IsWrite() {
			a.ResourceVersion = ev.ResponseObject.Metadata.ResourceVersion
		}
		// A create names its object in the body, not the URL.
		if a.Name == "" && a.Verb == "create" {
			switch {
			case ev.ResponseObject != nil && ev.ResponseObject.Metadata.Name != "":
				a.Name = ev.ResponseObject.Metadata.Name
			case ev.RequestObject != nil:
				a.Name = ev.RequestObject.Metadata.Name
			}
		}
		entries = append(entries, a)
		abs = append(abs, ev.RequestReceivedTimestamp)
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("record: the audit log: %w", err)
	}
	var origin time.Time
	for i, a := range entries {
		if a.IsWrite() && strings.HasPrefix(a.UserAgent, "kubectl/") {
			origin = abs[i]
			break
		}
	}
	if origin.IsZero() {
		return fmt.Errorf("record: the audit log %s holds no write by kubectl: the scenario's apply was not audited", r.auditLog)
	}
	for i := range entries {
		entries[i].At = abs[i].Sub(origin).Milliseconds()
	}
	rec.Audit = entries
	o := origin.UnixMilli()
	for i := range rec.Events {
		rec.Events[i].At -= o
		rec.Events[i].Last -= o
	}
	if rec.Coverage != nil {
		for i := range rec.Coverage.Phases {
			rec.Coverage.Phases[i].Start -= o
			rec.Coverage.Phases[i].End -= o
		}
	}
	return nil
}

// attachEventAPIs gives each event the API it was written through and the
// time of its create in the audit log, which is exact where the event's
// own timestamps have a resolution of one second.
func (rec *Recording) attachEventAPIs() {
	type key struct{ ns, name string }
	created := map[key]AuditEntry{}
	for _, a := range rec.Audit {
		if a.Verb == "create" && a.Resource == "events" && a.Subresource == "" {
			k := key{a.Namespace, a.Name}
			if _, ok := created[k]; !ok {
				created[k] = a
			}
		}
	}
	for i := range rec.Events {
		e := &rec.Events[i]
		a, ok := created[key{e.Namespace, e.Name}]
		if !ok {
			continue
		}
		e.API = a.Version
		if a.Group != "" {
			e.API = a.Group + "/" + a.Version
		}
		if d := e.Last - e.At; d >= 0 {
			e.At = a.At
			e.Last = a.At + d
		}
	}
}

// versions asks each program what it is: the servers' /version and
// --version, the clients' user agents as the audit log shows them.
func (r *run) versions(ctx context.Context, rec *Recording) {
	agent := func(prefix string) string {
		for _, a := range rec.Audit {
			if strings.HasPrefix(a.UserAgent, prefix+"/") {
				return a.UserAgent
			}
		}
		return ""
	}
	for _, p := range r.procs {
		c := Component{Name: p.name, ReadyMillis: p.ready.Milliseconds()}
		switch p.name {
		case "etcd", "kube-apiserver":
			out, err := r.output(ctx, p.cmd.Path, "--version")
			if err == nil {
				c.Version = strings.TrimSpace(strings.SplitN(string(out), "\n", 2)[0])
			}
		default:
			c.Version = agent(p.name)
		}
		rec.Components = append(rec.Components, c)
	}
	rec.Components = append(rec.Components, Component{Name: "kubectl", Version: agent("kubectl")})
}
