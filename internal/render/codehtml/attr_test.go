package codehtml

import (
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
