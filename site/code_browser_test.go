package site

import (
	"net/http"
	"net/http/httptest"
	"path"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/google/go-cmp/cmp"
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

// TestBrowserTokenElements: the elements codehtml writes a builtin
// (<var>) and a string (<kbd>) as look as the spans they replaced did —
// their colours in light and dark, in the line's font, upright, nothing
// drawn before or after them — and selecting a line, or the whole code,
// gives the source text back, with nothing added.
func TestBrowserTokenElements(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	const file = "pkg/controller/deployment/sync.go"
	src := string(loadTree(t)[file])
	n := loadTree(t).line(t, file, `Eventf(nil, "Normal"`)
	// The fixture's identifier table has every identifier a variable;
	// the analyzer's has nil a builtin.
	out, _ := buildFixture(t, func(in *Input) {
		for _, x := range in.Xrefs {
			for i, id := range x.Idents {
				if x.Path == file && src[id.Off:id.Off+id.Len] == "nil" {
					x.Idents[i].Kind = "builtin"
				}
			}
		}
	})
	srv := httptest.NewServer(http.FileServer(http.Dir(out)))
	defer srv.Close()
	ctx := browser(t, 1100, 800)
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/src/"+file+".html"), chromedp.WaitReady(chromedp.CSS("pre.src"))); err != nil {
		t.Fatal(err)
	}
	type look struct {
		Found                      bool
		Color, Family, Size, Style string
		Weight, Before, After      string
		LineFamily, LineSize       string
		LineWeight                 string
	}
	// lookOf is how the first element sel of line n whose text is text
	// looks, beside the line itself.
	lookOf := func(sel, text string) look {
		t.Helper()
		l, err := chromedp.Run(ctx, chromedp.Evaluate[look](`(() => {
			const line = document.getElementById("L`+strconv.Itoa(n)+`");
			const el = [...line.querySelectorAll(`+strconv.Quote(sel)+`)].find(e => e.textContent === `+strconv.Quote(text)+`);
			if (!el) return {Found: false};
			const s = getComputedStyle(el), ls = getComputedStyle(line);
			return {Found: true, Color: s.color, Family: s.fontFamily, Size: s.fontSize, Style: s.fontStyle, Weight: s.fontWeight,
				Before: getComputedStyle(el, "::before").content, After: getComputedStyle(el, "::after").content,
				LineFamily: ls.fontFamily, LineSize: ls.fontSize, LineWeight: ls.fontWeight};
		})()`))
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	for _, tc := range []struct {
		scheme, sel, text, color string
	}{
		// codehtml's CSS: #0550ae and #79c0ff for builtins, #0a3069 and
		// #a5d6ff for strings.
		{"light", "var", "nil", "rgb(5, 80, 174)"},
		{"light", "kbd", `"Normal"`, "rgb(10, 48, 105)"},
		{"dark", "var", "nil", "rgb(121, 192, 255)"},
		{"dark", "kbd", `"Normal"`, "rgb(165, 214, 255)"},
	} {
		if err := chromedp.Do(ctx, colorScheme(tc.scheme)); err != nil {
			t.Fatal(err)
		}
		l := lookOf(tc.sel, tc.text)
		switch {
		case !l.Found:
			t.Errorf("line %d has no <%s>%s</%s>", n, tc.sel, tc.text, tc.sel)
		case l.Color != tc.color:
			t.Errorf("%s: <%s>%s</%s> is %s, want %s", tc.scheme, tc.sel, tc.text, tc.sel, l.Color, tc.color)
		case l.Family != l.LineFamily || l.Size != l.LineSize || l.Weight != l.LineWeight || l.Style != "normal":
			t.Errorf("%s: <%s> is in %s %s %s %s, the line in %s %s %s normal", tc.scheme, tc.sel, l.Style, l.Weight, l.Size, l.Family, l.LineWeight, l.LineSize, l.LineFamily)
		case l.Before != "none" && l.Before != "normal" || l.After != "none" && l.After != "normal":
			t.Errorf("%s: <%s> draws %s before and %s after it", tc.scheme, tc.sel, l.Before, l.After)
		}
	}
	// selected is the text selected with the contents of the element sel.
	selected := func(sel string) string {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(() => {
			const r = document.createRange(), s = getSelection();
			r.selectNodeContents(document.querySelector(`+strconv.Quote(sel)+`));
			s.removeAllRanges();
			s.addRange(r);
			return s.toString();
		})()`))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	// Chromium leaves out the newline that ends the selection, the last
	// of the line or of the code.
	if got, want := selected("#L"+strconv.Itoa(n)), strings.Split(src, "\n")[n-1]; got != want {
		t.Errorf("line %d selected is %q, want %q", n, got, want)
	}
	if got, want := selected("pre.src"), strings.TrimSuffix(src, "\n"); got != want {
		t.Errorf("the code selected is not the source (-want +got):\n%s", cmp.Diff(want, got))
	}
}

// TestBrowserGitHubLinks: the code's links to files the site does not
// render are written without an href, the rest of their permalink in
// data-g and the page's GitHub base once on the <body>; once the page
// has loaded each is a link to the full permalink, which the keyboard
// reaches, on a source page and in a walkthrough's excerpts alike.
func TestBrowserGitHubLinks(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	out, _ := buildFixture(t, nil)
	ctx := browser(t, 1100, 800)
	const base = "https://github.com/kubernetes/kubernetes/blob/" + fixtureTag + "/"
	type links struct {
		N, Without     int    // links in the compact form; of those, without an href
		Href, Property string // the first's href attribute and property
		G              string // the first's data-g, once the page has loaded
		Focused        bool   // the first takes the focus
	}
	for _, tc := range []struct{ page, sel, first string }{
		{"src/pkg/controller/deployment/deployment_controller.go.html", "pre a[data-g]", "staging/src/k8s.io/client-go/tools/cache/shared_informer.go#L"},
		{"walkthroughs/deployment.html", "pre a[data-g]", ""},
		// The index pages' links to files without a source page too
		// (ghHref).
		{"events.html", "table a[data-g]", ""},
	} {
		openPage(t, ctx, fileURL(t, out)+tc.page)
		got, err := chromedp.Run(ctx, chromedp.Evaluate[links](`(() => {
			const ls = [...document.querySelectorAll("`+tc.sel+`")], a = ls[0];
			if (!a) return {N: 0};
			a.focus();
			return {N: ls.length, Without: ls.filter(l => !l.hasAttribute("href")).length,
				Href: a.getAttribute("href"), Property: a.href, G: a.getAttribute("data-g"), Focused: document.activeElement === a};
		})()`))
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %+v", tc.page, got)
		if got.N == 0 || got.Without != 0 {
			t.Errorf("%s: %d GitHub links, %d of them without an href after load", tc.page, got.N, got.Without)
			continue
		}
		if !strings.HasPrefix(got.Href, base+tc.first) || got.Property != got.Href || !got.Focused {
			t.Errorf("%s: the first GitHub link goes to %q (property %q, focused %v), want %s…", tc.page, got.Href, got.Property, got.Focused, base+tc.first)
		}
		// Its data-g is the permalink's whole rest, which releases.js
		// reads ("~" undone).
		if got.Href != base+got.G {
			t.Errorf("%s: the first GitHub link's data-g is %q after load, its href %q", tc.page, got.G, got.Href)
		}
	}
}

// TestBrowserPackageUse clicks a package's name before a selector on a
// source page, which has no href when its import is on the same page: the
// click goes to that import's line, and marks it.
func TestBrowserPackageUse(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	out, _ := buildFixture(t, nil)
	srv := httptest.NewServer(http.FileServer(http.Dir(out)))
	defer srv.Close()
	ctx := browser(t, 1100, 800)
	type got struct {
		Name, Hash, Line string
		HL               int
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/src/pkg/controller/deployment/sync.go.html"), chromedp.WaitReady(chromedp.CSS("pre.src"))); err != nil {
		t.Fatal(err)
	}
	g, err := chromedp.Run(ctx, chromedp.Evaluate[got](`new Promise(done => {
			const s = document.querySelector("pre.src s");
			if (!s) return done({});
			s.click();
			requestAnimationFrame(() => requestAnimationFrame(() => {
				const l = document.querySelector(location.hash);
				done({Name: s.textContent, Hash: location.hash, Line: l ? l.textContent : "", HL: document.querySelectorAll("pre.src > .hl").length});
			}));
		})`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	if g.Name == "" {
		t.Fatal("the page has no package name written without a link")
	}
	if !strings.HasPrefix(g.Hash, "#L") || !strings.Contains(g.Line, `"`) || g.HL != 1 {
		t.Errorf("a click on %q went to %s (%q), %d lines marked; want its import's line, marked", g.Name, g.Hash, g.Line, g.HL)
	}
	// The import names the package by its path's last element, or by the
	// name before it.
	imp := strings.Fields(strings.TrimPrefix(strings.TrimSpace(g.Line), "import "))
	if len(imp) == 0 || imp[0] != g.Name && path.Base(strings.Trim(imp[len(imp)-1], `"`)) != g.Name {
		t.Errorf("the line %q is not %s's import", g.Line, g.Name)
	}
}
