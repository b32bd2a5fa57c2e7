package linkcheck

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCheck: each kind of broken link on a page is reported once, as
// "page: message", sorted; a data-lnk pair's fragment alone is on the
// page of the link it moves; a GitHub link in the compact form (data-g)
// needs its base (data-gh, around it) and must stay under it.
func TestCheck(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.html", `<a href="b.html#L1-L3">ok</a><a href="b.html#L1-L9">bad range</a><a href="c.html">missing</a>
<a href="#x">missing own id</a><a href="javascript:alert(1)">js</a><a href="/abs.html">abs</a><a href="../up.html">up</a>
<a href="https://github.com/x">ok ext</a><a href="sub">dir</a><a href="b.html#nope">no id</a>`)
	write("b.html", `<span id="L1"></span><span id="L2"></span><span id="L3"></span>`)
	// Where a shared source line's link goes for an older release (a
	// fragment alone: on the same page as the link).
	write("d.html", `<div data-lnt="#L1 #L1.1 b.html#L2 #L4"></div><div data-lnk="0 1 2 3"></div><span id="L1.1"></span>`)
	write("sub/x.html", `<p id="x">`)
	write("g.html", `<body data-gh="https://github.com/k/k/blob/v1/"><pre><a class=t data-g=pkg/a.go#L3>ok</a>
<a data-g="../../evil#L1">up</a><a data-g="/abs">abs</a><a data-g="https://evil.example/">other host</a></pre>
<div data-gh="http://github.com/k/k/blob/v1/"><a data-g=a.go>http base</a></div></body>`)
	write("h.html", `<a data-g=pkg/a.go#L3>no base</a>`)
	var got []string
	for _, err := range Check(dir, nil) {
		got = append(got, err.Error())
	}
	want := []string{
		`a.html: absolute path "/abs.html": links must be relative`,
		`a.html: external link "javascript:alert(1)": only https links may leave the site`,
		`a.html: link "#x": no id "x" in a.html`,
		`a.html: link "../up.html" leaves the site`,
		`a.html: link "b.html#L1-L9": no id "L9" in b.html`,
		`a.html: link "b.html#nope": no id "nope" in b.html`,
		`a.html: link "c.html": c.html does not exist`,
		`a.html: link "sub" names a directory (does not work from file://)`,
		`d.html: link "b.html#L4": no id "L4" in b.html`,
		`g.html: GitHub link "../../evil#L1": no path under its base "https://github.com/k/k/blob/v1/"`,
		`g.html: GitHub link "/abs": no path under its base "https://github.com/k/k/blob/v1/"`,
		`g.html: GitHub link "a.go": base "http://github.com/k/k/blob/v1/" is no https URL ending in /`,
		`g.html: GitHub link "https://evil.example/": no path under its base "https://github.com/k/k/blob/v1/"`,
		`h.html: GitHub link "pkg/a.go#L3" without a base (data-gh)`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Check (-want +got):\n%s", diff)
	}
}

// TestReleaseView: a link of a shared page as site.js shows it for a
// release: its directory and GitHub tag, and ?rel= on links to the
// shared pages and the source pages, but not to the list of releases or
// a page in a release's directory.
func TestReleaseView(t *testing.T) {
	rels := []string{"v1.37.2", "v1.36.3"}
	all := []string{"v1.37.2", "v1.36.3", "v1.29.6"}
	for _, c := range []struct {
		raw  string
		k    int
		want string
	}{
		{"../src/a.go.html#L3", 1, "../src/a.go.html?rel=v1.36.3#L3"},
		{"../src/a.go.html?lang=ko#L3", 1, "../src/a.go.html?lang=ko&rel=v1.36.3#L3"},
		{"../src/a.go.html#L3", 0, "../src/a.go.html?rel=v1.37.2#L3"},
		{"../v1.37.2/en/search.html", 1, "../v1.36.3/en/search.html"},
		{"../v1.29.6/en/index.html", 1, "../v1.29.6/en/index.html"},
		{"handlers.html?rel=v1.29.6", 1, "handlers.html?rel=v1.29.6"},
		{"../index.html", 1, "../index.html"},
		{"#main", 1, "#main"},
		{ghBlob + "v1.37.2/pkg/a.go#L3", 1, ghBlob + "v1.36.3/pkg/a.go#L3"},
	} {
		if got := releaseView(c.raw, rels, all, c.k, "en/handlers.html", "index.html"); got != c.want {
			t.Errorf("releaseView(%q, %s) = %q, want %q", c.raw, rels[c.k], got, c.want)
		}
	}
}

// TestReadSharedPageGitHubLinks: a shared page's GitHub links in the
// compact form are the hrefs site.js makes of them (the <body>'s data-gh
// before each data-g), at the tag of the release that reads the page.
func TestReadSharedPageGitHubLinks(t *testing.T) {
	page := `<html data-rels="v1.37.2 v1.36.3" data-releases="v1.37.2 v1.36.3"><body data-gh="` + ghBlob + `v1.37.2/">` +
		`<pre><a class=t data-g=pkg/a.go#L3>A</a><span data-r=2><a class=f data-g=pkg/b.go#L9>B</a></span></pre></body></html>`
	sp := ReadSharedPage("en/walkthroughs/x.html", []byte(page))
	want := map[string][]string{
		"v1.37.2": {ghBlob + "v1.37.2/pkg/a.go#L3"},
		"v1.36.3": {ghBlob + "v1.36.3/pkg/a.go#L3", ghBlob + "v1.36.3/pkg/b.go#L9"},
	}
	if diff := cmp.Diff(want, sp.Links); diff != "" {
		t.Errorf("links by release (-want +got):\n%s", diff)
	}
}

// TestReadSharedPageLanguages: on a page both the releases and the
// languages share, each release's links in each language are those both
// masks show (data-r over data-rels, data-lg over data-langs).
func TestReadSharedPageLanguages(t *testing.T) {
	page := `<html data-langs="en ko" data-rels="v1.37.2 v1.36.3" data-releases="v1.37.2 v1.36.3"><body>` +
		`<a href="a.html">all</a>` +
		`<a href="en/w.html" data-lg=1>en</a><a href="ko/w.html" data-lg=2 hidden>ko</a>` +
		`<span data-r=2 hidden><a href="old.html" data-lg=2 hidden>old ko</a></span></body></html>`
	sp := ReadSharedPage("handlers.html", []byte(page))
	if diff := cmp.Diff([]string{"en", "ko"}, sp.Langs); diff != "" {
		t.Errorf("languages (-want +got):\n%s", diff)
	}
	want := map[string][]string{
		"v1.37.2": {"a.html?rel=v1.37.2", "en/w.html?rel=v1.37.2"},
		"v1.36.3": {"a.html?rel=v1.36.3", "en/w.html?rel=v1.36.3"},
	}
	if diff := cmp.Diff(want, sp.Links); diff != "" {
		t.Errorf("links in English (-want +got):\n%s", diff)
	}
	wantKo := map[string]map[string][]string{"ko": {
		"v1.37.2": {"a.html?rel=v1.37.2", "ko/w.html?rel=v1.37.2"},
		"v1.36.3": {"a.html?rel=v1.36.3", "ko/w.html?rel=v1.36.3", "old.html?rel=v1.36.3"},
	}}
	if diff := cmp.Diff(wantKo, sp.LangLinks); diff != "" {
		t.Errorf("links in Korean (-want +got):\n%s", diff)
	}
}
