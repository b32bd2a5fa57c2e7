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
	"github.com/kubewalk/kubewalk/internal/testsupport/safehtml"
	"github.com/kubewalk/kubewalk/walkthrough"
)

const fm = "---\ntitle: T\nparticipants: [a, b]\n---\n"

func testOptions(r walkthrough.Resolver) walkthrough.Options {
	return walkthrough.Options{Resolver: r}
}

// testLinks are the link rules the tests render walkthroughs with.
func testLinks() Links {
	return Links{
		SymbolURL: func(r fact.Resolved) string {
			loc := r.Symbol.Decl
			return fmt.Sprintf("../source/%s.html#L%d", loc.Path, loc.StartLine)
		},
		Permalink: func(path string, from, to int) string {
			return fmt.Sprintf("https://github.com/kubernetes/kubernetes/blob/v1.31.0/%s#L%d-L%d", path, from, to)
		},
	}
}

// segmentsHTML is the HTML of segs' Markdown rendered with links.
func segmentsHTML(t *testing.T, segs []walkthrough.Segment, links Links) string {
	t.Helper()
	r := NewRenderer(links)
	var b strings.Builder
	for _, s := range segs {
		if s.Markdown == nil {
			continue
		}
		h, err := r.HTML(s.Markdown)
		if err != nil {
			t.Fatal(err)
		}
		b.WriteString(string(h))
	}
	return b.String()
}

// fSymbol is the one symbol the tests' resolver knows.
var fSymbol = map[string]fakeresolver.Symbol{
	"k8s.io/x/p.F": {Symbol: fact.Symbol{Name: "k8s.io/x/p.F", Kind: "func", Decl: fact.Location{Path: "p/f.go", StartLine: 10, EndLine: 12}},
		Lines: []string{"func F() {", "", "}"}},
}

// TestRefLink: a resolved reference links its source page with its
// lines as title and GitHub beside it; the link text keeps its markup.
func TestRefLink(t *testing.T) {
	fsys := fstest.MapFS{"w.md": {Data: []byte(fm + "\n## S\n\n[*F*](go:k8s.io/x/p.F) and [G](https://pkg.go.dev/k8s.io/x/p#F \"mine\").\n")}}
	docs, err := walkthrough.Load(fsys, ".", "en", testOptions(&fakeresolver.Resolver{Symbols: fSymbol, Found: &fact.Facts{}}))
	if err != nil {
		t.Fatal(err)
	}
	got := segmentsHTML(t, docs[0].Steps[0].Segments, testLinks())
	want := `<p><a class="symref" href="../source/p/f.go.html#L10" title="p/f.go:10-12"><em>F</em></a>` +
		`<a class="symref-gh" href="https://github.com/kubernetes/kubernetes/blob/v1.31.0/p/f.go#L10-L12" title="GitHub" aria-label="GitHub">↗</a> and ` +
		`<a class="symref" href="../source/p/f.go.html#L10" title="mine">G</a>` +
		`<a class="symref-gh" href="https://github.com/kubernetes/kubernetes/blob/v1.31.0/p/f.go#L10-L12" title="GitHub" aria-label="GitHub">↗</a>.</p>` + "\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	// Without link rules, the symbol's documentation.
	if got := segmentsHTML(t, docs[0].Steps[0].Segments, Links{}); !strings.Contains(got, `<a class="symref" href="https://pkg.go.dev/k8s.io/x/p#F" title="p/f.go:10-12"><em>F</em></a> and`) {
		t.Errorf("without Links: %s", got)
	}
}

// TestWalkthroughURL: a link to another walkthrough goes where
// Links.WalkthroughURL says, or stays as written without it.
func TestWalkthroughURL(t *testing.T) {
	fsys := fstest.MapFS{
		"a.md":    {Data: []byte(fm + "\n## First step\n\nSee [the watch](b.md#step-1-watching \"t\") and [all of b](b.md).\n")},
		"b.md":    {Data: []byte(fm + "\n## Watching\n\nBack to [a](a.md#step-1-first-step).\n")},
		"b.ko.md": {Data: []byte(fm + "\n## 감시\n\n[a로](a.ko.md#step-1-first-step).\n")},
	}
	opts := testOptions(&fakeresolver.Resolver{Found: &fact.Facts{}})
	docs, err := walkthrough.Load(fsys, ".", "ko", opts)
	if err != nil {
		t.Fatal(err)
	}
	links := testLinks()
	links.WalkthroughURL = func(id, anchor string) string { return "page-" + id + ".html#" + anchor }
	got := segmentsHTML(t, docs[0].Steps[0].Segments, links) + segmentsHTML(t, docs[1].Steps[0].Segments, links)
	for _, want := range []string{`<a href="page-b.html#step-1-watching" title="t">the watch</a>`, `<a href="page-b.html#">all of b</a>`, `<a href="page-a.html#step-1-first-step">a로</a>`} {
		if !strings.Contains(got, want) {
			t.Errorf("no %s in\n%s", want, got)
		}
	}
	got = segmentsHTML(t, docs[0].Steps[0].Segments, testLinks())
	if want := `<a href="b.md#step-1-watching" title="t">the watch</a> and <a href="b.md">all of b</a>`; !strings.Contains(got, want) {
		t.Errorf("without WalkthroughURL: no %s in\n%s", want, got)
	}
}

// TestHostile: raw HTML, script URLs, a quote in a title or a symbol's
// path, markup in a fenced block's info string and text, and what the
// link rules return come out as escaped text or an empty href, whatever
// the rules.
func TestHostile(t *testing.T) {
	src := fm + `
<script>alert(1)</script>

## S <img src=x onerror=alert(1)>

[x](javascript:alert(1)) <javascript:alert(2)> [y](<go:k8s.io/x/p.F> "\" onclick=\"alert(3)")
[z](JaVaScRiPt:alert(1)) [e](&#106;avascript:alert(1)) ![i](javascript:alert(1)) [w](b.md)

- item

  ` + "```js\" onload=\"x\n  </code></pre><script>alert(4)</script>\n  ```\n"
	fsys := fstest.MapFS{"w.md": {Data: []byte(src)}, "b.md": {Data: []byte(fm + "\n## B\n\nb.\n")}}
	syms := map[string]fakeresolver.Symbol{"k8s.io/x/p.F": {Symbol: fact.Symbol{Name: "k8s.io/x/p.F", Decl: fact.Location{Path: `p/f".go`, StartLine: 1, EndLine: 2}}}}
	docs, err := walkthrough.Load(fsys, ".", "en", testOptions(&fakeresolver.Resolver{Symbols: syms, Found: &fact.Facts{}}))
	if err != nil || len(docs) != 2 {
		t.Fatalf("Load: %v, %d docs", err, len(docs))
	}
	hostile := Links{
		SymbolURL:      func(fact.Resolved) string { return `javascript:alert(5)` },
		Permalink:      func(string, int, int) string { return `"><script>alert(6)</script>` },
		WalkthroughURL: func(id, anchor string) string { return `vbscript:` + anchor },
	}
	for _, links := range []Links{testLinks(), hostile, {}} {
		var out strings.Builder
		for _, d := range docs {
			for _, st := range d.Steps {
				out.WriteString(segmentsHTML(t, st.Segments, links))
			}
		}
		safehtml.Markdown.Check(t, out.String())
		for _, want := range []string{`>w</a>`, `<a href="">x</a>`, `<a href="">z</a>`, `<a href="">e</a>`, `<img src="" alt="i">`,
			`&lt;/code&gt;&lt;/pre&gt;&lt;script&gt;`, `title="&quot; onclick=&quot;alert(3)"`} {
			if !strings.Contains(out.String(), want) {
				t.Errorf("missing %q in\n%s", want, out.String())
			}
		}
	}
}

// TestExtensions: what the Markdown of walkthroughs may hold beyond
// CommonMark (walkthrough parses GitHub tables, strikethrough and bare
// URLs) renders as GitHub shows it; goldmark would leave out the markup
// of a node whose renderer is missing.
func TestExtensions(t *testing.T) {
	src := fm + "\n## S\n\n| a | b |\n|---|:-:|\n| ~~x~~ | https://example.com/p |\n"
	docs, err := walkthrough.Load(fstest.MapFS{"w.md": {Data: []byte(src)}}, ".", "en", testOptions(&fakeresolver.Resolver{Found: &fact.Facts{}}))
	if err != nil {
		t.Fatal(err)
	}
	got := segmentsHTML(t, docs[0].Steps[0].Segments, testLinks())
	for _, want := range []string{"<table>\n<thead>\n<tr>\n<th>a</th>\n<th style=\"text-align:center\">b</th>", "<td><del>x</del></td>",
		`<td style="text-align:center"><a href="https://example.com/p">https://example.com/p</a></td>`} {
		if !strings.Contains(got, want) {
			t.Errorf("no %s in\n%s", want, got)
		}
	}
}

// TestRefTarget: Links.RefTarget decides an inline reference's href,
// title and permalink, and marks both links; without it, a reference
// whose link is its permalink has no second link.
func TestRefTarget(t *testing.T) {
	fsys := fstest.MapFS{"w.md": {Data: []byte(fm + "\n## S\n\n[F](go:k8s.io/x/p.F) runs.\n")}}
	docs, err := walkthrough.LoadAll(fsys, ".", testOptions(&fakeresolver.Resolver{Symbols: fSymbol, Found: &fact.Facts{}}))
	if err != nil {
		t.Fatal(err)
	}
	segs := docs[0].Steps[0].Segments
	var asked fact.Resolved
	got := segmentsHTML(t, segs, Links{RefTarget: func(r fact.Resolved) RefTarget {
		asked = r
		return RefTarget{Href: "../src/p/f.go.html?rel=v1#L9-L11", Title: "p/f.go:9-11", Permalink: "https://gh/p/f.go#L10-L12", Mark: "10-12"}
	}})
	want := `<a class="symref" href="../src/p/f.go.html?rel=v1#L9-L11" title="p/f.go:9-11" data-l="10-12">F</a>` +
		`<a class="symref-gh" href="https://gh/p/f.go#L10-L12" data-l="10-12" title="GitHub" aria-label="GitHub">↗</a> runs.`
	if !strings.Contains(got, want) {
		t.Errorf("with RefTarget:\n got %s\nwant %s", got, want)
	}
	if asked.Symbol.Name != "k8s.io/x/p.F" {
		t.Errorf("RefTarget asked for %q", asked.Symbol.Name)
	}
	plain := segmentsHTML(t, segs, Links{Permalink: func(path string, from, to int) string { return "https://gh/" + path }})
	if strings.Contains(plain, "symref-gh") || strings.Contains(plain, "data-l") || !strings.Contains(plain, `href="https://gh/p/f.go" title="p/f.go:10-12"`) {
		t.Errorf("without SymbolURL, the permalink is the link, once: %s", plain)
	}
}

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
