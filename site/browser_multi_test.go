package site

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserVersionSwitch switches release from a walkthrough step and
// lands on the same step in the other release; from a step the other
// release lacks, on the same walkthrough's top. It also opens a diff,
// which site.js loads from the walkthrough's diffs script.
func TestBrowserVersionSwitch(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	out := buildMulti(t)
	art := artifacts(t)
	srv := httptest.NewServer(http.FileServer(http.Dir(out)))
	defer srv.Close()
	ctx := browser(t, 1280, 800)

	switchFrom := func(step string) string {
		t.Helper()
		err := chromedp.Do(ctx,
			chromedp.Navigate(srv.URL+"/walkthroughs/deployment.html#"+step),
			chromedp.WaitVisible(chromedp.CSS("#"+step)),
			chromedp.Click(chromedp.CSS(`details.versions summary`)),
			chromedp.WaitVisible(chromedp.CSS(`details.versions a[data-keep]:not([hidden])`)),
		)
		if err != nil {
			t.Fatalf("open switcher on %s: %v", step, err)
		}
		if step == "step-2-rollout" {
			screenshot(t, ctx, art, "multi-switcher.png", false)
		}
		err = chromedp.Do(ctx,
			chromedp.Click(chromedp.CSS(`details.versions a[data-keep]:not([hidden])`)),
			chromedp.WaitReady(chromedp.CSS(`body`)),
		)
		if err != nil {
			t.Fatalf("switch from %s: %v", step, err)
		}
		var url string
		for range 50 { // the click navigates; wait for the other release
			url, err = chromedp.Run(ctx, chromedp.Location())
			if err == nil && strings.Contains(url, "rel="+oldTag) {
				break
			}
			chromedp.Do(ctx, chromedp.Sleep(100*time.Millisecond))
		}
		return strings.TrimPrefix(url, srv.URL)
	}
	if got, want := switchFrom("step-2-rollout"), "/walkthroughs/deployment.html?rel="+oldTag+"#step-2-rollout"; got != want {
		t.Errorf("switch from step 2: landed on %s, want %s", got, want)
	}
	if got, want := switchFrom("step-3-schedule"), "/walkthroughs/deployment.html?rel="+oldTag; got != want {
		t.Errorf("switch from step 3 (not in %s): landed on %s, want %s", oldTag, got, want)
	}

	// A diff, opened by its badge, loaded on demand and written as text,
	// with a link to the change on the changes page; a second click on the
	// badge closes it.
	err := chromedp.Do(ctx,
		chromedp.Navigate(srv.URL+"/walkthroughs/deployment.html#step-2-rollout"),
		chromedp.WaitVisible(chromedp.CSS(`#step-2-rollout a.badge[data-diff]`)),
		chromedp.Click(chromedp.CSS(`#step-2-rollout a.badge[data-diff]`)),
		chromedp.WaitVisible(chromedp.CSS(`#step-2-rollout .diffbox pre span.xd`)),
	)
	if err != nil {
		t.Fatalf("open diff: %v", err)
	}
	type diffState struct {
		Deleted, Inserted, Link, Expanded, Page string
		Scripts                                 int
	}
	state := func() diffState {
		t.Helper()
		st, err := chromedp.Run(ctx, chromedp.Evaluate[diffState](`(() => {
			const pre = document.querySelector('#step-2-rollout .diffbox pre'), a = document.querySelector('#step-2-rollout a.badge[data-diff]');
			const link = document.querySelector('#step-2-rollout .diffbox a');
			return {Deleted: pre ? [...pre.querySelectorAll('.xd')].map(e => e.textContent).join('') : '',
				Inserted: pre ? [...pre.querySelectorAll('.xi')].map(e => e.textContent).join('') : '',
				Link: link ? link.getAttribute('href') : '', Expanded: a.getAttribute('aria-expanded') || '',
				Page: location.pathname, Scripts: pre ? pre.querySelectorAll('script').length : 0};
		})()`))
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	st := state()
	if !strings.Contains(st.Deleted, `old := "<script>alert(1)</script>"`) || !strings.Contains(st.Inserted, "new := 2") || st.Scripts != 0 ||
		!strings.Contains(st.Link, "/changes.html#d") || st.Expanded != "true" || st.Page != "/walkthroughs/deployment.html" {
		t.Errorf("diff rendered as %+v", st)
	}
	screenshot(t, ctx, art, "multi-diff.png", false)
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#step-2-rollout a.badge[data-diff]`))); err != nil {
		t.Fatal(err)
	}
	if st := state(); st.Link != "" || st.Expanded != "false" || st.Page != "/walkthroughs/deployment.html" {
		t.Errorf("a second click on the badge left %+v", st)
	}
}

// TestBrowserBilingualDiffs opens a diff on the English and the Korean
// deployment walkthrough of a site of two bilingual releases, from
// file://: both load the release's one diffs script and write its text.
func TestBrowserBilingualDiffs(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	base := fileURL(t, buildMultiBilingual(t))
	ctx := browser(t, 1280, 800)
	for _, lang := range []string{"en", "ko"} {
		openPage(t, ctx, base+lang+"/"+WalkthroughPage("deployment")+"#step-2-rollout")
		err := chromedp.Do(ctx,
			chromedp.Click(chromedp.CSS(`#step-2-rollout a.badge[data-diff]`)),
			chromedp.WaitVisible(chromedp.CSS(`#step-2-rollout .diffbox pre span.xi`)),
		)
		if err != nil {
			t.Fatalf("%s: open diff: %v", lang, err)
		}
		got, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[document.querySelector('#step-2-rollout .diffbox pre').textContent,
			...[...document.scripts].map(s => s.src).filter(s => s.endsWith('/diffs.js'))]`))
		if err != nil {
			t.Fatal(err)
		}
		if want := base + newTag + "/" + diffsFile; len(got) != 2 || !strings.Contains(got[0], "new := 2") || got[1] != want {
			t.Errorf("%s: diff and its script %q, want the text of %s", lang, got, want)
		}
	}
}

// TestBrowserDiffSameAsAnother: a change whose diff is another's is that
// one's number in the diffs script ("=N"); opened, it shows the text.
func TestBrowserDiffSameAsAnother(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	js, err := diffsScript(map[string]string{"1": "--- a\n+++ b\n+new\n", "2": "--- a\n+++ b\n+new\n", "10": "--- c\n+++ d\n-old\n"})
	if err != nil {
		t.Fatal(err)
	}
	if want := `window.kubewalkDiffs = {"1":"--- a\n+++ b\n+new\n","10":"--- c\n+++ d\n-old\n","2":"=1"};` + "\n"; string(js) != want {
		t.Errorf("diffs script:\n%s\nwant\n%s", js, want)
	}
	page := `<!DOCTYPE html><html lang="en"><head><title>T</title></head><body><div hidden data-diffs="d.diffs.js"></div>` +
		`<template id="diffbox"><div class="diffbox"><pre class="code diff"></pre><p><a>on the changes page</a></p></div></template>` +
		`<ul class="changes"><li><a class="badge" data-diff href="c.html#d2">changed</a></li></ul><script src="releases.js"></script><script src="site.js"></script></body></html>`
	dir := withSiteJS(t, map[string]string{"w.html": page, "d.diffs.js": string(js)})
	ctx := browser(t, 800, 600)
	openPage(t, ctx, fileURL(t, dir)+"w.html")
	err = chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`a.badge`)), chromedp.WaitVisible(chromedp.CSS(`.diffbox pre span.xi`)))
	if err != nil {
		t.Fatal(err)
	}
	got, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('.diffbox pre').textContent`))
	if err != nil || got != "--- a\n+++ b\n+new\n" {
		t.Errorf("change 2's diff reads %q (%v), want change 1's", got, err)
	}
}
