package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kubewalk/kubewalk/cmd/kubewalk/internal/codetour"
	"github.com/kubewalk/kubewalk/internal/derive/explain"
)

const explainWalkthrough = fixtureWalkthrough + `
## The controller records ScalingReplicaSet

` + "```facts\nevents: reason=ScalingReplicaSet\n```\n"

// TestExplainAndExportFromGitFixture runs explain and export codetour over
// the analyzer's Kubernetes-like fixture, cloned with go-git, offline.
func TestExplainAndExportFromGitFixture(t *testing.T) {
	if testing.Short() {
		t.Skip("loads packages")
	}
	const tag = "v1.99.0"
	repo, wdir := gitFixture(t, tag, explainWalkthrough)
	cache := t.TempDir()
	common := []string{"--cache-dir", cache, "--quiet", "--tag", tag, "--source", "git", "--repo", repo, "--no-builtin", "--walkthroughs", wdir}

	input := `LAST SEEN   TYPE     REASON              OBJECT                        MESSAGE
0s          Normal   ScalingReplicaSet   deployment/nginx-deployment   Scaled up replica set nginx-deployment-cbdccf466 to 3
0s          Normal   NoSuchReason        pod/nginx                      Something the fixture never records
{"verb":"create","requestURI":"/apis/apps/v1/namespaces/default/replicasets","user":{"username":"system:serviceaccount:kube-system:deployment-controller"},"objectRef":{"resource":"replicasets","namespace":"default","apiGroup":"apps"}}
`
	var out, errb bytes.Buffer
	code := run(context.Background(), append([]string{"explain", "-o", "json", "-"}, common...), strings.NewReader(input), &out, &errb)
	if code != exitOK {
		t.Fatalf("explain: exit %d: %s", code, errb.String())
	}
	var exs []explain.Explanation
	if err := json.Unmarshal(out.Bytes(), &exs); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if len(exs) != 3 {
		t.Fatalf("%d explanations, want 3:\n%s", len(exs), out.String())
	}
	if e := exs[0]; !e.Explained || len(e.Code) == 0 || e.Code[0].Path != "pkg/controller/deployment/sync.go" ||
		!strings.HasPrefix(e.Code[0].Permalink, "https://github.com/kubernetes/kubernetes/blob/"+tag+"/pkg/controller/deployment/sync.go#L") ||
		len(e.Steps) == 0 || e.Steps[0].Walkthrough != "fixture" {
		t.Errorf("ScalingReplicaSet: %+v", e)
	}
	if e := exs[1]; e.Explained || e.Line != 3 {
		t.Errorf("an unknown reason is listed as unexplained: %+v", e)
	}
	if e := exs[2]; e.Kind != explain.KindAudit || len(e.Code) == 0 || !strings.HasSuffix(e.Code[0].Symbol, "DeploymentController.getNewReplicaSet") {
		t.Errorf("audit line: %+v", e)
	}

	// The table, from a file.
	in := filepath.Join(t.TempDir(), "events.txt")
	os.WriteFile(in, []byte(input), 0o644)
	code, text, stderr := kw(t, append([]string{"explain", in}, common...)...)
	if code != exitOK || !strings.Contains(text, "emitted    pkg/controller/deployment/sync.go:") || !strings.Contains(text, "UNEXPLAINED") {
		t.Errorf("explain table: exit %d %s\n%s", code, stderr, text)
	}

	// export codetour.
	tours := filepath.Join(t.TempDir(), "tours")
	if code, _, stderr := kw(t, append([]string{"export", "codetour", "--out", tours}, common...)...); code != exitOK {
		t.Fatalf("export: exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(filepath.Join(tours, "fixture.tour"))
	if err != nil {
		t.Fatal(err)
	}
	var tour codetour.Tour
	if err := json.Unmarshal(b, &tour); err != nil {
		t.Fatal(err)
	}
	if tour.Ref != tag || tour.Schema != codetour.SchemaURL || len(tour.Steps) != 3 ||
		tour.Steps[1].File != "pkg/controller/deployment/sync.go" || tour.Steps[1].Selection == nil ||
		!strings.Contains(tour.Steps[1].Description, "](https://github.com/kubernetes/kubernetes/blob/"+tag+"/pkg/controller/deployment/sync.go#L") {
		t.Errorf("tour:\n%s", b)
	}
}

func TestExplainExportServeUsageErrors(t *testing.T) {
	cache := t.TempDir()
	for _, args := range [][]string{
		{"explain", "-o", "yaml"},
		{"explain", "a", "b"},
		{"explain", "--lang", "fr"},
		{"export"},
		{"export", "tours"},
		{"export", "codetour"},
		{"export", "codetour", "--out", "x", "extra"},
		{"export", "codetour", "--out", "x", "--lang", "de"},
		{"serve", "--addr", "nonsense"},
		{"serve", "--lang", "fr"},
		{"serve", "extra"},
	} {
		code, _, stderr := kw(t, append([]string{"--cache-dir", cache}, args...)...)
		if code != exitUsage && !(len(args) == 1 && args[0] == "export" && code == exitOK) {
			t.Errorf("kubewalk %s: exit %d, want %d (stderr: %s)", strings.Join(args, " "), code, exitUsage, stderr)
		}
	}
	if code, out, _ := kw(t, "export", "codetour", "--help"); code != exitOK || !strings.Contains(out, "Examples:") {
		t.Errorf("export codetour --help: %d\n%s", code, out)
	}
}

func TestCompletion(t *testing.T) {
	code, out, stderr := kw(t, "completion", "bash")
	if code != exitOK || !strings.Contains(out, "__start_kubewalk") {
		t.Fatalf("completion bash: exit %d %s", code, stderr)
	}
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"__complete", "explain", "--lang", ""}, []string{"en\tEnglish", "ko\tKorean"}},
		{[]string{"__complete", "explain", "-o", ""}, []string{"table", "json"}},
		{[]string{"__complete", "serve", "--source", "go"}, []string{"goproxy"}},
		{[]string{"__complete", "export", ""}, []string{"codetour\tWrite one CodeTour .tour file per walkthrough"}},
		{[]string{"__complete", "export", "codetour", "--lang", "k"}, []string{"ko\tKorean"}},
	} {
		code, out, stderr := kw(t, tc.args...)
		if code != exitOK {
			t.Errorf("%v: exit %d %s", tc.args, code, stderr)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(out, w+"\n") {
				t.Errorf("%v: no %q in\n%s", tc.args, w, out)
			}
		}
	}
}
