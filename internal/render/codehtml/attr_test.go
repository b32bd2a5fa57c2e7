package codehtml

import (
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
		if got := HrefValue(tc.href); "href="+got != tc.attr {
			t.Errorf("HrefValue(%q) = %s, want %s", tc.href, got, strings.TrimPrefix(tc.attr, "href="))
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
		{Off: strings.Index(src, "b +"), Len: 1, Kind: "var", Target: fact.Location{Path: "b.go", StartLine: 1}},
		{Off: strings.Index(src, "c("), Len: 1, Kind: "func", Target: fact.Location{Path: "c.go", StartLine: 2}},
	}
	l := string(Go([]byte(src), idents, Options{Link: func(loc fact.Location) string {
		if loc.Path == "b.go" {
			return "#L1"
		}
		return "c.go.html?x=1&y#L2"
	}})[2])
	if diff := cmp.Diff([]string{"#L1", "c.go.html?x=1&amp;y#L2"}, Hrefs(l)); diff != "" {
		t.Errorf("Hrefs(%s) (-want +got):\n%s", l, diff)
	}
	got := ReplaceHrefs(l, func(v string) (string, bool) {
		if v == "#L1" {
			return HrefValue("../q/b.go.html#L1"), true
		}
		return "", false
	})
	want := strings.Replace(l, `href=#L1>`, `href=../q/b.go.html#L1>`, 1)
	if got != want || got == l {
		t.Errorf("ReplaceHrefs:\n got %s\nwant %s", got, want)
	}
	got = ReplaceHrefs(l, func(v string) (string, bool) { return `""`, true })
	want = strings.Replace(strings.Replace(l, `href=#L1>`, `href="">`, 1), `href="c.go.html?x=1&amp;y#L2"`, `href=""`, 1)
	if got != want {
		t.Errorf("ReplaceHrefs:\n got %s\nwant %s", got, want)
	}
	if got := ReplaceHrefs(l, func(string) (string, bool) { return "", false }); got != l {
		t.Errorf("ReplaceHrefs declining every href changed the line:\n%s", got)
	}
}
