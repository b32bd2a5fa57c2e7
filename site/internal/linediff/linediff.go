// Package linediff is the line diff that aligns releases' copies of a
// file, of an explain index and of a page's children (packages site and
// site/releases).
package linediff

import (
	"strings"
	"unicode/utf8"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// Op is a run of N lines of a line diff: equal, deleted or inserted.
type Op struct {
	Op diffmatchpatch.Operation
	N  int
}

// Lines is a minimal line diff of a and b (Myers', through
// diffmatchpatch with each line as one rune). It has no time limit, which
// keeps it deterministic, at the cost of seconds on the slowest real pair
// (a regenerated file against its successor); go-udiff's bounded LCS,
// tried first, gave up on kubelet.go's two releases and matched a small
// part of the lines they share.
func Lines(a, b []string) []Op {
	dmp := diffmatchpatch.New()
	dmp.DiffTimeout = 0
	ra, rb, _ := dmp.DiffLinesToRunes(diffText(a), diffText(b))
	var out []Op
	for _, d := range dmp.DiffMainRunes(ra, rb, false) {
		out = append(out, Op{d.Type, utf8.RuneCountInString(d.Text)})
	}
	return out
}

// diffText joins lines for DiffLinesToRunes, which splits at newlines: a
// final line without one gets one, so it matches the same line elsewhere.
func diffText(ls []string) string {
	var sb strings.Builder
	for _, l := range ls {
		sb.WriteString(l)
		if !strings.HasSuffix(l, "\n") {
			sb.WriteByte('\n')
		}
	}
	return sb.String()
}
