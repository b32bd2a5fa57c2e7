package record

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"sigs.k8s.io/yaml"
)

// keys lists the scenario's etcd keys through the etcd client of the
// release's etcd, each with its values since the cluster began, decoded,
// redacted and written as YAML.
func (r *run) keys(ctx context.Context, sc Scenario) ([]Key, error) {
	args := append([]string{"kubewalk-keys", fmt.Sprintf("http://127.0.0.1:%d", r.etcdPort)}, sc.Keys...)
	out, err := r.output(ctx, r.bins.Path("etcd"), args...)
	if err != nil {
		return nil, fmt.Errorf("record: etcd keys: %w", err)
	}
	keys, err := parseKeys(out)
	if err != nil {
		return nil, fmt.Errorf("record: etcd keys: %w", err)
	}
	return keys, nil
}

// helperKey is a line of the etcd helper's kubewalk-keys output: a Key
// whose revisions hold the values as JSON.
type helperKey struct {
	Key
	Revisions []struct {
		Revision
		Object json.RawMessage `json:"object"`
	} `json:"revisions"`
}

// parseKeys reads the helper's output: each value's JSON is redacted
// (redact) and turned into YAML, the keys sorted.
func parseKeys(out []byte) ([]Key, error) {
	var keys []Key
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var h helperKey
		if err := dec.Decode(&h); err != nil {
			return nil, err
		}
		k := h.Key
		k.Revisions = nil
		for _, hr := range h.Revisions {
			rev := hr.Revision
			if len(hr.Object) > 0 {
				y, err := valueYAML(hr.Object)
				if err != nil {
					return nil, fmt.Errorf("%s at revision %d: %w", k.Key, rev.Revision, err)
				}
				rev.YAML = y
			}
			k.Revisions = append(k.Revisions, rev)
		}
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b Key) int { return strings.Compare(a.Key, b.Key) })
	return keys, nil
}

// valueYAML is a stored object's JSON, redacted, as YAML with its fields
// sorted, as kubectl get -o yaml prints an object.
func valueYAML(obj json.RawMessage) (string, error) {
	var v any
	d := json.NewDecoder(bytes.NewReader(obj))
	d.UseNumber()
	if err := d.Decode(&v); err != nil {
		return "", err
	}
	redact(v)
	j, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	y, err := yaml.JSONToYAML(j)
	if err != nil {
		return "", err
	}
	return string(y), nil
}

// Redacted is what a recording shows in place of a secret value.
const Redacted = "<redacted>"

// lastApplied is the annotation kubectl apply keeps the applied manifest
// in: a Secret's holds its data.
const lastApplied = "kubectl.kubernetes.io/last-applied-configuration"

// redact replaces, in a decoded object, what must not leave the machine:
// every value of a Secret's data and stringData and its last applied
// manifest; the token-derived signatures of the cluster-info ConfigMap
// (jws-kubeconfig-<token id>); and anywhere, a string field named like a
// token ("token", "bootstrapToken", "access_token") or a password.
func redact(v any) {
	obj, ok := v.(map[string]any)
	if !ok {
		redactTokens(v)
		return
	}
	if obj["kind"] == "Secret" {
		for _, f := range []string{"data", "stringData"} {
			if m, ok := obj[f].(map[string]any); ok {
				for k := range m {
					m[k] = Redacted
				}
			}
		}
		if md, ok := obj["metadata"].(map[string]any); ok {
			if an, ok := md["annotations"].(map[string]any); ok {
				if _, ok := an[lastApplied]; ok {
					an[lastApplied] = Redacted
				}
			}
		}
	}
	if data, ok := obj["data"].(map[string]any); ok && obj["kind"] == "ConfigMap" {
		for k := range data {
			if strings.HasPrefix(k, "jws-kubeconfig-") {
				data[k] = Redacted
			}
		}
	}
	redactTokens(v)
}

// redactTokens replaces every string field named like a token or a
// password, at any depth.
func redactTokens(v any) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if _, ok := x.(string); ok && secretField(k) {
				v[k] = Redacted
				continue
			}
			redactTokens(x)
		}
	case []any:
		for _, x := range v {
			redactTokens(x)
		}
	}
}

func secretField(name string) bool {
	n := strings.ToLower(name)
	return strings.HasSuffix(n, "token") || strings.HasSuffix(n, "password")
}

// RevisionWrite is the audited write that made a revision of a key.
type RevisionWrite struct {
	// Audit is the write's index in Recording.Audit, -1 when none was
	// found.
	Audit int
	// ByOrder: the write was found by its place among the object's
	// writes, not by its resourceVersion (a binding, which answers with
	// a Status, or a delete).
	ByOrder bool
}

// RevisionWrites finds, for each revision of k, the audited write that
// made it. A revision is the resourceVersion the API server answered the
// write with, so the first successful write on k's object that answered
// with it made it. A revision no write answered with is the object's one
// successful write left between those of the revisions before and after
// it, when there is exactly one (a binding, which answers with a Status;
// a delete answering with the object as it was); else, before a delete,
// the delete itself: a delete of an object with a grace period left
// first sets it to 0, a revision, then deletes, another.
func (r *Recording) RevisionWrites(k Key) []RevisionWrite {
	resource, ns, name := keyObject(k.Key)
	out := make([]RevisionWrite, len(k.Revisions))
	var writes []int
	for i, a := range r.Audit {
		if a.IsWrite() && a.Code < 300 && a.Resource == resource && a.Namespace == ns && a.Name == name {
			writes = append(writes, i)
		}
	}
	revs := map[string]int{}
	for i, rev := range k.Revisions {
		out[i] = RevisionWrite{Audit: -1}
		revs[strconv.FormatInt(rev.Revision, 10)] = i
	}
	// used marks the writes that made a revision, and the updates that
	// changed nothing, which answer with the revision they left. A
	// delete answering with an earlier revision made another.
	used := map[int]bool{}
	for _, w := range writes {
		i, ok := revs[r.Audit[w].ResourceVersion]
		if !ok {
			continue
		}
		if out[i].Audit < 0 {
			out[i].Audit = w
			used[w] = true
		} else if !isDelete(r.Audit[w].Verb) {
			used[w] = true
		}
	}
	for i := range out {
		if out[i].Audit >= 0 {
			continue
		}
		lo, hi := -1, len(r.Audit)
		for j := i - 1; j >= 0 && lo < 0; j-- {
			lo = max(lo, out[j].Audit)
		}
		for j := i + 1; j < len(out); j++ {
			if out[j].Audit >= 0 && !out[j].ByOrder {
				hi = out[j].Audit
				break
			}
		}
		found := -1
		for _, w := range writes {
			if w > lo && w < hi && !used[w] {
				if found >= 0 {
					found = -1
					break
				}
				found = w
			}
		}
		switch {
		case found >= 0:
			out[i] = RevisionWrite{Audit: found, ByOrder: true}
			used[found] = true
		case i+1 < len(out) && k.Revisions[i+1].Deleted && hi < len(r.Audit) && isDelete(r.Audit[hi].Verb) && out[i+1].Audit == hi:
			out[i] = RevisionWrite{Audit: hi, ByOrder: true}
		}
	}
	return out
}

func isDelete(verb string) bool { return verb == "delete" || verb == "deletecollection" }

// keyObject is the resource, namespace and name of an object's key as
// the API server lays keys out: /registry/<resource>/[<namespace>/]<name>,
// a few resources under older names.
func keyObject(key string) (resource, namespace, name string) {
	parts := strings.Split(strings.TrimPrefix(key, "/registry/"), "/")
	if len(parts) >= 2 && parts[0] == "services" {
		// /registry/services/specs/<ns>/<name>, /registry/services/endpoints/…
		parts = parts[1:]
		parts[0] = map[string]string{"specs": "services", "endpoints": "endpoints"}[parts[0]]
	}
	if len(parts) == 0 {
		return "", "", ""
	}
	resource = parts[0]
	if r, ok := keyResources[resource]; ok {
		resource = r
	}
	switch len(parts) {
	case 2:
		return resource, "", parts[1]
	case 3:
		return resource, parts[1], parts[2]
	}
	return resource, "", ""
}

// keyResources are the resources the API server stores under a name of
// their own.
var keyResources = map[string]string{
	"minions":     "nodes",
	"controllers": "replicationcontrollers",
	"ingress":     "ingresses",
}
