package pageshare

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// regexpRelink is relink as it was when it ran QuotedURL, the pattern
// nextQuotedURL reads: what the tests and FuzzRelink hold relink to.
func (rp *relPages) regexpRelink(f string, data []byte) []byte {
	return QuotedURL.ReplaceAllFunc(data, func(m []byte) []byte {
		sm := QuotedURL.FindSubmatch(m)
		raw := html.UnescapeString(string(sm[2]))
		v, _, ok := rp.move(f, f, raw, "")
		if !ok {
			return m
		}
		return []byte(string(sm[1]) + `="` + html.EscapeString(v) + `"`)
	})
}

// scanQuotedURLs is every match nextQuotedURL finds in data, as
// FindAllSubmatchIndex gives QuotedURL's.
func scanQuotedURLs(data []byte) [][]int {
	var out [][]int
	for from := 0; ; {
		name, eq, end := nextQuotedURL(data, from)
		if name < 0 {
			return out
		}
		out = append(out, []int{name, end, name, eq, eq + 2, end - 1})
		from = end
	}
}

// relinkPages is a site of two releases sharing handlers.html, whose
// links relink moves; relinkPage is a page of it.
var relinkPages = &relPages{
	to:  map[string][]string{"en/handlers.html": {"v2", "v1"}},
	all: []string{"v2", "v1"},
	at:  map[string]map[string]string{"en/handlers.html": {"v2": "en/handlers.html", "v1": "en/handlers.v1.html"}},
}

const relinkPage = "v1/en/search.html"

// quotedURLCases are pages at the edges of QuotedURL, and links relink
// moves or leaves.
var quotedURLCases = []string{
	``,
	`href="x"`,
	`href=""`,
	`href="`,
	`href="x`,
	`href=x`,
	`href ="x"`,
	`<a href="handlers.html#h">h</a>`,
	`<a href="handlers.html?x=1&amp;y=2#h">h</a>`,
	`<a href='handlers.html'>h</a>`,
	`<a href="handlers.html">h</a><a href="../../v2/en/handlers.html">h2</a>`,
	`<a href="https://example.com/">x</a>`,
	`<form action="handlers.html"></form>`,
	`<a xhref="handlers.html">`,
	`<a data-href="handlers.html">`,
	`<a _href="handlers.html">`,
	`<a 1href="handlers.html">`,
	`<a éhref="handlers.html">`,
	"<a \xffhref=\"handlers.html\">",
	`<a Href="handlers.html">`,
	`<a hreff="handlers.html">`,
	`<a redaction="handlers.html">`,
	`<a -action="handlers.html">`,
	`href="href="handlers.html"`,
	`href="a"href="handlers.html"`,
	`href="a" href="handlers.html"`,
	`action="="href="handlers.html"`,
	"href=\"a\nb\" href=\"handlers.html\"",
	"href=\"\xff\" href=\"handlers.html\"",
	`href="a href="b"`,
	`="="href=""`,
	`<a href="handlers.html">h</a> href="unclosed`,
}

// TestQuotedURLScan: nextQuotedURL finds what QuotedURL matches, and
// relink writes what it wrote when it ran the regular expression.
func TestQuotedURLScan(t *testing.T) {
	for _, c := range quotedURLCases {
		checkQuotedURLs(t, c)
	}
	got := string(relinkPages.relink(relinkPage, []byte(`<a href="handlers.html#h">h</a> <a href="../events.html">e</a>`)))
	if want := `<a href="../../en/handlers.v1.html?rel=v1#h">h</a> <a href="../events.html">e</a>`; got != want {
		t.Errorf("relink: %s, want %s", got, want)
	}
	data := []byte(`<a href="../events.html">e</a>`)
	if got := relinkPages.relink(relinkPage, data); &got[0] != &data[0] {
		t.Error("relink copied a page none of whose links move")
	}
}

// checkQuotedURLs fails t unless nextQuotedURL and relink do with page
// what QuotedURL did.
func checkQuotedURLs(t *testing.T, page string) {
	t.Helper()
	data := []byte(page)
	if got, want := scanQuotedURLs(data), QuotedURL.FindAllSubmatchIndex(data, -1); !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("in %q: nextQuotedURL found %v, the regexp %v", page, got, want)
	}
	if got, want := relinkPages.relink(relinkPage, data), relinkPages.regexpRelink(relinkPage, data); !bytes.Equal(got, want) {
		t.Errorf("relink(%q) = %q, with the regexp %q", page, got, want)
	}
}

func FuzzRelink(f *testing.F) {
	for _, c := range quotedURLCases {
		f.Add(c)
		f.Add(strings.ReplaceAll(c, "href", "action"))
	}
	f.Fuzz(checkQuotedURLs)
}

// BenchmarkRelink relinks a page of many links, and BenchmarkRelinkRegexp
// as relink did with the regular expression, for comparison.
func BenchmarkRelink(b *testing.B) {
	data := benchRelinkPage()
	for b.Loop() {
		relinkPages.relink(relinkPage, data)
	}
}

func BenchmarkRelinkRegexp(b *testing.B) {
	data := benchRelinkPage()
	for b.Loop() {
		relinkPages.regexpRelink(relinkPage, data)
	}
}

func benchRelinkPage() []byte {
	var sb strings.Builder
	for i := range 2000 {
		sb.WriteString(`<li class="x"><a href="../events.html#e-` + strings.Repeat("x", i%7) + `">event</a> text text text`)
		if i%50 == 0 {
			sb.WriteString(` <a href="handlers.html#h">h</a>`)
		}
		sb.WriteString("</li>\n")
	}
	return []byte(sb.String())
}
