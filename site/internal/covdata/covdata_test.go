package covdata

import (
	"strconv"
	"strings"
	"testing"
)

// TestRuns: runs of uncounted and counted lines, trailing uncounted
// lines left out.
func TestRuns(t *testing.T) {
	for _, tc := range []struct {
		lc   Counts
		want string
	}{
		{nil, ""},
		{Counts{-1, -1, 0, 0, 7, -1, 7}, "2 2.0 1.7 1 1.7"},
		{Counts{12}, "1.12"},
	} {
		if got := Runs(tc.lc); got != tc.want {
			t.Errorf("Runs(%v) = %q, want %q", tc.lc, got, tc.want)
		}
	}
}

// Diff writes only where a scenario's counts differ from the
// default's, and decoding its runs over the default's gives the
// scenario's counts back (what site.js does).
func TestDiff(t *testing.T) {
	for _, tc := range []struct {
		base, lc Counts
		want     string
	}{
		{Counts{-1, 1, 1, 0}, Counts{-1, 1, 1, 0}, ""},
		{Counts{-1, 1, 1, 0}, Counts{-1, 2, 2, 0}, "1 2.2"},
		{Counts{-1, 1, 1, 0}, nil, "1 3._"},
		{nil, Counts{-1, 0, 5}, "1 1.0 1.5"},
		{Counts{3, 3}, Counts{3, 3, -1, 7}, "3 1.7"},
	} {
		got := Diff(tc.base, tc.lc)
		if got != tc.want {
			t.Errorf("Diff(%v, %v) = %q, want %q", tc.base, tc.lc, got, tc.want)
		}
		// Decode as site.js does.
		n := max(len(tc.base), len(tc.lc))
		out := make([]int64, n)
		for i := range out {
			out[i] = tc.base.At(i + 1)
		}
		at := 0
		for _, r := range strings.Fields(got) {
			k, v, ok := strings.Cut(r, ".")
			cnt, _ := strconv.Atoi(k)
			if ok {
				for i := 0; i < cnt; i++ {
					out[at+i] = -1
					if v != "_" {
						out[at+i], _ = strconv.ParseInt(v, 10, 64)
					}
				}
			}
			at += cnt
		}
		for i := range out {
			if out[i] != tc.lc.At(i+1) {
				t.Errorf("Diff(%v, %v) decodes to %v", tc.base, tc.lc, out)
				break
			}
		}
	}
}
