package site

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/kubewalk/kubewalk/site/internal/browsertest"
)

// artifacts is where screenshots go: $KUBEWALK_ARTIFACTS, else a temp dir.
func artifacts(t *testing.T) string {
	if d := os.Getenv("KUBEWALK_ARTIFACTS"); d != "" {
		d = filepath.Join(d, "site")
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		return d
	}
	return t.TempDir()
}

func screenshot(t *testing.T, ctx context.Context, dir, name string, full bool) {
	t.Helper()
	act := chromedp.CaptureScreenshot()
	if full {
		act = chromedp.FullScreenshot(100) // 100: PNG
	}
	buf, err := chromedp.Run(ctx, act)
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, buf, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", p)
}

var fragRE = regexp.MustCompile(`#L(\d+)(?:-L(\d+))?$`)

// followSourceLink clicks the source link of a step's first excerpt and
// checks the cited lines are highlighted and on screen.
func followSourceLink(t *testing.T, ctx context.Context, base, art, prefix string) {
	t.Helper()
	const link = chromedp.CSS(`#step-2-rollout .exhead a.file`)
	err := chromedp.Do(ctx,
		chromedp.Navigate(base+"/walkthroughs/deployment.html"),
		chromedp.WaitVisible(chromedp.CSS(`#step-2-rollout`)),
	)
	if err != nil {
		t.Fatalf("walkthrough page: %v", err)
	}
	attr, err := chromedp.Run(ctx, chromedp.AttributeValue(link, "href"))
	if err != nil || !attr.Exists {
		t.Fatalf("source link: %v (exists: %v)", err, attr.Exists)
	}
	href := attr.Value
	screenshot(t, ctx, art, prefix+"walkthrough.png", false)
	m := fragRE.FindStringSubmatch(href)
	if m == nil {
		t.Fatalf("source link %q has no line fragment", href)
	}
	from, _ := strconv.Atoi(m[1])
	to := from
	if m[2] != "" {
		to, _ = strconv.Atoi(m[2])
	}
	err = chromedp.Do(ctx,
		chromedp.Click(link),
		chromedp.WaitVisible(chromedp.CSS(fmt.Sprintf(`#L%d.hl`, from))),
	)
	if err != nil {
		t.Fatalf("follow %s: %v", href, err)
	}
	url, err := chromedp.Run(ctx, chromedp.Location())
	if err != nil {
		t.Fatalf("follow %s: %v", href, err)
	}
	if !strings.HasSuffix(url, m[0]) || !strings.Contains(url, "/src/pkg/controller/deployment/sync.go.html") {
		t.Errorf("landed on %s, want the source page at %s", url, m[0])
	}
	type viewState struct {
		Highlighted []int
		InView      bool
		Scrolled    float64
	}
	state, err := chromedp.Run(ctx, chromedp.Evaluate[viewState](`(() => {
		const hl = [...document.querySelectorAll('pre.src > .hl')].map(e => parseInt(e.id.slice(1), 10));
		const r = document.getElementById('L`+strconv.Itoa(from)+`').getBoundingClientRect();
		return {Highlighted: hl, InView: r.top >= 0 && r.bottom <= window.innerHeight, Scrolled: window.scrollY};
	})()`))
	if err != nil {
		t.Fatal(err)
	}
	var want []int
	for n := from; n <= to; n++ {
		want = append(want, n)
	}
	if fmt.Sprint(state.Highlighted) != fmt.Sprint(want) {
		t.Errorf("highlighted lines %v, want %v", state.Highlighted, want)
	}
	if !state.InView {
		t.Errorf("line %d not in the viewport (scrollY %v)", from, state.Scrolled)
	}
	screenshot(t, ctx, art, prefix+"source.png", false)

	// Changing the fragment moves the highlight (hashchange).
	err = chromedp.Do(ctx,
		voidEval(`location.hash = "#L2-L4"`),
		chromedp.WaitVisible(chromedp.CSS(`#L3.hl`)),
	)
	n, err2 := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('pre.src > .hl').length`))
	if err == nil {
		err = err2
	}
	if err != nil || n != 3 {
		t.Errorf("after hashchange: %d lines highlighted, err %v; want 3", n, err)
	}
}

func TestBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	out, _ := buildFixture(t, nil)
	art := artifacts(t)
	srv := httptest.NewServer(http.FileServer(http.Dir(out))) // 127.0.0.1
	defer srv.Close()
	// A short window, so the cited lines start below the fold and the
	// script must scroll them into view.
	ctx := browser(t, 1280, 560)

	t.Run("http", func(t *testing.T) { followSourceLink(t, ctx, srv.URL, art, "http-") })
	t.Run("file", func(t *testing.T) {
		abs, err := filepath.Abs(out)
		if err != nil {
			t.Fatal(err)
		}
		followSourceLink(t, ctx, "file://"+filepath.ToSlash(abs), art, "file-")

		// Search works from file:// (the index is a script, not fetched).
		err = chromedp.Do(ctx,
			chromedp.Navigate("file://"+filepath.ToSlash(abs)+"/search.html?q=rollout"),
			chromedp.WaitVisible(chromedp.CSS(`#results li`)),
		)
		n, err2 := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('#results li').length`))
		if err == nil {
			err = err2
		}
		if err != nil || n == 0 {
			t.Errorf("search from file://: %d results, err %v", n, err)
		}
		screenshot(t, ctx, art, "file-search.png", false)
	})
	t.Run("screenshots", func(t *testing.T) {
		// Full pages, light and dark, for people to look at.
		for _, scheme := range []string{"light", "dark"} {
			err := chromedp.Do(ctx,
				colorScheme(scheme),
				chromedp.EmulateViewport(1400, 900),
			)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range []string{"index.html", "walkthroughs/deployment.html", "src/pkg/controller/deployment/sync.go.html#L7-L9", "handlers.html", "resources.html", "events.html"} {
				if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/"+p), chromedp.WaitReady(chromedp.CSS("body"))); err != nil {
					t.Fatal(err)
				}
				name := strings.NewReplacer("/", "_", "#", "_").Replace(p)
				screenshot(t, ctx, art, scheme+"-"+name+".png", true)
			}
		}
		// Narrow: steps stack.
		err := chromedp.Do(ctx,
			colorScheme("light"),
			chromedp.EmulateViewport(420, 900, chromedp.EmulateMobile),
			chromedp.Navigate(srv.URL+"/walkthroughs/deployment.html"),
			chromedp.WaitReady(chromedp.CSS("body")),
		)
		if err != nil {
			t.Fatal(err)
		}
		cols, err := chromedp.Run(ctx, chromedp.Evaluate[string](`getComputedStyle(document.querySelector('.step')).gridTemplateColumns`))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Count(strings.TrimSpace(cols), " ") != 0 {
			t.Errorf("narrow screen: step grid columns %q, want one column", cols)
		}
		screenshot(t, ctx, art, "narrow-walkthrough.png", true)
	})
}

// colorScheme emulates prefers-color-scheme.
func colorScheme(scheme string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}},
		})
		return err
	})
}

// clickAndSettle clicks the first element sel matches on the page open in
// ctx, as a reader's click (its handlers run), and gives the navigation
// it may start time to begin.
func clickAndSettle(t *testing.T, ctx context.Context, sel string) {
	t.Helper()
	if err := chromedp.Do(ctx, voidEval(`document.querySelector(`+"`"+sel+"`"+`).click()`)); err != nil {
		t.Fatalf("click %s: %v", sel, err)
	}
	time.Sleep(300 * time.Millisecond)
}

// The browser helpers of package browsertest, by the names this
// package's tests use.
var (
	browser  = browsertest.New
	voidEval = browsertest.VoidEval
	openPage = browsertest.OpenPage
	fileURL  = browsertest.FileURL
)
