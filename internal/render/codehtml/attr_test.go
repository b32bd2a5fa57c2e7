package codehtml

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kubewalk/kubewalk/analyzer/fact"
	"golang.org/x/net/html"
)

// hrefCases are links as Options.Link may return them, and how they are
// written: bare when HTML's unquoted syntax allows, else quoted.
var hrefCases = []struct{ href, attr string }{
	{"#L4", `href=#L4`},
	{"../../x/y.go.html#L3", `href=../../x/y.go.html#L3`},
	{"https://github.com/o/r/blob/v1/a.go#L12", `href=https://github.com/o/r/blob/v1/a.go#L12`},
	{"dir/", `href=dir/`}, // the solidus before '>' is the value's, not a self-closing tag's
	{"x.html?a=1", `href="x.html?a=1"`},
	{"x.html#a`b", "href=\"x.html#a`b\""},
	{"x.html?a&b", `href="x.html?a&amp;b"`},
	{"x'y.html", `href="x&#39;y.html"`},
	{`x"><script>.html`, `href="x&#34;&gt;&lt;script&gt;.html"`},
}

// TestHrefQuoting renders a link to each of hrefCases and reads it back
// with an HTML parser: written as hrefCases says, and the same URL.
func TestHrefQuoting(t *testing.T) {
	for _, tc := range hrefCases {
		src := "package p\n\nvar a = b\n"
		idents := []fact.Ident{{Off: strings.Index(src, "b\n"), Len: 1, Kind: "type", Target: fact.Location{Path: "b.go", StartLine: 1}}}
		l := string(Go([]byte(src), idents, Options{Link: func(fact.Location) string { return tc.href }})[2])
		if want := `<b>var</b> a = <a class=t ` + tc.attr + `>b</a>`; l != want {
			t.Errorf("link to %q:\n got %s\nwant %s", tc.href, l, want)
		}
		if got := attrValue(tc.href); "href="+got != tc.attr {
			t.Errorf("attrValue(%q) = %s, want %s", tc.href, got, strings.TrimPrefix(tc.attr, "href="))
		}
		z := html.NewTokenizer(strings.NewReader(l))
		for tt := z.Next(); tt != html.ErrorToken; tt = z.Next() {
			tok := z.Token()
			if tok.Data != "a" || tt == html.EndTagToken {
				continue
			}
			if tt != html.StartTagToken {
				t.Errorf("%s: %v, want a start tag", l, tt)
			}
			if len(tok.Attr) != 2 || tok.Attr[1].Key != "href" || tok.Attr[1].Val != tc.href {
				t.Errorf("%s parses to %v, want href %q", l, tok.Attr, tc.href)
			}
		}
		checkInert(t, []Line{Line(l)})
	}
}

// TestHrefs finds and replaces the links' hrefs of a line, and only
// those: text that looks like an href (a string, a comment) is text.
func TestHrefs(t *testing.T) {
	src := "package p\n\nvar a = b + c(\"<a href=x>\", `href=\"@1/y.go\"`) // <a href=z>\n"
	idents := []fact.Ident{
		{Off: strings.Index(src, "b +"), Len: 1, Kind: "const", Target: fact.Location{Path: "b.go", StartLine: 1}},
		{Off: strings.Index(src, "c("), Len: 1, Kind: "func", Target: fact.Location{Path: "c.go", StartLine: 2}},
	}
	l := string(Go([]byte(src), idents, Options{Link: func(loc fact.Location) string {
		if loc.Path == "b.go" {
			return "#L1"
		}
		return "c.go.html?x=1&y#L2"
	}})[2])
	if diff := cmp.Diff([]Href{{Value: "#L1"}, {Value: "c.go.html?x=1&amp;y#L2"}}, Hrefs(l)); diff != "" {
		t.Errorf("Hrefs(%s) (-want +got):\n%s", l, diff)
	}
	got := ReplaceHrefs(l, func(v Href) (Href, bool) {
		if v.Value == "#L1" {
			return Href{Value: "../q/b.go.html#L1"}, true
		}
		return Href{}, false
	})
	want := strings.Replace(l, `href=#L1>`, `href=../q/b.go.html#L1>`, 1)
	if got != want || got == l {
		t.Errorf("ReplaceHrefs:\n got %s\nwant %s", got, want)
	}
	got = ReplaceHrefs(l, func(Href) (Href, bool) { return Href{}, true })
	want = strings.Replace(strings.Replace(l, `href=#L1>`, `href="">`, 1), `href="c.go.html?x=1&amp;y#L2"`, `href=""`, 1)
	if got != want {
		t.Errorf("ReplaceHrefs:\n got %s\nwant %s", got, want)
	}
	if got := ReplaceHrefs(l, func(Href) (Href, bool) { return Href{}, false }); got != l {
		t.Errorf("ReplaceHrefs declining every href changed the line:\n%s", got)
	}
}

// TestGitHubLinks: with Options.GitHub, a link to a URL under that base
// is written without an href, the rest of the URL in data-g (escaped and
// quoted as an href would be), and any other link keeps its href;
// Hrefs reads both, and ReplaceHrefs turns one form into the other.
func TestGitHubLinks(t *testing.T) {
	const base = "https://github.com/o/r/blob/v1/"
	src := "package p\n\nvar a = b(c, d, e, f, g)\n"
	idents := []fact.Ident{
		{Off: strings.Index(src, "b("), Len: 1, Kind: "func", Target: fact.Location{Path: "out.go", StartLine: 30}},
		{Off: strings.Index(src, "c,"), Len: 1, Kind: "type", Target: fact.Location{Path: "in.go", StartLine: 2}},
		{Off: strings.Index(src, "d,"), Len: 1, Kind: "const", Target: fact.Location{Path: "o'dd.go", StartLine: 4}},
		{Off: strings.Index(src, "e,"), Len: 1, Kind: "var", Target: fact.Location{Path: "out.go", StartLine: 9}},
		{Off: strings.Index(src, "f,"), Len: 1, Kind: "type", Target: fact.Location{Path: "base", StartLine: 0}},
		{Off: strings.Index(src, "g)"), Len: 1, Kind: "type", Target: fact.Location{Path: "staging/src/k8s.io/api/t.go", StartLine: 7}},
	}
	link := func(l fact.Location) string {
		switch l.Path {
		case "in.go":
			return "in.go.html#L2"
		case "base":
			return base // the base alone: no rest to name
		}
		return base + l.Path + "#L" + strconv.Itoa(l.StartLine)
	}
	l := string(Go([]byte(src), idents, Options{Link: link, GitHub: base})[2])
	// e, a variable declared outside the site, gets no link (linker.use).
	want := `<b>var</b> a = <a class=f data-g=out.go#L30>b</a>(<a class=t href=in.go.html#L2>c</a>, <a class=o data-g="o&#39;dd.go#L4">d</a>, e, <a class=t href=` + base + `>f</a>, <a class=t data-g=~api/t.go#L7>g</a>)`
	if l != want {
		t.Fatalf("GitHub links:\n got %s\nwant %s", l, want)
	}
	checkInert(t, []Line{Line(l)})
	wantHrefs := []Href{{Value: "out.go#L30", GitHub: true}, {Value: "in.go.html#L2"}, {Value: "o&#39;dd.go#L4", GitHub: true}, {Value: base}, {Value: "~api/t.go#L7", GitHub: true}}
	if diff := cmp.Diff(wantHrefs, Hrefs(l)); diff != "" {
		t.Errorf("Hrefs (-want +got):\n%s", diff)
	}
	// Without the base the same links are hrefs, whole.
	if plain := string(Go([]byte(src), idents, Options{Link: link})[2]); !strings.Contains(plain, `<a class=f href=`+base+`out.go#L30>b</a>`) || strings.Contains(plain, "data-g") {
		t.Errorf("without Options.GitHub: %s", plain)
	}
	swapped := ReplaceHrefs(l, func(h Href) (Href, bool) {
		if h.GitHub {
			return Href{Value: "../x.go.html#L1"}, true
		}
		return Href{Value: "y.go#L3", GitHub: true}, h.Value == "in.go.html#L2"
	})
	if want := `<b>var</b> a = <a class=f href=../x.go.html#L1>b</a>(<a class=t data-g=y.go#L3>c</a>, <a class=o href=../x.go.html#L1>d</a>, e, <a class=t href=` + base + `>f</a>, <a class=t href=../x.go.html#L1>g</a>)`; swapped != want {
		t.Errorf("ReplaceHrefs:\n got %s\nwant %s", swapped, want)
	}
}

// TestCompactGitHub: a GitHub link's data-g writes the staging modules'
// directory as "~", and GitHubRest gives every rest back, one that starts
// with "~" itself included.
func TestCompactGitHub(t *testing.T) {
	for _, c := range []struct{ rest, g string }{
		{"staging/src/k8s.io/api/core/v1/types.go#L30", "~api/core/v1/types.go#L30"},
		{"pkg/controller/deployment/sync.go#L141-L300", "pkg/controller/deployment/sync.go#L141-L300"},
		{"staging/src/k8s.io/", "~"},
		{"~odd/x.go#L1", "%7Eodd/x.go#L1"},
		{"vendor/staging/src/k8s.io/x.go", "vendor/staging/src/k8s.io/x.go"},
		{"", ""},
	} {
		if g := CompactGitHub(c.rest); g != c.g {
			t.Errorf("CompactGitHub(%q) = %q, want %q", c.rest, g, c.g)
		}
		if rest := GitHubRest(c.g); rest != c.rest && !(strings.HasPrefix(c.rest, "~") && rest == c.g) {
			t.Errorf("GitHubRest(%q) = %q, want %q", c.g, rest, c.rest)
		}
	}
}

// hrefRE is the shape of a link as lineWriter.link writes it, as a
// regular expression: its attribute (group 1, href or data-g), and the
// value quoted (group 2) or bare (group 3). Hrefs and ReplaceHrefs scan
// for that shape without it; regexpHrefs and regexpReplaceHrefs, what
// they were with it, are what the tests and the fuzz test hold them to.
var hrefRE = regexp.MustCompile(`<a (?:class=[a-z]+ )?(href|data-g)=(?:"([^"]*)"|([^\t\n\f\r "'=<>` + "`" + `]+))`)

func regexpHrefs(h string) []Href {
	var out []Href
	for _, m := range hrefRE.FindAllStringSubmatchIndex(h, -1) {
		out = append(out, regexpHref(h, m))
	}
	return out
}

func regexpReplaceHrefs(h string, f func(Href) (to Href, ok bool)) string {
	ms := hrefRE.FindAllStringSubmatchIndex(h, -1)
	if ms == nil {
		return h
	}
	var sb strings.Builder
	last := 0
	for _, m := range ms {
		to, ok := f(regexpHref(h, m))
		if !ok {
			continue
		}
		sb.WriteString(h[last:m[2]])
		sb.WriteString(to.attr())
		sb.WriteByte('=')
		sb.WriteString(attrValue(to.Value))
		last = m[1]
	}
	if last == 0 {
		return h
	}
	sb.WriteString(h[last:])
	return sb.String()
}

func regexpHref(h string, m []int) Href {
	v := Href{GitHub: h[m[2]:m[3]] == "data-g"}
	if m[4] >= 0 {
		v.Value = h[m[4]:m[5]]
	} else {
		v.Value = h[m[6]:m[7]]
	}
	return v
}

// scanCases are HTML, most of it not this package's, at the edges of a
// link's shape, and the links in it.
var scanCases = []struct {
	h    string
	want []Href
}{
	{"", nil},
	{"plain text", nil},
	{`<a href=x>y</a>`, []Href{{Value: "x"}}},
	{`<a href=x`, []Href{{Value: "x"}}},
	{`<a class=t href=#L4>b</a>`, []Href{{Value: "#L4"}}},
	{`<a class=abc data-g=~api/t.go#L7>g</a>`, []Href{{Value: "~api/t.go#L7", GitHub: true}}},
	{`<a data-g="o&#39;dd.go#L4">`, []Href{{Value: "o&#39;dd.go#L4", GitHub: true}}},
	{`<a href="">x</a>`, []Href{{Value: ""}}},
	{`<a class=t data-g="">`, []Href{{Value: "", GitHub: true}}},
	{`<a href="a b=c'<>` + "`\t\n" + `">`, []Href{{Value: "a b=c'<>`\t\n"}}},
	{`<a href="x"y">`, []Href{{Value: "x"}}},
	{`<a href=>x</a>`, nil},
	{`<a href=`, nil},
	{`<a data-g=`, nil},
	{`<a href= x>`, nil},
	{`<a href="x`, nil},
	{`<a href="<a href=y>`, []Href{{Value: "y"}}},
	{`<a href=x<a href=y>`, []Href{{Value: "x"}, {Value: "y"}}},
	{`<a href=a=b>`, []Href{{Value: "a"}}},
	{`<a href=a'b`, []Href{{Value: "a"}}},
	{"<a href=a`b", []Href{{Value: "a"}}},
	{"<a href=a\fb", []Href{{Value: "a"}}},
	{"<a href=a\rb", []Href{{Value: "a"}}},
	{"<a href=a b", []Href{{Value: "a"}}},
	{"<a href=\t", nil},
	{"<a href=\n", nil},
	{"<a href=\f", nil},
	{"<a href=\r", nil},
	{`<a href='a'>`, nil},
	{`<a href=a"b">`, []Href{{Value: "a"}}},
	{`<a class=X href=y>`, nil},
	{`<a class=tX href=y>`, nil},
	{`<a class= href=y>`, nil},
	{`<a class=t  href=y>`, nil},
	{`<a class=t class=u href=y>`, nil},
	{`<a class=t title=x href=y>`, nil},
	{`<a class=t`, nil},
	{`<a class=t `, nil},
	{`<a class=`, nil},
	{`<a class=t href=`, nil},
	{`<a title=x href=y>`, nil},
	{`<a hrefx=1 href=y>`, nil},
	{`<a data-gx=1>`, nil},
	{`<a data-h=1>`, nil},
	{`<a HREF=y>`, nil},
	{`<A href=y>`, nil},
	{`<abbr href=y>`, nil},
	{`<a  href=y>`, nil},
	{"<a\thref=y>", nil},
	{`<a`, nil},
	{`<a `, nil},
	{`<a <a href=y>`, []Href{{Value: "y"}}},
	{`<<a href=y>`, []Href{{Value: "y"}}},
	{`<a class=<a href=y>`, []Href{{Value: "y"}}},
	{`<a class=t <a class=u href=y>`, []Href{{Value: "y"}}},
	{`&lt;a href=y&gt;`, nil},
	{"<a href=\xff\xfe>", []Href{{Value: "\xff\xfe"}}},
	{"\xe2<a href=\xe2\x82\xac<a href=\"\xc3\">", []Href{{Value: "\xe2\x82\xac"}, {Value: "\xc3"}}},
	{"<a href=\x00\x7f>", []Href{{Value: "\x00\x7f"}}},
	{`<a class=t href=x>x</a><a class=f data-g=~y#L1>y</a> <a href="z?a=1">z</a>`, []Href{{Value: "x"}, {Value: "~y#L1", GitHub: true}, {Value: "z?a=1"}}},
}

// hrefReplacers are funcs for ReplaceHrefs, each new: one that rewrites
// every link (to the other attribute, and a value that is quoted and
// escaped), one to a bare value, one that declines a link by its value,
// and one that declines every other link it is given, in turn.
func hrefReplacers() map[string]func(Href) (Href, bool) {
	n := 0
	return map[string]func(Href) (Href, bool){
		"quoted": func(v Href) (Href, bool) {
			return Href{Value: "r " + v.Value + `="&'<`, GitHub: !v.GitHub}, true
		},
		"bare": func(v Href) (Href, bool) {
			return Href{Value: "#L" + strconv.Itoa(len(v.Value)), GitHub: v.GitHub}, true
		},
		"byValue": func(v Href) (Href, bool) {
			return Href{Value: "../" + v.Value}, len(v.Value)%2 == 0
		},
		"everyOther": func(v Href) (Href, bool) {
			n++
			return Href{Value: strconv.Itoa(n), GitHub: v.GitHub}, n%2 == 1
		},
		"none": func(Href) (Href, bool) { return Href{Value: "x"}, false },
	}
}

// checkScan holds Hrefs and ReplaceHrefs on h to regexpHrefs and
// regexpReplaceHrefs.
func checkScan(t *testing.T, h string) {
	t.Helper()
	if diff := cmp.Diff(regexpHrefs(h), Hrefs(h)); diff != "" {
		t.Errorf("Hrefs(%q) (-regexp +scanner):\n%s", h, diff)
	}
	want, got := hrefReplacers(), hrefReplacers()
	for name, f := range want {
		if w, g := regexpReplaceHrefs(h, f), ReplaceHrefs(h, got[name]); g != w {
			t.Errorf("ReplaceHrefs(%q, %s):\n got %q\nwant %q", h, name, g, w)
		}
	}
}

// TestHrefsScan: Hrefs finds the links scanCases says, and Hrefs and
// ReplaceHrefs do what the regular expression of a link's shape does.
func TestHrefsScan(t *testing.T) {
	for _, c := range scanCases {
		if diff := cmp.Diff(c.want, Hrefs(c.h)); diff != "" {
			t.Errorf("Hrefs(%q) (-want +got):\n%s", c.h, diff)
		}
		if diff := cmp.Diff(c.want, regexpHrefs(c.h)); diff != "" {
			t.Errorf("regexpHrefs(%q) (-want +got):\n%s", c.h, diff)
		}
		checkScan(t, c.h)
	}
	for _, l := range renderedLines(t) {
		checkScan(t, l)
	}
}

// renderedLines are lines this package renders: hrefCases' links, some
// quoted, in an href and in a GitHub link's data-g; and the first lines
// with links of this package's own files as renderHrefLines renders
// them, each, and all of them joined.
func renderedLines(tb testing.TB) []string {
	var out []string
	for _, tc := range hrefCases {
		src := "package p\n\nvar a = b(c)\n"
		idents := []fact.Ident{
			{Off: strings.Index(src, "b("), Len: 1, Kind: "func", Target: fact.Location{Path: "b.go", StartLine: 1}},
			{Off: strings.Index(src, "c)"), Len: 1, Kind: "type", Target: fact.Location{Path: "c.go", StartLine: 1}},
		}
		const gh = "https://github.com/o/r/blob/v1/"
		link := func(l fact.Location) string {
			if l.Path == "c.go" {
				return gh + tc.href
			}
			return tc.href
		}
		out = append(out, string(Go([]byte(src), idents, Options{Link: link, GitHub: gh})[2]))
	}
	var joined []string
	for _, l := range renderHrefLines(ownFiles(tb)) {
		if strings.Contains(l, "<a ") && len(joined) < 200 {
			joined = append(joined, l)
		}
	}
	out = append(out, joined...)
	return append(out, strings.Join(joined, "\n"))
}

// FuzzHrefs holds Hrefs and ReplaceHrefs to the regular expression of a
// link's shape on any text, starting from scanCases and lines this
// package renders.
func FuzzHrefs(f *testing.F) {
	for _, c := range scanCases {
		f.Add(c.h)
	}
	for _, l := range renderedLines(f) {
		f.Add(l)
	}
	f.Fuzz(checkScan)
}
