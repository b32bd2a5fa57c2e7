package fact

import (
	"regexp"
	"slices"
	"testing"
)

func TestLineSpan(t *testing.T) {
	src := []byte("a\nb\nc\nd")
	for _, c := range []struct {
		from, to int
		want     string
		ok       bool
	}{
		{1, 1, "a\n", true},
		{2, 3, "b\nc\n", true},
		{3, 4, "c\nd", true}, // the last line has no newline
		{3, 9, "c\nd", false},
		{7, 9, "", false},
	} {
		got, ok := LineSpan(src, c.from, c.to)
		if string(got) != c.want || ok != c.ok {
			t.Errorf("LineSpan(%d, %d) = %q, %v; want %q, %v", c.from, c.to, got, ok, c.want, c.ok)
		}
	}
	text, _ := LineSpan(src, 2, 4)
	if got := MatchLines(regexp.MustCompile(`[bd]`), text, 2); !slices.Equal(got, []int{2, 4}) {
		t.Errorf("MatchLines = %v, want [2 4]", got)
	}
}
