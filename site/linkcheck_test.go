package site

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestLinks(t *testing.T) {
	out, _ := buildFixture(t, nil)
	for _, err := range CheckLinks(out) {
		t.Error(err)
	}
}

func TestLinkCheckerFindsBrokenLinks(t *testing.T) {
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
	// The search index's URLs are links too, relative to search.html.
	write("search-index.js", searchIndexHead+`{"docs":[["file","ok","b.html#L2",""],["file","gone","gone.html",""]],"terms":{}}`+searchIndexTail)
	var got []string
	for _, err := range CheckLinks(dir) {
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
		`search.html: link "gone.html": gone.html does not exist`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("CheckLinks (-want +got):\n%s", diff)
	}
}

// TestLinksOfSite link-checks a site built elsewhere (a real release, say):
// KUBEWALK_LINKCHECK_DIR=public go test -run LinksOfSite ./site
func TestLinksOfSite(t *testing.T) {
	dir := os.Getenv("KUBEWALK_LINKCHECK_DIR")
	if dir == "" {
		t.Skip("KUBEWALK_LINKCHECK_DIR not set")
	}
	errs := CheckLinks(dir)
	for i, err := range errs {
		if i == 50 {
			t.Errorf("… and %d more", len(errs)-50)
			break
		}
		t.Error(err)
	}
}
