package main

import (
	"strings"
	"testing"
)

// --tags expands a range of minor releases from the proxy's list, and a
// range that names none is a usage error.
func TestTagsRange(t *testing.T) {
	if testing.Short() {
		t.Skip("loads packages")
	}
	useFixtureProxy(t, "v1.99.0")
	wdir := walkthroughDir(t, fixtureWalkthrough)
	cache := t.TempDir()
	check := func(args ...string) (int, string) {
		code, _, stderr := kw(t, append([]string{"--cache-dir", cache, "check", "--source", "goproxy", "--no-builtin", "--walkthroughs", wdir}, args...)...)
		return code, stderr
	}
	if code, stderr := check("--tags", "v1.98..v1.99"); code != exitOK || !strings.Contains(stderr, "v1.99.0: ok (1 walkthrough file, 2 references)") || !strings.Contains(stderr, "msg=fetched") || !strings.Contains(stderr, "msg=analysed") && !strings.Contains(stderr, `msg="facts from cache"`) {
		t.Errorf("--tags v1.98..v1.99: exit %d, want 0 and v1.99.0 checked:\n%s", code, stderr)
	}
	for _, bad := range []string{"v1.50..v1.60", "v1.99", ""} {
		if code, stderr := check("--tags", bad); code != exitUsage {
			t.Errorf("--tags %q: exit %d, want %d:\n%s", bad, code, exitUsage, stderr)
		}
	}
	if code, stderr := check("--tags", "v1.99..v1.99", "--tag", "v1.99.0"); code != exitUsage || !strings.Contains(stderr, "twice") {
		t.Errorf("a release both in --tags and --tag: exit %d:\n%s", code, stderr)
	}
}

// A command of several releases fetches their trees together, then opens
// each from the tree it fetched: no tree is loaded and checked twice.
func TestTagsFetchedOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("loads packages")
	}
	useFixtureProxy(t, "v1.99.0", "v1.98.0")
	wdir := walkthroughDir(t, fixtureWalkthrough)
	cache := t.TempDir()
	for _, run := range []string{"first, fetching", "again, from the cache"} {
		code, _, stderr := kw(t, "--cache-dir", cache, "-v", "check", "--source", "goproxy", "--no-builtin", "--walkthroughs", wdir, "--tags", "v1.98..v1.99")
		if code != exitOK {
			t.Fatalf("%s: exit %d:\n%s", run, code, stderr)
		}
		for _, tag := range []string{"v1.98.0", "v1.99.0"} {
			if !strings.Contains(stderr, tag+": ok") {
				t.Errorf("%s: %s not checked:\n%s", run, tag, stderr)
			}
			if n := strings.Count(stderr, `msg="tree ready" tag=`+tag+" "); n != 1 {
				t.Errorf("%s: %s's tree made ready %d times, want once:\n%s", run, tag, n, stderr)
			}
		}
	}
}
