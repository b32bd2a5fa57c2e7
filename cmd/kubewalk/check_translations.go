package main

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/kubewalk/kubewalk/walkthrough"
)

// translationWarnings prints a warning for each translated step that is
// older than its English step (its heading's {en=…} is another
// fingerprint than the English step's today) or says nothing of what it
// was translated from. Each warning gives the English step's fingerprint
// to write once the translation says what the English says. Warnings do
// not fail check: a stale step is still shown, marked as older than its
// original. It returns how many it printed.
func translationWarnings(w io.Writer, dirName string, srcs []*walkthrough.Source) int {
	n := 0
	for _, src := range srcs {
		if src.Lang == "en" {
			continue
		}
		for i, st := range src.Steps {
			if st.Source == "" {
				continue // more steps than the original: Check reports it
			}
			at := fmt.Sprintf("%s:%d", filepath.Join(dirName, src.File), st.Line)
			switch {
			case st.Translated == "":
				fmt.Fprintf(w, "%s: warning: step %d does not say which English text it translates: once it says what the English step says, end its heading with {en=%q}\n", at, i+1, st.Source)
			case st.Stale():
				fmt.Fprintf(w, "%s: warning: step %d was translated from an older English text (en=%s); the English step is now %s: update the translation and its heading's {en=%q}\n", at, i+1, st.Translated, st.Source, st.Source)
			default:
				continue
			}
			n++
		}
	}
	return n
}
