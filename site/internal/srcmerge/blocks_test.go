package srcmerge

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// fakeBlocks renders a release's source header as the lines its step
// cites and the file's number of lines, its page header as its tag.
type fakeBlocks struct {
	tags, cites []string
}

func (fakeBlocks) GitHubBase(int) string { return "" }

func (r fakeBlocks) Header(rel, lang int) (string, error) { return "header " + r.tags[rel], nil }

func (r fakeBlocks) SourceHeader(rel, lang, lines int, anchor func(string) string) (string, error) {
	c := r.cites[rel]
	if anchor != nil {
		c = anchor(c)
	}
	return fmt.Sprintf("cites %s of %d", c, lines), nil
}

// TestBlocks: an older release whose source header, in the page's
// anchors, is one written before it is made from that one (the newest's
// or another older release's), one that is not is written whole in
// anchor form, with the release's number of lines; explicit writes every
// header whole. Every block but the first is hidden.
func TestBlocks(t *testing.T) {
	tags := []string{"v4", "v3", "v2", "v1"}
	files := map[int]string{0: "a\nb\nc\n", 1: "a\nb\nc\n", 2: "a\nx\nb\nc\n", 3: "a\nx\nb\nc\n"}
	read := func(r int, f string) ([]byte, error) { return []byte(files[r]), nil }
	set, err := Align(context.Background(), map[string][]int{"x.go": {0, 1, 2, 3}}, tags, read)
	if err != nil {
		t.Fatal(err)
	}
	m := set.Files["x.go"]
	m.Parts = []int{0}
	// v4 and v3 cite "b", v2 and v1 the line "x" v4 lacks.
	r := fakeBlocks{tags: tags, cites: []string{"L2", "L2", "L2", "L2"}}
	got, err := m.Blocks(set, 0, tags, 1, r, false)
	if err != nil {
		t.Fatal(err)
	}
	want := []Block{
		{Rel: 0},
		{Rel: 1, Hide: true, Head: &HeadLike{Like: "v4", N: 3}},
		{Rel: 2, Hide: true, Head: &HeadLike{N: 4, Head: "cites L1.1 of 3"}},
		{Rel: 3, Hide: true, Head: &HeadLike{Like: "v2", N: 4}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("blocks (-want +got):\n%s", diff)
	}
	got, err = m.Blocks(set, 0, tags, 2, r, true)
	if err != nil {
		t.Fatal(err)
	}
	for i, b := range got {
		if b.Head != nil || b.Like != "" || b.Hide != (i > 0) || b.Rel != i/2 || b.Lang != i%2 {
			t.Errorf("explicit, block %d: %+v", i, b)
		}
	}
}
