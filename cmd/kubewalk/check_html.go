package main

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/kubewalk/kubewalk/walkthrough"
)

// htmlWarnings prints a warning for each piece of HTML in the
// walkthroughs' prose, which the site leaves out: raw HTML is never
// rendered, so a placeholder such as "<name>", read as a tag, would
// vanish from the page. Warnings do not fail check. It returns how many
// it printed.
func htmlWarnings(w io.Writer, dirName string, srcs []*walkthrough.Source) int {
	n := 0
	for _, src := range srcs {
		for _, d := range src.DroppedHTML() {
			fmt.Fprintf(w, "%s:%d:%d: warning: %s reads as HTML, which the site leaves out: write it in a code span (`…`), or its \"<\" as \"\\<\"\n", filepath.Join(dirName, src.File), d.Line, d.Col, d.Text)
			n++
		}
	}
	return n
}
