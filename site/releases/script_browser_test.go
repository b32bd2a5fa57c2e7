package releases

// Tests of releases.js on pages written by hand: the attributes the
// package comment defines, read as a reader's browser does.

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/kubewalk/kubewalk/site/internal/browsertest"
	"github.com/kubewalk/kubewalk/templates"
)

// withScripts writes files (name to content), releases.js and site.js,
// which a page of a multi-release site loads in that order, into a new
// directory, and returns it.
func withScripts(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for _, name := range []string{"releases.js", "site.js"} {
		js, err := fs.ReadFile(templates.FS, "assets/"+name)
		if err != nil {
			t.Fatal(err)
		}
		files[name] = string(js)
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestBrowserReleaseGroups: a release another page of the same page's
// releases serves (data-groups) is sent there, at the same place, and
// shows its own rendering.
func TestBrowserReleaseGroups(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	page := func(rels, groups, body string) string {
		return `<!DOCTYPE html><html data-rels="` + rels + `" data-releases="v3 v2 v1" data-root="" data-groups="` + groups +
			`"><head><title>T</title></head><body>` + body + `<script src="releases.js"></script><script src="site.js"></script></body></html>`
	}
	dir := withScripts(t, map[string]string{
		"x.html":    page("v3 v2", "v1=x.v1.html", `<p id="far" data-r="2" hidden>two</p><p data-r="1">three</p>`),
		"x.v1.html": page("v1", "v3,v2=x.html", `<p style="margin-top:3000px" id="far">one</p>`),
	})
	ctx := browsertest.New(t, 800, 600)
	base := browsertest.FileURL(t, dir)
	for _, c := range []struct{ from, want, text string }{
		{"x.html?rel=v1#far", "x.v1.html?rel=v1#far", "one"},
		{"x.v1.html?rel=v2", "x.html?rel=v2", "two"},
		{"x.html", "x.html", "three"},
	} {
		browsertest.OpenPage(t, ctx, base+c.from)
		var at, text string
		for range 50 { // the page sends the reader on
			got, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[location.href, document.body ? document.body.innerText.trim() : ""]`))
			if err == nil && strings.HasPrefix(got[0], base+c.want) {
				at, text = got[0], got[1]
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
		if at != base+c.want || text != c.text {
			t.Errorf("%s: at %q showing %q, want %s showing %q", c.from, at, text, c.want, c.text)
		}
	}
}

// TestBrowserHeadLinesCounted: a release's source header made from the
// newest's (data-head) numbers its cited lines as the release does —
// counting the lines it has that the newest lacks — and says its own
// number of lines and its own links.
func TestBrowserHeadLinesCounted(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	head := `<header class="srchead"><p class="meta"><span class="count">4</span> lines · <a class="gh" href="https://github.com/k/k/blob/v2/x.go">GitHub</a></p>` +
		`<ul><li><a href="w.html?rel=v2#s1">Step</a> <span class="lines">L2-L3, L4</span></li></ul></header>`
	page := `<!DOCTYPE html><html lang="en"><head><title>T</title></head><body>` +
		`<div class="langblock" data-lang="en" data-rel="v2">` + head + `</div>` +
		`<div class="langblock" data-lang="en" data-rel="v1" data-head="v2" data-n="5" hidden></div>` +
		`<pre class="code src"><u id=L1>a
</u><u id=L1.1 data-r=2 hidden>only in v1
</u><u id=L2 data-r=1>b
</u><u data-r=2 hidden>b, as v1 has it
</u><u id=L3>c
</u><u id=L4>d
</u></pre><script src="releases.js"></script><script src="site.js"></script></body></html>`
	dir := withScripts(t, map[string]string{"x.go.html": page})
	ctx := browsertest.New(t, 800, 600)
	browsertest.OpenPage(t, ctx, browsertest.FileURL(t, dir)+"x.go.html?rel=v1")
	got, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`(() => {
		const h = document.querySelector('.langblock:not([hidden]) header.srchead');
		return h ? [h.querySelector('.count').textContent, h.querySelector('.lines').textContent, h.querySelector('a.gh').getAttribute('href'), h.querySelector('li a').getAttribute('href')] : [];
	})()`))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"5", "L3-L4, L5", "https://github.com/k/k/blob/v1/x.go", "w.html?rel=v1#s1"}
	if !slices.Equal(got, want) {
		t.Errorf("v1's source header: %q, want %q", got, want)
	}
}

// TestBrowserLinkMovedOnPage: data-lnk may name where a link goes by its
// fragment alone, on the same page as the link (site/internal/srcmerge,
// LinkMoves); read as the older release, the link goes there.
func TestBrowserLinkMovedOnPage(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	page := `<!DOCTYPE html><html lang="en"><head><title>T</title></head><body>` +
		`<div class="langblock" data-lang="en" data-rel="v2" data-lnt="y.html#L2 #L3"><header class="top">v2</header></div>` +
		`<div class="langblock" data-lang="en" data-rel="v1" data-lnk="0 1" hidden><header class="top">v1</header></div>` +
		`<pre class="code src"><u id=L1><a href="y.html#L2">f</a>
</u></pre><script src="releases.js"></script><script src="site.js"></script></body></html>`
	dir := withScripts(t, map[string]string{"x.go.html": page, "y.html": `<p id="L2">two</p><p id="L3">three</p>`})
	ctx := browsertest.New(t, 800, 600)
	browsertest.OpenPage(t, ctx, browsertest.FileURL(t, dir)+"x.go.html?rel=v1")
	if err := chromedp.Do(ctx, browsertest.VoidEval(`document.querySelector('pre.src a').click()`)); err != nil {
		t.Fatal(err)
	}
	var got string
	for range 50 {
		got, _ = chromedp.Run(ctx, chromedp.Evaluate[string](`location.pathname.split('/').pop() + location.hash`))
		if strings.HasPrefix(got, "y.html") {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if got != "y.html#L3" {
		t.Errorf("as v1, the link went to %s, want y.html#L3", got)
	}
}

// TestBrowserEmptyCellOlder: on a page the releases share, a facts
// table's cell whose every part is another release's prints the dash of
// an empty cell for the release read, as one with nothing in it does;
// a cell with text of its own, or a part of the release's, does not.
func TestBrowserEmptyCellOlder(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	css, err := fs.ReadFile(templates.FS, "assets/site.css")
	if err != nil {
		t.Fatal(err)
	}
	page := `<!DOCTYPE html><html lang="en" data-rels="v2 v1"><head><meta charset="utf-8"><title>T</title><link rel="stylesheet" href="site.css"></head><body>` +
		`<table class="facts"><tbody><tr>` +
		`<td id="only-newer"><a href="#x" data-r="1">newer</a><br data-r="1"></td>` +
		`<td id="shared-text">on <span data-r="1">(locked)</span></td>` +
		`<td id="both"><a href="#x" data-r="1">newer</a><a href="#y" data-r="2" hidden>older</a></td>` +
		`<td id="empty"></td>` +
		`</tr></tbody></table><script src="releases.js"></script><script src="site.js"></script></body></html>`
	dir := withScripts(t, map[string]string{"p.html": page, "site.css": string(css)})
	ctx := browsertest.New(t, 800, 600)
	dash := `["only-newer","shared-text","both","empty"].map(id => getComputedStyle(document.getElementById(id), "::before").content).join(" ")`
	for _, c := range []struct{ q, want string }{
		{"", `none none none "—"`},
		{"?rel=v1", `"—" none none "—"`},
	} {
		browsertest.OpenPage(t, ctx, browsertest.FileURL(t, dir)+"p.html"+c.q)
		got, err := chromedp.Run(ctx, chromedp.Evaluate[string](dash))
		if err != nil {
			t.Fatal(err)
		}
		if got = strings.ReplaceAll(got, "normal", "none"); got != c.want {
			t.Errorf("p.html%s: the cells' dashes %s, want %s", c.q, got, c.want)
		}
	}
}
