package fact

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// compactSample is facts whose call graph has what the compact form must
// keep apart: a caller whose calls are in two files, a caller named again
// after another's calls, a callee that calls nothing, a call over lines.
func compactSample() *Facts {
	const p = "k8s.io/kubernetes/pkg/controller/deployment."
	at := func(path string, start, end int) Location {
		return Location{Path: path, StartLine: start, EndLine: end}
	}
	return &Facts{
		Schema: SchemaVersion, Tag: "v1.0.0", Commit: "abc",
		Roots:  []string{"k8s.io/kubernetes/pkg/..."},
		Events: []Event{{Reason: "<&>", Message: "a & b", At: at("e.go", 1, 1)}},
		Calls: []Call{
			{From: p + "DeploymentController.syncDeployment", To: p + "DeploymentController.rolloutRolling", At: at("pkg/controller/deployment/deployment_controller.go", 600, 600), Kind: "static"},
			{From: p + "DeploymentController.syncDeployment", To: p + "DeploymentController.sync", At: at("pkg/controller/deployment/deployment_controller.go", 610, 612), Kind: "static"},
			{From: p + "DeploymentController.syncDeployment", To: "k8s.io/client-go/tools/record.recorder.Eventf", At: at("pkg/controller/deployment/other.go", 3, 3), Kind: "interface"},
			{From: p + "DeploymentController.rolloutRolling", To: p + "DeploymentController.getNewReplicaSet", At: at("pkg/controller/deployment/rolling.go", 30, 30), Kind: "static"},
			{From: p + "DeploymentController.syncDeployment", To: p + "DeploymentController.sync", At: at("pkg/controller/deployment/deployment_controller.go", 700, 700), Kind: "func value"},
		},
	}
}

// TestCompactJSONRoundTrip: the compact form holds the same facts as
// WriteJSON's, to the byte once read back.
func TestCompactJSONRoundTrip(t *testing.T) {
	for name, f := range map[string]*Facts{"sample": compactSample(), "empty": {Schema: SchemaVersion, Tag: "v1.0.0"}} {
		t.Run(name, func(t *testing.T) {
			var plain, compact bytes.Buffer
			if err := f.WriteJSON(&plain); err != nil {
				t.Fatal(err)
			}
			if err := f.WriteCompactJSON(&compact); err != nil {
				t.Fatal(err)
			}
			out := compact.String()
			if strings.Contains(out, "null") || strings.Count(out, "\n") != 1 || !strings.HasSuffix(out, "\n") {
				t.Errorf("want one line with a newline and no null, got %s", out)
			}
			if strings.ContainsAny(out, "<&>") {
				t.Errorf("<, > and & are not escaped: %s", out)
			}
			back, err := ReadJSON(&compact)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(f.Calls, back.Calls); len(f.Calls) > 0 && diff != "" {
				t.Errorf("calls read back (-want +got):\n%s", diff)
			}
			var again bytes.Buffer
			if err := back.WriteJSON(&again); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(plain.String(), again.String()); diff != "" {
				t.Errorf("WriteJSON of the compact form read back (-want +got):\n%s", diff)
			}
			// ReadJSON reads WriteJSON's form too.
			fromPlain, err := ReadJSON(bytes.NewReader(plain.Bytes()))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(f.Calls, fromPlain.Calls); len(f.Calls) > 0 && diff != "" {
				t.Errorf("calls read from WriteJSON's form (-want +got):\n%s", diff)
			}
		})
	}
}

// TestCompactJSONLayout: the call graph is written as compact.go's doc
// says, the rest as WriteJSON writes it; and the same facts make the same
// bytes.
func TestCompactJSONLayout(t *testing.T) {
	f := compactSample()
	var compact, plain bytes.Buffer
	if err := f.WriteCompactJSON(&compact); err != nil {
		t.Fatal(err)
	}
	if err := f.WriteJSON(&plain); err != nil {
		t.Fatal(err)
	}
	var got, want map[string]json.RawMessage
	if err := json.Unmarshal(compact.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(plain.Bytes(), &want); err != nil {
		t.Fatal(err)
	}
	for k, v := range want {
		if k != "calls" && !bytes.Equal(got[k], v) {
			t.Errorf("%s is %s, want WriteJSON's %s", k, got[k], v)
		}
	}
	if len(got) != len(want) {
		t.Errorf("keys %d, want %d", len(got), len(want))
	}
	const wantCalls = `{"symbols":[` +
		`"k8s.io/client-go/tools/record.recorder.Eventf",` +
		`"k8s.io/kubernetes/pkg/controller/deployment.DeploymentController.getNewReplicaSet",` +
		`"k8s.io/kubernetes/pkg/controller/deployment.DeploymentController.rolloutRolling",` +
		`"k8s.io/kubernetes/pkg/controller/deployment.DeploymentController.sync",` +
		`"k8s.io/kubernetes/pkg/controller/deployment.DeploymentController.syncDeployment"],` +
		`"callers":[` +
		`[4,"pkg/controller/deployment/deployment_controller.go",[[2,600,600,"static"],[3,610,612,"static"]]],` +
		`[4,"pkg/controller/deployment/other.go",[[0,3,3,"interface"]]],` +
		`[2,"pkg/controller/deployment/rolling.go",[[1,30,30,"static"]]],` +
		`[4,"pkg/controller/deployment/deployment_controller.go",[[3,700,700,"func value"]]]]}`
	if diff := cmp.Diff(wantCalls, string(got["calls"])); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
	if !strings.HasSuffix(compact.String(), `,"calls":`+wantCalls+"}\n") {
		t.Errorf("calls is not the last key: %s", compact.String())
	}
	var again bytes.Buffer
	if err := compactSample().WriteCompactJSON(&again); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(compact.Bytes(), again.Bytes()) {
		t.Error("the same facts made different bytes")
	}
}

// TestCompactJSONFields: the compact form writes a call's fields by
// position, so a field added to Call or Location would be lost. This
// fails first: write it in WriteCompactJSON and ReadJSON, then here.
func TestCompactJSONFields(t *testing.T) {
	fields := func(v any) []string {
		var out []string
		t := reflect.TypeOf(v)
		for i := range t.NumField() {
			out = append(out, t.Field(i).Name)
		}
		return out
	}
	if diff := cmp.Diff([]string{"From", "To", "At", "Kind"}, fields(Call{})); diff != "" {
		t.Errorf("Call's fields (-written +declared):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"Path", "StartLine", "EndLine"}, fields(Location{})); diff != "" {
		t.Errorf("Location's fields (-written +declared):\n%s", diff)
	}
}

func TestReadJSONErrors(t *testing.T) {
	for name, in := range map[string]string{
		"caller out of range": `{"calls":{"symbols":["a"],"callers":[[1,"p",[[0,1,1,"static"]]]]}}`,
		"callee out of range": `{"calls":{"symbols":["a"],"callers":[[0,"p",[[-1,1,1,"static"]]]]}}`,
		"short call":          `{"calls":{"symbols":["a"],"callers":[[0,"p",[[0,1,"static"]]]]}}`,
		"long caller":         `{"calls":{"symbols":["a"],"callers":[[0,"p",[],1]]}}`,
		"call as object":      `{"calls":{"symbols":["a"],"callers":[[0,"p",[{"to":0}]]]}}`,
		"not JSON":            `{"calls":`,
	} {
		if _, err := ReadJSON(strings.NewReader(in)); err == nil {
			t.Errorf("%s: ReadJSON(%s) succeeded", name, in)
		}
	}
}
