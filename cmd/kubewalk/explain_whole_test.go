package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kubewalk/kubewalk/internal/derive/explain"
	"github.com/kubewalk/kubewalk/record"
)

// auditLog is an audit log of the analyzer's fixture cluster: the
// deployment controller's create of a ReplicaSet (each stage, as the API
// server writes it), and a watch by a client that is not in the tree.
const auditLog = `{"kind":"Event","apiVersion":"audit.k8s.io/v1","stage":"RequestReceived","verb":"create","requestURI":"/apis/apps/v1/namespaces/default/replicasets","user":{"username":"system:serviceaccount:kube-system:deployment-controller"},"objectRef":{"resource":"replicasets","namespace":"default","apiGroup":"apps","apiVersion":"v1"},"requestReceivedTimestamp":"2026-11-27T10:00:01.000000Z"}
{"kind":"Event","apiVersion":"audit.k8s.io/v1","stage":"ResponseComplete","verb":"create","requestURI":"/apis/apps/v1/namespaces/default/replicasets","user":{"username":"system:serviceaccount:kube-system:deployment-controller"},"objectRef":{"resource":"replicasets","namespace":"default","apiGroup":"apps","apiVersion":"v1"},"responseStatus":{"code":201},"requestReceivedTimestamp":"2026-11-27T10:00:01.000000Z"}
{"kind":"Event","apiVersion":"audit.k8s.io/v1","stage":"ResponseStarted","verb":"watch","requestURI":"/api/v1/configmaps?allowWatchBookmarks=true&timeoutSeconds=300&watch=true","user":{"username":"alice"},"userAgent":"my-operator/1.0","objectRef":{"resource":"configmaps","apiVersion":"v1"},"responseStatus":{"code":200},"requestReceivedTimestamp":"2026-11-27T10:00:02.000000Z"}
`

// explain --audit and --recording attribute a whole run and close with
// the count of what was attributed; the JSON is the Attribution.
func TestExplainWholeRun(t *testing.T) {
	args := explainFixtureArgs(t)
	dir := t.TempDir()
	logFile := filepath.Join(dir, "audit.log")
	if err := os.WriteFile(logFile, []byte(auditLog), 0o644); err != nil {
		t.Fatal(err)
	}

	code, out, stderr := kw(t, append(args, "--audit", logFile, "-o", "json")...)
	if code != exitOK {
		t.Fatalf("explain --audit: exit %d: %s", code, stderr)
	}
	var at explain.Attribution
	if err := json.Unmarshal([]byte(out), &at); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(at.Audit) != 2 {
		t.Fatalf("%d audit entries, want the create once and the watch:\n%s", len(at.Audit), out)
	}
	if a := at.Audit[0].Explanation; !a.Explained || len(a.Code) == 0 || !strings.HasSuffix(a.Code[0].Symbol, "DeploymentController.getNewReplicaSet") {
		t.Errorf("the ReplicaSet's create: %+v", a)
	}
	if w := at.Audit[1].Explanation; w.Explained || !strings.Contains(w.Note, "my-operator is not a component of the tree") || w.Watch == nil || len(w.Watch.Params) != 2 {
		t.Errorf("the operator's watch: %+v", w)
	}
	if s := at.Summary; s.Items != 2 || s.Attributed != 1 || s.NotAttributable != 1 {
		t.Errorf("summary %+v", s)
	}

	code, out, stderr = kw(t, append(args, "--audit", logFile)...)
	if code != exitOK || !strings.HasSuffix(out, "\n1 of 2 items attributed; 1 listed as not attributable, with reasons\n") ||
		!strings.Contains(out, "   params     allowWatchBookmarks=true timeoutSeconds=300\n") {
		t.Errorf("explain --audit, text: exit %d %s\n%s", code, stderr, out)
	}

	// A recording: its own release's facts, the same attribution.
	rec := &record.Recording{Format: record.Format, Tag: "v1.99.0", Scenario: "deployment", Audit: []record.AuditEntry{{
		At: 10, Stage: "ResponseComplete", Verb: "create", Group: "apps", Resource: "replicasets", Namespace: "default", Name: "nginx-1",
		User: "system:serviceaccount:kube-system:deployment-controller", RequestURI: "/apis/apps/v1/namespaces/default/replicasets",
	}}}
	b, err := rec.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	recFile := filepath.Join(dir, "deployment.json")
	if err := os.WriteFile(recFile, b, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, stderr = kw(t, append(args, "--recording", recFile)...)
	if code != exitOK || !strings.Contains(out, "   phase      scenario\n") || !strings.HasSuffix(out, "\n1 of 1 items attributed; 0 listed as not attributable, with reasons\n") {
		t.Errorf("explain --recording: exit %d %s\n%s", code, stderr, out)
	}

	// One input at a time.
	if code, _, stderr := kw(t, append(args, "--audit", logFile, logFile)...); code != exitUsage {
		t.Errorf("FILE with --audit: exit %d, want %d: %s", code, exitUsage, stderr)
	}
	if code, _, stderr := kw(t, append(args, "--audit", logFile, "--recording", recFile)...); code != exitUsage {
		t.Errorf("--audit with --recording: exit %d, want %d: %s", code, exitUsage, stderr)
	}
}
