package codehtml

import (
	"bytes"
	"strings"
	"testing"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"golang.org/x/net/html"
)

// hostileGo is a Go file written to break out of the markup.
const hostileGo = "package p\n" +
	"// </span><script>alert(1)</script> javascript:alert(2) \"quoted\" 'single'\n" +
	"/* <img src=x onerror=alert(3)> */\n" +
	"var s = \"</span><script>alert(4)</script>\"\n" +
	"var r = `</a><a href=\"javascript:alert(5)\">\n<script>alert(6)</script>`\n" +
	"var c = '<'\n" +
	"var x = y // &lt;script&gt; stays escaped text\n" +
	"var z = w\r\nvar q = \"\r\"\n"

func TestHostileGo(t *testing.T) {
	src := []byte(hostileGo)
	y := strings.Index(hostileGo, "y //")
	w := strings.Index(hostileGo, "w\r")
	idents := []fact.Ident{
		{Off: y, Len: 1, Kind: "var", Target: fact.Location{Path: "evil", StartLine: 1}},
		{Off: w, Len: 1, Kind: "var", Target: fact.Location{Path: "quote", StartLine: 1}},
	}
	lines := Go(src, idents, Options{Link: func(l fact.Location) string {
		if l.Path == "evil" {
			return "javascript:alert(7)"
		}
		return `x.html#"><script>alert(8)</script>`
	}})
	checkInert(t, lines)
	all := joinLines(lines)
	if strings.Contains(all, "javascript:alert(7)") {
		t.Errorf("javascript: href written:\n%s", all)
	}
	if !strings.Contains(all, `href="x.html#&#34;&gt;&lt;script&gt;alert(8)&lt;/script&gt;"`) {
		t.Errorf("safe-scheme href not attribute-escaped:\n%s", all)
	}
	if !strings.Contains(all, "&amp;lt;script&amp;gt;") {
		t.Errorf("entity text not re-escaped:\n%s", all)
	}
	// The same as GitHub links in the compact form: only a safe URL's
	// rest, escaped; the unsafe one still no link. (Types: a variable
	// links to GitHub in no form.)
	const base = "https://github.com/o/r/blob/v1/"
	idents[0].Kind, idents[1].Kind = "type", "type"
	lines = Go(src, idents, Options{GitHub: base, Link: func(l fact.Location) string {
		if l.Path == "evil" {
			return base + "\tjavascript:alert(7)"
		}
		return base + `x.go#"><script>alert(8)</script>`
	}})
	checkInert(t, lines)
	all = joinLines(lines)
	if strings.Contains(all, "alert(7)</a>") || !strings.Contains(all, `data-g="x.go#&#34;&gt;&lt;script&gt;alert(8)&lt;/script&gt;"`) {
		t.Errorf("GitHub links not refused or escaped:\n%s", all)
	}
	if n := strings.Count(hostileGo, "\n"); len(lines) != n {
		t.Errorf("%d lines, want %d (a lone CR must not make a line)", len(lines), n)
	}
}

func TestSafeHref(t *testing.T) {
	for href, want := range map[string]bool{
		"":                              false,
		"#L12":                          true,
		"../deployment/sync.go.html#L3": true,
		"sync.go.html":                  true,
		"/abs/path":                     true,
		"?q=1":                          true,
		"https://github.com/kubernetes/kubernetes/blob/v1.36.3/a.go#L1-L2": true,
		"https://":              false,
		"http://example.com":    false,
		"javascript:alert(1)":   false,
		"JavaScript:alert(1)":   false,
		"data:text/html,x":      false,
		"//evil.example":        false,
		"/\\evil.example":       false,
		" javascript:alert(1)":  false,
		"java\tscript:alert(1)": false,
		"a b":                   false,
		"x#a:b":                 true, // a colon after '#' is no scheme
		"vbscript:x":            false,
	} {
		if got := SafeHref(href); got != want {
			t.Errorf("SafeHref(%q) = %v, want %v", href, got, want)
		}
	}
}

func joinLines(lines []Line) string {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(string(l))
		b.WriteByte('\n')
	}
	return b.String()
}

// checkInert parses the output as HTML and fails on any element other than
// the package's own (span, a, and element's b, i, kbd, var, dfn), any
// attribute other than class and href, and
// any href that is not safe. Each line must be balanced on its own.
func checkInert(t *testing.T, lines []Line) {
	t.Helper()
	for i, l := range lines {
		checkBalanced(t, string(l))
		z := html.NewTokenizer(bytes.NewReader([]byte(l)))
		for {
			tt := z.Next()
			if tt == html.ErrorToken {
				break
			}
			tok := z.Token()
			switch tt {
			case html.StartTagToken, html.EndTagToken, html.SelfClosingTagToken:
				switch tok.Data {
				case "span", "a", "b", "i", "dfn", "kbd", "var":
				default:
					t.Errorf("line %d: element <%s> in %q", i+1, tok.Data, l)
				}
				for _, a := range tok.Attr {
					switch a.Key {
					case "class":
					case "href":
						if !SafeHref(a.Val) {
							t.Errorf("line %d: unsafe href %q", i+1, a.Val)
						}
					case "data-g": // the rest of an https URL after the page's base
						if !SafeHref("https://github.com/" + a.Val) {
							t.Errorf("line %d: unsafe data-g %q", i+1, a.Val)
						}
					default:
						t.Errorf("line %d: attribute %s in %q", i+1, a.Key, l)
					}
				}
			case html.CommentToken, html.DoctypeToken:
				t.Errorf("line %d: markup %q", i+1, tok.String())
			}
		}
	}
}
