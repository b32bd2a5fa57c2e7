package explain

import (
	"bytes"
	"strings"
	"testing"
)

// TestTextEscapesControls: a line of input, an event message or a
// component name that carries terminal escape sequences is printed with
// them spelled out, never sent to the terminal.
func TestTextEscapesControls(t *testing.T) {
	hostile := "0s   Normal   Pulled   pod/x   \x1b]0;PWNED\x07\x1b[2J\u009b31m\u202egnp.exe\rover\bX"
	exs := []Explanation{
		{Record: Record{Line: 1, Text: hostile, Kind: KindEvent, Format: "table"}, Note: "no recorder call with reason \"\x1b[31m\""},
		{Record: Record{Line: 2, Text: "{json}", Format: "json"}, Summary: "Pulled \x1b[1m", Explained: true,
			Component: &Component{Name: "kubelet\x1b[8m", From: "source"},
			Code:      []Code{{Role: "emitted", Path: "a.go", Line: 3, Symbol: "k8s.io/x.F", Detail: "d\x07"}},
			Steps:     []StepRef{{File: "w.md", Line: 4, Title: "T\x1b", StepTitle: "S\u2066"}}},
	}
	var b bytes.Buffer
	if err := WriteText(&b, exs); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, r := range out {
		if r != '\n' && unsafeRune(r) {
			t.Fatalf("%U reached the terminal:\n%q", r, out)
		}
	}
	for _, want := range []string{`\x1b]0;PWNED\x07\x1b[2J\u009b31m\u202egnp.exe\x0dover\x08X`, `kubelet\x1b[8m`, `Pulled \x1b[1m`, `d\x07`, `T\x1b › S\u2066`, "\x1b[31m"[1:]} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if got := termSafe("a\tb"); got != "a\tb" {
		t.Errorf("a tab became %q", got)
	}
}

// TestTextWriterIsWriteText: one explanation at a time, the same bytes.
func TestTextWriterIsWriteText(t *testing.T) {
	x := newFixture()
	exs := x.Explain(Parse(read(t, "seed000-watch.txt")))
	var whole, each bytes.Buffer
	if err := WriteText(&whole, exs); err != nil {
		t.Fatal(err)
	}
	tw := NewTextWriter(&each)
	for _, ex := range exs {
		if err := tw.Write(ex); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if whole.String() != each.String() || !strings.HasSuffix(each.String(), " explained\n") {
		t.Errorf("WriteText and TextWriter differ:\n%s\n---\n%s", whole.String(), each.String())
	}
	var none bytes.Buffer
	if err := NewTextWriter(&none).Close(); err != nil || none.Len() != 0 {
		t.Errorf("no explanations: %q %v", none.String(), err)
	}
}
