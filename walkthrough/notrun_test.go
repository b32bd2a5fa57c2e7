package walkthrough

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/internal/testsupport/fakeresolver"
)

// TestNotRunMarks: a {notrun="…"} right after a reference's link (inline
// or by label) and an excerpt's notrun: give the reference its reason, in
// the file's language: a use: block without one has its named excerpt's
// in the same file, none in a translation (whose language it is not).
// Each step lists what it marks, for check to compare a translation's
// with its original's. The mark is never rendered, and prose that only
// looks like attributes stays text.
func TestNotRunMarks(t *testing.T) {
	syms := map[string]fakeresolver.Symbol{
		"k8s.io/x/p.F": {Symbol: fact.Symbol{Name: "k8s.io/x/p.F", Kind: "func", Decl: fact.Location{Path: "p/f.go", StartLine: 10, EndLine: 11}},
			Lines: []string{"func F() {", "}"}},
		"k8s.io/x/p.G": {Symbol: fact.Symbol{Name: "k8s.io/x/p.G", Kind: "func", Decl: fact.Location{Path: "p/f.go", StartLine: 20, EndLine: 20}},
			Lines: []string{"func G() {}"}},
	}
	en := fm + "\n## S\n\n[F](go:k8s.io/x/p.F){notrun=\"an error path\"} and [G][] and [again][G]{notrun=rollback}, a map{a=b}.\n\n" +
		"```excerpt\nname: f\nref: k8s.io/x/p.F\nnotrun: the error path\n```\n\n```excerpt\nname: g\nref: k8s.io/x/p.G\n```\n\n[G]: go:k8s.io/x/p.G\n" +
		"\n## T\n\n```excerpt\nuse: f\n```\n"
	ko := "---\ntitle: K\n---\n## 에스\n\n[G][]{notrun=\"롤백\"}\n\n```excerpt\nuse: f\n```\n\n```excerpt\nuse: g\nnotrun: 되돌릴 때만\n```\n\n## 티\n\n```excerpt\nuse: f\nnotrun: 오류 경로\n```\n"
	fsys := fstest.MapFS{"w.md": {Data: []byte(en)}, "w.ko.md": {Data: []byte(ko)}}
	docs, err := LoadAll(fsys, ".", testOptions(&fakeresolver.Resolver{Symbols: syms, Found: &fact.Facts{}}))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	for _, d := range docs {
		for _, st := range d.Steps {
			for _, r := range st.Refs {
				got[d.Lang] = append(got[d.Lang], r.Ref.String()+"="+r.NotRun)
			}
		}
	}
	want := map[string][]string{
		"en": {"k8s.io/x/p.F=an error path", "k8s.io/x/p.G=", "k8s.io/x/p.G=rollback", "k8s.io/x/p.F=the error path", "k8s.io/x/p.G=", "k8s.io/x/p.F=the error path"},
		"ko": {"k8s.io/x/p.G=롤백", "k8s.io/x/p.F=", "k8s.io/x/p.G=되돌릴 때만", "k8s.io/x/p.F=오류 경로"},
	}
	for _, lang := range []string{"en", "ko"} {
		if strings.Join(got[lang], "|") != strings.Join(want[lang], "|") {
			t.Errorf("%s: refs\n\t%q\nwant\n\t%q", lang, got[lang], want[lang])
		}
	}
	html := segmentsText(t, docs[0].Steps[0].Segments)
	if strings.Contains(html, "notrun") || strings.Contains(html, "error path") {
		t.Errorf("the mark is rendered: %s", html)
	}
	if !strings.Contains(html, "a map{a=b}.") {
		t.Errorf("prose with braces lost its text: %s", html)
	}
	srcs, err := ParseDir(fsys, ".")
	if err != nil {
		t.Fatal(err)
	}
	var uses []string
	for _, r := range srcs[0].Refs {
		uses = append(uses, r.Text+"="+r.NotRun)
	}
	if want := "go:k8s.io/x/p.F=an error path|go:k8s.io/x/p.G=|go:k8s.io/x/p.G=rollback|k8s.io/x/p.F=the error path|k8s.io/x/p.G="; strings.Join(uses, "|") != want {
		t.Errorf("ParseDir's refs %q, want %s", uses, want)
	}
	var steps []string
	for _, src := range srcs {
		for _, st := range src.Steps {
			steps = append(steps, src.Lang+":"+strings.Join(st.NotRun, ","))
		}
	}
	if want := "en:k8s.io/x/p.F,k8s.io/x/p.G|en:k8s.io/x/p.F|ko:k8s.io/x/p.G|ko:k8s.io/x/p.F"; strings.Join(steps, "|") != want {
		t.Errorf("steps mark %q, want %s", steps, want)
	}
}
