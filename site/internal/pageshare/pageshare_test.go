package pageshare

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/kubewalk/kubewalk/site/internal/sitetree"
)

func parseDocs(t *testing.T, pages ...string) []*html.Node {
	t.Helper()
	var docs []*html.Node
	for _, p := range pages {
		d, err := html.Parse(strings.NewReader(p))
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, d)
	}
	return docs
}

// mergeOne merges docs into one page, without a budget.
func mergeOne(p string, docs []*html.Node, tags, all []string) ([]byte, error) {
	sizes := make([]int64, len(docs))
	for i := range sizes {
		sizes[i] = 1 << 40
	}
	gs, err := mergeGroups(docs, tags, sizes, 1<<40)
	if err != nil {
		return nil, err
	}
	if len(gs) != 1 {
		return nil, fmt.Errorf("%d groups", len(gs))
	}
	return gs[0].render(p, all, nil)
}

func htmlPage(title, body string) string {
	return "<!DOCTYPE html><html lang=\"en\"><head><title>" + title + "</title></head><body>" + body + "</body></html>"
}

// TestMergePages merges three releases' renderings of a page: what all
// have once; what differs inside an element merged inside it; text wrapped
// to carry its releases, except in a table row, whose row is written per
// rendering; a repeated id kept on the newest's; a title of its own.
func TestMergePages(t *testing.T) {
	tags := []string{"v3", "v2", "v1"}
	docs := parseDocs(t,
		htmlPage("Events · v3", `<p>same</p><ul><li id="a">A <b>new</b></li><li>only v3</li></ul><ul class="t"><li>x</li>row 3</ul>`),
		htmlPage("Events · v3", `<p>same</p><ul><li id="a">A <b>old</b></li></ul><ul class="t"><li>x</li>row 2</ul>`),
		htmlPage("Since v0 · v3", `<p>same</p><ul><li id="a">A <b>old</b></li></ul><ul class="t"><li>x</li>row 2</ul>`),
	)
	out, err := mergeOne("events.html", docs, tags, tags)
	if err != nil {
		t.Fatal(err)
	}
	got := string(out)
	for _, want := range []string{
		`<html lang="en" data-rels="v3 v2 v1" data-releases="v3 v2 v1" data-root="">`,
		// The newest's title first, the oldest's own after it.
		`<title data-r="3">Events · v3</title><title data-r="4" hidden="">Since v0 · v3</title>`,
		`<p>same</p>`,
		// Merged inside the item: its text differs inside <b>.
		`<li id="a">A <b><span data-r="6" hidden="">old</span><span data-r="1">new</span></b></li>`,
		`<li data-r="1">only v3</li>`,
		// A list's own text cannot be wrapped: the list per rendering.
		`<ul class="t" data-r="1"><li>x</li>row 3</ul>`, `<ul class="t" data-r="6" hidden=""><li>x</li>row 2</ul>`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("merged page lacks %s\n%s", want, got)
		}
	}
	if n := strings.Count(got, "same"); n != 1 {
		t.Errorf("what every release has is written %d times", n)
	}

	// An id two renderings of an element carry stays on the one the
	// newest shows; the other has it as data-id.
	docs = parseDocs(t,
		htmlPage("E", `<section id="e-X"><h2>X</h2><p>3</p></section>`),
		htmlPage("E", `<section id="e-X" class="old"><h2>X</h2></section>`),
	)
	out, err = mergeOne("events.html", docs, tags[:2], tags)
	if err != nil {
		t.Fatal(err)
	}
	got = string(out)
	if !strings.Contains(got, `<section id="e-X" data-r="1">`) || !strings.Contains(got, `<section data-id="e-X" class="old" data-r="2" hidden="">`) {
		t.Errorf("ids of the two renderings:\n%s", got)
	}
	if n := strings.Count(got, ` id="e-X"`); n != 1 {
		t.Errorf("the id is on the page %d times", n)
	}

	// A head that differs but for the title cannot be merged.
	docs = parseDocs(t,
		`<html><head><title>T</title><link rel="stylesheet" href="a.css"></head><body></body></html>`,
		`<html><head><title>T</title><link rel="stylesheet" href="b.css"></head><body></body></html>`,
	)
	if _, err := mergeOne("x.html", docs, tags[:2], tags); err == nil {
		t.Error("two heads that differ merged")
	}
}

// TestMergePartners: an older rendering of an element is merged into the
// newer rendering most like it, not the first with the same start tag.
func TestMergePartners(t *testing.T) {
	docs := parseDocs(t,
		htmlPage("T", `<div class="w"><h4>create pods</h4><p>1</p></div><div class="w"><h4>bind pods</h4><p>1</p></div>`),
		htmlPage("T", `<div class="w"><h4>bind pods</h4><p>2</p></div>`),
	)
	out, err := mergeOne("x.html", docs, []string{"v2", "v1"}, []string{"v2", "v1"})
	if err != nil {
		t.Fatal(err)
	}
	want := `<div class="w" data-r="1"><h4>create pods</h4><p>1</p></div><div class="w"><h4>bind pods</h4><p><span data-r="2" hidden="">2</span><span data-r="1">1</span></p></div>`
	if !strings.Contains(string(out), want) {
		t.Errorf("merged:\n%s\nwant %s", out, want)
	}
}

// TestMergeRowsAroundLineBreaks: rows a release removed and added around
// a row both have are no reason to write that row twice, whichever line
// breaks stand between the rows: white space where it does not matter
// (a table's, a list's) is no anchor of the alignment, which would match
// one line break with any other, and the merged page keeps the newest's.
func TestMergeRowsAroundLineBreaks(t *testing.T) {
	for _, tc := range []struct{ name, new, old, merged string }{
		{
			"same row",
			"<tr id=\"b\"><td>b</td></tr>\n<tr id=\"c\"><td>c</td></tr>\n",
			"<tr id=\"a\"><td>a</td></tr>\n<tr id=\"b\"><td>b</td></tr>\n",
			`<tr id="b"><td>b</td></tr>`,
		},
		{
			"changed row",
			"<tr id=\"b\"><td>b</td><td>beta</td></tr>\n<tr id=\"c\"><td>c</td></tr>\n",
			"<tr id=\"a\"><td>a</td></tr>\n<tr id=\"b\"><td>b</td><td>alpha</td></tr>\n",
			`<tr id="b"><td>b</td><td><span data-r="2" hidden="">alpha</span><span data-r="1">beta</span></td></tr>`,
		},
	} {
		docs := parseDocs(t,
			htmlPage("T", "<table><tbody>"+tc.new+"</tbody></table>"),
			htmlPage("T", "<table><tbody>"+tc.old+"</tbody></table>"))
		out, err := mergeOne("x.html", docs, []string{"v2", "v1"}, []string{"v2", "v1"})
		if err != nil {
			t.Fatal(err)
		}
		got := string(out)
		if strings.Count(got, `"b"`) != 1 || !strings.Contains(got, tc.merged) {
			t.Errorf("%s: row b is not written once, as %s:\n%s", tc.name, tc.merged, got)
		}
		if n := strings.Count(got, "\n"); n != 2 || !strings.Contains(got, `<tr id="c" data-r="1"><td>c</td></tr>`+"\n</tbody>") {
			t.Errorf("%s: %d line breaks, want the newest's two, after b and c:\n%s", tc.name, n, got)
		}
	}
}

// TestMergeGroups: a release joins the newer releases' page while that
// stays within the budget and takes fewer bytes than its own page.
func TestMergeGroups(t *testing.T) {
	tags := []string{"v4", "v3", "v2", "v1"}
	row := strings.Repeat("<p>the same long paragraph of every release</p>", 40)
	docs := parseDocs(t,
		htmlPage("T", row+"<p>4</p>"),
		htmlPage("T", row+"<p>3</p>"),
		htmlPage("T", row+"<p>2</p>"),
		htmlPage("T", "<p>nothing in common</p>"),
	)
	sizes := []int64{2100, 2100, 2100, 100}
	// Room for three renderings of a paragraph, not four.
	one, err := mergeGroups(parseDocs(t, htmlPage("T", row+"<p>4</p>")), tags[:1], sizes[:1], 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	budget := int(one[0].Estimate()) + 60
	gs, err := mergeGroups(docs, tags, sizes, budget)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, g := range gs {
		got = append(got, strings.Join(g.Tags, ","))
	}
	if want := []string{"v4,v3", "v2", "v1"}; !slices.Equal(got, want) {
		t.Errorf("groups %v, want %v", got, want)
	}
	out, err := gs[0].render("x.html", tags, []string{"v2=x.v2.html", "v1=x.v1.html"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), `data-rels="v4 v3" data-releases="v4 v3 v2 v1" data-root="" data-groups="v2=x.v2.html v1=x.v1.html"`) {
		t.Errorf("the first group's page does not name the others:\n%.300s", out)
	}
}

// TestMergeGitHubBase: the <body>'s data-gh, the base of the code's
// GitHub links (their data-g the rest), names the release like a
// permalink does: two releases' renderings that differ in nothing else
// are one page, which names its group's newest release's base.
func TestMergeGitHubBase(t *testing.T) {
	tags := []string{"v2", "v1"}
	rp := &relPages{to: map[string][]string{}, all: tags}
	var docs []*html.Node
	for _, tag := range tags {
		d := parseDocs(t, `<!DOCTYPE html><html lang="en"><head><title>W</title></head><body data-gh="`+ghBlob+tag+`/">`+
			`<pre class="code"><a class=t data-g=pkg/a.go#L3>A</a></pre></body></html>`)[0]
		rp.relocate(d, tag, "en/walkthroughs/w.html", map[string]bool{})
		docs = append(docs, d)
	}
	out, err := mergeOne("en/walkthroughs/w.html", docs, tags, tags)
	if err != nil {
		t.Fatal(err)
	}
	got := string(out)
	if !strings.Contains(got, `<body data-gh="`+ghBlob+`v2/"><pre class="code"><a class="t" data-g="pkg/a.go#L3">A</a></pre></body>`) || strings.Contains(got, ` data-r=`) {
		t.Errorf("merged:\n%s", got)
	}
}

// TestMoveKeepsDirectories: a link moved to the shared page's place keeps
// what it names: a directory (the <body>'s data-src, which site.js takes
// the site's top from) ends in a slash still, a page does not gain one.
func TestMoveKeepsDirectories(t *testing.T) {
	rp := &relPages{to: map[string][]string{"handlers.html": {"v1.31.0", "v1.30.0"}}, all: []string{"v1.31.0", "v1.30.0"}}
	for _, c := range []struct{ from, to, raw, want string }{
		{"v1.31.0/handlers.html", "handlers.html", "../src/", "src/"},
		{"v1.31.0/traces/job.html", "traces/job.html", "../../src/", "../src/"},
		{"v1.31.0/handlers.html", "handlers.html", "en/walkthroughs/x.html", "v1.31.0/en/walkthroughs/x.html"},
		{"v1.31.0/en/index.html", "v1.31.0/en/index.html", "../handlers.html", "../../handlers.html?rel=v1.31.0"},
	} {
		if got, _, _ := rp.move(c.from, c.to, c.raw, ""); got != c.want {
			t.Errorf("%s from %s to %s: %s, want %s", c.raw, c.from, c.to, got, c.want)
		}
	}
}

// TestShareLinks: the links Share hands back move a release's data's
// links to its copy of a page it shared to the shared page, with the
// release named, and leave other links as they are; a nil Links moves
// none.
func TestShareLinks(t *testing.T) {
	tags := []string{"v2", "v1"}
	tr := sitetree.New()
	for _, tag := range tags {
		body := `<p>the same in both releases, long enough to be worth sharing</p><a href="../../` + tag + `/en/search.html">search</a>`
		for p, data := range map[string]string{
			tag + "/en/walkthroughs/w.html": htmlPage("w "+tag, body),
			tag + "/en/search.html":         htmlPage("search", ""),
		} {
			if err := tr.Put(p, []byte(data)); err != nil {
				t.Fatal(err)
			}
		}
	}
	r, err := Share(context.Background(), tr, tags, nil, 1, Budget)
	if err != nil {
		t.Fatal(err)
	}
	if r.Pages != -1 {
		t.Fatalf("Share changed the pages by %d; want the two copies written as one page (-1)", r.Pages)
	}
	for _, c := range []struct{ page, link, want string }{
		{"v1/en/search.html", "walkthroughs/w.html#step-1", "../../en/walkthroughs/w.html?rel=v1#step-1"},
		{"v2/en/search.html", "walkthroughs/w.html", "../../en/walkthroughs/w.html?rel=v2"},
		{"v1/en/search.html", "events.html#e-x", "events.html#e-x"},               // not shared
		{"v1/en/search.html", "../../src/a.go.html#L1", "../../src/a.go.html#L1"}, // not a release's
	} {
		got := c.link
		moved := r.Links.Move(c.page, []*string{&got})
		if got != c.want || moved != (c.want != c.link) {
			t.Errorf("%s from %s: moved to %s (%v), want %s", c.link, c.page, got, moved, c.want)
		}
		var none *Links
		if l := c.link; none.Move(c.page, []*string{&l}) || l != c.link {
			t.Errorf("a nil Links moved %s to %s", c.link, l)
		}
	}
}
