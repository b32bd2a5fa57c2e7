package explain

// Record kinds.
const (
	KindEvent   = "event"   // a Kubernetes event (table row or JSON)
	KindAudit   = "audit"   // an API server audit record
	KindUnknown = "unknown" // a line Parse could not read
)

// Record is one thing read from the input: an event, an audit record, or a
// line that was neither.
type Record struct {
	// Line is the 1-based line of the input the record starts on.
	Line int `json:"line"`
	// Text is the input line as read (for a multi-line JSON value, its
	// first line; for a key: value block, its lines joined by "; ").
	Text string `json:"text"`
	// Kind is KindEvent, KindAudit or KindUnknown.
	Kind string `json:"kind"`
	// Format says which layout the record was read from: "table",
	// "json", "audit-json" or "audit-fields" (CloudWatch Insights style
	// "key: value" lines, as audit excerpts quoted in blog posts are).
	Format string `json:"format,omitempty"`

	Event *EventRecord `json:"event,omitempty"`
	Audit *AuditRecord `json:"audit,omitempty"`
}

// EventRecord is what Parse reads of an event. Fields the input did not
// carry are "".
type EventRecord struct {
	Namespace string `json:"namespace,omitempty"`
	// Type is "Normal" or "Warning" (or whatever the event said).
	Type   string `json:"type,omitempty"`
	Reason string `json:"reason"`
	// Kind and Name are the involved object's, lower-cased kind as kubectl
	// prints it ("replicaset", "pod"); Kind may be "" for old layouts.
	Kind    string `json:"kind,omitempty"`
	Name    string `json:"name,omitempty"`
	Message string `json:"message,omitempty"`
	// Component is the reporting component ("deployment-controller",
	// "default-scheduler", "kubelet"); Host the node, when given.
	Component string `json:"component,omitempty"`
	Host      string `json:"host,omitempty"`
	// Action is the events.k8s.io/v1 action ("Binding"), from JSON only.
	Action string `json:"action,omitempty"`
}

// Object returns "kind/name" as kubectl prints it, or what is known of it.
func (e *EventRecord) Object() string {
	switch {
	case e.Kind != "" && e.Name != "":
		return e.Kind + "/" + e.Name
	case e.Name != "":
		return e.Name
	}
	return e.Kind
}

// AuditRecord is what Parse reads of an audit.k8s.io/v1 Event.
type AuditRecord struct {
	Verb        string `json:"verb"`
	RequestURI  string `json:"requestURI,omitempty"`
	Group       string `json:"group,omitempty"`
	Resource    string `json:"resource,omitempty"`
	Subresource string `json:"subresource,omitempty"`
	Namespace   string `json:"namespace,omitempty"`
	Name        string `json:"name,omitempty"`
	Username    string `json:"username,omitempty"`
	UserAgent   string `json:"userAgent,omitempty"`
	// Stage is the audit stage ("ResponseComplete"), Code the response
	// status code (0 when not given).
	Stage string `json:"stage,omitempty"`
	Code  int    `json:"code,omitempty"`
}
