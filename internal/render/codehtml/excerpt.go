package codehtml

import "html/template"

// ExcerptLine is one row of an excerpt.
type ExcerptLine struct {
	// N is the 1-based line number; for a Gap, the first elided line.
	N int
	// HTML is the highlighted line; empty for a Gap.
	HTML template.HTML
	// Mark is true on the lines to highlight.
	Mark bool
	// Gap is true on the elision marker that stands for lines N…End.
	Gap bool
	// End is the last elided line of a Gap; 0 otherwise.
	End int
}

// Excerpt cuts lines from…to (1-based, inclusive, clamped to the file) out
// of a highlighted file and marks the highlight lines (those outside the
// range are ignored).
//
// With context >= 0 and at least one highlighted line in range, only lines
// within context lines of a highlighted line are kept, and each run of
// dropped lines becomes one Gap row. A run of a single line is kept rather
// than replaced by a marker that takes as much room. With context < 0, or
// nothing to highlight, every line of the range is kept.
func Excerpt(lines []Line, from, to int, highlight []int, context int) []ExcerptLine {
	from = max(from, 1)
	to = min(to, len(lines))
	if from > to {
		return nil
	}
	n := to - from + 1
	mark := make([]bool, n)
	any := false
	for _, h := range highlight {
		if h >= from && h <= to {
			mark[h-from] = true
			any = true
		}
	}
	keep := make([]bool, n)
	if context < 0 || !any {
		for i := range keep {
			keep[i] = true
		}
	} else {
		for i, m := range mark {
			if m {
				for j := max(0, i-context); j <= min(n-1, i+context); j++ {
					keep[j] = true
				}
			}
		}
		// A single dropped line between kept ones costs a row either way.
		for i := 0; i < n; i++ {
			if !keep[i] && (i == 0 || keep[i-1]) && (i == n-1 || keep[i+1]) {
				keep[i] = true
			}
		}
	}
	out := make([]ExcerptLine, 0, n)
	for i := 0; i < n; {
		if keep[i] {
			out = append(out, ExcerptLine{N: from + i, HTML: lines[from+i-1], Mark: mark[i]})
			i++
			continue
		}
		j := i
		for j < n && !keep[j] {
			j++
		}
		out = append(out, ExcerptLine{N: from + i, Gap: true, End: from + j - 1})
		i = j
	}
	return out
}
