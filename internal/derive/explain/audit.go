package explain

import (
	"net/url"
	"strconv"
	"strings"
)

// fillFromURI completes an audit record's resource, subresource, group,
// namespace and name from its request URI when objectRef did not carry
// them (CloudWatch excerpts, or stages that log no objectRef):
//
//	/api/v1/namespaces/default/pods/nginx-x/binding
//	/apis/apps/v1/namespaces/default/deployments?fieldManager=…
func fillFromURI(a *AuditRecord) {
	if a.RequestURI == "" {
		return
	}
	p := a.RequestURI
	if i := strings.IndexAny(p, "?#"); i >= 0 {
		p = p[:i]
	}
	if u, err := url.PathUnescape(p); err == nil {
		p = u
	}
	segs := strings.Split(strings.Trim(p, "/"), "/")
	var group string
	switch {
	case len(segs) >= 2 && segs[0] == "api":
		segs = segs[2:] // api, v1
	case len(segs) >= 3 && segs[0] == "apis":
		group, segs = segs[1], segs[3:] // apis, group, version
	default:
		return
	}
	var ns string
	if len(segs) >= 2 && segs[0] == "namespaces" {
		ns = segs[1]
		segs = segs[2:]
		if len(segs) == 0 { // the namespace object itself
			segs = []string{"namespaces", ns}
			ns = ""
		}
	}
	var res, name, sub string
	if len(segs) > 0 {
		res = segs[0]
	}
	if len(segs) > 1 {
		name = segs[1]
	}
	if len(segs) > 2 {
		sub = segs[2]
	}
	if a.Resource == "" {
		a.Resource = res
	}
	if a.Resource != res {
		return // objectRef and URI disagree (a log excerpt mixing fields): trust objectRef
	}
	if a.Subresource == "" {
		a.Subresource = sub
	}
	if a.Group == "" {
		a.Group = group
	}
	if a.Namespace == "" {
		a.Namespace = ns
	}
	if a.Name == "" {
		a.Name = name
	}
}

// auditKeys are the keys a "key: value" audit field block may hold, as
// CloudWatch Logs Insights prints the fields of an audit record.
var auditKeys = map[string]bool{
	"requestURI": true, "verb": true, "user.username": true, "userAgent": true,
	"objectRef.resource": true, "objectRef.subresource": true, "objectRef.name": true,
	"objectRef.namespace": true, "objectRef.apiGroup": true, "objectRef.apiVersion": true,
	"requestObject.kind": true, "responseObject.metadata.name": true, "responseStatus.code": true,
	"stage": true, "auditID": true, "@timestamp": true, "@message": true, "@logStream": true,
	"sourceIPs.0": true, "level": true, "kind": true, "apiVersion": true,
}

// kvBlock gathers consecutive "key: value" lines of audit fields into one
// audit record. A repeated key starts a new record.
type kvBlock struct {
	start  int
	lines  []string
	fields map[string]string
	queued []Record // records completed by a repeated key
}

// add takes line t (trimmed) into the block when it is an audit field;
// false means the line is something else and the block should be flushed.
func (b *kvBlock) add(n int, t string) bool {
	k, v, ok := strings.Cut(t, ":")
	if !ok || strings.ContainsAny(k, " \t{\"") {
		return false
	}
	k = strings.TrimSpace(k)
	if !auditKeys[k] {
		return false
	}
	if _, dup := b.fields[k]; dup {
		if r, ok := b.build(); ok {
			b.queued = append(b.queued, r)
		}
		b.start, b.lines, b.fields = 0, nil, nil
	}
	if b.fields == nil {
		b.fields = map[string]string{}
		b.start = n
	}
	b.fields[k] = strings.TrimSpace(v)
	b.lines = append(b.lines, t)
	return true
}

// record returns the block's record, ok false when it is empty. Records a
// repeated key completed earlier come first: record is called until !ok.
func (b *kvBlock) record() (Record, bool) {
	if len(b.queued) > 0 {
		r := b.queued[0]
		b.queued = b.queued[1:]
		return r, true
	}
	r, ok := b.build()
	b.start, b.lines, b.fields = 0, nil, nil
	return r, ok
}

func (b *kvBlock) build() (Record, bool) {
	if len(b.fields) == 0 {
		return Record{}, false
	}
	f := b.fields
	text := clip(strings.Join(b.lines, "; "))
	if f["verb"] == "" && f["requestURI"] == "" {
		return Record{Line: b.start, Text: text, Kind: KindUnknown}, true
	}
	a := &AuditRecord{
		Verb:        f["verb"],
		RequestURI:  f["requestURI"],
		Group:       f["objectRef.apiGroup"],
		Resource:    f["objectRef.resource"],
		Subresource: f["objectRef.subresource"],
		Namespace:   f["objectRef.namespace"],
		Name:        first(f["objectRef.name"], f["responseObject.metadata.name"]),
		Username:    f["user.username"],
		UserAgent:   f["userAgent"],
		Stage:       f["stage"],
	}
	a.Code, _ = strconv.Atoi(f["responseStatus.code"])
	fillFromURI(a)
	return Record{Line: b.start, Text: text, Kind: KindAudit, Format: "audit-fields", Audit: a}, true
}
