package site

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kubewalk/kubewalk/internal/linkcheck"
	"github.com/kubewalk/kubewalk/site/internal/searchindex"
)

func TestLinks(t *testing.T) {
	out, _ := buildFixture(t, nil)
	for _, err := range linkcheck.Check(out, ScriptLinks) {
		t.Error(err)
	}
}

// TestScriptLinks: a search index's URLs are links, relative to the
// search page beside it, and an entry of another shape is the script's
// problem; a file that is no data script holds none.
func TestScriptLinks(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) {
		t.Helper()
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("b.html", `<span id="L1"></span><span id="L2"></span>`)
	write("search-index.js", searchindex.IndexHead+`{"docs":[["file","ok","b.html#L2",""],["file","gone","gone.html",""],["file","short"]],"terms":{}}`+searchindex.Tail)
	write("explain-steps.js", "window.kubewalkExplainSteps = 3;\n")
	write("assets/site.js", "window.x = 1;\n")
	var got []string
	for _, err := range linkcheck.Check(dir, ScriptLinks) {
		got = append(got, err.Error())
	}
	want := []string{
		`explain-steps.js: json: cannot unmarshal number into Go value of type []explain.IndexStep`,
		`search-index.js: entry ["file" "short"]: want kind, title, URL, detail`,
		`search.html: link "gone.html": gone.html does not exist`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("linkcheck.Check (-want +got):\n%s", diff)
	}
}

// TestLinksOfSite link-checks a site built elsewhere (a real release, say):
// KUBEWALK_LINKCHECK_DIR=public go test -run LinksOfSite ./site
func TestLinksOfSite(t *testing.T) {
	dir := os.Getenv("KUBEWALK_LINKCHECK_DIR")
	if dir == "" {
		t.Skip("KUBEWALK_LINKCHECK_DIR not set")
	}
	errs := linkcheck.Check(dir, ScriptLinks)
	for i, err := range errs {
		if i == 50 {
			t.Errorf("… and %d more", len(errs)-50)
			break
		}
		t.Error(err)
	}
}
