package record

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
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
