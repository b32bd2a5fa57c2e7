package site

import (
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/google/go-cmp/cmp"

	"github.com/kubewalk/kubewalk/site/internal/linemap"
)

// TestBrowserMalformedFragment opens an older release's view of a shared
// page with a fragment that is not valid %-encoding: the page reads as
// with a fragment that names nothing, and site.js reports no error.
// decodeURIComponent threw a URIError: the older release's line numbers
// stayed the newest's, and the handlers after it were never installed.
func TestBrowserMalformedFragment(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	out := buildMulti(t)
	srv := httptest.NewServer(http.FileServer(http.Dir(out)))
	defer srv.Close()
	ctx := browser(t, 1280, 800)
	// Exceptions the page's scripts throw and do not catch.
	var mu sync.Mutex
	var thrown []string
	err := chromedp.Listen(ctx, func(ev any) {
		if e, ok := ev.(*runtime.EventExceptionThrown); ok {
			d := e.ExceptionDetails
			msg := d.Text
			if d.Exception != nil {
				msg += " " + d.Exception.Description
			}
			mu.Lock()
			thrown = append(thrown, msg)
			mu.Unlock()
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	type view struct {
		Text  string
		Links []string
	}
	read := func(frag string) view {
		t.Helper()
		u := srv.URL + "/walkthroughs/deployment.html?rel=" + oldTag + frag
		openPage(t, ctx, u)
		// An older release's line numbers are written once its line map
		// has loaded (lines.go).
		if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.readyState === "complete" && (!document.querySelector('script[src$="/`+linemap.FileName+`"]') || window.kubewalkLines !== undefined)`, chromedp.WithPollingTimeout(5*time.Second))); err != nil {
			t.Fatalf("%s: %v", u, err)
		}
		v, err := chromedp.Run(ctx, chromedp.Evaluate[view](`({
			Text: document.body.innerText,
			Links: [...document.querySelectorAll("a[href]")].filter(a => !a.closest("[hidden]")).map(a => a.getAttribute("href").replace(/#.*/, "")),
		})`))
		if err != nil {
			t.Fatalf("%s: %v", u, err)
		}
		return v
	}
	want := read("#no-such-step")
	for _, frag := range []string{"#%E0%A4%A", "#%", "#%zz", "#step%"} {
		if diff := cmp.Diff(want, read(frag)); diff != "" {
			t.Errorf("%s: the page differs from one with a fragment that names nothing (-want +got):\n%s", frag, diff)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(thrown) > 0 {
		t.Errorf("the page's scripts threw: %q", thrown)
	}
}
