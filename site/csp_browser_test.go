package site

import (
	"context"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// TestBrowserCSP opens every page of a built site from file:// in
// headless Chromium, and the list of releases at a multi-release site's
// root: each carries a Content-Security-Policy (no inline
// script, nothing from elsewhere) that its own scripts and styles
// satisfy — no violation is reported, and search and the version of the
// page's script still run — while an inline script added to a page is
// refused.
func TestBrowserCSP(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	out, _ := buildFixture(t, nil)
	abs, err := filepath.Abs(out)
	if err != nil {
		t.Fatal(err)
	}
	base := "file://" + filepath.ToSlash(abs)
	// A multi-release site adds a page of its own at its root, the list of
	// releases, outside the layout the other pages share.
	multi, err := filepath.Abs(buildMulti(t))
	if err != nil {
		t.Fatal(err)
	}
	ctx := browser(t, 1280, 800)
	recordViolations(t, ctx)
	single := fileURLs(abs)
	if len(single) < 5 {
		t.Fatalf("%d pages", len(single))
	}
	all := append(single, "file://"+filepath.ToSlash(multi)+"/index.html")
	// A bilingual site: the language chooser at its root (lang.js), each
	// language's pages, a shared source page shown in Korean (site.js).
	bi, err := filepath.Abs(buildBilingual(t))
	if err != nil {
		t.Fatal(err)
	}
	all = append(all, fileURLs(bi)...)
	all = append(all, "file://"+filepath.ToSlash(bi)+"/src/pkg/controller/deployment/sync.go.html?lang=ko")
	all = append(all, base+"/search.html?q=rollout") // last: its results are counted below
	for _, p := range all {
		if v := violationsAt(t, ctx, p); len(v) > 0 {
			t.Errorf("%s: %s", p, strings.Join(v, "; "))
		}
		has, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`!!document.querySelector('meta[http-equiv="Content-Security-Policy"]')`))
		if err != nil || !has {
			t.Errorf("%s: no Content-Security-Policy (%v)", p, err)
		}
	}
	n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('#results li').length`))
	if err != nil || n == 0 {
		t.Errorf("search under the policy: %d results, %v", n, err)
	}

	// A script written into a page, as an injection would be, does not run.
	home, err := os.ReadFile(filepath.Join(abs, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	injected := strings.Replace(string(home), "</main>", `<script>window.__ran = 1</script><img src="https://example.com/x.png"></main>`, 1)
	if err := os.WriteFile(filepath.Join(abs, "injected.html"), []byte(injected), 0o644); err != nil {
		t.Fatal(err)
	}
	v := violationsAt(t, ctx, base+"/injected.html")
	ran, _ := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.__ran === 1`))
	if ran || !strings.Contains(strings.Join(v, " "), "script-src") || !strings.Contains(strings.Join(v, " "), "img-src") {
		t.Errorf("an inline script ran (%v) or was not reported: %v", ran, v)
	}
}

// recordViolations makes every page ctx opens collect the
// Content-Security-Policy violations it reports in window.__csp. The
// script runs before the page's own, and is not subject to its policy.
func recordViolations(t *testing.T, ctx context.Context) {
	t.Helper()
	err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{
			Source: `window.__csp = []; document.addEventListener('securitypolicyviolation', function (e) {
  window.__csp.push(e.violatedDirective + ' ' + e.blockedURI + ' at ' + e.sourceFile + ':' + e.lineNumber);
});`,
		})
		return err
	}))
	if err != nil {
		t.Fatal(err)
	}
}

// violationsAt opens url and returns the violations recordViolations
// collected there.
func violationsAt(t *testing.T, ctx context.Context, url string) []string {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Navigate(url), chromedp.WaitReady(chromedp.CSS("body"))); err != nil {
		t.Fatal(err)
	}
	time.Sleep(50 * time.Millisecond) // reports are dispatched after the load
	v, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`window.__csp`))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// fileURLs returns the pages of the site at root as file:// URLs.
func fileURLs(root string) []string {
	var us []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".html") {
			rel, _ := filepath.Rel(root, p)
			segs := strings.Split(filepath.ToSlash(rel), "/")
			for i := range segs {
				segs[i] = url.PathEscape(segs[i])
			}
			us = append(us, "file://"+filepath.ToSlash(root)+"/"+strings.Join(segs, "/"))
		}
		return err
	})
	return us
}
