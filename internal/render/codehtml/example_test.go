package codehtml_test

import (
	"fmt"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/internal/render/codehtml"
)

func ExampleGo() {
	src := []byte("package p\n\n// F adds one.\nfunc F(x int) int { return x + 1 }\n")
	idents := []fact.Ident{
		{Off: 31, Len: 1, Kind: "func", Def: true},
		{Off: 33, Len: 1, Kind: "var", Def: true},
		{Off: 35, Len: 3, Kind: "builtin"},
		{Off: 40, Len: 3, Kind: "builtin"},
		{Off: 53, Len: 1, Kind: "var", Target: fact.Location{Path: "p/p.go", StartLine: 4, EndLine: 4}},
	}
	lines := codehtml.Go(src, idents, codehtml.Options{
		// As from a walkthrough's excerpt: the declarations are on the
		// file's own page.
		Link: func(t fact.Location) string { return fmt.Sprintf("../src/%s.html#L%d", t.Path, t.StartLine) },
	})
	for i, l := range lines {
		fmt.Printf("L%d:%s\n", i+1, l)
	}
	for _, e := range codehtml.Excerpt(lines, 3, 4, []int{4}, -1) {
		fmt.Printf("L%d mark=%v:%s\n", e.N, e.Mark, e.HTML)
	}
	// Output:
	// L1:<b>package</b> p
	// L2:
	// L3:<i>// F adds one.</i>
	// L4:<b>func</b> <dfn class=f>F</dfn>(<dfn>x</dfn> <var>int</var>) <var>int</var> { <b>return</b> <a href=../src/p/p.go.html#L4>x</a> + <var>1</var> }
	// L3 mark=false:<i>// F adds one.</i>
	// L4 mark=true:<b>func</b> <dfn class=f>F</dfn>(<dfn>x</dfn> <var>int</var>) <var>int</var> { <b>return</b> <a href=../src/p/p.go.html#L4>x</a> + <var>1</var> }
}
