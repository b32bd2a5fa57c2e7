package prosehtml

import (
	"html/template"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"golang.org/x/tools/txtar"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/internal/testsupport/fakeresolver"
	"github.com/kubewalk/kubewalk/internal/testsupport/safehtml"
	"github.com/kubewalk/kubewalk/walkthrough"
)

// FuzzHTML renders whatever arbitrary Markdown loads as (a resolver that
// knows every name), with link rules that return hostile URLs: it must
// never panic, and the HTML holds only goldmark's markup and this
// package's, with no script URL.
func FuzzHTML(f *testing.F) {
	files, _ := filepath.Glob("../../../walkthrough/testdata/*.txtar")
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			f.Fatal(err)
		}
		for _, af := range ar.Files {
			if strings.HasSuffix(af.Name, ".md") && !strings.Contains(af.Name, ".ko.") {
				f.Add(af.Data)
			}
		}
	}
	f.Add([]byte(fm + "\n## S\n\n[a](go:k8s.io/x/p.F \"t\") [w](b.md#x) <https://e.x/\"> ~~d~~\n\n| a |\n|---|\n| `b` |\n\n```sh\n</code>\n```\n"))
	opts := testOptions(&fakeresolver.Resolver{Any: true, Found: &fact.Facts{}})
	links := Links{
		SymbolURL:      func(fact.Resolved) string { return "javascript:alert(1)" },
		Permalink:      func(path string, _, _ int) string { return `"><script>` + path },
		WalkthroughURL: func(id, anchor string) string { return "data:text/html," + id + anchor },
		HighlightCode: func(_ string, code []byte) template.HTML {
			return template.HTML(template.HTMLEscapeString(string(code)))
		},
	}
	r := NewRenderer(links)
	f.Fuzz(func(t *testing.T, src []byte) {
		docs, _ := walkthrough.Load(fstest.MapFS{"f.md": {Data: src}}, ".", "en", opts)
		for _, d := range docs {
			for _, st := range append([]walkthrough.Step{{Segments: d.Intro}}, d.Steps...) {
				for _, seg := range st.Segments {
					if seg.Markdown == nil {
						continue
					}
					h, err := r.HTML(seg.Markdown)
					if err != nil {
						t.Fatal(err)
					}
					safehtml.Markdown.Check(t, string(h))
				}
			}
		}
	})
}
