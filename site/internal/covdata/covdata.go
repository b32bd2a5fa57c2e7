// Package covdata is the format of a source page's coverage data for
// site.js: the <pre>'s data-cov, "deployment=RUNS|scale~DIFF|rollout~DIFF",
// the default scenario's line counts as runs (Runs), then every other
// scenario's as its differences from them (Diff). site.js decodes it to
// mark each counted line with how often it ran in the scenario the
// reader picks.
package covdata

import (
	"strconv"
	"strings"
)

// Counts holds a file's lines from line 1: -1 for a line no block
// covers, else how often it ran (0: counted, did not run). It ends at
// the last counted line.
type Counts []int64

// At returns line l's count, -1 past the end.
func (lc Counts) At(l int) int64 {
	if l < 1 || l > len(lc) {
		return -1
	}
	return lc[l-1]
}

// Runs encodes line counts as runs from line 1, space-separated: "N"
// is N lines not counted, "N.C" N counted lines that each ran C times
// (C 0: did not run). Trailing uncounted lines are left out.
func Runs(lc Counts) string {
	var sb strings.Builder
	for i := 0; i < len(lc); {
		j := i
		for j < len(lc) && lc[j] == lc[i] {
			j++
		}
		if sb.Len() > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(strconv.Itoa(j - i))
		if lc[i] >= 0 {
			sb.WriteByte('.')
			sb.WriteString(strconv.FormatInt(lc[i], 10))
		}
		i = j
	}
	return sb.String()
}

// Diff encodes line counts lc as their differences from base, in runs
// from line 1, space-separated: "N" is N lines as in base, "N.C" N lines
// counted C times, "N._" N lines not counted. The lines after the last
// run are as in base. Every scenario runs the same start-up, so most of a
// file's counts are the default scenario's: a scenario's differences are
// a fraction of its runs.
func Diff(base, lc Counts) string {
	n := max(len(base), len(lc))
	var toks []string
	for i := 0; i < n; {
		j := i
		if lc.At(i+1) == base.At(i+1) {
			for j < n && lc.At(j+1) == base.At(j+1) {
				j++
			}
			toks = append(toks, strconv.Itoa(j-i))
		} else {
			v := lc.At(i + 1)
			for j < n && lc.At(j+1) == v && v != base.At(j+1) {
				j++
			}
			c := "_"
			if v >= 0 {
				c = strconv.FormatInt(v, 10)
			}
			toks = append(toks, strconv.Itoa(j-i)+"."+c)
		}
		i = j
	}
	if len(toks) > 0 && !strings.Contains(toks[len(toks)-1], ".") {
		toks = toks[:len(toks)-1]
	}
	return strings.Join(toks, " ")
}
