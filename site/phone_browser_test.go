package site

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// wideTable is a step table wider than a phone: code words that cannot
// wrap, in many columns.
const wideTable = "| Event | Reason | Object | Message |\n|---|---|---|---|\n" +
	"| `Normal` | `ScalingReplicaSet` | `deployment/nginx-deployment-with-a-long-name` | `Scaled-up-replica-set-nginx-deployment-cbdccf466-to-3` |\n"

// narrowTable fits a phone: it stays a table.
const narrowTable = "| Tiny | N |\n|---|---|\n| create | 1 |\n"

// TestBrowserPhone opens the site as a 390 px phone does. A jump to a step,
// a source line or an event reason lands with its target on screen and
// below the header's bottom (and a step's at 1100 and 1400 px too); nothing in a step, the explain results or
// an index reaches past the right edge unless a box of its own scrolls it;
// the sequence diagram keeps its labels at a readable size (its frame
// scrolls instead); line numbers reach WCAG AA contrast (4.5:1) in both
// colour schemes; search and explain results are announced (a live
// region holds their count). It stays one function: its subtests are
// steps on one tab of one built site, each leaving the viewport and colour
// scheme as the next expects.
func TestBrowserPhone(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	out, _ := buildFixture(t, func(in *Input) {
		for _, d := range in.Docs {
			if d.ID == "deployment" {
				d.Steps[1].Segments = append(d.Steps[1].Segments, prose(wideTable), prose(narrowTable))
			}
		}
	})
	art := artifacts(t)
	srv := httptest.NewServer(http.FileServer(http.Dir(out)))
	defer srv.Close()
	ctx := browser(t, 390, 844)
	if err := chromedp.Do(ctx, colorScheme("light"), chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile)); err != nil {
		t.Fatal(err)
	}
	open := func(t *testing.T, p string) { t.Helper(); openPage(t, ctx, srv.URL+"/"+p) }

	t.Run("anchors", func(t *testing.T) {
		type place struct{ Top, Bottom, HeaderBottom, Height, ScrollY float64 }
		open(t, "events.html")
		eventID, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(document.querySelector('[id^="e-"]') || {}).id || ""`))
		if err != nil || eventID == "" {
			t.Fatalf("no event anchor on events.html (%v)", err)
		}
		for _, p := range []string{
			"walkthroughs/deployment.html#step-2-rollout",
			"walkthroughs/deployment.html#step-3-schedule",
			"src/pkg/controller/deployment/sync.go.html#L7",
			"events.html#" + eventID,
		} {
			open(t, p)
			id := p[strings.Index(p, "#")+1:]
			at, err := chromedp.Run(ctx, chromedp.Evaluate[place](`(() => {
				const r = document.getElementById(`+"`"+id+"`"+`).getBoundingClientRect();
				const h = document.querySelector('header.top').getBoundingClientRect();
				return {Top: r.top, Bottom: r.bottom, HeaderBottom: h.bottom, Height: window.innerHeight, ScrollY: window.scrollY};
			})()`))
			if err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			if at.Top < at.HeaderBottom || at.Top < 0 || at.Top >= at.Height {
				t.Errorf("%s: target's top at %.0f px, header's bottom at %.0f px, window %.0f px high (scrolled %.0f): hidden", p, at.Top, at.HeaderBottom, at.Height, at.ScrollY)
			}
			if p == "walkthroughs/deployment.html#step-2-rollout" {
				screenshot(t, ctx, art, "phone-walkthrough-step.png", false)
			}
			if strings.HasPrefix(p, "src/") {
				screenshot(t, ctx, art, "phone-source-line.png", false)
			}
		}
	})

	// Just above the width where the header stops sticking it is still
	// one line, under the space the page reserves for it.
	t.Run("anchors wide", func(t *testing.T) {
		for _, w := range []int64{1100, 1400} {
			if err := chromedp.Do(ctx, chromedp.EmulateViewport(w, 700)); err != nil {
				t.Fatal(err)
			}
			open(t, "walkthroughs/deployment.html#step-2-rollout")
			d, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](`[document.getElementById('step-2-rollout').getBoundingClientRect().top, document.querySelector('header.top').getBoundingClientRect().bottom, document.querySelector('header.top').getBoundingClientRect().height]`))
			if err != nil || len(d) != 3 || d[0] < d[1] {
				t.Errorf("%d px: step's top, header's bottom = %v (%v): hidden", w, d, err)
			}
			if len(d) == 3 && d[2] > 60 {
				t.Errorf("%d px: the header is %.0f px high: want one row", w, d[2])
			}
		}
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile)); err != nil {
			t.Fatal(err)
		}
	})

	t.Run("no overflow", func(t *testing.T) {
		noOverflow(t, ctx, open, "walkthroughs/deployment.html", "events.html", "handlers.html", "resources.html", "src/pkg/controller/deployment/sync.go.html", "search.html?q=deploy")
		// The step table is there, wider than a phone's screen as a
		// table: each of its rows is a card of cells labelled with their
		// column, nothing reaching past the right edge.
		open(t, "walkthroughs/deployment.html")
		tw, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`(() => {
			const t = [...document.querySelectorAll('#step-2-rollout .prose table')].find(t => t.tHead && t.tHead.textContent.includes('Object'));
			if (!t) return [];
			const td = t.tBodies[0].rows[0].cells[2];
			return [String(t.scrollWidth <= t.clientWidth + 1), String(t.getBoundingClientRect().right <= 390), getComputedStyle(td).display, td.getAttribute('data-label') || ''];
		})()`))
		if err != nil || strings.Join(tw, " ") != "true true block Object" {
			t.Errorf("step table (fits, inside the window, a cell's display, its label) = %q, %v; want true true block Object", tw, err)
		}
		// A table that fits stays a table.
		nw, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(() => {
			const t = [...document.querySelectorAll('#step-2-rollout .prose table')].find(t => t.tHead && t.tHead.textContent.includes('Tiny'));
			return t ? t.className + '|' + getComputedStyle(t.tBodies[0].rows[0].cells[0]).display : 'none';
		})()`))
		if err != nil || nw != "|table-cell" {
			t.Errorf("a narrow table (class|a cell's display) = %q, %v; want a table", nw, err)
		}
	})

	// The header's links, more than a phone's row holds, scroll sideways:
	// the row fades out at its right edge while there are more, and once
	// scrolled to its end the last link stands clear of the fade.
	t.Run("nav links hinted", func(t *testing.T) {
		open(t, "index.html")
		d, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](`(() => {
			const n = document.querySelector('header.top .navlinks');
			const st = getComputedStyle(n);
			const faded = /gradient/.test(st.maskImage || st.webkitMaskImage || '') ? 1 : 0;
			const over = n.scrollWidth - n.clientWidth;
			n.scrollLeft = n.scrollWidth;
			const links = n.querySelectorAll('a');
			const room = n.getBoundingClientRect().right - links[links.length - 1].getBoundingClientRect().right;
			return [faded, over, room, parseFloat(getComputedStyle(document.documentElement).fontSize) * 1.5];
		})()`))
		if err != nil || len(d) != 4 {
			t.Fatalf("nav row: %v, %v", d, err)
		}
		if d[1] <= 0 {
			t.Fatalf("the nav row holds its links at 390 px (%.0f px to scroll): nothing to hint", d[1])
		}
		if d[0] != 1 {
			t.Errorf("the nav row hides %.0f px of links with no fade at its edge", d[1])
		}
		if d[2] < d[3]-1 {
			t.Errorf("scrolled to its end, the last link ends %.0f px from the row's edge, under the %.0f px fade", d[2], d[3])
		}
	})

	// The header is two rows on a phone, under 100 px, and stays on screen
	// as the page scrolls, the language switch and search with it; a
	// step's previous/next links come after its code, not before it.
	t.Run("header and step order", func(t *testing.T) {
		open(t, "walkthroughs/deployment.html#step-2-rollout")
		d, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](`(() => {
			window.scrollBy(0, 400);
			const h = document.querySelector('header.top').getBoundingClientRect();
			const sw = document.querySelector('header.top .find').getBoundingClientRect();
			const step = document.getElementById('step-2-rollout');
			const code = step.querySelector('.codecol'), nav = step.querySelector('.stepnav');
			return [h.height, h.top, sw.bottom, code && nav ? nav.getBoundingClientRect().top - code.getBoundingClientRect().bottom : -1];
		})()`))
		if err != nil || len(d) != 4 {
			t.Fatalf("header: %v, %v", d, err)
		}
		if d[0] > 100 || d[1] != 0 || d[2] <= 0 {
			t.Errorf("phone header: height %.0f px, top %.0f, search box's bottom %.0f after scrolling; want ≤ 100 px, stuck at 0, on screen", d[0], d[1], d[2])
		}
		if d[3] < 0 {
			t.Errorf("the step's previous/next links are %.0f px below the end of its code: want after it", d[3])
		}
	})

	// Back from the source page a step links lands on the step again,
	// just under the header.
	t.Run("back", func(t *testing.T) {
		open(t, "walkthroughs/deployment.html#step-2-rollout")
		href, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(document.querySelector('#step-2-rollout .exhead a.file') || {}).href || ''`))
		if err != nil || href == "" {
			t.Fatalf("no file link in the step's excerpt (%v)", err)
		}
		// Script, not Navigate and NavigateBack: a page restored from the
		// back cache fires no load event to wait for.
		if err := chromedp.Do(ctx, voidEval(`location.href = `+strconv.Quote(href)), chromedp.Sleep(time.Second), voidEval(`history.back()`), chromedp.Sleep(time.Second)); err != nil {
			t.Fatal(err)
		}
		d, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](`[document.getElementById('step-2-rollout').getBoundingClientRect().top, document.querySelector('header.top').getBoundingClientRect().bottom]`))
		if err != nil || len(d) != 2 || d[0] < d[1] || d[0] > d[1]+40 {
			t.Errorf("back on the step: its top at %v px, the header's bottom at … (%v): want just under the header", d, err)
		}
	})

	// On a source page scrolled into a function, a bar under the header
	// names the file and the function.
	t.Run("source where", func(t *testing.T) {
		// A short window, so the fixture's short file scrolls.
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(390, 240, chromedp.EmulateMobile)); err != nil {
			t.Fatal(err)
		}
		defer chromedp.Do(ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile))
		open(t, "src/pkg/controller/deployment/sync.go.html#L9")
		got, err := chromedp.Run(ctx, chromedp.Evaluate[string](`new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => { const b = document.querySelector('.srcwhere'); r(b && !b.hidden ? b.textContent : 'hidden'); })))`, chromedp.EvalAwaitPromise))
		if err != nil || got != "sync.go \u203a DeploymentController.rolloutRolling" {
			t.Errorf("source page's bar after scrolling: %q, %v; want the file and the function", got, err)
		}
	})

	t.Run("explain", func(t *testing.T) {
		open(t, "explain.html")
		err := chromedp.Do(ctx, voidEval(`(() => {
			const i = document.getElementById('explain-input');
			i.value = i.placeholder;
			document.getElementById('explain-form').requestSubmit();
		})()`), chromedp.WaitVisible(chromedp.CSS(`#explain-results tr`)))
		if err != nil {
			t.Fatal(err)
		}
		bad, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](overflowJS))
		if err != nil || len(bad) > 0 {
			t.Errorf("explain results at 390 px: %s (%v)", strings.Join(bad, "; "), err)
		}
		// The count of explained lines is announced.
		live, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(() => {
			const s = document.getElementById('explain-summary').closest('[aria-live]');
			return s ? s.getAttribute('aria-live') + ' ' + s.textContent : '';
		})()`))
		if err != nil || !strings.HasPrefix(live, "polite ") || strings.Contains(live, "—") {
			t.Errorf("explain summary's live region: %q, %v", live, err)
		}
	})

	t.Run("search announced", func(t *testing.T) {
		open(t, "search.html?q=rollout")
		live, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(() => {
			const c = document.getElementById('count');
			return c.getAttribute('aria-live') + ' ' + c.getAttribute('role') + ' ' + c.textContent;
		})()`))
		if err != nil || !strings.HasPrefix(live, "polite status ") || len(live) <= len("polite status ") {
			t.Errorf("search count's live region: %q, %v", live, err)
		}
	})

	t.Run("diagram", func(t *testing.T) {
		open(t, "walkthroughs/deployment.html")
		d, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](`(() => {
			const f = document.querySelector('figure.diagram'), svg = f.querySelector('svg');
			const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
			return [13 * scale, f.getBoundingClientRect().right, f.scrollWidth, f.clientWidth];
		})()`))
		if err != nil || len(d) != 4 {
			t.Fatalf("diagram: %v %v", d, err)
		}
		// 13 px is the labels' size (site.css); below about 11 px they
		// cannot be read on a phone.
		if d[0] < 11 || d[1] > 390 {
			t.Errorf("diagram at 390 px: labels %.1f px, frame's right edge %.0f; want >= 11 px, inside the window", d[0], d[1])
		}
	})

	t.Run("line number contrast", func(t *testing.T) { lineNumberContrast(t, ctx, open) })
}

// lineNumberContrast checks that every kind of line number, on a source
// page and in an excerpt, reaches WCAG AA contrast (4.5:1) in both colour
// schemes; it leaves the light scheme on.
func lineNumberContrast(t *testing.T, ctx context.Context, open func(*testing.T, string)) {
	for _, scheme := range []string{"light", "dark"} {
		got := map[string]float64{}
		for _, p := range []string{"src/pkg/controller/deployment/sync.go.html#L7", "walkthroughs/deployment.html"} {
			if err := chromedp.Do(ctx, colorScheme(scheme)); err != nil {
				t.Fatal(err)
			}
			open(t, p)
			r, err := chromedp.Run(ctx, chromedp.Evaluate[map[string]float64](lineNumberContrastJS))
			if err != nil {
				t.Fatal(err)
			}
			for k, v := range r {
				got[k] = v
			}
		}
		for _, k := range []string{"source", "target", "excerpt", "marked"} {
			if v, ok := got[k]; !ok || v < 4.5 {
				t.Errorf("%s scheme: %s line numbers at %.2f:1 (found: %v), want >= 4.5:1", scheme, k, v, ok)
			}
		}
	}
	if err := chromedp.Do(ctx, colorScheme("light")); err != nil {
		t.Fatal(err)
	}
}

// lineNumberContrastJS is the WCAG ratio of each kind of line number's colour
// (with its opacities) against the background painted under it.
const lineNumberContrastJS = `(() => {
	const rgba = s => { const m = s.match(/[\d.]+/g).map(Number); return [m[0], m[1], m[2], m.length > 3 ? m[3] : 1]; };
	const lum = c => { const f = v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); }; return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]); };
	const out = {};
	// A source page's line number is its line's ::before (a CSS counter).
	for (const [name, sel, pseudo] of [['source', 'pre.src > u:not(.hl)', '::before'], ['target', 'pre.src > u.hl', '::before'], ['excerpt', '.excerpt .ln:not(.mark):not(.gap) .nr'], ['marked', '.excerpt .ln.mark .nr']]) {
		const e = document.querySelector(sel);
		if (!e) continue;
		const color = getComputedStyle(e, pseudo || null).color;
		let bg = null, alpha = rgba(color)[3];
		for (let a = e; a; a = a.parentElement) {
			alpha *= Number(getComputedStyle(a).opacity);
			const b = rgba(getComputedStyle(a).backgroundColor);
			if (!bg && b[3] > 0) bg = b;
		}
		const fg = rgba(color);
		const mix = fg.slice(0, 3).map((v, i) => v * alpha + bg[i] * (1 - alpha));
		const [l1, l2] = [lum(mix), lum(bg)].sort((x, y) => y - x);
		out[name] = (l1 + 0.05) / (l2 + 0.05);
	}
	return out;
})()`

// noOverflow opens each page and reports what reaches past its right
// edge (overflowJS).
func noOverflow(t *testing.T, ctx context.Context, open func(*testing.T, string), pages ...string) {
	t.Helper()
	for _, p := range pages {
		open(t, p)
		bad, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](overflowJS))
		if err != nil {
			t.Fatal(err)
		}
		if len(bad) > 0 {
			t.Errorf("%s at 390 px: %s", p, strings.Join(bad, "; "))
		}
	}
}

// overflowJS lists what reaches past the right edge without a
// scrolling box of its own between it and the page.
const overflowJS = `(() => {
	const w = document.documentElement.clientWidth, bad = [];
	if (document.documentElement.scrollWidth > w) bad.push('page scrolls sideways: ' + document.documentElement.scrollWidth + ' > ' + w);
	// An SVG is checked as a whole: its inside is drawn, not laid out.
	for (const e of document.querySelectorAll('main *:not(svg *)')) {
		if (e.getBoundingClientRect().right <= w + 1) continue;
		let boxed = false;
		for (let a = e.parentElement; a && a.tagName !== 'MAIN'; a = a.parentElement) {
			const o = getComputedStyle(a).overflowX;
			if (o === 'auto' || o === 'scroll' || o === 'hidden') { boxed = a.getBoundingClientRect().right <= w + 1; break; }
		}
		if (!boxed) bad.push(e.tagName.toLowerCase() + '.' + e.getAttribute('class') + ' right ' + Math.round(e.getBoundingClientRect().right));
	}
	return bad.slice(0, 5);
})()`
