package reldiff

import (
	"fmt"

	udiff "github.com/aymanbagabas/go-udiff"

	"github.com/kubewalk/kubewalk/analyzer/fact"
)

// contextLines is the number of unchanged lines around each hunk: the
// three of diff -u and git, enough to recognise the place in a function.
const contextLines = 3

// declDiff returns the unified diff of two declarations' text. Hunk
// headers carry the files' own line numbers, so "@@ -120,7 +131,8 @@"
// can be looked up in either tree (the diff library numbers the strings
// it is given from 1; the hunks are shifted by the declarations' first
// lines before formatting).
func declDiff(fromTag, toTag string, from, to Side) string {
	old, new := string(from.text), string(to.text)
	edits := udiff.Lines(old, new)
	u, err := udiff.ToUnifiedDiff(
		fmt.Sprintf("%s/%s (%s)", fromTag, from.Decl.Path, fact.ShortSymbol(from.Symbol)),
		fmt.Sprintf("%s/%s (%s)", toTag, to.Decl.Path, fact.ShortSymbol(to.Symbol)),
		old, edits, contextLines)
	if err != nil {
		// Cannot happen: the edits were computed from old.
		return fmt.Sprintf("(no diff: %v)\n", err)
	}
	for _, h := range u.Hunks {
		h.FromLine += from.Decl.StartLine - 1
		h.ToLine += to.Decl.StartLine - 1
	}
	return u.String()
}
