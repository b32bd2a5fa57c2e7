package analyzer

import (
	"go/parser"
	"go/token"
	"strings"
	"testing"
)

func TestBlankBodies(t *testing.T) {
	src := "package p\n\n" +
		"import \"strings\"\n\n" +
		"// F has a body.\n" +
		"func F(a, b int) (int, error) {\n\tif a > b { return a, nil }\n\ts := \"}\" + `{` + string('}')\n\t_ = s /* } */ // }\n\treturn b, nil\n}\n\n" +
		"func G() struct{ X int } { return struct{ X int }{1} }\n\n" +
		"func H[T interface{ ~int }](x T) interface{ M() } {\n\treturn nil\n}\n\n" +
		"func Asm(x int) int\n\n" +
		"var V = T{A: 1}\n\n" +
		"type T struct{ A int }\n\n" +
		"func (t *T) M() map[string]struct{} { return strings.Fields(\"x\") }\n\n" +
		"func L() {\n//line foo.go:10\n\tprintln()\n}\n"
	got := string(blankBodies([]byte(src)))
	if len(got) != len(src) || strings.Count(got, "\n") != strings.Count(src, "\n") {
		t.Fatal("blanking moved bytes")
	}
	for _, gone := range []string{"return a, nil", `"}"`, "return struct", "return nil", "strings.Fields"} {
		if strings.Contains(got, gone) {
			t.Errorf("body text %q not blanked:\n%s", gone, got)
		}
	}
	for _, kept := range []string{"func G() struct{ X int } {", "func H[T interface{ ~int }](x T) interface{ M() } {",
		"func Asm(x int) int\n", "var V = T{A: 1}", "type T struct{ A int }", "func (t *T) M() map[string]struct{} {", "//line foo.go:10\n\tprintln()"} {
		if !strings.Contains(got, kept) {
			t.Errorf("%q changed:\n%s", kept, got)
		}
	}
	fset := token.NewFileSet()
	if _, err := parser.ParseFile(fset, "p.go", got, 0); err != nil {
		t.Errorf("blanked source does not parse: %v\n%s", err, got)
	}
	if b := []byte("package p\nvar s = `unterminated\n"); &blankBodies(b)[0] != &b[0] {
		t.Error("a file it cannot lex is not returned as is")
	}
}
