package record

import (
	"context"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kubewalk/kubewalk/analyzer"
	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/source"
	"github.com/kubewalk/kubewalk/walkthrough"
	"github.com/kubewalk/kubewalk/walkthroughs"
)

// coverRoots are the packages kubewalk record counts in tree, as
// cmd/kubewalk gives them to Build (record does not import the analyzer;
// its caller passes them in): the analyzer's default roots and the
// built-in walkthroughs' packages (pipeline.Roots), with the packages of
// the release's facts (CoverRoots), the facts analysed as pipeline.Open
// analyses them (from cache's facts when they are there) and without the
// events of test-support code (pipeline's dropTestSupport).
func coverRoots(tb testing.TB, tree *source.Tree, cache string) []string {
	tb.Helper()
	roots := slices.Clone(analyzer.DefaultRoots)
	uses, err := walkthrough.Refs(walkthroughs.FS, ".")
	if err != nil {
		tb.Fatal(err)
	}
	var more []string
	for _, u := range uses {
		for _, alt := range u.Ref.Alternates {
			if pkg, _, ok := fact.SplitSymbol(alt); ok && strings.Contains(pkg, "/") && !slices.Contains(roots, pkg) && !slices.Contains(more, pkg) {
				more = append(more, pkg)
			}
		}
	}
	slices.Sort(more)
	roots = append(roots, more...)
	cfg := analyzer.Config{Dir: tree.Dir, Env: tree.Env, Roots: roots, Tag: tree.Tag, Commit: tree.Commit}
	res, _, err := analyzer.AnalyzeCached(context.Background(), cfg, filepath.Join(cache, "facts"))
	if err != nil {
		tb.Fatal(err)
	}
	f := res.Facts()
	f.Events = slices.DeleteFunc(f.Events, func(e fact.Event) bool { return testSupport(e.At.Path) })
	return CoverRoots(roots, f)
}

// testSupport is pipeline's: test helpers and fakes.
func testSupport(p string) bool {
	dir, file := path.Split(p)
	if strings.HasSuffix(file, "_test.go") || strings.HasPrefix(file, "fake") {
		return true
	}
	for _, d := range strings.Split(strings.TrimSuffix(dir, "/"), "/") {
		switch d {
		case "testutil", "testing", "testhelper", "testhelpers", "testsupport", "test", "e2e", "e2e_node", "integration", "fake", "fakes":
			return true
		}
	}
	return false
}
