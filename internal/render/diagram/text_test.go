package diagram

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestTextWidth(t *testing.T) {
	if a, k := textWidth("ab"), textWidth("가나"); k <= a {
		t.Errorf("Hangul %d px not wider than Latin %d px", k, a)
	}
	if got := textWidth("가"); got != fontSize {
		t.Errorf("Hangul syllable is %d px, want one em (%d)", got, fontSize)
	}
	if got := textWidth(""); got != 0 {
		t.Errorf("empty string is %d px", got)
	}
}

func TestWrap(t *testing.T) {
	for _, tc := range []struct {
		s    string
		max  int
		want []string
	}{
		{"", 100, []string{""}},
		{"short", 100, []string{"short"}},
		{"one two three four", 70, []string{"one two", "three four"}},
		{"POST /apis/apps/v1/namespaces/default/deployments", 150, []string{"POST", "/apis/apps/v1/", "namespaces/default/", "deployments"}},
		{"가나다라마바사아자차카타파하", 60, []string{"가나다라", "마바사아", "자차카타", "파하"}},
		{"a\t\n  b", 100, []string{"a b"}},
	} {
		got := wrap(tc.s, tc.max)
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("wrap(%q, %d) (-want +got):\n%s", tc.s, tc.max, diff)
		}
		for _, l := range got {
			if w := textWidth(l); w > tc.max {
				t.Errorf("wrap(%q): line %q is %d px > %d", tc.s, l, w, tc.max)
			}
		}
	}
}
