package record

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
)

// A step that deletes the scenario's objects ends its phases when the
// API lists no ReplicaSet of the selector, then no pod: a pod being
// deleted (still listed, with a deletionTimestamp) keeps the second open.
func TestGoneBoundaries(t *testing.T) {
	var rsLeft, podsLeft atomic.Int32
	rsLeft.Store(1)
	podsLeft.Store(2)
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if got := req.URL.Query().Get("labelSelector"); got != "app=nginx" {
			t.Errorf("%s: labelSelector %q", req.URL.Path, got)
		}
		n := podsLeft.Load()
		if req.URL.Path == "/apis/apps/v1/namespaces/default/replicasets" {
			n = rsLeft.Load()
		}
		fmt.Fprint(w, `{"items":[`)
		for i := range n {
			if i > 0 {
				fmt.Fprint(w, ",")
			}
			fmt.Fprint(w, `{"metadata":{"name":"x","deletionTimestamp":"2026-11-28T00:00:00Z"}}`)
		}
		fmt.Fprint(w, `]}`)
	}))
	defer api.Close()
	r := &run{client: api.Client(), apiURL: api.URL}
	sc, err := scenarioNamed("delete")
	if err != nil {
		t.Fatal(err)
	}
	st := sc.Steps[len(sc.Steps)-1]
	if !st.Gone {
		t.Fatalf("the delete scenario's last step %q does not delete", st.Name)
	}
	bs := stepBoundaries(r, sc, st, nil)
	if len(bs) != 2 || bs[0].name != "replicasets-gone" || bs[1].name != "pods-gone" {
		t.Fatalf("boundaries %v, want replicasets-gone then pods-gone", bs)
	}
	passed := func(b boundary) bool {
		ok, err := b.passed(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}
	if passed(bs[0]) {
		t.Error("replicasets-gone passed while a ReplicaSet is listed")
	}
	rsLeft.Store(0)
	if !passed(bs[0]) {
		t.Error("replicasets-gone did not pass with no ReplicaSet listed")
	}
	if passed(bs[1]) {
		t.Error("pods-gone passed while pods being deleted are listed")
	}
	podsLeft.Store(0)
	if !passed(bs[1]) {
		t.Error("pods-gone did not pass with no pod listed")
	}
}

// The unschedulable scenario's apply ends when its pods exist, none bound,
// each with a FailedScheduling event; a pod without one, or one bound,
// keeps it open.
func TestUnschedulableBoundary(t *testing.T) {
	var bound, failedFor atomic.Int32 // pods bound; pods with a FailedScheduling event
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		switch req.URL.Path {
		case "/api/v1/namespaces/default/pods":
			fmt.Fprint(w, `{"items":[`)
			for i := range 3 {
				node := ""
				if int32(i) < bound.Load() {
					node = "node1"
				}
				if i > 0 {
					fmt.Fprint(w, ",")
				}
				fmt.Fprintf(w, `{"metadata":{"name":"p%d"},"spec":{"nodeName":%q,"containers":[{"image":"nginx:1.14.2"}]},"status":{"phase":"Pending"}}`, i, node)
			}
			fmt.Fprint(w, `]}`)
		case "/api/v1/events":
			fmt.Fprint(w, `{"items":[`)
			for i := range failedFor.Load() {
				if i > 0 {
					fmt.Fprint(w, ",")
				}
				fmt.Fprintf(w, `{"reason":"FailedScheduling","involvedObject":{"kind":"Pod","namespace":"default","name":"p%d"}}`, i)
			}
			fmt.Fprint(w, `]}`)
		default:
			fmt.Fprint(w, `{"items":[]}`)
		}
	}))
	defer api.Close()
	r := &run{client: api.Client(), apiURL: api.URL}
	sc, err := scenarioNamed("unschedulable")
	if err != nil {
		t.Fatal(err)
	}
	st := Step{Name: "apply", Replicas: sc.Replicas, Image: sc.Image, Unschedulable: sc.Unschedulable}
	var events []rawEvent
	bs := stepBoundaries(r, sc, st, &events)
	if len(bs) != 3 || bs[2].name != "unschedulable" {
		t.Fatalf("boundaries %v, want replicaset, pods, unschedulable", bs)
	}
	passed := func() bool {
		ok, err := bs[2].passed(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}
	failedFor.Store(2)
	if passed() {
		t.Error("passed with a pod that has no FailedScheduling event")
	}
	failedFor.Store(3)
	bound.Store(1)
	if passed() {
		t.Error("passed with a pod bound to a node")
	}
	bound.Store(0)
	if !passed() {
		t.Error("did not pass with every pod unbound and failed to schedule")
	}
	if len(events) != 3 {
		t.Errorf("the boundary left %d events read, want the 3 it saw", len(events))
	}
}

// A program the run would start once its context is done does not start:
// output returns the context's cause, and does not look for a process
// group it never had.
func TestOutputAfterCancel(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	cause := errors.New("a component exited")
	cancel(cause)
	r := &run{dir: t.TempDir()}
	_, err := r.output(ctx, "/bin/true")
	if !errors.Is(err, cause) {
		t.Errorf("err = %v, want the context's cause", err)
	}
}

// TestMakeRecordingsHasEveryScenario: make recordings keeps every
// scenario, so the site of the default release shows them all.
func TestMakeRecordingsHasEveryScenario(t *testing.T) {
	mk, err := os.ReadFile("../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	var listed []string
	for _, l := range strings.Split(string(mk), "\n") {
		if v, ok := strings.CutPrefix(l, "SCENARIOS ?="); ok {
			listed = strings.Fields(v)
		}
	}
	want := ScenarioNames()
	slices.Sort(listed)
	slices.Sort(want)
	if !slices.Equal(listed, want) {
		t.Errorf("the Makefile's SCENARIOS are %v, want %v", listed, want)
	}
}
