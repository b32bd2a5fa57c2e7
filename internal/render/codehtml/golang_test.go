package codehtml

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kubewalk/kubewalk/analyzer/fact"
)

func lineStrings(lines []Line) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = string(l)
	}
	return out
}

// ident finds the n-th occurrence (0-based) of name in src.
func ident(t *testing.T, src, name string, n int, kind string, def bool, target fact.Location) fact.Ident {
	t.Helper()
	off := -1
	for i := 0; i <= n; i++ {
		j := strings.Index(src[off+1:], name)
		if j < 0 {
			t.Fatalf("occurrence %d of %q not found", n, name)
		}
		off += 1 + j
	}
	return fact.Ident{Off: off, Len: len(name), Kind: kind, Def: def, Target: target}
}

func TestGo(t *testing.T) {
	src := "package p\n\n// Doc says <hi> & bye.\nfunc F(x int) error {\n\tif x > 0 {\n\t\treturn G(x)\n\t} else if x == 0 {\n\t\treturn nil\n\t}\n\ts := `a\n<b>\n`\n\t/* one\n\n three */\n\treturn len(s) + 0x1F\n}\n"
	g := fact.Location{Path: "q/g.go", StartLine: 7, EndLine: 7}
	idents := []fact.Ident{
		ident(t, src, "F", 0, "func", true, fact.Location{Path: "p/f.go", StartLine: 4, EndLine: 4}),
		ident(t, src, "x", 0, "var", true, fact.Location{Path: "p/f.go", StartLine: 4, EndLine: 4}),
		ident(t, src, "int", 0, "type", false, fact.Location{}),
		ident(t, src, "error", 0, "type", false, fact.Location{}),
		ident(t, src, "x", 1, "var", false, fact.Location{Path: "p/f.go", StartLine: 4, EndLine: 4}),
		ident(t, src, "G", 0, "func", false, g),
	}
	links := 0
	got := lineStrings(Go([]byte(src), idents, Options{Link: func(l fact.Location) string {
		links++
		if l.Path == "q/g.go" {
			return "https://example.com/g.go?a=1&b=2#L7"
		}
		return "f.go.html#L4"
	}}))
	want := []string{
		`<b>package</b> p`,
		``,
		`<i>// Doc says &lt;hi&gt; &amp; bye.</i>`,
		`<b>func</b> <dfn class=f>F</dfn>(<dfn>x</dfn> <span class=t>int</span>) <span class=t>error</span> {`,
		"\t<b>if</b> <a href=f.go.html#L4>x</a> &gt; <var>0</var> {",
		"\t\t<b>return</b> <a class=f href=\"https://example.com/g.go?a=1&amp;b=2#L7\">G</a>(x)",
		"\t} <b>else if</b> x == <var>0</var> {",
		"\t\t<b>return</b> <var>nil</var>",
		"\t}",
		"\ts := <kbd>`a</kbd>",
		`<kbd>&lt;b&gt;</kbd>`,
		"<kbd>`</kbd>",
		"\t<i>/* one</i>",
		``,
		`<i> three */</i>`,
		"\t<b>return</b> <var>len</var>(s) + <var>0x1F</var>",
		`}`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Go mismatch (-want +got):\n%s", diff)
	}
	if links != 2 {
		t.Errorf("Link called %d times, want 2 (once per distinct target)", links)
	}
}

// TestGoNearDeclarations: a variable's use links its declaration on the
// same page unless that is at most ten lines above it, in view with it;
// a declaration further up, or below, is linked.
func TestGoNearDeclarations(t *testing.T) {
	var src strings.Builder
	src.WriteString("package p\n\nfunc F() {\n\tv := 1\n") // v on line 4
	for range 20 {
		src.WriteString("\t_ = v\n") // lines 5 to 24
	}
	src.WriteString("}\n")
	s := src.String()
	var idents []fact.Ident
	for n := 1; n <= 20; n++ {
		idents = append(idents, ident(t, s, "v", n, "var", false, fact.Location{Path: "p/f.go", StartLine: 4}))
	}
	// A use above its declaration (a later closure's variable, a field
	// declared below) is linked whatever the distance.
	idents = append(idents, ident(t, s, "F", 0, "var", false, fact.Location{Path: "p/f.go", StartLine: 5}))
	lines := Go([]byte(s), idents, Options{Link: func(l fact.Location) string { return fmt.Sprintf("#L%d", l.StartLine) }})
	for n, l := range lines {
		line := n + 1
		linked := strings.Contains(string(l), "<a href=#L4>v</a>")
		if want := line-4 > 10; line >= 5 && line <= 24 && linked != want {
			t.Errorf("line %d (%d below the declaration): linked %v, want %v: %s", line, line-4, linked, want, l)
		}
	}
	if !strings.Contains(string(lines[2]), "<a href=#L5>F</a>") {
		t.Errorf("a use above its declaration is not linked: %s", lines[2])
	}
	// On another page (an excerpt's link to the source page) every use
	// links.
	other := Go([]byte(s), idents, Options{Link: func(l fact.Location) string { return fmt.Sprintf("f.go.html#L%d", l.StartLine) }})
	if !strings.Contains(string(other[4]), "<a href=f.go.html#L4>v</a>") {
		t.Errorf("a use on another page than its declaration's is not linked: %s", other[4])
	}
}

func TestGoLines(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want int
	}{
		{"", 0},
		{"package p", 1},
		{"package p\n", 1},
		{"package p\n\n", 2},
		{"package p\r\nvar x = 1\r\n", 2},
		{"package p\n/* unterminated\n", 2},
		{"package p\nvar s = `unterminated\n\n", 3},
		{"\xef\xbb\xbfpackage p\n", 1},
	} {
		got := Go([]byte(tc.src), nil, Options{})
		if len(got) != tc.want {
			t.Errorf("Go(%q): %d lines, want %d: %q", tc.src, len(got), tc.want, got)
		}
		for _, l := range got {
			if strings.Contains(string(l), "\r") || strings.Contains(string(l), "\n") {
				t.Errorf("Go(%q): line %q holds a line break", tc.src, l)
			}
			checkBalanced(t, string(l))
		}
	}
}

func TestGoStaleIdents(t *testing.T) {
	src := "package p\nvar x = y\n"
	idents := []fact.Ident{
		{Off: 5, Len: 3, Kind: "func"},    // not at an identifier
		{Off: 14, Len: 5, Kind: "func"},   // wrong length
		{Off: 1000, Len: 1, Kind: "func"}, // beyond the file
		{Off: 18, Len: 1, Kind: "const", Target: fact.Location{Path: "a.go", StartLine: 1}},
	}
	got := lineStrings(Go([]byte(src), idents, Options{Link: func(fact.Location) string { return "a.go.html#L1" }}))
	want := []string{`<b>package</b> p`, `<b>var</b> x = <a class=o href=a.go.html#L1>y</a>`}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// checkBalanced fails unless every tag opened in s is closed in s, in order.
func checkBalanced(t *testing.T, s string) {
	t.Helper()
	var stack []string
	for i := 0; i < len(s); i++ {
		if s[i] != '<' {
			continue
		}
		j := strings.IndexByte(s[i:], '>')
		if j < 0 {
			t.Errorf("unterminated tag in %q", s)
			return
		}
		tag := s[i+1 : i+j]
		if strings.HasPrefix(tag, "/") {
			if len(stack) == 0 || stack[len(stack)-1] != tag[1:] {
				t.Errorf("unbalanced %q in %q", tag, s)
				return
			}
			stack = stack[:len(stack)-1]
		} else {
			name, _, _ := strings.Cut(tag, " ")
			stack = append(stack, name)
		}
		i += j
	}
	if len(stack) > 0 {
		t.Errorf("unclosed %v in %q", stack, s)
	}
}

func TestGoDeclsOnly(t *testing.T) {
	src := "package p\n\n// T is a <type>.\ntype T struct{ N int }\n\nfunc (t T) Get() int { return t.N + len(\"x\") + 1 }\n"
	loc := fact.Location{Path: "p/t.go", StartLine: 4, EndLine: 4}
	// at is the identifier name at the position of the marker around it.
	at := func(marker, name, kind string, def bool) fact.Ident {
		off := strings.Index(src, marker) + strings.Index(marker, name)
		return fact.Ident{Off: off, Len: len(name), Kind: kind, Def: def, Target: loc}
	}
	idents := []fact.Ident{
		at("type T", "T", "type", true),
		at("{ N", "N", "field", true),
		at("N int", "int", "type", false),
		at("(t T)", "t", "var", true),
		at("t T)", "T", "type", false),
		at(") Get", "Get", "method", true),
		at("t.N", "t", "var", false),
		at("t.N", "N", "field", false),
	}
	got := lineStrings(Go([]byte(src), idents, Options{DeclsOnly: true, Link: func(fact.Location) string {
		t.Error("Link called with DeclsOnly")
		return "#L4"
	}}))
	want := []string{
		`package p`,
		``,
		`<i>// T is a &lt;type&gt;.</i>`,
		`type <dfn class=t>T</dfn> struct{ <dfn>N</dfn> int }`,
		``,
		`func (<dfn>t</dfn> T) <dfn class=m>Get</dfn>() int { return t.N + len("x") + 1 }`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Go DeclsOnly mismatch (-want +got):\n%s", diff)
	}
}

func TestGenerated(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want bool
	}{
		{"// Code generated by protoc-gen-go. DO NOT EDIT.\n\npackage v1\n", true},
		{"//go:build linux\n\n// Code generated by deepcopy-gen. DO NOT EDIT.\r\npackage v1\n", true},
		{"/*\nCopyright 2024.\n*/\n\n// Code generated by informer-gen. DO NOT EDIT.\n\npackage v1\n", true}, // after a licence's block comment, as client-go's files have it
		{"package v1\n\n// Code generated by x. DO NOT EDIT.\n", false},
		{"// Code generated by x. DO NOT EDIT\n\npackage v1\n", false},
		{"// Code generated by hand; edit freely.\npackage v1\n", false},
		{"", false},
	} {
		if got := Generated([]byte(tc.src)); got != tc.want {
			t.Errorf("Generated(%q) = %v, want %v", tc.src, got, tc.want)
		}
	}
}

// TestGoLinksOutOfSite: a use of a field or variable links to its
// declaration in the site, not to one on GitHub; a type or function links
// either way.
func TestGoLinksOutOfSite(t *testing.T) {
	src := "package p\n\nvar a = b.F + c.G(d)\n"
	in, out := fact.Location{Path: "in.go", StartLine: 1}, fact.Location{Path: "out.go", StartLine: 1}
	at := func(name, kind string, target fact.Location) fact.Ident {
		return fact.Ident{Off: strings.Index(src, "= ") + strings.Index(src[strings.Index(src, "= "):], name), Len: len(name), Kind: kind, Target: target}
	}
	idents := []fact.Ident{at("b", "var", in), at("F", "field", out), at("c", "pkg", out), at("G", "func", out), at("d", "var", out)}
	got := lineStrings(Go([]byte(src), idents, Options{Link: func(l fact.Location) string {
		if l == in {
			return "in.go.html#L1"
		}
		return "https://github.com/o/r/blob/v1/out.go#L1"
	}}))[2]
	want := `<b>var</b> a = <a href=in.go.html#L1>b</a>.F + <a class=p href=https://github.com/o/r/blob/v1/out.go#L1>c</a>.<a class=f href=https://github.com/o/r/blob/v1/out.go#L1>G</a>(d)`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// TestGoPackageUseCompact: a package name whose link stays on the page,
// to its import's line, is written as <s> with no href, and that import's
// path carries its name (data-p) for the page's script; a package whose
// import is on another page keeps its link; an ident table whose text is
// not an identifier marks nothing.
func TestGoPackageUseCompact(t *testing.T) {
	src := "package p\n\nimport (\n\tapps \"k8s.io/api/apps/v1\"\n\t\"fmt\"\n)\n\nvar a = apps.X + fmt.Y + apps.Z\n"
	use := func(name string, n int, target fact.Location) fact.Ident {
		off := 0
		for range n {
			off += strings.Index(src[off+1:], name+".") + 1
		}
		return fact.Ident{Off: off, Len: len(name), Kind: "pkg", Target: target}
	}
	appsLine, fmtLine := fact.Location{Path: "p.go", StartLine: 4}, fact.Location{Path: "other.go", StartLine: 5}
	idents := []fact.Ident{use("apps", 1, appsLine), use("fmt", 1, fmtLine), use("apps", 2, appsLine)}
	link := func(l fact.Location) string {
		if l.Path == "p.go" {
			return "#L" + strconv.Itoa(l.StartLine)
		}
		return "other.go.html#L5"
	}
	lines := lineStrings(Go([]byte(src), idents, Options{Link: link}))
	if want := "\tapps <kbd data-p=apps>\"k8s.io/api/apps/v1\"</kbd>"; lines[3] != want {
		t.Errorf("import line:\n got %s\nwant %s", lines[3], want)
	}
	if want := "<b>var</b> a = <s>apps</s>.X + <a class=p href=other.go.html#L5>fmt</a>.Y + <s>apps</s>.Z"; lines[7] != want {
		t.Errorf("uses:\n got %s\nwant %s", lines[7], want)
	}
	// A stale table: the ident's text is not an identifier.
	bad := []fact.Ident{{Off: strings.Index(src, "apps."), Len: 5, Kind: "pkg", Target: appsLine}}
	if got := strings.Join(lineStrings(Go([]byte(src), bad, Options{Link: link})), "\n"); strings.Contains(got, "data-p") || strings.Contains(got, "<s>") {
		t.Errorf("a stale ident was marked:\n%s", got)
	}
}
