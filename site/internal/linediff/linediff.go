// Package linediff is the line diff that aligns releases' copies of a
// file, of an explain index and of a page's children (packages site and
// site/releases), and shows a recorded object's change between two
// revisions (Unified).
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

// Line is a line of a change (Unified): Op "+" added, "-" removed, " "
// context, "…" a run of Gap unchanged lines left out.
type Line struct {
	Op, Text string
	Gap      int
}

// Unified is the change from a to b (lines, each with or without its
// newline, which Text drops), as diff -u shows it: unchanged lines
// farther than context from a change folded into gaps.
func Unified(a, b []string, context int) []Line {
	var all []Line
	i, j := 0, 0
	for _, op := range Lines(a, b) {
		for range op.N {
			switch op.Op {
			case diffmatchpatch.DiffEqual:
				all = append(all, Line{Op: " ", Text: strings.TrimSuffix(b[j], "\n")})
				i++
				j++
			case diffmatchpatch.DiffDelete:
				all = append(all, Line{Op: "-", Text: strings.TrimSuffix(a[i], "\n")})
				i++
			case diffmatchpatch.DiffInsert:
				all = append(all, Line{Op: "+", Text: strings.TrimSuffix(b[j], "\n")})
				j++
			}
		}
	}
	near := make([]bool, len(all))
	for k, l := range all {
		if l.Op != " " {
			for m := max(0, k-context); m <= min(len(all)-1, k+context); m++ {
				near[m] = true
			}
		}
	}
	var out []Line
	for k, l := range all {
		switch {
		case near[k]:
			out = append(out, l)
		case len(out) > 0 && out[len(out)-1].Op == "…":
			out[len(out)-1].Gap++
		default:
			out = append(out, Line{Op: "…", Gap: 1})
		}
	}
	return out
}
