package record

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The etcd helper's lines as kubewalk-keys prints them: a Secret and a
// Pod decoded to JSON, the Secret later deleted. What the recording keeps
// is YAML with every secret value and token replaced, and nothing else
// changed.
func TestParseKeysRedacts(t *testing.T) {
	const secretData = "c2VjcmV0LXZhbHVl" // "secret-value"
	out := `{"key":"/registry/pods/default/p","size":900,"createRevision":5,"modRevision":6,"version":2,"encoding":"protobuf","apiVersion":"v1","kind":"Pod","prefix":"\"k8s\\x00\\n\\t\\n\\x02v1\\x12\\x03Pod\"","revisions":[` +
		`{"revision":5,"version":1,"size":800,"object":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"default"},"spec":{"automountServiceAccountToken":true,"volumes":[{"name":"kube-api-access","projected":{"sources":[{"serviceAccountToken":{"expirationSeconds":3607,"path":"token"}}]}}]}}},` +
		`{"revision":6,"version":2,"size":900,"object":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"default"},"spec":{"nodeName":"node1"}}}]}
{"key":"/registry/secrets/default/s","size":120,"createRevision":7,"modRevision":9,"version":0,"encoding":"protobuf","apiVersion":"v1","kind":"Secret","prefix":"\"k8s\\x00\"","deleted":true,"revisions":[` +
		`{"revision":7,"version":1,"size":120,"object":{"apiVersion":"v1","kind":"Secret","metadata":{"name":"s","annotations":{"kubectl.kubernetes.io/last-applied-configuration":"{\"data\":{\"password\":\"` + secretData + `\"}}","team":"a"}},"data":{"password":"` + secretData + `","token":"` + secretData + `"},"stringData":{"x":"secret-value"},"type":"Opaque"}},` +
		`{"revision":8,"version":2,"size":3,"error":"no kind \"Widget\" is registered"},` +
		`{"revision":9,"version":0,"deleted":true}]}
`
	keys, err := parseKeys([]byte(out))
	if err != nil {
		t.Fatal(err)
	}
	if len(keys) != 2 || keys[0].Key != "/registry/pods/default/p" || keys[1].Key != "/registry/secrets/default/s" {
		t.Fatalf("keys: %+v", keys)
	}
	pod, secret := keys[0], keys[1]
	wantPod := `apiVersion: v1
kind: Pod
metadata:
  name: p
  namespace: default
spec:
  automountServiceAccountToken: true
  volumes:
  - name: kube-api-access
    projected:
      sources:
      - serviceAccountToken:
          expirationSeconds: 3607
          path: token
`
	if diff := cmp.Diff(wantPod, pod.Revisions[0].YAML); diff != "" {
		t.Errorf("the pod's first revision (-want +got):\n%s", diff)
	}
	if pod.Revisions[1].Revision != 6 || pod.Revisions[1].Version != 2 || pod.Revisions[1].Size != 900 {
		t.Errorf("the pod's second revision: %+v", pod.Revisions[1])
	}
	wantSecret := `apiVersion: v1
data:
  password: <redacted>
  token: <redacted>
kind: Secret
metadata:
  annotations:
    kubectl.kubernetes.io/last-applied-configuration: <redacted>
    team: a
  name: s
stringData:
  x: <redacted>
type: Opaque
`
	if diff := cmp.Diff(wantSecret, secret.Revisions[0].YAML); diff != "" {
		t.Errorf("the secret (-want +got):\n%s", diff)
	}
	if !secret.Deleted || secret.ModRevision != 9 {
		t.Errorf("the secret: deleted %v at %d, want deleted at 9", secret.Deleted, secret.ModRevision)
	}
	if r := secret.Revisions[1]; r.YAML != "" || !strings.Contains(r.Error, "Widget") {
		t.Errorf("a value not decoded: %+v", r)
	}
	if r := secret.Revisions[2]; !r.Deleted || r.Version != 0 || r.YAML != "" {
		t.Errorf("the delete: %+v", r)
	}
	rec := &Recording{Format: Format, Tag: "v1.37.2", Scenario: "s", Keys: keys}
	b, err := rec.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), secretData) || strings.Contains(string(b), "secret-value") {
		t.Errorf("a secret value is in the recording:\n%s", b)
	}
}

// Tokens are redacted at any depth and in any object, a ConfigMap's
// token-derived signatures too; fields merely mentioning tokens are not.
func TestRedactTokens(t *testing.T) {
	y, err := valueYAML([]byte(`{"kind":"ConfigMap","data":{"kubeconfig":"apiVersion: v1","jws-kubeconfig-abcdef":"eyJhbGciOi"},"status":{"items":[{"bootstrapToken":"abcdef.0123456789abcdef","access_token":"t","Password":"p","tokenTTL":"1h","count":3}]}}`))
	if err != nil {
		t.Fatal(err)
	}
	want := `data:
  jws-kubeconfig-abcdef: <redacted>
  kubeconfig: 'apiVersion: v1'
kind: ConfigMap
status:
  items:
  - Password: <redacted>
    access_token: <redacted>
    bootstrapToken: <redacted>
    count: 3
    tokenTTL: 1h
`
	if diff := cmp.Diff(want, y); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// Each revision is linked to the write that answered with it; a binding,
// which answers with a Status, and a delete answering with the object as
// it was are found by their place among the object's writes; a failed
// write and an update that changed nothing make no revision.
func TestRevisionWrites(t *testing.T) {
	rec := &Recording{Audit: []AuditEntry{
		{Verb: "create", Resource: "pods", Namespace: "default", Name: "p", Code: 201, ResourceVersion: "10"},
		{Verb: "create", Resource: "pods", Namespace: "default", Name: "q", Code: 201, ResourceVersion: "11"},
		{Verb: "create", Resource: "pods", Subresource: "binding", Namespace: "default", Name: "p", Code: 201},
		{Verb: "patch", Resource: "pods", Subresource: "status", Namespace: "default", Name: "p", Code: 409},
		{Verb: "patch", Resource: "pods", Subresource: "status", Namespace: "default", Name: "p", Code: 200, ResourceVersion: "14"},
		{Verb: "update", Resource: "pods", Namespace: "default", Name: "p", Code: 200, ResourceVersion: "14"},
		{Verb: "get", Resource: "pods", Namespace: "default", Name: "p", Code: 200},
		{Verb: "delete", Resource: "pods", Namespace: "default", Name: "p", Code: 200, ResourceVersion: "14"},
		{Verb: "patch", Resource: "nodes", Subresource: "status", Name: "node1", Code: 200, ResourceVersion: "16"},
	}}
	pod := Key{Key: "/registry/pods/default/p", Revisions: []Revision{{Revision: 10, Version: 1}, {Revision: 12, Version: 2}, {Revision: 14, Version: 3}, {Revision: 15, Deleted: true}}}
	want := []RevisionWrite{{Audit: 0}, {Audit: 2, ByOrder: true}, {Audit: 4}, {Audit: 7, ByOrder: true}}
	if diff := cmp.Diff(want, rec.RevisionWrites(pod)); diff != "" {
		t.Errorf("pod (-want +got):\n%s", diff)
	}
	// A graceful delete: the garbage collector's sets deletionTimestamp
	// (answering with that revision); the kubelet's, with a grace period
	// of 0, makes two revisions, the grace period set to 0 and the delete
	// it answers with.
	rec.Audit = append(rec.Audit,
		AuditEntry{Verb: "delete", Resource: "pods", Namespace: "default", Name: "q", Code: 200, ResourceVersion: "20"},
		AuditEntry{Verb: "patch", Resource: "pods", Subresource: "status", Namespace: "default", Name: "q", Code: 200, ResourceVersion: "21"},
		AuditEntry{Verb: "delete", Resource: "pods", Namespace: "default", Name: "q", Code: 200, ResourceVersion: "23"},
	)
	q := Key{Key: "/registry/pods/default/q", Revisions: []Revision{{Revision: 11, Version: 1}, {Revision: 20, Version: 2}, {Revision: 21, Version: 3}, {Revision: 22, Version: 4}, {Revision: 23, Deleted: true}}}
	want = []RevisionWrite{{Audit: 1}, {Audit: 9}, {Audit: 10}, {Audit: 11, ByOrder: true}, {Audit: 11}}
	if diff := cmp.Diff(want, rec.RevisionWrites(q)); diff != "" {
		t.Errorf("graceful delete (-want +got):\n%s", diff)
	}
	node := Key{Key: "/registry/minions/node1", Revisions: []Revision{{Revision: 13, Version: 1}, {Revision: 16, Version: 2}}}
	want = []RevisionWrite{{Audit: -1}, {Audit: 8}}
	if diff := cmp.Diff(want, rec.RevisionWrites(node)); diff != "" {
		t.Errorf("node (-want +got):\n%s", diff)
	}
}

func TestKeyObject(t *testing.T) {
	for key, want := range map[string][3]string{
		"/registry/deployments/default/nginx":         {"deployments", "default", "nginx"},
		"/registry/minions/node1":                     {"nodes", "", "node1"},
		"/registry/services/specs/default/kubernetes": {"services", "default", "kubernetes"},
		"/registry/services/endpoints/default/x":      {"endpoints", "default", "x"},
		"/registry/events/default/p.18ec0fe945b7b786": {"events", "default", "p.18ec0fe945b7b786"},
	} {
		r, ns, n := keyObject(key)
		if got := [3]string{r, ns, n}; got != want {
			t.Errorf("keyObject(%q) = %q, want %q", key, got, want)
		}
	}
}

// The audit log's writes keep the resourceVersion they answered with:
// the revision they made.
func TestCollectAuditResourceVersion(t *testing.T) {
	dir := t.TempDir()
	log := `{"stage":"ResponseComplete","verb":"create","requestURI":"/apis/apps/v1/namespaces/default/deployments","user":{"username":"kubernetes-admin"},"userAgent":"kubectl/v1.37.2","objectRef":{"resource":"deployments","namespace":"default","apiGroup":"apps","apiVersion":"v1"},"responseStatus":{"code":201},"requestObject":{"kind":"Deployment","metadata":{"name":"nginx-deployment"}},"responseObject":{"kind":"Deployment","metadata":{"name":"nginx-deployment","resourceVersion":"280"}},"requestReceivedTimestamp":"2026-11-24T08:00:10.000000Z"}
{"stage":"ResponseComplete","verb":"create","requestURI":"/api/v1/namespaces/default/pods/p/binding","user":{"username":"system:kube-scheduler"},"objectRef":{"resource":"pods","namespace":"default","name":"p","apiVersion":"v1","subresource":"binding"},"responseStatus":{"code":201},"responseObject":{"kind":"Status","metadata":{}},"requestReceivedTimestamp":"2026-11-24T08:00:10.100000Z"}
`
	r := &run{auditLog: filepath.Join(dir, "audit.log")}
	if err := os.WriteFile(r.auditLog, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	rec := &Recording{}
	if err := r.collectAudit(rec); err != nil {
		t.Fatal(err)
	}
	if len(rec.Audit) != 2 || rec.Audit[0].ResourceVersion != "280" || rec.Audit[1].ResourceVersion != "" {
		t.Errorf("audit: %+v", rec.Audit)
	}
}
