package site

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserRecordedRunsReal opens every Recorded run page of a real
// site (KUBEWALK_REAL_SITE: the directory kubewalk build wrote; make e2e
// sets it to the default release's site) in both languages at desktop and
// phone width: each shows its scenario in its title, its phases, the
// scenario's own phases open, and at 390 px nothing wider than the screen.
func TestBrowserRecordedRunsReal(t *testing.T) {
	dir := os.Getenv("KUBEWALK_REAL_SITE")
	if dir == "" {
		t.Skip("set KUBEWALK_REAL_SITE to a site kubewalk build wrote")
	}
	pages, err := filepath.Glob(filepath.Join(dir, "recorded*.html"))
	if err != nil || len(pages) == 0 {
		t.Fatalf("no Recorded run page in %s (%v)", dir, err)
	}
	base := fileURL(t, dir)
	art := artifacts(t)
	title := map[string]string{"en": "A recorded run: ", "ko": "기록된 실행: "}
	for _, size := range [][2]int{{1280, 900}, {390, 844}} {
		ctx := browser(t, size[0], size[1])
		if size[0] < 500 {
			if err := chromedp.Do(ctx, chromedp.EmulateViewport(int64(size[0]), int64(size[1]), chromedp.EmulateMobile)); err != nil {
				t.Fatal(err)
			}
		}
		for _, p := range pages {
			name := filepath.Base(p)
			scenario := strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(name, "recorded"), "-"), ".html")
			if scenario == "" {
				scenario = panelScenario
			}
			for _, lang := range []string{"en", "ko"} {
				openPage(t, ctx, base+name+"?lang="+lang)
				got, err := chromedp.Run(ctx, chromedp.Evaluate[string](`[document.title, document.querySelectorAll('details.phase').length, document.querySelectorAll('details.phase[open]').length, document.documentElement.scrollWidth].join('|')`))
				if err != nil {
					t.Fatal(err)
				}
				f := strings.Split(got, "|")
				if len(f) != 4 || !strings.HasPrefix(f[0], title[lang]+scenario+" ") {
					t.Errorf("%s %s: title %q, want %q…", name, lang, f[0], title[lang]+scenario)
					continue
				}
				if n, _ := strconv.Atoi(f[1]); n < 3 || f[2] == "0" {
					t.Errorf("%s %s: %s phases, %s open: want three or more, the scenario's open", name, lang, f[1], f[2])
				}
				if size[0] < 500 && f[3] != "390" {
					t.Errorf("%s %s is %s px wide at 390", name, lang, f[3])
				}
			}
			if size[0] < 500 {
				screenshot(t, ctx, art, "real-"+strings.TrimSuffix(name, ".html")+"-390-ko.png", false)
			}
		}
	}
}
