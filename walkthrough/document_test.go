package walkthrough

import (
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestExcerptRanges(t *testing.T) {
	for _, tt := range []struct {
		e    Excerpt
		want [][2]int
	}{
		{Excerpt{From: 10, To: 50, Context: -1, Highlight: []int{20}}, [][2]int{{10, 50}}},
		{Excerpt{From: 10, To: 50, Context: 3}, [][2]int{{10, 50}}},
		{Excerpt{From: 10, To: 50, Context: 3, Highlight: []int{11, 20, 24, 49}}, [][2]int{{10, 14}, {17, 27}, {46, 50}}},
		{Excerpt{From: 10, To: 50, Context: 0, Highlight: []int{20, 21, 23}}, [][2]int{{20, 21}, {23, 23}}},
		{Excerpt{From: 10, To: 50, Context: 1, Highlight: []int{20, 23}}, [][2]int{{19, 24}}},
	} {
		if diff := cmp.Diff(tt.want, tt.e.Ranges()); diff != "" {
			t.Errorf("%+v: (-want +got):\n%s", tt.e, diff)
		}
	}
}

// TestConcurrentLoad loads the same walkthroughs from several goroutines:
// the one goldmark is shared (run with -race).
func TestConcurrentLoad(t *testing.T) {
	const file = "testdata/basic.txtar"
	fsys, res := mapFS(t, file), resolverOf(t, file)
	want, err := Load(fsys, "walkthroughs", "ko", testOptions(res))
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			got, err := Load(fsys, "walkthroughs", "ko", testOptions(res))
			if err != nil {
				t.Error(err)
				return
			}
			if diff := cmp.Diff(want, got, sameMarkdown); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	wg.Wait()
}

// TestLoadAll: LoadAll gives what Load gives in each language, each
// walkthrough once per language it is written in.
func TestLoadAll(t *testing.T) {
	const file = "testdata/basic.txtar"
	fsys, res := mapFS(t, file), resolverOf(t, file)
	all, err := LoadAll(fsys, "walkthroughs", testOptions(res))
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 2 || all[0].Lang != "en" || all[1].Lang != "ko" {
		t.Fatalf("LoadAll: %d docs, want deploy in en and ko", len(all))
	}
	for _, lang := range []string{"en", "ko"} {
		want, err := Load(fsys, "walkthroughs", lang, testOptions(res))
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, Select(all, lang), sameMarkdown); diff != "" {
			t.Errorf("%s (-Load +LoadAll):\n%s", lang, diff)
		}
	}
}
