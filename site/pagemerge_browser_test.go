package site

import (
	"context"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/google/go-cmp/cmp"

	"github.com/kubewalk/kubewalk/internal/linkcheck"
	"github.com/kubewalk/kubewalk/site/internal/browsertest"
	"github.com/kubewalk/kubewalk/site/internal/linemap"
	"github.com/kubewalk/kubewalk/site/internal/pageshare"
)

// TestBrowserSharedReleasePages builds the two-release site twice, with
// the pages its releases share (package pageshare) and with each release's own
// copies, and reads every shared page as each release in Chromium: the
// text shown, the title and every link shown must be the release's own
// page's, a link to a shared page naming it with the release.
func TestBrowserSharedReleasePages(t *testing.T) {
	shared, pages, ctx := compareSharedSite(t, loadTree(t))
	checkSharedLinks(t, ctx, shared, pages, nil)
}

// TestBrowserSharedReleasePagesBilingual is TestBrowserSharedReleasePages
// on a bilingual site, whose index pages the languages share as well as
// the releases: every release's view of each shared page in each
// language must be its own page's in that language.
func TestBrowserSharedReleasePagesBilingual(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	shared := buildMultiBilingual(t)
	own := buildMultiBilingualTuned(t, tuning{ownReleasePages: true})
	pages := sharedPagesOf(t, shared)
	var both []string // the pages of every language
	for _, p := range pages {
		if !strings.HasPrefix(p, "en/") && !strings.HasPrefix(p, "ko/") {
			both = append(both, p)
		}
	}
	if len(both) < 4 {
		t.Fatalf("pages the languages and releases share: %v, want the indexes and traces at least", both)
	}
	ctx := browser(t, 1280, 800)
	for _, lang := range []string{"", "ko"} {
		if n := compareSharedPagesIn(t, ctx, shared, own, []string{newTag, oldTag}, pages, pages, lang); n == 0 {
			t.Fatalf("no link compared in %q", lang)
		}
	}
}

// ghFrag is the line fragment of a GitHub permalink.
var ghFrag = regexp.MustCompile(`^(https://github\.com/[^#]*)#L[0-9]+(-L[0-9]+)?$`)

// ghLinesOnly writes a GitHub permalink's lines as "#L?" or "#L?-L?":
// the link checker reads an older release's permalinks with the newest's
// lines, which site.js renumbers from the release's lines.js
// (TestBrowserSharedLineNumbers compares those numbers), so a real
// site's links are compared but for the numbers, a range staying a range.
func ghLinesOnly(u string) string {
	m := ghFrag.FindStringSubmatch(u)
	if m == nil {
		return u
	}
	if m[2] != "" {
		return m[1] + "#L?-L?"
	}
	return m[1] + "#L?"
}

// TestBrowserSharedReleasePagesReal reads every page the releases of a
// real multi-release site share (KUBEWALK_REAL_MULTI_SITE: the directory
// `kubewalk build --tags` wrote) as each release that shares it, in
// Chromium: the links shown must be the ones the link checker reads for
// that release (checkSharedLinks), on the real pages, whose releases,
// groups and renumbered lines the fixture cannot all have.
func TestBrowserSharedReleasePagesReal(t *testing.T) {
	dir := os.Getenv("KUBEWALK_REAL_MULTI_SITE")
	if dir == "" {
		t.Skip("set KUBEWALK_REAL_MULTI_SITE to a site kubewalk build --tags wrote")
	}
	pages := sharedPagesOf(t, dir)
	if len(pages) < 50 {
		t.Fatalf("%d shared pages in %s, want a real site's", len(pages), dir)
	}
	ctx := browsertest.NewFor(t, 1280, 800, 2*time.Hour)
	n := checkSharedLinks(t, ctx, dir, pages, ghLinesOnly)
	if n < 2*len(pages) {
		t.Errorf("%d views of %d shared pages read, want two releases' of each at least", n, len(pages))
	}
	t.Logf("%d views of %d shared pages compared", n, len(pages))
}

// sharedPagesOf lists, sorted, the pages of the multi-release site in dir
// that its releases share (package pageshare): at the site's root or in
// a language's directory, not in a release's.
func sharedPagesOf(t *testing.T, dir string) []string {
	t.Helper()
	var pages []string
	err := filepath.WalkDir(dir, func(f string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		r, err := filepath.Rel(dir, f)
		p := filepath.ToSlash(r)
		if _, rest, _ := strings.Cut(p, "/"); pageshare.Shares(p) || pageshare.Shares(rest) && !strings.HasPrefix(p, "v") {
			pages = append(pages, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(pages)
	return pages
}

// checkSharedLinks opens each of the shared pages of the site in dir as
// each release that shares it, and compares the links Chromium shows
// (site.js having written them for the release) with the ones the link
// checker reads for that release (linkcheck.ReadSharedPage), both
// written by norm when it is not nil. It returns the number of views
// compared.
func checkSharedLinks(t *testing.T, ctx context.Context, dir string, pages []string, norm func(string) string) int {
	t.Helper()
	views := 0
	for _, p := range pages {
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(p)))
		if err != nil {
			t.Fatal(err)
		}
		sp := linkcheck.ReadSharedPage(p, data)
		type view struct{ rel, lang string }
		var vs []view
		for _, r := range sp.Rels {
			vs = append(vs, view{r, ""})
			for _, l := range sp.Langs[min(1, len(sp.Langs)):] {
				vs = append(vs, view{r, l})
			}
		}
		for _, v := range vs {
			r, want, q := v.rel, sp.Links[v.rel], ""
			if v.lang != "" {
				want, q = sp.LangLinks[v.lang][r], "&lang="+v.lang
			}
			openPage(t, ctx, fileURL(t, dir)+p+"?rel="+r+q)
			got, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll("a[href], form[action]")].filter(a => !a.closest("[hidden]")).map(a => a.getAttribute(a.hasAttribute("href") ? "href" : "action"))`))
			if err != nil {
				t.Fatal(err)
			}
			if norm != nil {
				want, got = slices.Clone(want), slices.Clone(got)
				for i := range want {
					want[i] = norm(want[i])
				}
				for i := range got {
					got[i] = norm(got[i])
				}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s?rel=%s%s: links as the link checker reads them (-) and as site.js writes them (+):\n%s", p, r, q, diff)
			}
			views++
		}
	}
	return views
}

// compareSharedPages compares each shared page of the site in shared,
// read as each release of tags (newest first), with that release's own
// page in own; all are every shared page of the site. It returns the
// number of links compared.
func compareSharedPages(t *testing.T, ctx context.Context, shared, own string, tags, all, pages []string) int {
	t.Helper()
	return compareSharedPagesIn(t, ctx, shared, own, tags, all, pages, "")
}

// compareSharedPagesIn is compareSharedPages with the pages every
// language shares read in language lang (?lang=; "" the first), as is
// each release's own.
func compareSharedPagesIn(t *testing.T, ctx context.Context, shared, own string, tags, all, pages []string, lang string) int {
	t.Helper()
	inLang := func(q string) string {
		if lang == "" {
			return q
		}
		if q == "" {
			return "?lang=" + lang
		}
		return q + "&lang=" + lang
	}
	sharedURL, ownURL := fileURL(t, shared), fileURL(t, own)
	isShared := map[string]bool{}
	for _, p := range all {
		isShared[p] = true
	}
	// A link to a source page for the release the page shows without
	// ?rel= (site.js adds it) is the same link.
	firstRel := map[string]string{}
	relOf := func(root, p string) string {
		if r, ok := firstRel[p]; ok {
			return r
		}
		data, _ := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
		r := ""
		if m := regexp.MustCompile(`data-rel="([^"]+)"`).FindSubmatch(data); m != nil {
			r = string(m[1])
		}
		firstRel[p] = r
		return r
	}
	// site names a link's target by its site path, a shared page with the
	// release it is read as.
	site := func(dir, href, tag string) string {
		rest, ok := strings.CutPrefix(href, fileURL(t, dir))
		if !ok {
			return href
		}
		u, err := url.Parse(rest)
		if err != nil {
			t.Fatal(err)
		}
		q := u.Query()
		// A group's page is the shared page (pageshare, groupPath).
		if m := groupPageRE.FindStringSubmatch(u.Path); m != nil && isShared[m[1]+".html"] {
			u.Path = m[1] + ".html"
		}
		if t, p, ok := strings.Cut(u.Path, "/"); ok && isShared[p] {
			u.Path = p
			q.Set("rel", t)
		} else if isShared[u.Path] && q.Get("rel") == "" {
			q.Set("rel", tags[0])
		} else if strings.HasPrefix(u.Path, "src/") && q.Get("rel") == "" {
			if r := relOf(dir, u.Path); r == "" || r == tag {
				q.Set("rel", tag)
			}
		}
		u.RawQuery = q.Encode()
		return u.String()
	}
	type view struct {
		Title, Text string
		Links       []string
		// Titles are the elements' title attributes shown.
		Titles []string
	}
	read := func(u string) view {
		t.Helper()
		openPage(t, ctx, u)
		// An older release's line numbers are written once its line map
		// has loaded (lines.go).
		for range 100 {
			done, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.readyState === "complete" && (!document.querySelector('script[src$="/`+linemap.FileName+`"]') || window.kubewalkLines !== undefined)`))
			if err != nil {
				t.Fatal(err)
			}
			if done {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		v, err := chromedp.Run(ctx, chromedp.Evaluate[view](`({
			Title: document.title,
			Text: document.body.innerText,
			Links: [...document.querySelectorAll("a[href], form[action]")].filter(a => !a.closest("[hidden]")).map(a => new URL(a.getAttribute(a.hasAttribute("href") ? "href" : "action"), location.href).href),
			Titles: [...document.body.querySelectorAll("[title]")].filter(e => !e.closest("[hidden]")).map(e => e.title),
		})`))
		if err != nil {
			t.Fatalf("%s: %v", u, err)
		}
		return v
	}
	links := 0
	for _, p := range pages {
		for i, tag := range tags {
			queries := []string{"?rel=" + tag}
			if i == 0 {
				queries = append(queries, "")
			}
			if _, err := os.Stat(filepath.Join(own, tag, filepath.FromSlash(p))); err != nil {
				continue // a page some releases lack
			}
			if lang != "" && (strings.HasPrefix(p, "en/") || strings.HasPrefix(p, "ko/")) {
				continue // one language's page
			}
			want := read(ownURL + tag + "/" + p + inLang(""))
			for k, l := range want.Links {
				want.Links[k] = site(own, l, tag)
			}
			// The page of the release's group (the entry page sends the
			// reader there: site/releases TestBrowserReleaseGroups).
			at := p
			if data, err := os.ReadFile(filepath.Join(shared, filepath.FromSlash(p))); err == nil {
				if g, ok := linkcheck.ReadSharedPage(p, data).Groups[tag]; ok {
					at = path.Join(path.Dir(p), g)
				}
			}
			for _, q := range queries {
				got := read(sharedURL + at + inLang(q))
				for k, l := range got.Links {
					got.Links[k] = site(shared, l, tag)
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("%s%s against %s: (-own +shared):\n%s", at, q, path.Join(tag, p), diff)
				}
				links += len(got.Links)
			}
		}
	}
	return links
}

var groupPageRE = regexp.MustCompile(`^(.*)\.v[0-9][^/]*\.html$`)

// TestBrowserSharedLineNumbers reads the shared pages of two releases
// whose code is the same, the older's three lines further down, as the
// older release: its line numbers (lines.go), in text, titles and GitHub
// links, must be those of its own pages.
func TestBrowserSharedLineNumbers(t *testing.T) {
	compareSharedSite(t, shiftedTree(t))
}

// compareSharedSite builds the two-release site, the older release's tree
// oldTree, with the pages its releases share and with each release's own
// copies, and compares every shared page read as each release with the
// release's own (compareSharedPages). It returns the site, its shared
// pages and the browser.
func compareSharedSite(t *testing.T, oldTree fixtureTree) (shared string, pages []string, ctx context.Context) {
	t.Helper()
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	shared = buildMultiOf(t, oldTree)
	own := buildMultiTuned(t, oldTree, tuning{ownReleasePages: true})
	pages = sharedPagesOf(t, shared)
	if len(pages) < 4 {
		t.Fatalf("shared pages: %v, want the indexes and traces at least", pages)
	}
	ctx = browser(t, 1280, 800)
	if n := compareSharedPages(t, ctx, shared, own, []string{newTag, oldTag}, pages, pages); n == 0 {
		t.Fatal("no link compared")
	}
	return shared, pages, ctx
}
