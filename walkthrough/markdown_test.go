package walkthrough

import (
	"testing"
	"testing/fstest"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/internal/testsupport/fakeresolver"
)

// TestMarkdownText: a segment's text is what a reader reads, markup,
// raw HTML and link destinations left out, entities and escapes resolved
// but in code, each block on its own line.
func TestMarkdownText(t *testing.T) {
	const src = "---\ntitle: T\n---\n\n## One\n\nSee [the *docs*](https://example.com) &amp; \\*this\\* `a &amp; \\*b`<b>x</b>.\n\n" +
		"- first\n- second\n\n```yaml\nkind: Pod\n```\n"
	docs, err := Load(fstest.MapFS{"w.md": {Data: []byte(src)}}, ".", "en", testOptions(&fakeresolver.Resolver{Found: &fact.Facts{}}))
	if err != nil || len(docs) != 1 {
		t.Fatalf("Load: %v, %d docs", err, len(docs))
	}
	segs := docs[0].Steps[0].Segments
	if len(segs) != 1 || segs[0].Markdown == nil {
		t.Fatalf("segments %+v, want one of Markdown", segs)
	}
	want := "See the docs & *this* a &amp; \\*bx.\nfirst\nsecond\nkind: Pod"
	if got := segs[0].Markdown.Text(); got != want {
		t.Errorf("Text() = %q, want %q", got, want)
	}
}
