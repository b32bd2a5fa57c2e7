package pageshare

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// wsSpan is a span the merge wrote around white space only.
var wsSpan = regexp.MustCompile(`<span data-r="[0-9a-f]+"(?: hidden="")?>\s*</span>`)

// bodyAs is the body of the merged page as release k (0: the newest)
// sees it: what it lacks (data-r) left out, the spans that carry data-r
// unwrapped, the data-r and hidden attributes gone.
func bodyAs(t *testing.T, page []byte, k int) string {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(string(page)))
	if err != nil {
		t.Fatal(err)
	}
	var view func(n *html.Node)
	view = func(n *html.Node) {
		for c := n.FirstChild; c != nil; {
			next := c.NextSibling
			if c.Type != html.ElementNode {
				c = next
				continue
			}
			if r, ok := attr(c, "data-r"); ok {
				m, err := strconv.ParseUint(r, 16, 64)
				if err != nil {
					t.Fatal(err)
				}
				if m&(1<<k) == 0 {
					n.RemoveChild(c)
					c = next
					continue
				}
				var keep []html.Attribute
				for _, a := range c.Attr {
					if a.Key != "data-r" && a.Key != "hidden" {
						keep = append(keep, a)
					}
				}
				c.Attr = keep
				if c.Data == "span" && len(keep) == 0 {
					for g := c.FirstChild; g != nil; {
						gn := g.NextSibling
						c.RemoveChild(g)
						n.InsertBefore(g, c)
						g = gn
					}
					n.RemoveChild(c)
					c = next
					continue
				}
			}
			view(c)
			c = next
		}
	}
	view(doc)
	var body *html.Node
	var find func(n *html.Node)
	find = func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "body" {
			body = n
		}
		for c := n.FirstChild; c != nil && body == nil; c = c.NextSibling {
			find(c)
		}
	}
	find(doc)
	var b strings.Builder
	for c := body.FirstChild; c != nil; c = c.NextSibling {
		if err := html.Render(&b, c); err != nil {
			t.Fatal(err)
		}
	}
	return b.String()
}

var (
	wsRun    = regexp.MustCompile(`[ \t\n]+`)
	wsBlock  = regexp.MustCompile(` ?(</?(?:p|div|section|ul|li|h2|nav|form|figure|details|summary)\b[^>]*>) ?`)
	wsInside = regexp.MustCompile(`(?s)<pre\b.*?</pre>`)
)

// shown is a page body as a browser lays it out outside <pre>: white
// space collapsed to one character, none next to a block's tag. What is
// in a <pre> is kept as it is.
func shown(s string) string {
	var pres []string
	s = wsInside.ReplaceAllStringFunc(s, func(p string) string {
		pres = append(pres, p)
		return "\x00"
	})
	s = wsRun.ReplaceAllString(s, " ")
	s = wsBlock.ReplaceAllString(s, "$1")
	for _, p := range pres {
		s = strings.Replace(s, "\x00", p, 1)
	}
	return strings.TrimSpace(s)
}

// TestMergeWhiteSpace merges renderings that differ only in the white
// space a template writes around an optional part: no span carries white
// space only, and each release still shows what its own page does.
func TestMergeWhiteSpace(t *testing.T) {
	tags := []string{"v3", "v2", "v1"}
	bodies := []string{
		// The newest has the optional link, list and paragraph.
		"<nav class=\"bar\">\n  <a href=\"a.html\">A</a>\n  <a href=\"r.html\">Recorded run</a>\n  <form class=\"find\"><input name=\"q\"></form>\n</nav>\n" +
			"<section>\n  <h2>Step</h2>\n  <ul class=\"changes\"><li>moved</li></ul>\n  <p><b>A</b>\n  <b>Service</b> is created.</p>\n  <p>Note</p>\n</section>\n" +
			"<div class=\"x\">\n <p>one</p>\n \n</div>\n" +
			"<ul class=\"refs\"><li><a href=\"s.go.html\">s.go:3</a> <span class=\"meta\">if body</span></li></ul>",
		// The next lacks them, the template's white space left around.
		"<nav class=\"bar\">\n  <a href=\"a.html\">A</a>\n  \n  <form class=\"find\"><input name=\"q\"></form>\n</nav>\n" +
			"<section>\n  <h2>Step</h2>\n  \n  \n  <p><b>A</b>\n      <b>Service</b> is created.</p>\n  \n</section>\n" +
			"<div class=\"x\">\n <p>one</p>\n</div>\n" +
			"<ul class=\"refs\"><li><a href=\"s.go.html\">s.go:3</a></li></ul>",
		// The oldest lacks them too, written more tightly.
		"<nav class=\"bar\">\n  <a href=\"a.html\">A</a>\n  <form class=\"find\"><input name=\"q\"></form>\n</nav>\n" +
			"<section>\n  <h2>Step</h2>\n  <p><b>A</b>\n<b>Service</b> is created.</p>\n</section>\n" +
			"<div class=\"x\">\n <p>one</p></div>\n" +
			"<ul class=\"refs\"><li><a href=\"s.go.html\">s.go:3</a></li></ul>",
	}
	var pages []string
	for _, b := range bodies {
		pages = append(pages, htmlPage("T", b))
	}
	out, err := mergeOne("x.html", parseDocs(t, pages...), tags, tags)
	if err != nil {
		t.Fatal(err)
	}
	got := string(out)
	if ws := wsSpan.FindAllString(got, -1); len(ws) > 0 {
		t.Errorf("white space in spans of its own: %q\n%s", ws, got)
	}
	for _, want := range []string{
		`<a href="r.html" data-r="1">Recorded run</a>`,
		`<ul class="changes" data-r="1"><li>moved</li></ul>`,
		`<p data-r="1">Note</p>`,
		// The space before what only the newest has ends its item in the
		// others'.
		`<li><a href="s.go.html">s.go:3</a> <span class="meta" data-r="1">if body</span></li>`,
		// White space between A and Service written once, the newest's,
		// however much of it the others wrote.
		"<p><b>A</b>\n  <b>Service</b> is created.</p>",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("merged page lacks %q\n%s", want, got)
		}
	}
	sameViews(t, tags, pages, out)
}

// TestMergeWhiteSpaceKept: white space that may show is merged as it is:
// a space between two words one release lacks, an element's only
// content (a table cell of nothing shows a dash: :empty), and any white
// space in <pre> or <code>, which keeps its releases' own spans.
func TestMergeWhiteSpaceKept(t *testing.T) {
	tags := []string{"v2", "v1"}
	pages := []string{
		htmlPage("T", "<p><b>x</b> <i>y</i></p>\n<p class=\"e\"> </p>\n<pre class=\"code\"><b>func</b>  <i>f</i>\n\t<b>return</b>\n</pre>\n<p><code><b>a</b>\n  <b>b</b></code></p>"),
		htmlPage("T", "<p><b>x</b><i>y</i></p>\n<p class=\"e\"></p>\n<pre class=\"code\"><b>func</b> <i>f</i>\n<b>return</b>\n</pre>\n<p><code><b>a</b>\n<b>b</b></code></p>"),
	}
	out, err := mergeOne("x.html", parseDocs(t, pages...), tags, tags)
	if err != nil {
		t.Fatal(err)
	}
	got := string(out)
	for _, want := range []string{
		// The space between x and y only the newest has.
		`<p><b>x</b><span data-r="1"> </span><i>y</i></p>`,
		`<p class="e"><span data-r="1"> </span></p>`,
		// Each release's white space in <pre> and <code>, byte for byte.
		`<span data-r="2" hidden=""> </span><span data-r="1">  </span>`,
		"<span data-r=\"2\" hidden=\"\">\n</span><span data-r=\"1\">\n\t</span>",
		"<span data-r=\"2\" hidden=\"\">\n</span><span data-r=\"1\">\n  </span>",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("merged page lacks %q\n%s", want, got)
		}
	}
	sameViews(t, tags, pages, out)
	// In <pre>, byte for byte.
	for k := range tags {
		pre := regexp.MustCompile(`(?s)<pre.*?</pre>`)
		if as, own := pre.FindString(bodyAs(t, out, k)), pre.FindString(pages[k]); as != own {
			t.Errorf("%s's <pre>: %q, its own %q", tags[k], as, own)
		}
	}
}

// sameViews checks that each release's view of the merged page out shows
// what its own page does (shown: the text and links laid out).
func sameViews(t *testing.T, tags, pages []string, out []byte) {
	t.Helper()
	for k := range tags {
		own := shown(bodyAs(t, []byte(pages[k]), 0))
		if as := shown(bodyAs(t, out, k)); as != own {
			t.Errorf("%s sees\n%s\nits own page shows\n%s", tags[k], as, own)
		}
	}
}

// attr returns n's attribute k.
func attr(n *html.Node, k string) (string, bool) {
	for _, a := range n.Attr {
		if a.Key == k && a.Namespace == "" {
			return a.Val, true
		}
	}
	return "", false
}

// TestMergeSectionsAmongLineBreaks: in a block, the line breaks between
// block-level elements are no anchors either, so a section beside
// sections a release added and removed is merged inside itself; a line
// break the newest has between blocks is not shown to a release that has
// inline content on both sides of it there.
func TestMergeSectionsAmongLineBreaks(t *testing.T) {
	tags := []string{"v2", "v1"}
	pages := []string{
		htmlPage("T", "<main>\n<section id=\"b\"><h2>b</h2><p>beta</p></section>\n<section id=\"c\"><h2>c</h2></section>\n</main>\n"+
			"<div><b>x</b><p>only v2</p>\n<p>only v2 too</p><i>y</i></div>"),
		htmlPage("T", "<main>\n<section id=\"a\"><h2>a</h2></section>\n<section id=\"b\"><h2>b</h2><p>alpha</p></section>\n</main>\n"+
			"<div><b>x</b><i>y</i></div>"),
	}
	out, err := mergeOne("x.html", parseDocs(t, pages...), tags, tags)
	if err != nil {
		t.Fatal(err)
	}
	got := string(out)
	if n := strings.Count(got, `"b"`); n != 1 || strings.Contains(got, "data-id") {
		t.Errorf("section b is written %d times, not merged inside:\n%s", n, got)
	}
	if want := `<p><span data-r="2" hidden="">alpha</span><span data-r="1">beta</span></p>`; !strings.Contains(got, want) {
		t.Errorf("merged page lacks %q\n%s", want, got)
	}
	if as := bodyAs(t, out, 1); !strings.Contains(as, "<b>x</b><i>y</i>") {
		t.Errorf("v1 sees white space between x and y, which its own page lacks:\n%s", as)
	}
	sameViews(t, tags, pages, out)
}
