package walkthrough

import (
	"strings"
	"testing"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/internal/testsupport/fakeresolver"
	"github.com/kubewalk/kubewalk/internal/testsupport/safehtml"
)

// safeHTML checks that s, Markdown as dump renders it, holds only the
// markup goldmark and dump write: that heading attributes are gone from
// the nodes (steps.go) shows here, as goldmark would write them.
func safeHTML(t *testing.T, s string) {
	t.Helper()
	safehtml.Markdown.With([]string{"ref", "walk"}, []string{"dest", "to"}).Check(t, s)
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
		out.WriteString(segmentsText(t, st.Segments))
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
			safeHTML(t, segmentsText(t, []Segment{seg}))
		}
	}
}
