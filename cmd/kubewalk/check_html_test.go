package main

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/kubewalk/kubewalk/walkthrough"
)

// TestHTMLWarnings: a placeholder that reads as a tag draws a warning at
// its place; the same text in a code span does not.
func TestHTMLWarnings(t *testing.T) {
	const en = "---\ntitle: W\n---\n## One\n\nThe message \"Node <name> status is now\".\n\nAs code: `Node <name>`.\n"
	srcs, err := walkthrough.ParseDir(fstest.MapFS{"w.md": {Data: []byte(en)}}, ".")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	n := htmlWarnings(&b, "walkthroughs", srcs)
	want := "walkthroughs/w.md:6:19: warning: <name> reads as HTML, which the site leaves out: write it in a code span (`…`), or its \"<\" as \"\\<\"\n"
	if n != 1 || b.String() != want {
		t.Errorf("%d warnings:\n%s\nwant 1:\n%s", n, b.String(), want)
	}
}
