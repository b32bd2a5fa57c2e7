package walkthrough

import (
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/internal/testsupport/fakeresolver"
)

// FuzzParse parses and resolves arbitrary Markdown with a
// resolver that knows every name: it must never panic, and every error
// must be an *Error with a position inside the file.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.txtar")
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			f.Fatal(err)
		}
		for _, af := range ar.Files {
			if strings.HasSuffix(af.Name, ".md") {
				f.Add(af.Data)
			}
		}
	}
	// Not-run marks, well-formed and not, for the mutator to start from.
	f.Add([]byte("---\ntitle: T\n---\n## S\n\n[a](go:k8s.io/x/p.F){notrun=\"why\"} [b][]{notrun=x}{notrun=y} [c](go:k8s.io/x/p.F) {notrun=\"\"} {a=b}\n\n```excerpt\nref: k8s.io/x/p.F\nnotrun: why\n```\n\n[b]: go:k8s.io/x/p.G\n"))
	facts := &fact.Facts{
		Handlers: []fact.HandlerRegistration{{Component: "c", Informer: fact.Resource{Kind: "Pod", Resource: "pods"}}},
		Events:   []fact.Event{{Reason: "Started"}},
		Writes:   []fact.Write{{Resource: fact.Resource{Resource: "pods"}, Verb: "create"}},
	}
	opts := testOptions(&fakeresolver.Resolver{Any: true, Found: facts})
	f.Fuzz(func(t *testing.T, src []byte) {
		s, errs := parse("f.md", src, nil)
		// Lines as the parser counts them: LF, CRLF and a lone CR each end one.
		lines := strings.Count(strings.ReplaceAll(string(src), "\r\n", "\n"), "\n") + strings.Count(strings.ReplaceAll(string(src), "\r\n", "\n"), "\r") + 1
		check := func(list []error) {
			for _, err := range list {
				e, ok := err.(*Error)
				if !ok {
					t.Fatalf("%v is %T, not *Error", err, err)
				}
				if e.Line < 0 || e.Line > lines {
					t.Fatalf("%v: line outside the file (%d lines)", e, lines)
				}
			}
		}
		check(errs.errors())
		_, berrs := build(s, &opts, targetsOf([]*Source{s}))
		check(berrs)
		// A translation of itself exercises the shared-reference paths.
		tr, terrs := parse("f.ko.md", src, s)
		check(terrs.errors())
		_, berrs = build(tr, &opts, targetsOf([]*Source{s}))
		check(berrs)
	})
}
