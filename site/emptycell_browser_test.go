package site

import (
	"io/fs"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/kubewalk/kubewalk/templates"
)

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
	dir := withSiteJS(t, map[string]string{"p.html": page, "site.css": string(css)})
	ctx := browser(t, 800, 600)
	dash := `["only-newer","shared-text","both","empty"].map(id => getComputedStyle(document.getElementById(id), "::before").content).join(" ")`
	for _, c := range []struct{ q, want string }{
		{"", `none none none "—"`},
		{"?rel=v1", `"—" none none "—"`},
	} {
		openPage(t, ctx, fileURL(t, dir)+"p.html"+c.q)
		got, err := chromedp.Run(ctx, chromedp.Evaluate[string](dash))
		if err != nil {
			t.Fatal(err)
		}
		if got = strings.ReplaceAll(got, "normal", "none"); got != c.want {
			t.Errorf("p.html%s: the cells' dashes %s, want %s", c.q, got, c.want)
		}
	}
}
