package site

import (
	"regexp"
	"strings"
	"testing"

	"github.com/kubewalk/kubewalk/analyzer/fact"
)

// A handler registration's row is written once, on the handlers page by
// component; its resource's list there and the resources page link to it.
// A handler func assigned in client-go's handler structs is in its row,
// not again among the wirings.
func TestHandlerRowsOnce(t *testing.T) {
	out, _ := buildFixture(t, func(in *Input) {
		f := *in.Facts
		h := f.Handlers[0]
		f.Wirings = append(f.Wirings[:len(f.Wirings):len(f.Wirings)], fact.Wiring{
			Type: cachePkg + ".ResourceEventHandlerFuncs", Field: "AddFunc",
			Sync: h.Add.FuncRef, At: h.At,
		})
		in.Facts = &f
	})
	files := readTree(t, out)
	handlers, resources := files["handlers.html"], files["resources.html"]

	rows := regexp.MustCompile(`<tr id="(h-[^"]+)">`).FindAllStringSubmatch(handlers, -1)
	if len(rows) != 1 {
		t.Fatalf("handlers page: %d rows with an anchor, want the one registration's: %q", len(rows), rows)
	}
	id := rows[0][1]
	if n := strings.Count(handlers, "<table class=\"facts handlers\">"); n != 1 {
		t.Errorf("handlers page: %d handler tables, want 1 (by component only)", n)
	}
	byRes := handlers[strings.Index(handlers, `id="r-deployments`):]
	if !strings.Contains(byRes[:strings.Index(byRes, "</section>")], `<a href="#`+id+`">pkg/controller/deployment</a>`) {
		t.Errorf("handlers page: the deployments list does not link to row %s", id)
	}
	if strings.Contains(resources, `<table class="facts handlers">`) {
		t.Error("resources page: repeats the handler rows")
	}
	if !strings.Contains(resources, `<a href="handlers.html#`+id+`">pkg/controller/deployment</a>`) {
		t.Errorf("resources page: no link to handler row %s", id)
	}

	wiring := handlers[strings.Index(handlers, `id="wiring"`):]
	if !strings.Contains(wiring, "syncHandler") {
		t.Error("wirings: the sync wiring is missing")
	}
	if strings.Contains(wiring, ".AddFunc =") {
		t.Error("wirings: repeat the handler func of a registration's row")
	}
	// A cell with no func is empty (CSS prints its dash).
	if !strings.Contains(handlers, "<td></td>") || strings.Contains(handlers, `<td><span class="none">`) {
		t.Error("handlers page: a cell with no func is not empty")
	}
}

func TestHandlerIDs(t *testing.T) {
	h := func(caller, res string) fact.HandlerRegistration {
		return fact.HandlerRegistration{Caller: fact.FuncRef{Symbol: "k8s.io/kubernetes/pkg/x." + caller}, Informer: fact.Resource{Resource: res, Version: "v1"}}
	}
	ids := handlerIDs([]fact.HandlerRegistration{h("New", "pods"), h("New", "nodes"), h("New", "pods"), h("Other", "pods")})
	seen := map[string]bool{}
	for _, id := range ids {
		if seen[id] {
			t.Errorf("id %s twice: %q", id, ids)
		}
		seen[id] = true
	}
	// The same registration has the same anchor whatever comes before it
	// in another release's facts.
	again := handlerIDs([]fact.HandlerRegistration{h("Added", "pods"), h("Other", "pods")})
	if again[1] != ids[3] {
		t.Errorf("anchor of x.Other's pods handler: %s, then %s in a release with another handler before it", ids[3], again[1])
	}
}
