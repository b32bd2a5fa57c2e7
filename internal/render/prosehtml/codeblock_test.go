package prosehtml

import (
	"fmt"
	"html"
	"html/template"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/internal/testsupport/fakeresolver"
	"github.com/kubewalk/kubewalk/walkthrough"
)

// TestHighlightCode: fenced code reaches Links.HighlightCode as its
// language and text, top level or nested in a list, and what it returns
// is what the page gets; without it the text is escaped.
func TestHighlightCode(t *testing.T) {
	const src = "---\ntitle: T\n---\n\n## One\n\n```yaml\nkind: </code><script>\n```\n\n" +
		"- item\n\n  ```\n  a < b\n  ```\n"
	fsys := fstest.MapFS{"w.md": {Data: []byte(src)}}
	docs, err := walkthrough.Load(fsys, ".", "en", testOptions(&fakeresolver.Resolver{Found: &fact.Facts{}}))
	if err != nil || len(docs) != 1 {
		t.Fatalf("Load: %v, %d docs", err, len(docs))
	}
	links := testLinks()
	html1 := func(links Links) string {
		t.Helper()
		return segmentsHTML(t, docs[0].Steps[0].Segments, links)
	}
	got := html1(links)
	for _, want := range []string{
		`<pre class="code block"><code>kind: &lt;/code&gt;&lt;script&gt;</code></pre>`,
		`<pre class="code block"><code>a &lt; b</code></pre>`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("without HighlightCode, no %s in\n%s", want, got)
		}
	}

	var calls []string
	links.HighlightCode = func(lang string, code []byte) template.HTML {
		calls = append(calls, fmt.Sprintf("%q %q", lang, code))
		return template.HTML("<b>" + html.EscapeString(lang) + "</b>")
	}
	got = html1(links)
	if want := []string{`"yaml" "kind: </code><script>"`, `"" "a < b"`}; fmt.Sprint(calls) != fmt.Sprint(want) {
		t.Errorf("HighlightCode calls %q, want %q", calls, want)
	}
	for _, want := range []string{
		`<pre class="code block"><code><b>yaml</b></code></pre>`,
		`<pre class="code block"><code><b></b></code></pre>`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("with HighlightCode, no %s in\n%s", want, got)
		}
	}
}
