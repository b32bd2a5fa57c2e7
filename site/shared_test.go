package site

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kubewalk/kubewalk/internal/linkcheck"
)

const changedFile = "pkg/controller/deployment/deployment_controller.go"

// multiFixtureChanged is multiFixture with changedFile different in the
// older release (a comment after its last line); every other file is the
// same bytes in both.
func multiFixtureChanged(t testing.TB) ([]Release, Options) {
	t.Helper()
	rels, opts := multiFixture(t)
	old := &rels[0].Input // given oldest first
	read := old.ReadFile
	old.ReadFile = func(p string) ([]byte, error) {
		data, err := read(p)
		if err == nil && p == changedFile {
			data = append(bytes.Clone(data), "// only in the older release\n"...)
		}
		return data, err
	}
	return rels, opts
}

func buildShared(t testing.TB) (string, Stats) {
	t.Helper()
	rels, opts := multiFixtureChanged(t)
	opts.Out = filepath.Join(t.TempDir(), "public")
	st, err := BuildReleases(context.Background(), rels, opts)
	if err != nil {
		t.Fatal(err)
	}
	return opts.Out, st
}

// TestMultiReleaseSharesSource: every file has one source page serving
// every release that renders it; a line only some releases have is marked
// with them (and hidden when the newest lacks it). No release has a src/
// of its own, every release's links lead to the page with the release in
// the query, and the link checker, which reads the query, finds nothing
// broken. It is long because it reads one built site for each of these in
// turn, which a build per assertion would make slow.
func TestMultiReleaseSharesSource(t *testing.T) {
	out, st := buildShared(t)
	files := readTree(t, out)
	var pages []string
	for p := range files {
		if strings.HasPrefix(p, "src/") {
			pages = append(pages, p)
		}
		if strings.HasPrefix(p, oldTag+"/src/") || strings.HasPrefix(p, newTag+"/src/") {
			t.Errorf("%s: a source page written per release", p)
		}
	}
	sort.Strings(pages)
	want := []string{
		"src/" + changedFile + ".html",
		"src/pkg/controller/deployment/sync.go.html",
		"src/pkg/odd/x<script>&'\"#?.go.html",
		"src/pkg/scheduler/schedule_one.go.html",
	}
	if diff := cmp.Diff(want, pages); diff != "" {
		t.Errorf("shared source pages (-want +got):\n%s", diff)
	}
	if st.SourcePages != len(want) {
		t.Errorf("stats count %d source pages, want %d", st.SourcePages, len(want))
	}

	// The shared page: each release's header, the older hidden, each
	// with its permalink at its tag; the code once. The older header is
	// the newer's made over (data-like), so site.js makes it, and so is
	// its source header (data-head).
	sp := files["src/pkg/controller/deployment/sync.go.html"]
	for _, w := range []string{
		`<div class="langblock" data-lang="en" data-rel="` + newTag + `"><header class="srchead">`,
		`<div class="langblock" data-lang="en" data-rel="` + oldTag + `" data-like="` + newTag + `" hidden></div>`,
		`/blob/` + newTag + `/pkg/controller/deployment/sync.go"`,
		`<div class="langblock" data-lang="en" data-rel="` + oldTag + `" data-head="` + newTag + `" data-n="`,
		`<a href="sync.go.html?rel=` + oldTag + `" data-switch>` + oldTag + `</a>`,
		`· ` + newTag + `, ` + oldTag + `</title>`,
		`data-src="../../../../src/"`,
		// Its link to a line of deployment_controller.go names the
		// line's anchor, the same in both releases, by the shortest way
		// to the page beside it (srcmerge.NearURL).
		`href=deployment_controller.go.html#L10>`,
	} {
		if !strings.Contains(sp, w) {
			t.Errorf("shared sync.go page lacks %s", w)
		}
	}
	if n := strings.Count(sp, `<pre class="code src">`); n != 1 {
		t.Errorf("shared page has its code %d times", n)
	}
	if strings.Contains(sp, "data-r=") {
		t.Errorf("sync.go is the same in both releases, yet a line of its page is marked with releases")
	}
	// The file that differs: one page serves both; the line only the
	// older release has is there once, for it only (bit 1), hidden.
	cur := files["src/"+changedFile+".html"]
	if !strings.Contains(cur, `data-rel="`+oldTag+`"`) || !strings.Contains(cur, `data-rel="`+newTag+`"`) {
		t.Errorf("the page of %s does not serve both releases", changedFile)
	}
	if n := strings.Count(cur, "only in the older release"); n != 1 {
		t.Errorf("the older release's own line is on the page %d times", n)
	}
	if !regexp.MustCompile(`<u id=L\d+\.1 data-r=2><i>// only in the older release</i>`).MatchString(cur) {
		t.Errorf("the older release's own line is not marked as its only")
	}
	if !strings.Contains(cur, `<a href="deployment_controller.go.html?rel=`+oldTag+`" data-switch>`) {
		t.Errorf("%s's switcher does not go to the older release's part of its page", changedFile)
	}
	// The walkthrough, one page for both releases, links the pages by
	// line anchor, the same in both; site.js names the release read
	// (TestBrowserSharedReleasePages).
	w := files["walkthroughs/deployment.html"]
	for _, page := range []string{"deployment_controller.go.html#L", "sync.go.html#L"} {
		if !strings.Contains(w, `href="../src/pkg/controller/deployment/`+page) {
			t.Errorf("the walkthrough does not link %s", page)
		}
	}
	if strings.Contains(w, ".go.html?rel=") {
		t.Errorf("the walkthrough shared by the releases names one of them in a link to a source page")
	}
	for _, err := range linkcheck.Check(out, ScriptLinks) {
		t.Error(err)
	}
}

// TestMultiReleaseSharedDeterministic: two builds of a site with shared
// and unshared source pages are the same bytes.
func TestMultiReleaseSharedDeterministic(t *testing.T) {
	a, _ := buildShared(t)
	b, _ := buildShared(t)
	if diff := cmp.Diff(readTree(t, a), readTree(t, b)); diff != "" {
		t.Errorf("two builds differ (-first +second):\n%.2000s", diff)
	}
}

// TestLinksQuery: a link whose ?rel= or ?lang= names a part the
// target page does not carry is reported.
func TestLinksQuery(t *testing.T) {
	out, _ := buildShared(t)
	extra := filepath.Join(out, newTag, "extra.html")
	err := os.WriteFile(extra, []byte(`<a href="../src/pkg/controller/deployment/sync.go.html?rel=v9.9.9">x</a>`+
		`<a href="../src/pkg/controller/deployment/sync.go.html?rel=`+oldTag+`&lang=ko">y</a>`+
		`<a href="index.html?rel=`+newTag+`">z</a>`), 0o644)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, err := range linkcheck.Check(out, ScriptLinks) {
		got = append(got, err.Error())
	}
	if len(got) != 3 || !strings.Contains(strings.Join(got, "\n"), "rel=[v9.9.9]") || !strings.Contains(strings.Join(got, "\n"), "lang=[ko]") {
		t.Errorf("link check of bad queries:\n%s", strings.Join(got, "\n"))
	}
}
