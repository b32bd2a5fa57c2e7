package site

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/kubewalk/kubewalk/internal/linkcheck"
	"github.com/kubewalk/kubewalk/source"
)

// threeReleases is multiFixture's two releases, the older on
// shiftedTree, and a third, oldestTag, the older's like, in English and
// Korean (as buildMultiSearch). The newest release renamed the deployment
// walkthrough's first step, so the deployment controller's source header
// in the two older releases is each other's but not the newest's, and
// their cited lines are three further down than the page's anchors.
func threeReleases(t testing.TB) ([]Release, Options) {
	t.Helper()
	rels, opts := multiFixtureOf(t, shiftedTree(t))
	again, _ := multiFixtureOf(t, shiftedTree(t))
	oldest := again[0] // given oldest first
	oldest.Tag = oldestTag
	oldest.SourceURL = func(p string, from, to int) string { return source.Permalink(oldestTag, p, from, to) }
	rels = append([]Release{oldest}, rels...)
	for _, d := range rels[2].Docs {
		if d.ID == "deployment" {
			d.Steps[0].Title += " (renamed)"
		}
	}
	for i := range rels {
		bilingual(&rels[i].Input)
	}
	return rels, opts
}

// buildThree builds threeReleases into a new directory, every release's
// source header written whole when explicit, and returns it.
func buildThree(t testing.TB, explicit bool) string {
	t.Helper()
	rels, opts := threeReleases(t)
	opts.Out = filepath.Join(t.TempDir(), "public")
	if _, err := buildReleases(context.Background(), rels, opts, tuning{explicitHeaders: explicit}); err != nil {
		t.Fatal(err)
	}
	return opts.Out
}

// TestSharedHeadLikeOlder: an older release's source header that is not
// the newest's but is another older release's, written whole earlier on
// the page, is made by site.js from that one (data-head names it). The
// one written whole is written in anchor form: the page's anchors for
// its cited lines and the newest's number of lines, its own in data-n.
func TestSharedHeadLikeOlder(t *testing.T) {
	out := buildThree(t, false)
	page, err := os.ReadFile(filepath.Join(out, "src/"+changedFile+".html"))
	if err != nil {
		t.Fatal(err)
	}
	tr, newest := shiftedTree(t), loadTree(t)
	n := strings.Count(string(tr[changedFile]), "\n")
	nNewest := strings.Count(string(newest[changedFile]), "\n")
	// The first step cites NewDeploymentController: in the page's
	// anchors, the newest's numbers.
	decl := newest.decl(t, changedFile, "func NewDeploymentController")
	anchors := lineFragment(decl.StartLine, decl.EndLine)
	for _, lang := range []string{"en", "ko"} {
		block := regexp.MustCompile(`<div class="langblock" data-lang="` + lang + `" data-rel="` + oldTag + `" data-n="` + strconv.Itoa(n) + `" hidden><header class="srchead">(?s:.*?)</header></div>`).FindString(string(page))
		if block == "" {
			t.Errorf("%s: the source header of %s is not written whole with its number of lines, %d", lang, oldTag, n)
		} else if !strings.Contains(block, `<span class="count">`+strconv.Itoa(nNewest)+`</span>`) || !strings.Contains(block, `<span class="lines">`+anchors+`</span>`) {
			t.Errorf("%s: the source header of %s is not in anchor form (%d lines, %s):\n%s", lang, oldTag, nNewest, anchors, block)
		}
		made := `<div class="langblock" data-lang="` + lang + `" data-rel="` + oldestTag + `" data-head="` + oldTag + `" data-n="` + strconv.Itoa(n) + `" hidden></div>`
		if !strings.Contains(string(page), made) {
			t.Errorf("%s: the source header of %s is not made from %s's: no %s", lang, oldestTag, oldTag, made)
		}
	}
	if strings.Contains(string(page), `data-head="`+newTag+`"`) {
		t.Errorf("an older release's source header is made from the newest's, which renamed a step")
	}
	for _, err := range linkcheck.Check(out, ScriptLinks) {
		t.Error(err)
	}
}

// TestBrowserHeadLikeOlder: read as the oldest release, the source header
// made from the older release's (TestSharedHeadLikeOlder) is the one the
// page written with every header whole shows: its own number of lines,
// its cited lines as it numbers them, its ?rel= and its GitHub tag; so
// is the older release's, written in anchor form, read as that release,
// and a header made from it starts from its anchors.
func TestBrowserHeadLikeOlder(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	made, whole := buildThree(t, false), buildThree(t, true)
	tr := shiftedTree(t)
	decl := tr.decl(t, changedFile, "func NewDeploymentController")
	own := lineFragment(decl.StartLine, decl.EndLine)
	n := strconv.Itoa(strings.Count(string(tr[changedFile]), "\n"))
	ctx := browser(t, 1280, 700)
	// header is the source header shown, outerHTML; what it says; and
	// whether a shown block still has data-n, and the older release's
	// block (as written, hidden) its anchor form's first cited lines.
	type shown struct {
		HTML, Count, Lines, GitHub, Cite, Pending, Source string
	}
	header := func(root, query string) shown {
		t.Helper()
		openPage(t, ctx, fileURL(t, root)+"src/"+changedFile+".html"+query)
		got, err := chromedp.Run(ctx, chromedp.Evaluate[shown](`(() => {
			const h = document.querySelector('.langblock:not([hidden]) header.srchead');
			const src = document.querySelector('.langblock[hidden][data-rel="`+oldTag+`"] header.srchead span.lines');
			if (!h) return {};
			return {HTML: h.outerHTML, Count: h.querySelector('.count').textContent,
				Lines: h.querySelector('span.lines').textContent,
				GitHub: h.querySelector('a.gh').getAttribute('href'),
				Cite: h.querySelector('details.cites li a').getAttribute('href'),
				Pending: String(document.querySelectorAll('.langblock:not([hidden])[data-n]').length),
				Source: src ? src.textContent : ''};
		})()`))
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	anchors := header(made, "").Lines // the newest's: the page's anchors
	for _, q := range []string{"?rel=" + oldestTag, "?rel=" + oldestTag + "&lang=ko", "?rel=" + oldTag, "?rel=" + oldTag + "&lang=ko"} {
		rel := strings.TrimPrefix(strings.Split(q, "&")[0], "?rel=")
		got, want := header(made, q), header(whole, q)
		if got.HTML == "" || got.HTML != want.HTML {
			t.Errorf("source header at %s made by site.js:\n%s\nwritten:\n%s", q, got.HTML, want.HTML)
		}
		if got.Count != n || got.Lines != own || !strings.Contains(got.GitHub, "/blob/"+rel+"/") || !strings.Contains(got.Cite, "rel="+rel) {
			t.Errorf("source header at %s: %s lines, cited %s, links %s and %s; want %s lines, cited %s, links at %s",
				q, got.Count, got.Lines, got.GitHub, got.Cite, n, own, rel)
		}
		if got.Pending != "0" {
			t.Errorf("at %s, %s shown blocks keep data-n: not renumbered, or not marked so", q, got.Pending)
		}
		if rel == oldestTag && got.Source != anchors {
			t.Errorf("at %s, the header it is made from has become %q, want its anchors %q", q, got.Source, anchors)
		}
	}
	if anchors == own {
		t.Fatalf("the newest cites %s, as the older releases number it: nothing to renumber", own)
	}
}
