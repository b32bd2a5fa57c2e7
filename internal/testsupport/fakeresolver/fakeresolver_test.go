package fakeresolver

import (
	"errors"
	"slices"
	"testing"

	"github.com/kubewalk/kubewalk/analyzer/fact"
)

const src = `package p

// F does it.
func F() {
	a()
	b()
}
`

func TestResolve(t *testing.T) {
	found := &fact.Facts{Tag: "v1.0.0"}
	f := fact.Symbol{Name: "k8s.io/p.F", Kind: "func", Decl: fact.Location{Path: "p.go", StartLine: 3, EndLine: 7}}
	r := New(found, func(p string) string {
		if p != "p.go" {
			t.Errorf("asked for %s", p)
		}
		return src
	}, f)
	if r.Facts() != found {
		t.Error("Facts is not the facts given")
	}
	res, err := r.Resolve(fact.Ref{Alternates: []string{"k8s.io/q.G", "k8s.io/p.F"}, Lines: `b\(\)|// F`})
	if err != nil {
		t.Fatal(err)
	}
	if res.Symbol.Name != f.Name || res.Alternate != 1 || !slices.Equal(res.Matched, []int{3, 6}) {
		t.Errorf("got %s, alternate %d, lines %v; want F, 1, [3 6]", res.Symbol.Name, res.Alternate, res.Matched)
	}
	if _, err := r.Resolve(fact.Ref{Alternates: []string{"k8s.io/p.F"}, Lines: "nowhere"}); !errors.Is(err, fact.ErrNoMatch) {
		t.Errorf("lines that match nothing: %v, want ErrNoMatch", err)
	}
	var nf *fact.NotFoundError
	if _, err := r.Resolve(fact.Ref{Alternates: []string{"k8s.io/p.f"}}); !errors.As(err, &nf) || !slices.Equal(nf.Suggestions, []string{"k8s.io/p.F"}) {
		t.Errorf("a name in the wrong case: %v, want not found, suggesting F", err)
	}
	r.Any = true
	res, err = r.Resolve(fact.Ref{Alternates: []string{"k8s.io/x.Anything"}, Lines: "whatever"})
	if err != nil || res.Symbol.Decl.Path != "x.go" || len(res.Matched) != 10 {
		t.Errorf("Any: %+v, %v; want a ten-line function in x.go, every line matched", res, err)
	}
}
