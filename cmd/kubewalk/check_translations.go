package main

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"

	"github.com/kubewalk/kubewalk/walkthrough"
)

// translationWarnings prints a warning for each translated step that is
// older than its English step (its heading's {en=…} is another
// fingerprint than the English step's today) or says nothing of what it
// was translated from. Each warning gives the English step's fingerprint
// to write once the translation says what the English says. It warns
// too of a translated step that does not mark as not meant to run the
// references its English step marks, or marks others: the site gives
// the reason in the reader's language only where the translation writes
// it. Warnings do not fail check: a stale step is still shown, marked as
// older than its original. It returns how many it printed.
func translationWarnings(w io.Writer, dirName string, srcs []*walkthrough.Source) int {
	n := 0
	ens := map[string]*walkthrough.Source{}
	for _, src := range srcs {
		if src.Lang == "en" {
			ens[src.ID] = src
		}
	}
	for _, src := range srcs {
		if src.Lang == "en" {
			continue
		}
		for i, st := range src.Steps {
			if st.Source == "" {
				continue // more steps than the original: Check reports it
			}
			at := fmt.Sprintf("%s:%d", filepath.Join(dirName, src.File), st.Line)
			if en := ens[src.ID]; en != nil && i < len(en.Steps) {
				n += markWarnings(w, at, i+1, en.Steps[i].NotRun, st.NotRun)
			}
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

// markWarnings prints a warning for each reference the English step n
// marks as not meant to run (en) that the translated step at at does
// not (tr), and for each it marks that the English step does not. It
// returns how many it printed.
func markWarnings(w io.Writer, at string, n int, en, tr []string) int {
	k := 0
	for _, r := range en {
		if !slices.Contains(tr, r) {
			fmt.Fprintf(w, "%s: warning: step %d does not mark %s as not meant to run, as the English step does: write the reason in this file's language, {notrun=\"…\"} after the link or notrun: in the excerpt\n", at, n, r)
			k++
		}
	}
	for _, r := range tr {
		if !slices.Contains(en, r) {
			fmt.Fprintf(w, "%s: warning: step %d marks %s as not meant to run, which the English step does not: remove the mark, or mark the English step too\n", at, n, r)
			k++
		}
	}
	return k
}
