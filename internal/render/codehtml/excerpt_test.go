package codehtml

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestExcerpt(t *testing.T) {
	var lines []Line
	for i := 1; i <= 30; i++ {
		lines = append(lines, Line(fmt.Sprint("l", i)))
	}
	row := func(n int, mark bool) ExcerptLine {
		return ExcerptLine{N: n, HTML: lines[n-1], Mark: mark}
	}
	for _, tc := range []struct {
		name      string
		from, to  int
		highlight []int
		context   int
		want      []ExcerptLine
	}{
		{"all lines, marked", 3, 5, []int{4, 9}, -1, []ExcerptLine{row(3, false), row(4, true), row(5, false)}},
		{"nothing highlighted keeps all", 3, 5, nil, 0, []ExcerptLine{row(3, false), row(4, false), row(5, false)}},
		{"clamped", -2, 2, nil, 1, []ExcerptLine{row(1, false), row(2, false)}},
		{"empty", 40, 50, nil, 1, nil},
		{"elided", 10, 20, []int{12, 17}, 1, []ExcerptLine{
			row(10, false), // a single dropped line is kept
			row(11, false), row(12, true), row(13, false),
			{N: 14, Gap: true, End: 15},
			row(16, false), row(17, true), row(18, false),
			{N: 19, Gap: true, End: 20},
		}},
		{"context 0", 1, 5, []int{3}, 0, []ExcerptLine{
			{N: 1, Gap: true, End: 2}, row(3, true), {N: 4, Gap: true, End: 5},
		}},
	} {
		got := Excerpt(lines, tc.from, tc.to, tc.highlight, tc.context)
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s: (-want +got):\n%s", tc.name, diff)
		}
	}
}
