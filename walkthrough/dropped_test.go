package walkthrough

import (
	"reflect"
	"testing"
)

// TestDroppedHTML checks that the HTML a walkthrough's prose holds is
// found where it is written, and that what is not HTML (code spans, code
// blocks, autolinks, a non-ASCII placeholder, an escaped "<") is not.
func TestDroppedHTML(t *testing.T) {
	src := fm + "\n## S\n\n" + // line 6
		"The message \"Node <name> status is now: <reason>\".\n" + // 8
		"As code: `Node <name>`; escaped: \\<name>; <https://example.com>; <이름>.\n" + // 9
		"\n<div class=\"x\">\nblock\n</div>\n" + // 11
		"\n```go\nvar a = <-ch\n```\n"
	s, err := Parse("w.md", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := []Dropped{
		{Line: 8, Col: 19, Text: "<name>"},
		{Line: 8, Col: 41, Text: "<reason>"},
		{Line: 11, Col: 1, Text: `<div class="x">`},
	}
	if got := s.DroppedHTML(); !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
}
