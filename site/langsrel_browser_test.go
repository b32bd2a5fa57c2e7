package site

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// TestBrowserMultiReleaseLanguages reads a bilingual site of two releases
// from file://, as a Korean reader of the older release: a Korean page's
// link to an index page opens the page both the releases and the
// languages share in Korean and for that release; its language switch
// goes to English and keeps the release, and back; a link between two
// such pages keeps both; the version switcher shows in each.
func TestBrowserMultiReleaseLanguages(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	out := buildMultiBilingual(t)
	oneSummary(t, out)
	base := fileURL(t, out)
	ctx := browser(t, 1280, 800)
	type state struct {
		Where, Lang, Title, Tag, H1 string
	}
	read := func(t *testing.T) state {
		t.Helper()
		var s state
		for range 50 { // a click is a navigation: wait for it
			got, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[location.href, document.documentElement.lang, document.title, document.readyState,
				Array.from(document.querySelectorAll('summary.tag')).filter(e => e.getClientRects().length).map(e => e.innerText.trim()).join('|'),
				Array.from(document.querySelectorAll('main h1')).filter(e => e.getClientRects().length).map(e => e.innerText).join('|')]`))
			if err == nil && got[3] == "complete" && !strings.HasPrefix(got[0], "about:") {
				return state{strings.TrimPrefix(got[0], base), got[1], got[2], got[4], got[5]}
			}
			time.Sleep(50 * time.Millisecond)
		}
		t.Fatal("no page loaded")
		return s
	}
	click := func(t *testing.T, sel string) { t.Helper(); clickAndSettle(t, ctx, sel) }
	// The older release's Korean home, whose bar links the index pages.
	openPage(t, ctx, base+oldTag+"/ko/index.html")
	click(t, `header.top a[href*="events.html"]`)
	s := read(t)
	if s.Where != "events.html?rel="+oldTag+"&lang=ko" || s.Lang != "ko" || s.Tag != oldTag || !strings.HasPrefix(s.Title, "이벤트") || !strings.Contains(s.Title, oldTag) || s.H1 != "이벤트" {
		t.Errorf("the Korean home's link to the events opened %+v, want the events page in Korean at %s", s, oldTag)
	}
	// A link to another index page keeps the release and the language.
	click(t, `header.top .navlinks a[href*="handlers.html"]`)
	if s := read(t); s.Where != "handlers.html?rel="+oldTag+"&lang=ko" || s.Lang != "ko" || s.Tag != oldTag || strings.Contains(s.Title, "Handlers") {
		t.Errorf("the Korean events page's link to the handlers opened %+v", s)
	}
	// The language switch: English, the same release.
	click(t, `header.top a[data-switch][hreflang=en]`)
	if s := read(t); !strings.HasPrefix(s.Where, "handlers.html?") || !strings.Contains(s.Where, "rel="+oldTag) || strings.Contains(s.Where, "lang=") ||
		s.Lang != "en" || s.Tag != oldTag || !strings.Contains(s.Title, oldTag) || strings.Contains(s.Title, "핸들러") {
		t.Errorf("the switch to English opened %+v", s)
	}
	// And back to Korean.
	click(t, `header.top a[data-switch][hreflang=ko]`)
	if s := read(t); !strings.Contains(s.Where, "rel="+oldTag) || !strings.Contains(s.Where, "lang=ko") || s.Lang != "ko" || s.Tag != oldTag {
		t.Errorf("the switch back to Korean opened %+v", s)
	}
}

// oneSummary fails t for a <details> of any page of the site in dir whose
// <summary> is not its one element child first: a page merged from
// renderings that differ there would show no summary, or the wrong one.
func oneSummary(t *testing.T, dir string) {
	t.Helper()
	n := 0
	for p, data := range readTree(t, dir) {
		if !strings.HasSuffix(p, ".html") {
			continue
		}
		doc, err := html.Parse(strings.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		var walk func(*html.Node)
		walk = func(x *html.Node) {
			if x.Type == html.ElementNode && x.DataAtom == atom.Details {
				n++
				var kids []*html.Node
				for c := x.FirstChild; c != nil; c = c.NextSibling {
					if c.Type == html.ElementNode {
						kids = append(kids, c)
					}
				}
				summaries := 0
				for _, c := range kids {
					if c.DataAtom == atom.Summary {
						summaries++
					}
				}
				if len(kids) == 0 || kids[0].DataAtom != atom.Summary || summaries != 1 {
					t.Errorf("%s: a <details> of %d children, %d of them <summary>, not one first", p, len(kids), summaries)
				}
			}
			for c := x.FirstChild; c != nil; c = c.NextSibling {
				walk(c)
			}
		}
		walk(doc)
	}
	if n == 0 {
		t.Fatal("no <details> on any page: the version switchers are missing")
	}
}
