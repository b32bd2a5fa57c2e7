package pipeline

import (
	"path"
	"slices"
	"strings"

	"github.com/kubewalk/kubewalk/analyzer/fact"
)

// testSupportDirs are directory names Kubernetes keeps test helpers under
// (pkg/controller/testutil's FakeRecorder, pkg/volume/testing, …).
var testSupportDirs = map[string]bool{
	"testutil": true, "testing": true, "testhelper": true, "testhelpers": true, "testsupport": true,
	"test": true, "e2e": true, "e2e_node": true, "integration": true, "fake": true, "fakes": true,
}

// testSupport reports whether a repository path is test code: a _test.go
// file, a file named fake…, or a file under a test-support directory.
func testSupport(p string) bool {
	dir, file := path.Split(p)
	if strings.HasSuffix(file, "_test.go") || strings.HasPrefix(file, "fake") {
		return true
	}
	for _, d := range strings.Split(strings.TrimSuffix(dir, "/"), "/") {
		if testSupportDirs[d] {
			return true
		}
	}
	return false
}

// dropTestSupport removes the events recorded in test code from f: a test
// helper's recorder call (testutil.FakeRecorder's Eventf) is no fact of
// what a cluster does, and readers of the events index and of `kubewalk
// list events` took them for one. The analyzer loads such packages
// because production packages' tests-only helpers share their import
// graph; the filter sits here, where every command takes its facts.
func dropTestSupport(f *fact.Facts) {
	f.Events = slices.DeleteFunc(f.Events, func(e fact.Event) bool { return testSupport(e.At.Path) })
}
