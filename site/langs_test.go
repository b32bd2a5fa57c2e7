package site

import (
	"context"
	"github.com/kubewalk/kubewalk/record"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kubewalk/kubewalk/internal/derive/explain"
	"github.com/kubewalk/kubewalk/internal/linkcheck"
	"github.com/kubewalk/kubewalk/source"
	"github.com/kubewalk/kubewalk/walkthrough"
)

// bilingual makes the fixture a site of English and Korean.
func bilingual(in *Input) { in.Langs = []string{"en", "ko"} }

// buildBilingual builds the bilingual fixture site.
func buildBilingual(t *testing.T) string {
	out, _ := buildFixture(t, bilingual)
	return out
}

func TestBilingual(t *testing.T) {
	// With a recording: its run page is one for both languages, and its
	// links to the steps go into each language's walkthroughs.
	out, st := buildFixture(t, func(in *Input) { bilingual(in); in.Recordings = []*record.Recording{fixtureRecording()} })
	files := readTree(t, out)
	for _, p := range []string{"index.html", "en/index.html", "ko/index.html", "en/walkthroughs/deployment.html", "ko/walkthroughs/watch.html", "recorded.html",
		"en/search.html", "ko/search-index.js", "assets/site.css", "assets/site.js", "assets/lang.js", factsFile, ".kubewalk-site"} {
		if _, ok := files[p]; !ok {
			t.Errorf("no %s", p)
		}
	}
	// Code is code: one set of source pages, and facts, at the root; so
	// are the assets, the same bytes in every language.
	var src int
	for p := range files {
		if strings.HasPrefix(p, "en/src/") || strings.HasPrefix(p, "ko/src/") || strings.HasSuffix(p, "/"+factsFile) || strings.Contains(p, "/assets/") {
			t.Errorf("%s: a shared page written per language", p)
		}
		if strings.HasPrefix(p, "src/") {
			src++
		}
	}
	if src == 0 || src != st.SourcePages {
		t.Errorf("%d source pages at src/, stats say %d", src, st.SourcePages)
	}

	root := files["index.html"]
	for _, want := range []string{`href="en/index.html" hreflang="en"`, `href="ko/index.html" hreflang="ko"`, `>한국어<`, `<script src="assets/lang.js">`} {
		if !strings.Contains(root, want) {
			t.Errorf("root lacks %s", want)
		}
	}
	en, ko := files["en/walkthroughs/deployment.html"], files["ko/walkthroughs/deployment.html"]
	for _, want := range []string{
		`<link rel="alternate" hreflang="ko" href="../../ko/walkthroughs/deployment.html">`,
		`href="../../ko/walkthroughs/deployment.html" hreflang="ko" lang="ko" data-switch data-steps="*">한국어</a>`,
		`href="../../src/pkg/controller/deployment/deployment_controller.go.html#L`,
		`data-src="../../src/"`, `href="../../assets/site.css"`,
		`<link rel="alternate" hreflang="x-default" href="../../index.html">`, `<span class="langs" role="group" aria-label="Language">`,
	} {
		if !strings.Contains(en, want) {
			t.Errorf("English walkthrough lacks %s", want)
		}
	}
	for _, want := range []string{`<html lang="ko">`, `<b lang="ko" aria-current="true">한국어</b>`, "디플로이먼트를 만들면 일어나는 일", `href="../../en/walkthroughs/deployment.html" hreflang="en"`} {
		if !strings.Contains(ko, want) {
			t.Errorf("Korean walkthrough lacks %s", want)
		}
	}
	// watch has no Korean translation: English, and said so in Korean.
	if w := files["ko/walkthroughs/watch.html"]; !strings.Contains(w, "Watches and informers") || !strings.Contains(w, "아직 한국어로 번역되지 않아") || !strings.Contains(w, `<article class="wt" lang="en">`) {
		t.Errorf("the Korean site's untranslated walkthrough is not English, marked")
	}

	// A source page: both languages' header and backlinks, Korean hidden,
	// each linking into its own language; the code once.
	sp := files["src/pkg/controller/deployment/sync.go.html"]
	for _, want := range []string{
		`<div class="langblock" data-lang="en">`, `<div class="langblock" data-lang="ko" hidden>`,
		`href="../../../../en/walkthroughs/deployment.html#step-2-rollout"`, `href="../../../../ko/walkthroughs/deployment.html#step-2-rollout"`,
		`href="../../../../ko/index.html"`, `href="sync.go.html?lang=ko" hreflang="ko"`, `<link rel="alternate" hreflang="ko" href="sync.go.html?lang=ko">`,
	} {
		if !strings.Contains(sp, want) {
			t.Errorf("source page lacks %s", want)
		}
	}
	if n := strings.Count(sp, `<pre class="code src">`); n != 1 {
		t.Errorf("source page has its code %d times", n)
	}
	for _, err := range linkcheck.Check(out, ScriptLinks) {
		t.Error(err)
	}
}

// TestBilingualDeterministic: two builds of the bilingual site are the
// same bytes.
func TestBilingualDeterministic(t *testing.T) {
	a, _ := buildFixture(t, bilingual)
	b, _ := buildFixture(t, bilingual)
	fa, fb := readTree(t, a), readTree(t, b)
	if !slices.Equal(slices.Sorted(maps.Keys(fa)), slices.Sorted(maps.Keys(fb))) {
		t.Fatalf("the two builds wrote different files")
	}
	for p := range fa {
		if fa[p] != fb[p] {
			t.Errorf("%s differs between two builds", p)
		}
	}
}

// TestBilingualReleases: a site of two releases in two languages has a
// subtree per release and language, the version switcher staying in the
// reader's language.
func TestBilingualReleases(t *testing.T) {
	in, opts := fixture(t)
	bilingual(&in)
	old := in
	old.Tag = "v1.35.0"
	opts.Out = filepath.Join(t.TempDir(), "public")
	// Each release's permalinks at its tag, as source.Permalink makes
	// them: a page's GitHub base (data-gh) is the release's, which the
	// pages the releases share name by the group's newest.
	oldURL := func(p string, from, to int) string { return source.Permalink(old.Tag, p, from, to) }
	if _, err := BuildReleases(context.Background(), []Release{{Input: in}, {Input: old, SourceURL: oldURL}}, opts); err != nil {
		t.Fatal(err)
	}
	files := readTree(t, opts.Out)
	wt := files["ko/walkthroughs/deployment.html"]
	if !strings.Contains(wt, `href="../../ko/walkthroughs/deployment.html?rel=v1.35.0"`) {
		t.Errorf("the Korean page's version switcher leaves Korean")
	}
	// The releases' bytes are the same: one source page serves both
	// releases in both languages.
	sp := files["src/pkg/controller/deployment/sync.go.html"]
	for _, want := range []string{
		`data-lang="en" data-rel="v1.35.0">`, `data-lang="ko" data-rel="` + fixtureTag + `" data-head="v1.35.0" data-n="`,
		// The older release's headers are the newer's made over by
		// site.js (TestBrowserHeaderLikeNewest).
		`data-rel="` + fixtureTag + `" data-like="v1.35.0" hidden></div>`,
		`href="../../../../ko/walkthroughs/deployment.html?rel=v1.35.0#step-2-rollout"`,
	} {
		if !strings.Contains(sp, want) {
			t.Errorf("shared source page lacks %s", want)
		}
	}
	// The release is the one read (site.js); the language is the page's.
	if !strings.Contains(wt, `href="../../src/pkg/controller/deployment/sync.go.html?lang=ko#L`) {
		t.Errorf("the Korean walkthrough's links into the source pages do not name its language")
	}
	for _, err := range linkcheck.Check(opts.Out, ScriptLinks) {
		t.Error(err)
	}
}

// TestBilingualExplainShared: explain's index but for its step titles is
// the same in both languages, so it is written once, at the release's
// root, and both explain pages load it; each language's steps, in its
// language, are its own.
func TestBilingualExplainShared(t *testing.T) {
	out, _ := buildFixture(t, func(in *Input) { bilingual(in); explainFixture(in) })
	files := readTree(t, out)
	en, enAt := readExplainIndex(t, files, "en/"+explainPage)
	ko, koAt := readExplainIndex(t, files, "ko/"+explainPage)
	if enAt != explainIndexJS || koAt != explainIndexJS {
		t.Errorf("the explain pages load %s and %s, want both %s", enAt, koAt, explainIndexJS)
	}
	for _, p := range []string{"en/" + explainIndexJS, "ko/" + explainIndexJS} {
		if _, ok := files[p]; ok {
			t.Errorf("%s: written per language", p)
		}
	}
	if len(en.Events) == 0 || len(en.Steps) == 0 || len(en.Steps) != len(ko.Steps) {
		t.Fatalf("%d events, steps: %d in English, %d in Korean", len(en.Events), len(en.Steps), len(ko.Steps))
	}
	for i := range en.Steps {
		if en.Steps[i].Page != ko.Steps[i].Page {
			t.Errorf("step %d: %s in English, %s in Korean", i, en.Steps[i].Page, ko.Steps[i].Page)
		}
	}
	if !slices.ContainsFunc(ko.Steps, func(s explain.IndexStep) bool { return s.StepTitle == "스케줄링" }) ||
		slices.ContainsFunc(ko.Steps, func(s explain.IndexStep) bool { return s.StepTitle == "Scheduling" }) {
		t.Errorf("Korean steps %+v, want the Korean titles", ko.Steps)
	}
	for _, err := range linkcheck.Check(out, ScriptLinks) {
		t.Error(err)
	}
}

// TestBilingualExplainOwn: where a translation's walkthrough gives the
// events other steps than the original's, each language has its own
// explain-index.js and loads it.
func TestBilingualExplainOwn(t *testing.T) {
	out, _ := buildFixture(t, func(in *Input) {
		bilingual(in)
		explainFixture(in)
		for _, d := range in.Docs {
			if d.ID == "deployment" && d.Lang == "ko" { // without step 3's facts block
				s := &d.Steps[2]
				s.Segments = slices.DeleteFunc(slices.Clone(s.Segments), func(g walkthrough.Segment) bool { return g.Facts != nil })
			}
		}
	})
	files := readTree(t, out)
	en, enAt := readExplainIndex(t, files, "en/"+explainPage)
	ko, koAt := readExplainIndex(t, files, "ko/"+explainPage)
	if enAt != "en/"+explainIndexJS || koAt != "ko/"+explainIndexJS {
		t.Errorf("the explain pages load %s and %s, want each its language's", enAt, koAt)
	}
	if _, ok := files[explainIndexJS]; ok {
		t.Errorf("%s written for both languages, which differ", explainIndexJS)
	}
	if len(en.Reasons["ScalingReplicaSet"]) == 0 || len(ko.Reasons["ScalingReplicaSet"]) != 0 {
		t.Errorf("steps naming ScalingReplicaSet: %v in English, %v in Korean; want some, none", en.Reasons["ScalingReplicaSet"], ko.Reasons["ScalingReplicaSet"])
	}
	for _, err := range linkcheck.Check(out, ScriptLinks) {
		t.Error(err)
	}
}

// TestStaleTranslationNote: a translated step older than its English text
// says so, linking the English step; its up-to-date neighbours say nothing.
func TestStaleTranslationNote(t *testing.T) {
	out, _ := buildFixture(t, func(in *Input) {
		bilingual(in)
		for _, d := range in.Docs {
			if d.ID == "deployment" && d.Lang == "ko" {
				d.Steps[1].Stale = true
			}
		}
	})
	files := readTree(t, out)
	ko := files["ko/walkthroughs/deployment.html"]
	want := `<p class="note stale">이 단계의 영어 원문이 번역된 뒤에 바뀌었습니다. <a href="../../en/walkthroughs/deployment.html#step-2-rollout" hreflang="en" lang="en">영어 원문 보기 →</a></p>`
	if !strings.Contains(ko, want) {
		t.Errorf("ko/walkthroughs/deployment.html has no note on its stale step; want\n%s", want)
	}
	if n := strings.Count(ko, `class="note stale"`); n != 1 {
		t.Errorf("%d stale notes, want 1", n)
	}
	if strings.Contains(files["en/walkthroughs/deployment.html"], `class="note stale"`) {
		t.Error("the English page has a stale note")
	}
}
