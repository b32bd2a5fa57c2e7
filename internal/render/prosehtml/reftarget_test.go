package prosehtml

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/internal/testsupport/fakeresolver"
	"github.com/kubewalk/kubewalk/walkthrough"
)

// TestRefTarget: Links.RefTarget decides an inline reference's href,
// title and permalink, and marks both links; without it, a reference
// whose link is its permalink has no second link.
func TestRefTarget(t *testing.T) {
	syms := map[string]fakeresolver.Symbol{
		"k8s.io/x/p.F": {Symbol: fact.Symbol{Name: "k8s.io/x/p.F", Kind: "func", Decl: fact.Location{Path: "p/f.go", StartLine: 10, EndLine: 12}},
			Lines: []string{"func F() {", "", "}"}},
	}
	fsys := fstest.MapFS{"w.md": {Data: []byte(fm + "\n## S\n\n[F](go:k8s.io/x/p.F) runs.\n")}}
	docs, err := walkthrough.LoadAll(fsys, ".", testOptions(&fakeresolver.Resolver{Symbols: syms, Found: &fact.Facts{}}))
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
