package site

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestBrowserBilingual opens the bilingual site from file:// and switches
// language on a walkthrough step, a source line and an event reason: each
// lands on the same place in the other language. A Korean page's link
// into the shared source pages shows them in Korean; the search finds a
// Korean word and pasted event text; at 390 px no Korean page scrolls
// sideways. It stays one function: its subtests are steps on one tab of
// one built site (the Korean browser set at the root stays for the rest),
// sharing open, where and click.
func TestBrowserBilingual(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	out, _ := buildFixture(t, func(in *Input) {
		bilingual(in)
		// A step that names an event without showing its message: the
		// index gives it the event's message format, so text pasted from
		// kubectl get events finds it.
		for _, d := range in.Docs {
			if d.ID == "deployment" && d.Lang == "en" {
				d.Steps[0].Segments = append(d.Steps[0].Segments, prose("Then ScalingReplicaSet."))
			}
		}
	})
	base := fileURL(t, out)
	ctx := browser(t, 1280, 700)
	open := func(t *testing.T, p string) { t.Helper(); openPage(t, ctx, base+p) }
	// where is the page open, from the site's root, and its language.
	where := func(t *testing.T) (string, string) {
		t.Helper()
		var got []string
		for range 50 { // the switch is a navigation: wait for it
			var err error
			got, err = chromedp.Run(ctx, chromedp.Evaluate[[]string](`[location.href, document.documentElement.lang, document.readyState]`))
			if err == nil && got[2] == "complete" && !strings.HasPrefix(got[0], "about:") {
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
		return strings.TrimPrefix(got[0], base), got[1]
	}
	click := func(t *testing.T, sel string) { t.Helper(); clickAndSettle(t, ctx, sel) }
	const switchTo = `.langblock:not([hidden]) a[data-switch][hreflang=ko], header.top a[data-switch][hreflang=ko]`

	t.Run("root", func(t *testing.T) {
		open(t, "index.html")
		if p, lang := where(t); p != "en/index.html" || lang != "en" {
			t.Errorf("the root sent an English browser to %s (%s)", p, lang)
		}
		// A browser preferring Korean (navigator.languages ko-KR, ko).
		err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, emulation.SetUserAgentOverride, emulation.SetUserAgentOverrideParams{UserAgent: "kubewalk-test", AcceptLanguage: "ko-KR,ko"})
			return err
		}))
		if err != nil {
			t.Fatal(err)
		}
		open(t, "index.html")
		if p, lang := where(t); p != "ko/index.html" || lang != "ko" {
			t.Errorf("the root sent a Korean browser to %s (%s)", p, lang)
		}
	})
	t.Run("walkthrough step", func(t *testing.T) {
		open(t, "en/walkthroughs/deployment.html#step-3-schedule")
		click(t, switchTo)
		if p, lang := where(t); p != "ko/walkthroughs/deployment.html#step-3-schedule" || lang != "ko" {
			t.Errorf("switched to %s (%s), want the same step in Korean", p, lang)
		}
	})
	t.Run("source line", func(t *testing.T) {
		open(t, "src/pkg/controller/deployment/sync.go.html#L7")
		click(t, switchTo)
		p, lang := where(t)
		if p != "src/pkg/controller/deployment/sync.go.html?lang=ko#L7" || lang != "ko" {
			t.Errorf("switched to %s (%s), want the same line in Korean", p, lang)
		}
		got, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[
			document.querySelector('.langblock:not([hidden]) a.brand').getAttribute('href'),
			String(document.getElementById('L7').classList.contains('hl')),
			document.querySelector('.langblock:not([hidden]) .cites summary').textContent]`))
		if err != nil || !strings.HasSuffix(got[0], "/ko/index.html") || got[1] != "true" || !strings.Contains(got[2], "인용") {
			t.Errorf("Korean source page: header home %q, line 7 highlighted %s, backlinks %q (%v)", got[0], got[1], got[2], err)
		}
		// And back.
		click(t, `.langblock:not([hidden]) a[data-switch][hreflang=en]`)
		if p, lang := where(t); p != "src/pkg/controller/deployment/sync.go.html#L7" || lang != "en" {
			t.Errorf("switched back to %s (%s)", p, lang)
		}
	})
	// An index page is one page for both languages (langshare.go):
	// ?lang= shows the Korean rendering, its title, heading and row.
	shown := `[document.title, Array.from(document.querySelectorAll('main h1')).filter(e => e.getClientRects().length).map(e => e.innerText).join('|'), String(document.getElementById(location.hash.slice(1)).getClientRects().length > 0)]`
	t.Run("index", func(t *testing.T) {
		id := anchorID("e-", "ScalingReplicaSet")
		open(t, "events.html#"+id)
		click(t, switchTo)
		if p, lang := where(t); p != "events.html?lang=ko#"+id || lang != "ko" {
			t.Errorf("switched to %s (%s), want the same event in Korean", p, lang)
		}
		got, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](shown))
		if err != nil || !strings.HasPrefix(got[0], "이벤트") || got[1] != "이벤트" || got[2] != "true" {
			t.Errorf("the events page in Korean: title %q, heading shown %q, row shown %s (%v)", got[0], got[1], got[2], err)
		}
		// A Korean page's link to an index page carries the language.
		open(t, "ko/index.html")
		click(t, `header.top a[href$="handlers.html"]`)
		if p, lang := where(t); p != "handlers.html?lang=ko" || lang != "ko" {
			t.Errorf("the Korean home's link to the handlers opened %s (%s)", p, lang)
		}
		// And from there, to another index page.
		click(t, `header.top a[href$="events.html"]`)
		if p, lang := where(t); p != "events.html?lang=ko" || lang != "ko" {
			t.Errorf("the Korean handlers page's link to the events opened %s (%s)", p, lang)
		}
	})
	t.Run("into the source from Korean", func(t *testing.T) {
		open(t, "ko/walkthroughs/deployment.html#step-2-rollout")
		click(t, `#step-2-rollout .exhead a.file`)
		p, lang := where(t)
		if !strings.HasPrefix(p, "src/pkg/controller/deployment/sync.go.html?lang=ko#L") || lang != "ko" {
			t.Errorf("a Korean step's code link opened %s (%s)", p, lang)
		}
	})
	t.Run("search", func(t *testing.T) {
		for _, c := range []struct{ page, q, want string }{
			{"ko/search.html", "디플로이먼트", "walkthroughs/deployment.html"},
			{"ko/search.html", "스케줄", "walkthroughs/deployment.html#step-3-schedule"},
			// Pasted from kubectl get events: the names are not in the
			// message format, the rest is.
			{"en/search.html", "Scaled up replica set nginx-deployment-cbdccf466 to 3", "walkthroughs/deployment.html#step-3-schedule"},
			{"en/search.html", "Scaled up replica set nginx-deployment-cbdccf466 to 3", "walkthroughs/deployment.html#step-1-informer"},
			{"en/search.html", "getNewReplica", "src/pkg/controller/deployment/sync.go.html#L"},
			// A symbol is an entry both languages share (search-shared.js).
			{"ko/search.html", "getNewReplica", "src/pkg/controller/deployment/sync.go.html#L"},
		} {
			open(t, c.page+"?q="+c.q)
			got, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll('#results a')).slice(0, 3).map(a => a.getAttribute('href'))`))
			if err != nil || !strings.Contains(strings.Join(got, " "), c.want) {
				t.Errorf("%s %q: top results %q (%v), want %s among them", c.page, c.q, got, err, c.want)
			}
		}
		// Keyboard: down from the box to the first result, Enter follows it.
		open(t, "ko/search.html?q=디플로이먼트")
		err := chromedp.Do(ctx, chromedp.Focus(chromedp.CSS("#q")), chromedp.KeyEvent(kb.ArrowDown))
		if err != nil {
			t.Fatal(err)
		}
		focused, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.activeElement === document.querySelector('#results a') ? 'first' : document.activeElement.tagName`))
		if err != nil || focused != "first" {
			t.Errorf("ArrowDown in the box focused %q (%v), want the first result", focused, err)
		}
		if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.Enter)); err != nil {
			t.Fatal(err)
		}
		time.Sleep(300 * time.Millisecond)
		if p, _ := where(t); !strings.HasPrefix(p, "ko/walkthroughs/deployment.html") {
			t.Errorf("Enter on the first result opened %s", p)
		}
		// A symbol's entry is shared by the languages and names none; the
		// Korean reader who follows it reads the source page in Korean.
		open(t, "ko/search.html?q=getNewReplica")
		click(t, `#results a[href*="sync.go.html"]`)
		if p, lang := where(t); !strings.HasPrefix(p, "src/pkg/controller/deployment/sync.go.html") || lang != "ko" {
			t.Errorf("a Korean search result opened %s in %q, want the source page in Korean", p, lang)
		}
	})
	t.Run("phone", func(t *testing.T) {
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile)); err != nil {
			t.Fatal(err)
		}
		noOverflow(t, ctx, open, "index.html", "ko/index.html", "ko/walkthroughs/deployment.html", "events.html?lang=ko", "handlers.html?lang=ko", "src/pkg/controller/deployment/sync.go.html?lang=ko", "ko/search.html?q=디플로이먼트")
		// Identifiers and file:line in fact tables stay whole: the table
		// scrolls in its box rather than break them.
		for _, p := range []string{"handlers.html?lang=ko", "events.html?lang=ko", "ko/walkthroughs/deployment.html"} {
			open(t, p)
			bad, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll('table.facts .sym, table.facts .loc')).filter(e => e.getClientRects().length > 1).map(e => e.textContent)`))
			if err != nil || len(bad) > 0 {
				t.Errorf("%s at 390 px: identifiers broken across lines: %q (%v)", p, bad, err)
			}
		}
		for _, p := range []string{"ko/walkthroughs/deployment.html#step-3-schedule", "src/pkg/controller/deployment/sync.go.html?lang=ko#L7"} {
			open(t, p)
			id := p[strings.Index(p, "#")+1:]
			d, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](`(() => {
				const h = [...document.querySelectorAll('header.top')].find(h => h.offsetParent !== null);
				return [document.getElementById(`+"`"+id+"`"+`).getBoundingClientRect().top, h.getBoundingClientRect().bottom, window.innerHeight];
			})()`))
			if err != nil || len(d) != 3 || d[0] < d[1] || d[0] >= d[2] {
				t.Errorf("%s at 390 px: target's top, header's bottom, window = %v (%v): hidden", p, d, err)
			}
		}
	})
}
