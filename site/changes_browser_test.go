package site

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// TestBrowserBilingualChanges opens a bilingual multi-release site from
// file://: a Korean reader who opens a change's diff from its badge and
// follows its link lands on its diff on the release's one changes page, in Korean (its header, text,
// title, the steps it links), under the page's Content-Security-Policy;
// the language switch keeps the change in view, both ways; at 390 px the
// page does not scroll sideways in either language. Without script, the
// walkthrough's badge lands on the same change, whose diff the page says
// how to print, as site.js draws it.
func TestBrowserBilingualChanges(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	base := fileURL(t, buildMultiBilingual(t))
	ctx := browser(t, 1280, 700)
	recordViolations(t, ctx)
	// where is the page open, from the site's root, and its language.
	where := func(t *testing.T) (string, string) {
		t.Helper()
		var got []string
		for range 50 { // a click is a navigation: wait for it
			var err error
			got, err = chromedp.Run(ctx, chromedp.Evaluate[[]string](`[location.href, document.documentElement.lang, document.readyState]`))
			if err == nil && got[2] == "complete" && !strings.HasPrefix(got[0], "about:") {
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
		return strings.TrimPrefix(got[0], base), got[1]
	}
	click := func(t *testing.T, sel string) {
		t.Helper()
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(sel))); err != nil {
			t.Fatalf("click %s: %v", sel, err)
		}
		time.Sleep(300 * time.Millisecond)
	}
	// shown is what the reader sees of the change with id id: its badge,
	// the step it is listed under, the first line of its diff, whether the
	// section is in view, the page's title, and the text of the language
	// blocks not shown in the other language.
	shown := func(t *testing.T, id string) []string {
		t.Helper()
		got, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`(() => {
			const vis = e => !!e && e.getClientRects().length > 0;
			const s = document.getElementById(`+"`"+id+"`"+`);
			if (!s) return ["no section"];
			const badge = [...s.querySelectorAll("h4 .badge")].filter(vis).map(b => b.textContent).join("|");
			let h = s.previousElementSibling;
			while (h && h.tagName !== "H3") h = h.previousElementSibling;
			const cite = h ? [...h.querySelectorAll("a")].filter(vis).map(a => a.getAttribute("href"))[0] || "" : "";
			const pre = s.querySelector("pre.diff"), r = s.getBoundingClientRect();
			const other = document.documentElement.lang === "ko" ? "en" : "ko";
			const leak = [...document.querySelectorAll(".langblock[data-lang=" + other + "]")].filter(vis).length;
			return [badge, cite, vis(pre) ? pre.textContent : "", String(r.top >= 0 && r.top < innerHeight), document.title, String(leak)];
		})()`))
		if err != nil {
			t.Fatal(err)
		}
		return got
	}

	var id string // the change the badge links
	t.Run("badge, Korean", func(t *testing.T) {
		openPage(t, ctx, base+"ko/"+WalkthroughPage("deployment")+"#step-2-rollout")
		click(t, `#step-2-rollout a.badge-changed`) // opens its diff, which links the change
		click(t, `#step-2-rollout .diffbox a`)
		p, lang := where(t)
		page, frag, _ := strings.Cut(p, "#")
		if page != newTag+"/changes.html?lang=ko" || lang != "ko" {
			t.Fatalf("the Korean badge opened %s (%s), want %s/changes.html?lang=ko in Korean", p, lang, newTag)
		}
		id = frag
		got := shown(t, id)
		if len(got) != 6 || got[0] != oldTag+" 이후 변경" || !strings.Contains(got[1], "/ko/walkthroughs/deployment.html") ||
			!strings.Contains(got[2], "new := 2") || got[3] != "true" || !strings.HasPrefix(got[4], oldTag+" 이후 바뀐 것") || got[5] != "0" {
			t.Errorf("%s in Korean: badge, step, diff, in view, title, English blocks shown = %q", p, got)
		}
		if n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll(".diffs-nojs").length`)); err != nil || n != 0 {
			t.Errorf("%s: %d notes that the diffs need script (%v), with the diffs drawn", p, n, err)
		}
		// Its two scripts (site.js, lang.js) run under the page's policy.
		if v, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`window.__csp`)); err != nil || len(v) > 0 {
			t.Errorf("%s: policy violations %q (%v)", p, v, err)
		}
	})
	t.Run("switch to English and back", func(t *testing.T) {
		click(t, `.langblock:not([hidden]) a[data-switch][hreflang=en]`)
		if p, lang := where(t); p != newTag+"/changes.html#"+id || lang != "en" {
			t.Errorf("switched to %s (%s), want the same change in English", p, lang)
		}
		got := shown(t, id)
		if len(got) != 6 || got[0] != "changed since "+oldTag || !strings.Contains(got[1], "/en/walkthroughs/deployment.html") ||
			!strings.Contains(got[2], "new := 2") || got[3] != "true" || !strings.HasPrefix(got[4], "Changes since "+oldTag) || got[5] != "0" {
			t.Errorf("in English: badge, step, diff, in view, title, Korean blocks shown = %q", got)
		}
		click(t, `.langblock:not([hidden]) a[data-switch][hreflang=ko]`)
		if p, lang := where(t); p != newTag+"/changes.html?lang=ko#"+id || lang != "ko" {
			t.Errorf("switched back to %s (%s)", p, lang)
		}
	})
	t.Run("home, Korean", func(t *testing.T) {
		openPage(t, ctx, base+newTag+"/ko/index.html")
		click(t, `main a[href*="changes.html"]`)
		if p, lang := where(t); p != newTag+"/changes.html?lang=ko" || lang != "ko" {
			t.Errorf("the Korean home's link opened %s (%s)", p, lang)
		}
	})
	t.Run("phone", func(t *testing.T) {
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile)); err != nil {
			t.Fatal(err)
		}
		noOverflow(t, ctx, func(t *testing.T, p string) { t.Helper(); openPage(t, ctx, base+p) }, newTag+"/changes.html?lang=ko", newTag+"/changes.html")
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 700)); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("no script", func(t *testing.T) {
		err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true})
			return err
		}))
		if err != nil {
			t.Fatal(err)
		}
		openPage(t, ctx, base+"ko/"+WalkthroughPage("deployment")+"#step-2-rollout")
		// Without script the badge goes to the change.
		click(t, `#step-2-rollout a.badge-changed`)
		p, _ := where(t)
		if p != newTag+"/changes.html?lang=ko#"+id {
			t.Fatalf("without script the badge opened %s, want %s/changes.html?lang=ko#%s", p, newTag, id)
		}
		got := shown(t, id)
		if len(got) != 6 || got[2] != "" || got[3] != "true" {
			t.Errorf("without script: badge, step, diff, in view, title, blocks shown = %q, want the change in view, no diff", got)
		}
		note, err := chromedp.Run(ctx, chromedp.Evaluate[string](`[...document.querySelectorAll(".diffs-nojs")].filter(e => e.getClientRects().length).map(e => e.textContent).join("|")`))
		if err != nil || !strings.Contains(note, "kubewalk diff --from "+oldTag+" --to "+newTag) {
			t.Errorf("without script the page says %q (%v), want how to print the diffs", note, err)
		}
		ran, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.documentElement.lang`))
		if err != nil || ran != "en" {
			t.Errorf("without script the page's language is %q (%v): did site.js run?", ran, err)
		}
	})
}
