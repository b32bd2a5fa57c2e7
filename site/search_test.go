package site

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/kubewalk/kubewalk/site/internal/searchindex"
)

// TestSearchIndexFullText: a step is indexed by its prose, its excerpts'
// captions and symbols, its diagram message and the message formats of
// the events it shows; the Korean site's index has the Korean steps.
func TestSearchIndexFullText(t *testing.T) {
	out, _ := buildFixture(t, func(in *Input) {
		bilingual(in)
		// A write made inside a func literal: its caller's symbol ends
		// in "$1".
		w := in.Facts.Writes[0]
		w.Caller.Symbol += "$1"
		in.Facts.Writes = append(in.Facts.Writes, w)
	})
	files := readTree(t, out)
	parse := func(p, head string) searchData {
		t.Helper()
		js, ok := strings.CutPrefix(files[p], head)
		js, ok2 := strings.CutSuffix(js, searchindex.Tail)
		var d searchData
		if !ok || !ok2 || json.Unmarshal([]byte(js), &d) != nil {
			t.Fatalf("%s is not a search index", p)
		}
		return d
	}
	// The entries the languages have alike are written once, in the
	// first language's directory; each language's index is those, then
	// its own, numbered on from them, as search.js puts them together.
	shared := parse("en/search-shared.js", searchindex.SharedHead)
	if len(shared.Docs) == 0 || !strings.Contains(files["ko/search.html"], `<script src="../en/search-shared.js"></script>`) {
		t.Fatalf("no entries shared by the languages' indexes (%d), or the Korean search page does not load them", len(shared.Docs))
	}
	if _, ok := files["ko/search-shared.js"]; ok {
		t.Errorf("the shared entries are written twice")
	}
	index := func(p string) searchData {
		t.Helper()
		d := parse(p, searchindex.IndexHead)
		all := searchData{Docs: slices.Concat(shared.Docs, d.Docs), Lens: slices.Concat(shared.Lens, d.Lens), Terms: maps.Clone(shared.Terms)}
		for k, post := range d.Terms {
			post = slices.Clone(post)
			for i := 0; i < len(post); i += 2 {
				post[i] += len(shared.Docs)
			}
			all.Terms[k] = slices.Concat(all.Terms[k], post)
		}
		for _, e := range d.Docs {
			if slices.ContainsFunc(shared.Docs, func(x []string) bool { return slices.Equal(x, e) }) {
				t.Errorf("%s repeats a shared entry: %q", p, e)
			}
		}
		return all
	}
	has := func(d searchData, term, title string) bool {
		post := d.Terms[term]
		for i := 0; i+1 < len(post); i += 2 {
			if d.Docs[post[i]][1] == title {
				return true
			}
		}
		return false
	}
	en, ko := index("en/search-index.js"), index("ko/search-index.js")
	if len(en.Lens) != len(en.Docs) {
		t.Errorf("%d entry lengths for %d entries", len(en.Lens), len(en.Docs))
	}
	for _, c := range []struct {
		d           searchData
		term, title string
	}{
		{en, "scaled", "Scheduling"}, // an event's message format, from the step's facts block
		{en, "scalingreplicaset", "Scheduling"},
		{en, "bind", "Scheduling"},                              // the diagram's label, "bind <pod>"
		{en, "binds", "Scheduling"},                             // prose
		{en, "newdeploymentcontroller", "The informer handler"}, // a reference's symbol
		{en, "scaled", "ScalingReplicaSet"},                     // the event itself
		{ko, "스케", "스케줄링"},
		{ko, "디플", "디플로이먼트를 만들면 일어나는 일"},
		{ko, "scaled", "스케줄링"},
	} {
		if !has(c.d, c.term, c.title) {
			t.Errorf("%q does not find %q", c.term, c.title)
		}
	}
	// A func literal's symbol ("…$1") is for machines, never a result's
	// title or description.
	for _, d := range [][][]string{en.Docs, ko.Docs} {
		for _, e := range d {
			if strings.Contains(strings.Join(e, " "), "$") {
				t.Errorf("search entry shows a func literal's symbol: %q", e)
			}
		}
	}
	if slices.ContainsFunc(en.Docs, func(e []string) bool { return e[1] == "스케줄링" }) {
		t.Errorf("the English index holds the Korean steps")
	}
}
