package walkthrough

import (
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/internal/testsupport/fakeresolver"
)

// safeHTML checks that s holds only the tags and attributes goldmark and
// this package write, and no script URL: tokenised, so an "onclick=" that
// is escaped text inside an attribute value is fine and a real one is not.
func safeHTML(t *testing.T, s string) {
	t.Helper()
	tags := map[string]bool{"p": true, "a": true, "em": true, "strong": true, "code": true, "pre": true, "span": true,
		"h3": true, "h4": true, "h5": true, "h6": true, "ul": true, "ol": true, "li": true, "blockquote": true,
		"table": true, "thead": true, "tbody": true, "tr": true, "th": true, "td": true, "img": true, "br": true,
		"hr": true, "del": true}
	attrs := map[string]bool{"href": true, "title": true, "class": true, "id": true, "alt": true, "src": true, "aria-label": true, "start": true}
	z := html.NewTokenizer(strings.NewReader(s))
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			return
		case html.StartTagToken, html.SelfClosingTagToken:
			tok := z.Token()
			if !tags[tok.Data] {
				t.Errorf("tag <%s> in output", tok.Data)
			}
			for _, a := range tok.Attr {
				if !attrs[a.Key] {
					t.Errorf("attribute %s=%q on <%s>", a.Key, a.Val, tok.Data)
				}
				v := strings.ToLower(strings.TrimSpace(a.Val))
				if (a.Key == "href" || a.Key == "src") && (strings.HasPrefix(v, "javascript:") || strings.HasPrefix(v, "vbscript:") || strings.HasPrefix(v, "data:")) {
					t.Errorf("%s=%q on <%s>", a.Key, a.Val, tok.Data)
				}
			}
		}
	}
}

func TestHostile(t *testing.T) {
	src := `---
title: x
participants: [a, b]
---

<script>alert(1)</script>

## S <img src=x onerror=alert(1)> {onclick="alert(1)" style="color:red" from=a to=b}

### Sub {#ok}

#### Sub {onmouseover="alert(1)" class="x"}

[x](javascript:alert(1)) <javascript:alert(2)> [y](<go:k8s.io/x/p.F> "\" onclick=\"alert(3)")
[z](JaVaScRiPt:alert(1)) [e](&#106;avascript:alert(1)) ![i](javascript:alert(1))

` + "```js\" onload=\"x\n</code></pre><script>alert(4)</script>\n```\n"
	s, errs := parse("evil.md", []byte(src), nil)
	var msgs []string
	for _, e := range errs {
		msgs = append(msgs, e.Error())
	}
	for _, want := range []string{`evil.md:8:35: unknown heading attribute "onclick"`, `evil.md:8:35: unknown heading attribute "style"`,
		`evil.md:12:10: unknown heading attribute "onmouseover"`, `evil.md:12:10: unknown heading attribute "class"`} {
		if !strings.Contains(strings.Join(msgs, "\n"), want) {
			t.Errorf("missing error %s in\n%s", want, strings.Join(msgs, "\n"))
		}
	}
	res := &fakeresolver.Resolver{Symbols: map[string]fakeresolver.Symbol{"k8s.io/x/p.F": {Symbol: fact.Symbol{Name: "k8s.io/x/p.F", Decl: fact.Location{Path: "p/f.go", StartLine: 1, EndLine: 2}}}}}
	opts := testOptions(res)
	// Rendered despite the errors, to see what would come out.
	doc, berrs := build(s, &opts, nil)
	if len(berrs) > 0 {
		t.Fatal(berrs)
	}
	var out strings.Builder
	for _, st := range append([]Step{{Segments: doc.Intro}}, doc.Steps...) {
		out.WriteString(segmentsHTML(t, st.Segments, testLinks()))
	}
	safeHTML(t, out.String())
	for _, want := range []string{`<a href="">x</a>`, `<a href="">z</a>`, `<a href="">e</a>`, `<img src="" alt="i">`,
		`&lt;/code&gt;&lt;/pre&gt;&lt;script&gt;`, `<h3 id="ok">Sub</h3>`, `<h4>Sub</h4>`, `title="&quot; onclick=&quot;alert(3)"`} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("missing %q in\n%s", want, out.String())
		}
	}
	if t.Failed() {
		t.Logf("output:\n%s", out.String())
	}
}

// TestHostileGolden checks testdata/hostile.txtar's rendered HTML with the
// same rules.
func TestHostileGolden(t *testing.T) {
	docs, err := Load(mapFS(t, "testdata/hostile.txtar"), "walkthroughs", "en", testOptions(resolverOf(t, "testdata/hostile.txtar")))
	if err != nil || len(docs) != 1 {
		t.Fatal(docs, err)
	}
	for _, st := range append([]Step{{Segments: docs[0].Intro}}, docs[0].Steps...) {
		for _, seg := range st.Segments {
			safeHTML(t, segmentsHTML(t, []Segment{seg}, testLinks()))
		}
	}
}
