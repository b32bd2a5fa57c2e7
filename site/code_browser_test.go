package site

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserLineNumbers clicks a source page's line numbers, which are
// drawn by CSS rather than links: a click on one goes to its line, a
// Shift-click extends the range from the line in the fragment, and a
// click on the code beside the numbers goes nowhere.
func TestBrowserLineNumbers(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	out, _ := buildFixture(t, nil)
	srv := httptest.NewServer(http.FileServer(http.Dir(out)))
	defer srv.Close()
	ctx := browser(t, 1100, 800)
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/src/pkg/controller/deployment/sync.go.html"), chromedp.WaitReady(chromedp.CSS("pre.src"))); err != nil {
		t.Fatal(err)
	}
	type point struct{ Gutter, Code, Y float64 }
	// at is where to click on line n: in its number, in its code, and its
	// middle's height, in the viewport as it is now.
	at := func(n string) point {
		t.Helper()
		p, err := chromedp.Run(ctx, chromedp.Evaluate[point](`(() => {
			const l = document.getElementById("L`+n+`"), r = l.getBoundingClientRect();
			const w = parseFloat(getComputedStyle(l, "::before").width);
			return {Gutter: r.left + w / 2, Code: r.left + w + 20, Y: r.top + r.height / 2};
		})()`))
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	state := func() (hash string, hl int) {
		t.Helper()
		type st struct {
			Hash string
			HL   int
		}
		// After two frames: the hashchange that marks the lines is
		// dispatched after the click returns.
		s, err := chromedp.Run(ctx, chromedp.Evaluate[st](`new Promise(done => requestAnimationFrame(() => requestAnimationFrame(() =>
			done({Hash: location.hash, HL: document.querySelectorAll("pre.src > .hl").length}))))`, chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatal(err)
		}
		return s.Hash, s.HL
	}
	for _, step := range []struct {
		line, where string
		shift       bool
		hash        string
		hl          int
	}{
		{"3", "gutter", false, "#L3", 1},
		{"5", "gutter", true, "#L3-L5", 3},
		{"7", "code", false, "#L3-L5", 3},
		{"2", "gutter", false, "#L2", 1},
	} {
		p := at(step.line)
		x := p.Gutter
		if step.where == "code" {
			x = p.Code
		}
		var opts []chromedp.MouseOption
		if step.shift {
			opts = append(opts, chromedp.ButtonModifiers(chromedp.ModifierShift))
		}
		if err := chromedp.Do(ctx, chromedp.MouseClickXY(x, p.Y, opts...)); err != nil {
			t.Fatal(err)
		}
		if hash, hl := state(); hash != step.hash || hl != step.hl {
			t.Errorf("click on line %s's %s (shift %v): fragment %q with %d lines highlighted, want %q with %d", step.line, step.where, step.shift, hash, hl, step.hash, step.hl)
		}
	}
}
