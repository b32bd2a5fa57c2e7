package record

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"os"
	"slices"
)

// Format is the version of the recording schema. A recording of another
// format is not read. Format 2 added Coverage.
const Format = 2

// Recording is what one run of a scenario left behind, as plain data in a
// stable order. Times are milliseconds relative to the scenario's first
// request (the apply): negative for what happened while the cluster came
// up.
type Recording struct {
	Format int `json:"format"`
	// Tag is the release the programs were built from; Scenario the name
	// of what was run ("deployment").
	Tag      string `json:"tag"`
	Scenario string `json:"scenario"`
	// GoVersion is the toolchain that built the programs.
	GoVersion string `json:"goVersion"`
	// Components are the programs that ran, in start order.
	Components []Component `json:"components"`
	// Events are every Event object in the cluster at the end of the run.
	Events []Event `json:"events"`
	// Audit are the API server's audit entries of every write and of every
	// watch a component opened.
	Audit []AuditEntry `json:"audit"`
	// Keys are the etcd keys of the scenario's objects.
	Keys []Key `json:"keys"`
	// NotObserved says what the run could not show, and why.
	NotObserved []string `json:"notObserved,omitempty"`
	// FakeRuntime is what the hollow node's fake runtime, which runs no
	// program and has every image, was told the scenario's containers
	// do; nil when they only run.
	FakeRuntime *FakeRuntime `json:"fakeRuntime,omitempty"`
	// Coverage is the code that ran, per phase and program, when the
	// programs were built with coverage counters; nil otherwise.
	Coverage *Coverage `json:"coverage,omitempty"`
	// Rules are the rules the release's kube-proxy wrote in the run's
	// network namespace, for a scenario with a Service; nil otherwise.
	Rules *Rules `json:"rules,omitempty"`
}

// Component is one program of the run.
type Component struct {
	Name string `json:"name"`
	// Version is what the program says of itself ("Kubernetes v1.36.3",
	// "etcd Version: 3.6.8") or, for clients, its user agent.
	Version string `json:"version"`
	// ReadyMillis is how long it took from start to ready (0 for kubectl).
	ReadyMillis int64 `json:"readyMillis"`
}

// Event is one Kubernetes event, read through core/v1 (which shows events
// written through events.k8s.io/v1 as well).
type Event struct {
	// At is when the event was first written (its create in the audit
	// log, else its own timestamps); Last when it was last updated.
	At   int64 `json:"at"`
	Last int64 `json:"last"`
	// API is the group/version the event was written through: "v1" or
	// "events.k8s.io/v1" (from the audit log; "" when not seen there).
	API       string    `json:"api,omitempty"`
	Type      string    `json:"type"`
	Reason    string    `json:"reason"`
	Object    ObjectRef `json:"object"`
	Message   string    `json:"message"`
	Component string    `json:"component"`
	Host      string    `json:"host,omitempty"`
	Action    string    `json:"action,omitempty"`
	Count     int       `json:"count"`
	// Name is the Event object's name, Namespace its namespace.
	Name      string `json:"name"`
	Namespace string `json:"namespace"`
}

// ObjectRef names an object.
type ObjectRef struct {
	Kind      string `json:"kind"`
	Namespace string `json:"namespace,omitempty"`
	Name      string `json:"name"`
}

// AuditEntry is one audit.k8s.io/v1 event of the API server's log.
type AuditEntry struct {
	At          int64  `json:"at"`
	Stage       string `json:"stage"`
	Verb        string `json:"verb"`
	Group       string `json:"group,omitempty"`
	Version     string `json:"version,omitempty"`
	Resource    string `json:"resource,omitempty"`
	Subresource string `json:"subresource,omitempty"`
	Namespace   string `json:"namespace,omitempty"`
	Name        string `json:"name,omitempty"`
	User        string `json:"user"`
	UserAgent   string `json:"userAgent,omitempty"`
	RequestURI  string `json:"requestURI"`
	Code        int    `json:"code,omitempty"`
	// ObjectKind is the kind of the request's body, for writes.
	ObjectKind string `json:"objectKind,omitempty"`
	// ResourceVersion is the resourceVersion of the object a write
	// answered with: the etcd revision the write made (Revision), or
	// the one it left when it changed nothing. A binding, which answers
	// with a Status, has none.
	ResourceVersion string `json:"resourceVersion,omitempty"`
}

// IsWrite reports whether the entry is of a request that changes state.
func (a AuditEntry) IsWrite() bool {
	switch a.Verb {
	case "create", "update", "patch", "delete", "deletecollection":
		return true
	}
	return false
}

// Key is an etcd key under the API server's prefix, as etcdctl get
// shows it, with its values since the cluster began. The etcd helper
// (helper/etcd/keys.go), built in the release's own module, writes it:
// its key type is this one's JSON, field for field.
type Key struct {
	Key string `json:"key"`
	// Size, Encoding, APIVersion, Kind and Prefix are of the key's value
	// at the end of the run, or of its last value when it was deleted.
	Size           int   `json:"size"`
	CreateRevision int64 `json:"createRevision"`
	// ModRevision is the revision of the key's last change (its delete,
	// when it was deleted); Version counts its puts since its create.
	ModRevision int64 `json:"modRevision"`
	Version     int64 `json:"version"`
	// Encoding is "protobuf" (the k8s\x00 envelope), "json" or "other";
	// APIVersion and Kind are the envelope's.
	Encoding   string `json:"encoding"`
	APIVersion string `json:"apiVersion,omitempty"`
	Kind       string `json:"kind,omitempty"`
	// Prefix is the value's first bytes as a Go string literal.
	Prefix string `json:"prefix"`
	// Deleted: the key was deleted during the run and has no value now.
	Deleted bool `json:"deleted,omitempty"`
	// Revisions are the key's changes, oldest first, from the cluster's
	// start (or from etcd's compaction, if one came in between); a
	// recording made before kubewalk read them has none.
	Revisions []Revision `json:"revisions,omitempty"`
}

// Revision is one change of a key: a put or a delete. Recording.
// RevisionWrites finds the audited write that made it.
type Revision struct {
	// Revision is etcd's revision of the change, the resourceVersion
	// the API server answered the write with.
	Revision int64 `json:"revision"`
	// Version is the key's version after the change: 1 for its create,
	// 0 for its delete.
	Version int64 `json:"version"`
	Deleted bool  `json:"deleted,omitempty"`
	// Size is the stored value's length in bytes.
	Size int `json:"size,omitempty"`
	// YAML is the value decoded with the release's client-go scheme, as
	// kubectl get -o yaml prints an object, but without resourceVersion,
	// which etcd does not store, and with every secret value and token
	// replaced by Redacted. Error says why a value has no YAML.
	YAML  string `json:"yaml,omitempty"`
	Error string `json:"error,omitempty"`
}

// sort puts every list in its stable order.
func (r *Recording) sort() {
	slices.SortStableFunc(r.Events, func(a, b Event) int {
		return cmp.Or(cmp.Compare(a.At, b.At), cmp.Compare(a.Reason, b.Reason), cmp.Compare(a.Object.Name, b.Object.Name), cmp.Compare(a.Name, b.Name))
	})
	slices.SortStableFunc(r.Audit, func(a, b AuditEntry) int {
		return cmp.Or(cmp.Compare(a.At, b.At), cmp.Compare(a.RequestURI, b.RequestURI), cmp.Compare(a.Stage, b.Stage))
	})
	slices.SortFunc(r.Keys, func(a, b Key) int { return cmp.Compare(a.Key, b.Key) })
}

// Marshal returns the recording as indented JSON, lists never null. The
// coverage comes last, written a line per entry (Coverage.writeJSON).
func (r *Recording) Marshal() ([]byte, error) {
	c := *r
	c.Components = nonNil(c.Components)
	c.Events = nonNil(c.Events)
	c.Audit = nonNil(c.Audit)
	c.Keys = nonNil(c.Keys)
	c.Coverage = nil
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(&c); err != nil {
		return nil, err
	}
	if r.Coverage == nil {
		return b.Bytes(), nil
	}
	// The encoder ended the object with "\n}\n": the coverage goes
	// before that brace.
	out := bytes.TrimSuffix(b.Bytes(), []byte("\n}\n"))
	b2 := bytes.NewBuffer(out[:len(out):len(out)])
	b2.WriteString(",\n  \"coverage\": ")
	if err := r.Coverage.writeJSON(b2, "  "); err != nil {
		return nil, err
	}
	b2.WriteString("\n}\n")
	return b2.Bytes(), nil
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// Parse reads a recording; name is for messages.
func Parse(name string, data []byte) (*Recording, error) {
	var r Recording
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("%s: not a recording: %w", name, err)
	}
	if r.Format != Format {
		return nil, fmt.Errorf("%s: recording format %d, this kubewalk reads format %d: record it again", name, r.Format, Format)
	}
	if r.Tag == "" || r.Scenario == "" {
		return nil, fmt.Errorf("%s: recording without a tag or scenario", name)
	}
	return &r, nil
}

// Load reads a recording file.
func Load(name string) (*Recording, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	if bytes.HasPrefix(data, zstdMagic) {
		if data, err = unzstd(name, data); err != nil {
			return nil, err
		}
	}
	return Parse(name, data)
}

// zstdMagic begins a zstd frame: a recording kept with the walkthroughs
// (SaveKept) read by its path.
var zstdMagic = []byte{0x28, 0xb5, 0x2f, 0xfd}
