package explainshare

import "testing"

// TestStringEdit: an edit keeps whole characters, counted as JavaScript
// counts them.
func TestStringEdit(t *testing.T) {
	for _, c := range []struct{ base, want string }{
		{"https://x/blob/~/a.go#L^-L12", "https://x/blob/~/a.go#L^-L15"},
		{"../src/a.go.html?rel=~#L10", "../src/a.go.html#L10"},
		{"𝄞a𝄞b𝄞", "𝄞a𝄢b𝄞"},
		{"abc", ""},
		{"", "abc"},
	} {
		e := stringEdit(c.base, c.want)
		got, ok := e.(string)
		if !ok {
			var err error
			if got, err = applyEdit(c.base, e.([]any)); err != nil {
				t.Fatal(err)
			}
		}
		if got != c.want {
			t.Errorf("edit %v of %q gives %q, want %q", e, c.base, got, c.want)
		}
	}
	if e, ok := stringEdit("𝄞a𝄞b𝄞", "𝄞a𝄢b𝄞").([]any); !ok || e[0] != 3 || e[2] != 3 {
		t.Errorf("edit %v: want 3 UTF-16 code units kept each side", e)
	}
}
