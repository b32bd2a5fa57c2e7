package site

import (
	"context"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kubewalk/kubewalk/internal/linkcheck"
)

// TestChangesDiffOnce: two references whose declaration has one diff
// (one declaration cited by two patterns) show it once on the changes
// page; the second sends the reader to the first.
func TestChangesDiffOnce(t *testing.T) {
	rels, opts := multiFixture(t)
	in := &rels[1].Input // given oldest first
	var diffed string
	for k, rc := range in.Changes {
		if rc.Diff != "" {
			diffed = k
		}
	}
	if diffed == "" {
		t.Fatal("the fixture's newer release has no change with a diff")
	}
	rc := in.Changes[diffed]
	rc.Ref += " /a second pattern/"
	in.Changes[rc.Ref] = rc
	opts.Out = filepath.Join(t.TempDir(), "public")
	if _, err := BuildReleases(context.Background(), rels, opts); err != nil {
		t.Fatal(err)
	}
	files := readTree(t, opts.Out)
	ch := files[newTag+"/changes.html"]
	if n := strings.Count(files[newTag+"/"+diffsFile], "new := 2"); n != 1 {
		t.Errorf("the diff is in the diffs script %d times, want once", n)
	}
	if n := strings.Count(ch, `<pre class="code diff" data-diff=`); n != 1 {
		t.Errorf("the changes page has %d places for the diff, want one", n)
	}
	// The section the diff is in, and the link to it.
	section := regexp.MustCompile(`<section class="changed" id="(d[0-9]+)">`).FindAllStringSubmatch(ch[:max(strings.Index(ch, `<pre class="code diff"`), 0)], -1)
	if len(section) == 0 || !strings.Contains(ch, `<a href="#`+section[len(section)-1][1]+`">The diff of its declaration is the one above ↑</a>`) {
		t.Errorf("the second reference does not send the reader to the first's diff")
	}
	// No step cites the second pattern: it is listed last, under a
	// heading that says so; the first under its step's.
	i := strings.Index(ch, "one above ↑")
	heads := regexp.MustCompile(`<h3 class="cites">(.*?)</h3>`).FindAllStringSubmatchIndex(ch[:max(i, 0)], -1)
	if len(heads) < 2 || !strings.Contains(ch[heads[len(heads)-1][2]:heads[len(heads)-1][3]], "Cited by no step") ||
		!strings.Contains(ch[heads[0][2]:heads[0][3]], `<a href="../walkthroughs/deployment.html`) {
		t.Errorf("the headings above the references: %q", regexp.MustCompile(`<h3 class="cites">.*?</h3>`).FindAllString(ch, -1))
	}
}

// TestChangesBilingualOnce: a bilingual release has one changes page for
// its languages, at its root: each diff is written once in the site, the
// text around it in each language (the first shown without script, the
// others hidden until ?lang= names them), and every link a language's
// pages have to it (the badges, the walkthrough's "on the changes page",
// the home page) names that language and a change the page has.
func TestChangesBilingualOnce(t *testing.T) {
	out := buildMultiBilingual(t)
	files := readTree(t, out)
	page := newTag + "/" + changesPage
	for _, lang := range []string{"en", "ko"} {
		if _, ok := files[newTag+"/"+lang+"/"+changesPage]; ok {
			t.Errorf("%s/%s/%s: a changes page per language", newTag, lang, changesPage)
		}
	}
	ch, ok := files[page]
	if !ok {
		t.Fatalf("no %s", page)
	}
	// The fixture's one diff, written once in the site, in the release's
	// diffs script, from which site.js fills the changes page's and the
	// walkthroughs' diff boxes.
	var at []string
	for p, data := range files {
		if strings.Contains(data, "new := 2") {
			at = append(at, p)
		}
	}
	if want := newTag + "/" + diffsFile; len(at) != 1 || at[0] != want {
		t.Errorf("the diff is written in %q, want once, in %s", at, want)
	}
	if !strings.Contains(ch, `<pre class="code diff" data-diff="`) {
		t.Errorf("%s: no place for the diff", page)
	}

	// Each change's section, under the heading of the step citing it
	// first: the badge in each language, English shown, Korean hidden,
	// and the step in each, each linking its own language's walkthrough.
	sections := regexp.MustCompile(`(?s)<section class="changed" id="(d[0-9]+)">(.*?)</section>`).FindAllStringSubmatch(ch, -1)
	if len(sections) == 0 {
		t.Fatalf("%s: no change", page)
	}
	for _, s := range sections {
		for _, want := range []string{
			`<span class="langblock" data-lang="en"><span class="badge badge-`,
			`<span class="langblock" data-lang="ko" hidden><span class="badge badge-`,
		} {
			if !strings.Contains(s[2], want) {
				t.Errorf("%s#%s lacks %s", page, s[1], want)
			}
		}
		before := ch[:strings.Index(ch, s[0])]
		heading := before[strings.LastIndex(before, `<h3 class="cites">`):]
		for _, want := range []string{
			`<span class="langblock" data-lang="en"><a href="../en/walkthroughs/deployment.html`,
			`<span class="langblock" data-lang="ko" hidden><a href="../ko/walkthroughs/deployment.html`,
		} {
			if !strings.Contains(heading[:strings.Index(heading, "</h3>")], want) {
				t.Errorf("%s#%s: its step's heading lacks %s", page, s[1], want)
			}
		}
	}
	for _, want := range []string{
		`<div class="langblock" data-lang="en" data-title="Changes since ` + oldTag + ` · kubewalk · ` + newTag + `">`,
		`<div class="langblock" data-lang="ko" data-title="` + oldTag + ` 이후 바뀐 것 · kubewalk · ` + newTag + `" hidden>`,
		`<h1>` + oldTag + ` 이후 바뀐 것</h1>`,
		`<a href="changes.html?lang=ko" hreflang="ko" lang="ko" data-switch>`,
		`<a href="changes.html" hreflang="en" lang="en" data-switch>`,
		`<script src="../assets/lang.js"></script>`,
	} {
		if !strings.Contains(ch, want) {
			t.Errorf("%s lacks %s", page, want)
		}
	}

	// Every link to it names the language of the page it is on, and a
	// change the page has.
	ids := map[string]bool{"": true}
	for _, s := range sections {
		ids[s[1]] = true
	}
	links := regexp.MustCompile(`href="([^"]*/` + regexp.QuoteMeta(changesPage) + `)(\?lang=[a-z]+)?(?:#([^"]*))?"`)
	n := map[string]int{}
	for p, data := range files {
		lang, _, _ := strings.Cut(strings.TrimPrefix(p, newTag+"/"), "/")
		if !strings.HasSuffix(p, ".html") || p == page || (lang != "en" && lang != "ko") {
			continue
		}
		for _, m := range links.FindAllStringSubmatch(data, -1) {
			if got := path.Join(path.Dir(p), m[1]); got != page {
				t.Errorf("%s links %s, want %s", p, got, page)
			}
			if want := map[string]string{"en": "", "ko": "?lang=ko"}[lang]; m[2] != want || !ids[m[3]] {
				t.Errorf("%s links %s%s#%s, want %s and one of its changes", p, m[1], m[2], m[3], want)
			}
			n[lang]++
		}
	}
	// The home page and the badges.
	if n["en"] < 3 || n["ko"] < 3 {
		t.Errorf("links to the changes page per language: %v, want the home page's and the badges'", n)
	}
	if !regexp.MustCompile(`<a class="badge badge-changed" data-diff="" href="../../` + newTag + `/changes.html\?lang=ko#d`).MatchString(files["ko/"+WalkthroughPage("deployment")]) {
		t.Errorf("the Korean walkthrough's badge does not link the changes page in Korean")
	}
	for _, err := range linkcheck.Check(out, ScriptLinks) {
		t.Error(err)
	}
	if diff := cmp.Diff(files, readTree(t, buildMultiBilingual(t))); diff != "" {
		t.Errorf("two builds differ (-first +second):\n%.2000s", diff)
	}
}
