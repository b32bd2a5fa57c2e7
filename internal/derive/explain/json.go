package explain

import (
	"encoding/json"
	"strconv"
	"strings"
)

// fromJSON turns one decoded JSON value into records: an audit.k8s.io
// Event, a core/v1 or events.k8s.io/v1 Event, a list of any of them
// (kind …List with items, or a bare array). Values that are none of those
// give no records.
func fromJSON(n int, text string, v any) []Record {
	switch v := v.(type) {
	case []any:
		var out []Record
		for _, it := range v {
			out = append(out, itemRecords(n, it)...)
		}
		return out
	case map[string]any:
		if items, ok := v["items"].([]any); ok {
			var out []Record
			for _, it := range items {
				out = append(out, itemRecords(n, it)...)
			}
			return out
		}
		if r, ok := objectRecord(n, v); ok {
			r.Text = clip(text)
			return []Record{r}
		}
	}
	return nil
}

// itemRecords is fromJSON for a list item: its Text is a one-line summary,
// since the item spans many input lines.
func itemRecords(n int, it any) []Record {
	m, ok := it.(map[string]any)
	var r Record
	if ok {
		r, ok = objectRecord(n, m)
	}
	if !ok {
		b, _ := json.Marshal(it)
		return []Record{unknown(n, clip(string(b)))}
	}
	r.Text = summary(r)
	return []Record{r}
}

// summary is a one-line rendering of a record for tables.
func summary(r Record) string {
	switch {
	case r.Event != nil:
		e := r.Event
		return strings.TrimSpace(strings.Join(nonEmpty(e.Type, e.Reason, e.Object(), e.Message), "  "))
	case r.Audit != nil:
		a := r.Audit
		res := a.Resource
		if a.Subresource != "" {
			res += "/" + a.Subresource
		}
		obj := a.Name
		if a.Namespace != "" && obj != "" {
			obj = a.Namespace + "/" + obj
		}
		return strings.TrimSpace(strings.Join(nonEmpty(a.Verb, res, obj, a.Username, a.UserAgent), "  "))
	}
	return r.Text
}

func nonEmpty(ss ...string) []string {
	var out []string
	for _, s := range ss {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

// objectRecord reads one JSON object as an audit or event record.
func objectRecord(n int, m map[string]any) (Record, bool) {
	apiVersion := str(m, "apiVersion")
	_, hasVerb := lookup(m, "verb")
	isAudit := strings.HasPrefix(apiVersion, "audit.k8s.io/") ||
		hasVerb && (has(m, "requestURI") || has(m, "objectRef") || has(m, "objectRef.resource") || has(m, "auditID"))
	if isAudit {
		a := &AuditRecord{
			Verb:        str(m, "verb"),
			RequestURI:  str(m, "requestURI"),
			Group:       str(m, "objectRef.apiGroup"),
			Resource:    str(m, "objectRef.resource"),
			Subresource: str(m, "objectRef.subresource"),
			Namespace:   str(m, "objectRef.namespace"),
			Name:        str(m, "objectRef.name"),
			Username:    str(m, "user.username"),
			UserAgent:   str(m, "userAgent"),
			Stage:       str(m, "stage"),
			Code:        num(m, "responseStatus.code"),
		}
		fillFromURI(a)
		if a.Name == "" {
			a.Name = str(m, "responseObject.metadata.name")
		}
		return Record{Line: n, Kind: KindAudit, Format: "audit-json", Audit: a}, true
	}
	_, hasReason := lookup(m, "reason")
	if !hasReason || !(str(m, "kind") == "Event" || has(m, "involvedObject") || has(m, "regarding")) {
		return Record{}, false
	}
	e := &EventRecord{
		Type:    str(m, "type"),
		Reason:  str(m, "reason"),
		Message: first(str(m, "message"), str(m, "note")),
		Action:  str(m, "action"),
		// core/v1 Event: involvedObject, source; events.k8s.io/v1 (and
		// core/v1 written by the new recorder): regarding, reportingController.
		Kind:      strings.ToLower(first(str(m, "involvedObject.kind"), str(m, "regarding.kind"))),
		Name:      first(str(m, "involvedObject.name"), str(m, "regarding.name")),
		Namespace: first(str(m, "involvedObject.namespace"), str(m, "regarding.namespace"), str(m, "metadata.namespace")),
		Component: first(str(m, "source.component"), str(m, "reportingComponent"), str(m, "reportingController"), str(m, "deprecatedSource.component")),
		Host:      first(str(m, "source.host"), str(m, "reportingInstance"), str(m, "deprecatedSource.host")),
	}
	return Record{Line: n, Kind: KindEvent, Format: "json", Event: e}, true
}

func first(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

// lookup finds a dotted path in nested objects, or the dotted key itself
// (exports from log stores flatten "objectRef.resource").
func lookup(m map[string]any, path string) (any, bool) {
	if v, ok := m[path]; ok {
		return v, true
	}
	cur := m
	parts := strings.Split(path, ".")
	for i, p := range parts {
		v, ok := cur[p]
		if !ok {
			return nil, false
		}
		if i == len(parts)-1 {
			return v, true
		}
		if cur, ok = v.(map[string]any); !ok {
			return nil, false
		}
	}
	return nil, false
}

func has(m map[string]any, path string) bool { _, ok := lookup(m, path); return ok }

func str(m map[string]any, path string) string {
	v, _ := lookup(m, path)
	switch v := v.(type) {
	case string:
		return v
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return ""
}

func num(m map[string]any, path string) int {
	n, err := strconv.Atoi(str(m, path))
	if err != nil {
		return 0
	}
	return n
}
