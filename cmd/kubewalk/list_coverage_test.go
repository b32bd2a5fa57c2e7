package main

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kubewalk/kubewalk/internal/derive/coverage"
)

func TestSelectFunctionsAndTable(t *testing.T) {
	const pkg = "k8s.io/kubernetes/pkg/controller/deployment."
	ran := coverage.Function{Symbol: pkg + "DeploymentController.getNewReplicaSet", Path: "pkg/controller/deployment/sync.go", Start: 141, Counted: []string{"deployment"},
		Runs: []coverage.Run{{Scenario: "deployment", Hit: coverage.Hit{Phase: "apply/kubectl", Program: "kube-controller-manager", Count: 2}}}}
	idle := coverage.Function{Symbol: pkg + "DeploymentController.rollback", Path: "pkg/controller/deployment/rollback.go", Start: 31, Counted: []string{"deployment", "rollout"}, Runs: []coverage.Run{}}
	fns := []coverage.Function{ran, idle}
	names := func(fs []coverage.Function) []string {
		var out []string
		for _, f := range fs {
			out = append(out, f.Symbol)
		}
		return out
	}
	for _, tc := range []struct {
		names []string
		all   bool
		want  []string
	}{
		{nil, false, []string{ran.Symbol}},                   // what ran
		{nil, true, []string{ran.Symbol, idle.Symbol}},       // --all
		{[]string{"rollback"}, false, []string{idle.Symbol}}, // named: shown though it did not run
		{[]string{"nothing.like.it"}, false, nil},            // no match
	} {
		if diff := cmp.Diff(tc.want, names(selectFunctions(fns, tc.names, tc.all))); diff != "" {
			t.Errorf("names %v, all %v (-want +got):\n%s", tc.names, tc.all, diff)
		}
	}
	var b strings.Builder
	if err := coverageTable(&b, fns); err != nil {
		t.Fatal(err)
	}
	got := strings.Fields(b.String())
	want := strings.Fields(`FUNCTION AT SCENARIO PHASE PROGRAM ENTERED
deployment.DeploymentController.getNewReplicaSet pkg/controller/deployment/sync.go:141 deployment apply/kubectl kube-controller-manager 2
deployment.DeploymentController.rollback pkg/controller/deployment/rollback.go:31 deployment,rollout - - 0`)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("table (-want +got):\n%s", diff)
	}
}
