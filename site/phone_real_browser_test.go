package site

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/kubewalk/kubewalk/site/internal/browsertest"
)

// TestBrowserPhoneReal opens every page of a real site but its source
// pages (KUBEWALK_REAL_SITE: the directory kubewalk build wrote; make e2e
// sets it to the default release's site) in each of its languages as a
// 390 px phone: none reaches past the right edge unless a box of its own
// scrolls it (noOverflow). A real site has what the fixture does not: a
// badge naming every scenario a recorded run exercises, a resource's
// name longer than the screen in a heading.
func TestBrowserPhoneReal(t *testing.T) {
	dir := os.Getenv("KUBEWALK_REAL_SITE")
	if dir == "" {
		t.Skip("set KUBEWALK_REAL_SITE to a site kubewalk build wrote")
	}
	var pages []string
	for _, u := range fileURLs(dir) {
		if !strings.Contains(u, "/src/") {
			pages = append(pages, u)
		}
	}
	if len(pages) < 50 {
		t.Fatalf("%d pages in %s, want a real site's", len(pages), dir)
	}
	ctx := browsertest.NewFor(t, 390, 844, time.Hour)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile)); err != nil {
		t.Fatal(err)
	}
	open := func(t *testing.T, u string) { t.Helper(); openPage(t, ctx, u) }
	base := fileURL(t, dir)
	var views []string
	for _, u := range pages {
		// A page the languages share shows each by ?lang=; the others are
		// one language's.
		views = append(views, u)
		if p := strings.TrimPrefix(u, base); !strings.HasPrefix(p, "en/") && !strings.HasPrefix(p, "ko/") && p != "index.html" {
			views = append(views, u+"?lang=ko")
		}
	}
	noOverflow(t, ctx, open, views...)
	t.Logf("%d views of %d pages at 390 px", len(views), len(pages))
}
