package site

import (
	"context"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kubewalk/kubewalk/internal/derive/reldiff"
	"github.com/kubewalk/kubewalk/internal/linkcheck"
	"github.com/kubewalk/kubewalk/record"
	"github.com/kubewalk/kubewalk/site/internal/pageshare"
	"github.com/kubewalk/kubewalk/source"
	"github.com/kubewalk/kubewalk/walkthrough"
)

const oldTag, newTag = "v1.30.0", "v1.31.0"

// multiFixture is the fixture at two releases. The older one lacks the
// "watch" walkthrough, the deployment walkthrough's third step and the
// scheduler's write, so it renders no page of schedule_one.go; in the
// newer one, rolloutRolling's code changed (its diff carries markup),
// NewDeploymentController moved and ScheduleOne is new.
func multiFixture(t testing.TB) ([]Release, Options) {
	t.Helper()
	return multiFixtureOf(t, loadTree(t))
}

// multiFixtureOf is multiFixture with the older release's tree oldTree.
func multiFixtureOf(t testing.TB, oldTree fixtureTree) ([]Release, Options) {
	t.Helper()
	old, opts := fixtureOf(t, oldTree)
	old.Tag = oldTag
	var docs []*walkthrough.Doc
	for _, d := range old.Docs {
		if d.ID == "watch" {
			continue
		}
		d.Steps = d.Steps[:2]
		docs = append(docs, d)
	}
	old.Docs = docs
	old.Facts.Writes = old.Facts.Writes[:1]

	cur, _ := fixture(t)
	cur.Tag = newTag
	cur.Since = oldTag
	cur.Changes = map[string]reldiff.RefChange{}
	for _, d := range cur.Docs {
		for _, s := range d.Steps {
			for _, r := range s.Refs {
				k := r.Ref.String()
				rc := reldiff.RefChange{Ref: k, To: reldiff.Side{Symbol: r.Resolved.Symbol.Name, Decl: r.Resolved.Symbol.Decl}}
				rc.From = rc.To
				switch {
				case strings.HasSuffix(r.Resolved.Symbol.Name, ".rolloutRolling"):
					rc.Status = reldiff.Changed
					rc.Diff = "--- " + oldTag + "/pkg/controller/deployment/sync.go\n+++ " + newTag + "/pkg/controller/deployment/sync.go\n@@ -1,2 +1,2 @@\n-\told := \"<script>alert(1)</script>\"\n+\tnew := 2\n \tsame()\n"
				case strings.HasSuffix(r.Resolved.Symbol.Name, ".NewDeploymentController"):
					rc.Status = reldiff.Moved
					rc.From.Decl.StartLine -= 3
				case strings.HasSuffix(r.Resolved.Symbol.Name, ".ScheduleOne"):
					rc.Status = reldiff.New
					rc.From = reldiff.Side{Error: "no such symbol"}
				default:
					rc.Status = reldiff.Unchanged
				}
				cur.Changes[k] = rc
			}
		}
	}
	cur.FactChanges = []reldiff.FactChange{{
		Kind: reldiff.KindWrite, Change: reldiff.Added, Key: "bind pods/binding", Label: "scheduler.Scheduler.bind create pods/binding <b>",
		At: cur.Facts.Writes[1].At, Write: &cur.Facts.Writes[1],
	}}
	url := func(tag string) func(string, int, int) string {
		return func(p string, from, to int) string { return source.Permalink(tag, p, from, to) }
	}
	// Given oldest first: BuildReleases sorts them newest first.
	return []Release{{Input: old, SourceURL: url(oldTag)}, {Input: cur, SourceURL: url(newTag)}}, opts
}

// buildMulti builds the two-release fixture site, its options set by
// with, and returns its directory.
func buildMulti(t testing.TB, with ...func(*Options)) string {
	t.Helper()
	return buildMultiOf(t, loadTree(t), with...)
}

// buildMultiOf is buildMulti with the older release's tree oldTree.
func buildMultiOf(t testing.TB, oldTree fixtureTree, with ...func(*Options)) string {
	t.Helper()
	return buildMultiTuned(t, oldTree, tuning{}, with...)
}

// buildMultiTuned is buildMultiOf built as tune says.
func buildMultiTuned(t testing.TB, oldTree fixtureTree, tune tuning, with ...func(*Options)) string {
	t.Helper()
	rels, opts := multiFixtureOf(t, oldTree)
	opts.Out = filepath.Join(t.TempDir(), "public")
	for _, f := range with {
		f(&opts)
	}
	if _, err := buildReleases(context.Background(), rels, opts, tune); err != nil {
		t.Fatal(err)
	}
	return opts.Out
}

var (
	versionLinkRE = regexp.MustCompile(`<a ([^>]*)>(v[0-9.]+)</a>`)
	hrefRE        = regexp.MustCompile(`\bhref="([^"]*)"`)
	keepRE        = regexp.MustCompile(`\bdata-keep="([^"]*)"`)
)

// switcher returns the version switcher's links of a page: tag → href and
// data-keep.
func switcher(t *testing.T, page string) map[string][2]string {
	t.Helper()
	i := strings.Index(page, `<details class="versions">`)
	j := strings.Index(page, `</details>`)
	if i < 0 || j < i {
		t.Fatalf("no version switcher")
	}
	out := map[string][2]string{}
	for _, m := range versionLinkRE.FindAllStringSubmatch(page[i:j], -1) {
		var v [2]string
		if h := hrefRE.FindStringSubmatch(m[1]); h != nil {
			v[0] = h[1]
		}
		if k := keepRE.FindStringSubmatch(m[1]); k != nil {
			v[1] = k[1]
		}
		out[m[2]] = v
	}
	return out
}

// TestMultiRelease builds one site of two releases and walks it as a
// reader does: the root index, each release's pages, the version
// switcher's targets, the change badges and their diffs. It stays one
// function because every check reads the one site it builds.
func TestMultiRelease(t *testing.T) {
	out := buildMulti(t)
	files := readTree(t, out)

	for _, want := range []string{
		"index.html", ".kubewalk-site", "assets/site.css",
		newTag + "/index.html", newTag + "/walkthroughs/watch.html",
		newTag + "/changes.html", newTag + "/" + diffsFile,
		"src/pkg/scheduler/schedule_one.go.html",
		oldTag + "/index.html",
		// Written once for both releases (package pageshare).
		"handlers.html", "events.html", "resources.html", "walkthroughs/deployment.html",
	} {
		if _, ok := files[want]; !ok {
			t.Errorf("missing %s", want)
		}
	}
	for _, unwanted := range []string{
		newTag + "/.kubewalk-site", oldTag + "/changes.html", oldTag + "/walkthroughs/watch.html",
		oldTag + "/src/pkg/controller/deployment/sync.go.html", newTag + "/src/pkg/scheduler/schedule_one.go.html",
		newTag + "/walkthroughs/deployment.html", oldTag + "/walkthroughs/deployment.html",
		newTag + "/handlers.html", oldTag + "/events.html",
	} {
		if _, ok := files[unwanted]; ok {
			t.Errorf("unexpected %s", unwanted)
		}
	}

	// The index lists the releases newest first.
	idx := files["index.html"]
	if a, b := strings.Index(idx, `href="`+newTag+`/index.html"`), strings.Index(idx, `href="`+oldTag+`/index.html"`); a < 0 || b < 0 || a > b {
		t.Errorf("index.html: releases not listed newest first (%d, %d)", a, b)
	}
	// It carries the policy every other page does (the layout's "csp").
	if !strings.Contains(idx, `<meta http-equiv="Content-Security-Policy" content="default-src 'none';`) {
		t.Errorf("index.html: no Content-Security-Policy")
	}

	// Switcher targets, computed at build time.
	for _, c := range []struct {
		page string
		want map[string][2]string
	}{
		// Same walkthrough, one page for both releases: from the newer,
		// the older lacks step 3, so only steps 1 and 2 carry over; from
		// the older, all do.
		{"walkthroughs/deployment.html", map[string][2]string{
			oldTag: {"../walkthroughs/deployment.html?rel=" + oldTag, "step-1-informer step-2-rollout"},
			newTag: {"../walkthroughs/deployment.html?rel=" + newTag, "*"},
		}},
		// No such walkthrough there: that release's home.
		{newTag + "/walkthroughs/watch.html", map[string][2]string{
			oldTag: {"../../" + oldTag + "/index.html", ""},
		}},
		// The same source file where it is rendered — here the same
		// page, shared — else home.
		{"src/pkg/controller/deployment/sync.go.html", map[string][2]string{
			oldTag: {"sync.go.html?rel=" + oldTag, ""},
		}},
		{"src/pkg/scheduler/schedule_one.go.html", map[string][2]string{
			oldTag: {"../../../" + oldTag + "/index.html", ""},
		}},
		// A page both releases share: the same page, each release named
		// (the current one's entry is a link for the other release).
		{"handlers.html", map[string][2]string{newTag: {"handlers.html?rel=" + newTag, ""}, oldTag: {"handlers.html?rel=" + oldTag, ""}}},
		{newTag + "/changes.html", map[string][2]string{oldTag: {"../" + oldTag + "/index.html", ""}}},
	} {
		if diff := cmp.Diff(c.want, switcher(t, files[c.page])); diff != "" {
			t.Errorf("%s: switcher (-want +got):\n%s", c.page, diff)
		}
	}

	// Badges on the newer release, linking to its changes.html (the
	// older release is shown without them: TestBrowserSharedReleasePages).
	wt := files["walkthroughs/deployment.html"]
	for _, want := range []string{
		`<a class="badge badge-changed" data-diff="" href="../` + newTag + `/changes.html#d`,
		`class="badge badge-moved"`,
		`class="badge badge-new"`,
		`changed since ` + oldTag,
		`data-diffs="../` + newTag + `/diffs.js"`,
		`<template id="diffbox"`,
		`><div class="diffbox"><pre class="code diff"></pre>`,
	} {
		if !strings.Contains(wt, want) {
			t.Errorf("walkthroughs/deployment.html lacks %s", want)
		}
	}
	if strings.Contains(wt, "alert(1)</script>") || strings.Contains(wt, "old :=") {
		t.Errorf("the diff text is in the walkthrough page; it belongs in its script")
	}
	js := files[newTag+"/"+diffsFile]
	if !strings.HasPrefix(js, "window.kubewalkDiffs = {") || !strings.Contains(js, `\u003cscript\u003e`) || strings.Contains(js, "<script>") {
		t.Errorf("diffs script: %s", js)
	}
	ch := files[newTag+"/changes.html"]
	if strings.Contains(ch, "alert(1)") || strings.Contains(ch, "new := 2") {
		t.Errorf("changes.html: the diff text is in the page; it belongs in the release's diffs script")
	}
	if m := dataDiffs.FindStringSubmatch(ch); m == nil || path.Join(newTag, m[1]) != newTag+"/"+diffsFile {
		t.Errorf("changes.html does not load its release's diffs script: %q", m)
	}
	for _, want := range []string{
		`<pre class="code diff" data-diff="`,
		`<p class="meta diffs-nojs">`,
		`href="../walkthroughs/deployment.html?rel=` + newTag + `#step-2-rollout"`,
		`create pods/binding &lt;b&gt;`,
	} {
		if !strings.Contains(ch, want) {
			t.Errorf("changes.html lacks %s", want)
		}
	}
	if !strings.Contains(files[newTag+"/index.html"], `href="changes.html"`) {
		t.Errorf("the newer release's home does not link its changes")
	}
	// Every page links the shared pages with its own release.
	for page, want := range map[string]string{
		newTag + "/index.html":              `href="../handlers.html?rel=` + newTag + `"`,
		newTag + "/walkthroughs/watch.html": `href="../../events.html?rel=` + newTag + `"`,
		oldTag + "/index.html":              `href="../walkthroughs/deployment.html?rel=` + oldTag + `"`,
	} {
		if !strings.Contains(files[page], want) {
			t.Errorf("%s lacks %s", page, want)
		}
	}

	if errs := linkcheck.Check(out, ScriptLinks); len(errs) > 0 {
		for _, err := range errs {
			t.Error(err)
		}
	}
}

// TestMultiReleasePageBudget: a page that would weigh more than the budget
// shared by the releases stays a page per release, and the site's links
// still hold.
func TestMultiReleasePageBudget(t *testing.T) {
	out := buildMultiTuned(t, loadTree(t), tuning{relPageBudget: 9000})
	files := readTree(t, out)
	var shared, own []string
	for p, data := range files {
		if !strings.HasSuffix(p, ".html") {
			continue
		}
		if _, rest, _ := strings.Cut(p, "/"); strings.HasPrefix(p, "v") && pageshare.Shares(rest) {
			own = append(own, p)
		} else if pageshare.Shares(p) {
			shared = append(shared, p)
			if len(data) > 9000 {
				t.Errorf("%s: %d bytes shared, over the budget", p, len(data))
			}
		}
	}
	if len(shared) == 0 || len(own) == 0 {
		t.Errorf("with a budget of 9000 bytes: shared %v, per release %v; want some of each", shared, own)
	}
	for _, err := range linkcheck.Check(out, ScriptLinks) {
		t.Error(err)
	}
}

// TestMultiReleaseRebuild: a multi-release site is built again over
// itself, and leaves no directory its shared pages emptied.
func TestMultiReleaseRebuild(t *testing.T) {
	out := filepath.Join(t.TempDir(), "public")
	for range 2 {
		buildMulti(t, func(o *Options) { o.Out = out })
	}
	err := filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if es, err := os.ReadDir(p); err == nil && len(es) == 0 {
			t.Errorf("empty directory %s", p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestMultiReleaseDeterministic(t *testing.T) {
	a, b := readTree(t, buildMulti(t)), readTree(t, buildMulti(t))
	if diff := cmp.Diff(a, b); diff != "" {
		t.Errorf("two builds differ (-first +second):\n%.2000s", diff)
	}
}

func TestSummaryCodeSpans(t *testing.T) {
	out, _ := buildFixture(t, func(in *Input) {
		for _, d := range in.Docs {
			d.Summary = "From `kubectl apply -f <x>.yaml` to a `Pod` and a stray ` tick"
		}
	})
	files := readTree(t, out)
	want := "From <code>kubectl apply -f &lt;x&gt;.yaml</code> to a <code>Pod</code> and a stray ` tick"
	for _, p := range []string{"index.html", "walkthroughs/deployment.html"} {
		if !strings.Contains(files[p], want) {
			t.Errorf("%s: summary not rendered as %s", p, want)
		}
	}
}

// TestMultiReleasePageOnlyInOne: a page one release has and the other
// lacks (a recorded run kept for the older release only) switches to the
// other release's home page, and every link of the site resolves.
func TestMultiReleasePageOnlyInOne(t *testing.T) {
	rels, opts := multiFixture(t)
	rec := fixtureRecording()
	rec.Tag, rec.Scenario = oldTag, "scale"
	rels[0].Input.Recordings = []*record.Recording{rec} // the older release
	opts.Out = filepath.Join(t.TempDir(), "public")
	if _, err := BuildReleases(context.Background(), rels, opts); err != nil {
		t.Fatal(err)
	}
	for _, err := range linkcheck.Check(opts.Out, ScriptLinks) {
		t.Error(err)
	}
	page, err := os.ReadFile(filepath.Join(opts.Out, oldTag, filepath.FromSlash(RecordedPage("scale"))))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := switcher(t, string(page))[newTag][0], "../"+newTag+"/index.html"; got != want {
		t.Errorf("the %s recorded page switches to %q, want the home page %q", oldTag, got, want)
	}
}

// dataDiffs matches where a walkthrough page's diffs script is.
var dataDiffs = regexp.MustCompile(`data-diffs="([^"]*)"`)

// TestMultiReleaseBilingualOnce: in a site of two bilingual releases,
// what is the same in both languages is written once: each release's
// diffs scripts and explain-index.js at the release's root, loaded by
// both languages' pages, and the assets once for the whole site, at its
// root, loaded by every page.
func TestMultiReleaseBilingualOnce(t *testing.T) {
	out := buildMultiBilingual(t)
	files := readTree(t, out)
	for p := range files {
		if dir, _, _ := strings.Cut(p, "/"); dir != strings.TrimSuffix(assetsDir, "/") && strings.Contains(p, "/"+assetsDir) ||
			path.Base(p) == diffsFile && strings.Count(p, "/") != 1 {
			t.Errorf("%s: written per language or release", p)
		}
	}
	as, err := assets(true)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range as {
		if files[a.path] != string(a.data) {
			t.Errorf("%s: not the site's asset", a.path)
		}
	}

	// Both languages' deployment walkthrough (written once for both
	// releases: package pageshare) loads the newer release's one diffs script.
	diffs := newTag + "/" + diffsFile
	if !strings.HasPrefix(files[diffs], "window.kubewalkDiffs = {") {
		t.Errorf("%s: %.80q", diffs, files[diffs])
	}
	for _, lang := range []string{"en", "ko"} {
		p := lang + "/" + WalkthroughPage("deployment")
		m := dataDiffs.FindStringSubmatch(files[p])
		if m == nil {
			t.Errorf("%s: no diffs script", p)
			continue
		}
		if got := path.Join(path.Dir(p), m[1]); got != diffs {
			t.Errorf("%s loads the diffs of %s, want %s", p, got, diffs)
		}
	}
	for _, tag := range []string{newTag, oldTag} {
		for _, lang := range []string{"en", "ko"} {
			if _, at := readExplainIndex(t, files, tag+"/"+lang+"/"+explainPage); at != tag+"/"+explainIndexJS {
				t.Errorf("%s/%s/%s loads %s, want %s/%s", tag, lang, explainPage, at, tag, explainIndexJS)
			}
		}
	}
	for _, err := range linkcheck.Check(out, ScriptLinks) {
		t.Error(err)
	}
}

// buildMultiBilingual builds the two releases of multiFixture, each in
// English and Korean.
func buildMultiBilingual(t testing.TB) string {
	t.Helper()
	return buildMultiBilingualTuned(t, tuning{})
}

// buildMultiBilingualTuned is buildMultiBilingual built as tune says.
func buildMultiBilingualTuned(t testing.TB, tune tuning) string {
	t.Helper()
	rels, opts := multiFixture(t)
	for i := range rels {
		bilingual(&rels[i].Input)
	}
	opts.Out = filepath.Join(t.TempDir(), "public")
	if _, err := buildReleases(context.Background(), rels, opts, tune); err != nil {
		t.Fatal(err)
	}
	return opts.Out
}
