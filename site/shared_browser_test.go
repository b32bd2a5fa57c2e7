package site

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/internal/linkcheck"
	"github.com/kubewalk/kubewalk/record"
	"github.com/kubewalk/kubewalk/templates"
)

// TestBrowserSharedSource opens, from file://, a source page two releases
// share and switches release on a line: it lands on the same line of the
// same page, showing the other release's header and permalink. A link in
// the shared code to a file the older release has differently takes an
// older-release reader to that file's page at the same line, with that
// release's lines shown; the older walkthrough's link into the code names
// that release.
func TestBrowserSharedSource(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	out, _ := buildShared(t)
	base := fileURL(t, out)
	ctx := browser(t, 1280, 700)
	open := func(t *testing.T, p string) { t.Helper(); openPage(t, ctx, base+p) }
	click := func(t *testing.T, sel string) {
		t.Helper()
		if err := chromedp.Do(ctx, voidEval(`document.querySelector(`+"`"+sel+"`"+`).click()`)); err != nil {
			t.Fatalf("click %s: %v", sel, err)
		}
	}
	// state is where the page is, from the site's root, the release of
	// the header shown, its permalink, and whether the line is marked.
	type state struct{ Where, Rel, GitHub, Marked string }
	at := func(t *testing.T, prefix, line string) state {
		t.Helper()
		var got []string
		var err error
		for range 50 { // a switch is a navigation, and may redirect: wait
			got, err = chromedp.Run(ctx, chromedp.Evaluate[[]string](`(() => {
				const h = document.querySelector('.langblock:not([hidden]) header.srchead');
				const l = document.getElementById('`+line+`');
				return [location.href, document.readyState,
					h ? h.parentElement.getAttribute('data-rel') : '',
					h ? h.querySelector('a.gh').getAttribute('href') : '',
					String(!!l && l.classList.contains('hl'))];
			})()`))
			if err == nil && got[1] == "complete" && strings.HasPrefix(got[0], base+prefix) {
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
		if len(got) < 5 {
			t.Fatalf("page state: %v", err)
		}
		return state{strings.TrimPrefix(got[0], base), got[2], got[3], got[4]}
	}
	const sync = "src/pkg/controller/deployment/sync.go.html"
	const switchTo = `.langblock:not([hidden]) details.versions a[data-switch]`

	open(t, sync+"?rel="+newTag+"#L7")
	if got := at(t, sync, "L7"); got.Rel != newTag || !strings.Contains(got.GitHub, "/blob/"+newTag+"/") || got.Marked != "true" {
		t.Errorf("opened at %s: %+v", newTag, got)
	}
	click(t, switchTo)
	want := state{sync + "?rel=" + oldTag + "#L7", oldTag, "https://github.com/kubernetes/kubernetes/blob/" + oldTag + "/pkg/controller/deployment/sync.go", "true"}
	if got := at(t, sync+"?rel="+oldTag, "L7"); got != want {
		t.Errorf("switched to %s:\n got %+v\nwant %+v", oldTag, got, want)
	}
	click(t, switchTo)
	if got := at(t, sync+"#", "L7"); got.Where != sync+"#L7" || got.Rel != newTag || !strings.Contains(got.GitHub, "/blob/"+newTag+"/") {
		t.Errorf("switched back to %s: %+v", newTag, got)
	}

	// The shared code links a line of deployment_controller.go by its
	// anchor, the same line in both releases: an older reader lands on
	// it, in the older release's part of the page, which shows the line
	// only that release has and numbers the lines as it does.
	open(t, sync+"?rel="+oldTag)
	click(t, `pre.src a[href*="deployment_controller.go.html#L10"]`)
	page := "src/" + changedFile + ".html"
	if got := at(t, page, "L10"); got.Where != page+"?rel="+oldTag+"#L10" || got.Rel != oldTag || got.Marked != "true" {
		t.Errorf("an older reader following the shared code's link: %+v", got)
	}
	// Shown: laid out (site.css hides the lines the newest lacks).
	own := `(() => { const l = document.querySelector('pre.src > u[data-r]'); const shown = e => e.getClientRects().length > 0; return [String(!!l && shown(l)), String([...document.querySelectorAll('pre.src > u')].filter(shown).length)]; })()`
	older, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](own))
	if err != nil {
		t.Fatal(err)
	}
	open(t, page)
	newer, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](own))
	if err != nil {
		t.Fatal(err)
	}
	if older[0] != "true" || newer[0] != "false" || older[1] == newer[1] {
		t.Errorf("the older release's own line (shown, lines): at %s %v, at %s %v", oldTag, older, newTag, newer)
	}
	open(t, "walkthroughs/deployment.html?rel="+oldTag+"#step-2-rollout")
	click(t, `#step-2-rollout .exhead a.file`)
	if got := at(t, sync, "L7"); !strings.HasPrefix(got.Where, sync+"?rel="+oldTag+"#L") || got.Rel != oldTag {
		t.Errorf("the older walkthrough's code link: %+v", got)
	}
}

// TestBrowserHeaderLikeNewest: an older release's header that a shared
// source page leaves to site.js (data-like) comes out as the page written
// with every header shows it, in each language: links into the release,
// switcher, language links, and no link to a page only the newest has.
func TestBrowserHeaderLikeNewest(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	build := func(explicit bool) string {
		rels, opts := multiFixtureChanged(t)
		for i := range rels {
			rels[i].Langs = []string{"en", "ko"}
		}
		// A recorded run the newer release has and the older lacks:
		// the older header has one link fewer in its bar.
		rec := fixtureRecording()
		rec.Tag = newTag
		rels[1].Input.Recordings = []*record.Recording{rec}
		opts.Out = filepath.Join(t.TempDir(), "public")
		if _, err := buildReleases(context.Background(), rels, opts, tuning{explicitHeaders: explicit}); err != nil {
			t.Fatal(err)
		}
		return opts.Out
	}
	made, whole := build(false), build(true)
	const sync = "src/pkg/controller/deployment/sync.go.html"
	page, err := os.ReadFile(filepath.Join(made, sync))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(page), `data-like="`+newTag+`" data-drop="`); n != 2 {
		t.Fatalf("%d of the older release's headers are left to site.js without the newer's recorded run, want both languages'", n)
	}
	// The older release has a line more (multiFixtureChanged): its source
	// header, the number of lines and where the cited lines are aside, is
	// the newer's.
	if n := strings.Count(string(page), `data-head="`+newTag+`" data-n="`); n != 2 {
		t.Fatalf("%d of the older release's source headers are left to site.js, want both languages'", n)
	}
	ctx := browser(t, 1280, 700)
	header := func(root, query, sel string) string {
		t.Helper()
		openPage(t, ctx, fileURL(t, root)+sync+query)
		got, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(() => { const h = document.querySelector('.langblock:not([hidden]) `+sel+`'); return h ? h.outerHTML : ''; })()`))
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	for _, q := range []string{"?rel=" + oldTag, "?rel=" + oldTag + "&lang=ko"} {
		got, want := header(made, q, "header.top"), header(whole, q, "header.top")
		if got == "" || got != want {
			t.Errorf("header at %s made by site.js:\n%s\nwritten:\n%s", q, got, want)
		}
		if !strings.Contains(got, `<b aria-current="true">`+oldTag+`</b>`) || !strings.Contains(got, "/"+oldTag+"/") || strings.Contains(got, "recorded") {
			t.Errorf("header at %s is not the older release's: %s", q, got)
		}
		got, want = header(made, q, "header.srchead"), header(whole, q, "header.srchead")
		if got == "" || got != want {
			t.Errorf("source header at %s made by site.js:\n%s\nwritten:\n%s", q, got, want)
		}
	}
}

// TestBrowserSourceParts: a shared source page cut into parts numbers the
// lines of a later part on from the earlier parts, as the release read
// has them, and a walkthrough's link to a line there lands on it.
func TestBrowserSourceParts(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	rels, opts := multiFixtureChanged(t)
	opts.Out = filepath.Join(t.TempDir(), "public")
	if _, err := buildReleases(context.Background(), rels, opts, tuning{partBudget: 400}); err != nil {
		t.Fatal(err)
	}
	for _, err := range linkcheck.Check(opts.Out, ScriptLinks) {
		t.Error(err)
	}
	const part = "src/pkg/controller/deployment/sync.go.3.html"
	third, err := os.ReadFile(filepath.Join(opts.Out, part))
	if err != nil {
		t.Fatalf("sync.go's page in parts: %v", err)
	}
	// Its version switcher stays on the part, which every release has.
	if want := `<a href="sync.go.3.html?rel=` + oldTag + `" data-switch>`; !strings.Contains(string(third), want) {
		t.Errorf("%s's switcher lacks %s", part, want)
	}
	base := fileURL(t, opts.Out)
	ctx := browser(t, 1280, 700)
	// The number CSS draws before the first line of the part, its id,
	// and the highlighted line's number.
	numbers := func(t *testing.T, p string) []string {
		t.Helper()
		openPage(t, ctx, base+p)
		// The counter's start (counter-reset, which site.js sets) plus
		// the line's place among the lines shown: what CSS draws.
		got, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`(() => {
			const pre = document.querySelector('pre.src');
			const start = parseInt((getComputedStyle(pre).counterReset.split(' ')[1]) || '0', 10);
			const ls = [...document.querySelectorAll('pre.src > u')].filter(l => !l.hidden);
			const nr = el => el ? String(start + ls.indexOf(el) + 1) : '';
			return [nr(ls[0]), ls[0] ? ls[0].id : '', nr(document.querySelector('pre.src > u.hl'))];
		})()`))
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	got := numbers(t, part)
	first := strings.TrimPrefix(got[1], "L")
	if first == "1" || got[0] != first {
		t.Errorf("the part's first line, %s, is numbered %s", got[1], got[0])
	}
	// A walkthrough links the lines of a step; follow one into a later
	// part of a page.
	page, err := os.ReadFile(filepath.Join(opts.Out, "walkthroughs", "deployment.html"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`href="\.\./(src/pkg/controller/deployment/sync\.go\.[0-9]+\.html)#(L[0-9]+)`).FindStringSubmatch(string(page))
	if m == nil {
		t.Fatal("the walkthrough links no later part of sync.go's page")
	}
	if got := numbers(t, m[1]+"#"+m[2]); got[2] != strings.TrimPrefix(m[2], "L") {
		t.Errorf("%s#%s: the highlighted line is numbered %s", m[1], m[2], got[2])
	}
	// An excerpt's line number, clicked, goes to that line of the file,
	// in whichever part it is (#N<number>).
	openPage(t, ctx, base+"walkthroughs/deployment.html")
	clicked, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(() => {
		const ex = [...document.querySelectorAll('.excerpt')].find(e => /sync\.go\.[0-9]+\.html/.test(e.querySelector('.exhead a.file').getAttribute('href')));
		const nr = ex && ex.querySelector('.ln:not(.gap) > .nr');
		if (!nr) return '';
		nr.click();
		return nr.textContent;
	})()`))
	if err != nil || clicked == "" {
		t.Fatalf("no excerpt of a later part of sync.go to click: %v", err)
	}
	var loc []string
	for range 50 { // the click navigates
		loc, err = chromedp.Run(ctx, chromedp.Evaluate[[]string](`[location.pathname, location.hash]`))
		if err == nil && strings.Contains(loc[0], "/src/") && strings.HasPrefix(loc[1], "#L") {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if len(loc) < 2 {
		t.Fatalf("after the click: %v", err)
	}
	if at := numbers(t, strings.TrimPrefix("file://"+loc[0], base)+loc[1]); at[2] != clicked {
		t.Errorf("excerpt line %s clicked: at %v, the highlighted line is numbered %s", clicked, loc, at[2])
	}
}

// TestBrowserPermalinkMoved: a line of shared code whose link leaves the
// site (to GitHub: its file has no page) is written once although the
// declaration it links is on another line in the older release; for the
// older release's reader the link goes to that release's tag and line as
// soon as the page is shown (a new tab opens it there), and a click too.
func TestBrowserPermalinkMoved(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	rels, opts := multiFixtureChanged(t)
	// The type sync.go uses is declared, in each release, in a file the
	// site does not render: at line 10 in the newer, 12 in the older.
	moved := fact.Location{Path: "pkg/apis/elsewhere/types.go", StartLine: 10, EndLine: 10}
	for i, line := range []int{12, 10} { // given oldest first
		in := &rels[i].Input
		xrefs := slices.Clone(in.Xrefs)
		for k, x := range xrefs {
			if x.Path != "pkg/controller/deployment/sync.go" {
				continue
			}
			ids := slices.Clone(x.Idents)
			for j := range ids {
				if ids[j].Kind == "type" {
					ids[j].Target = fact.Location{Path: moved.Path, StartLine: line, EndLine: line}
				}
			}
			xrefs[k].Idents = ids
		}
		in.Xrefs = xrefs
	}
	const sync = "src/pkg/controller/deployment/sync.go.html"
	page := buildPage(t, rels, &opts, sync)
	from := "https://github.com/kubernetes/kubernetes/blob/" + newTag + "/" + moved.Path + "#L" + strconv.Itoa(moved.StartLine)
	want := "https://github.com/kubernetes/kubernetes/blob/" + oldTag + "/" + moved.Path + "#L" + strconv.Itoa(moved.StartLine+2)
	// Written in the compact form, from the page's base (the newer's) on;
	// site.js makes the href from.
	gh := `data-g=` + moved.Path + "#L"
	if strings.Contains(page, want) || strings.Contains(page, gh+strconv.Itoa(moved.StartLine+2)+">") || !strings.Contains(page, gh+strconv.Itoa(moved.StartLine)+">") ||
		!strings.Contains(page, ` data-gh="https://github.com/kubernetes/kubernetes/blob/`+newTag+`/">`) {
		t.Fatalf("the moved declaration's link is not written once, as the newer release has it")
	}
	ctx := browser(t, 1280, 700)
	link := `document.querySelector('pre.src a[data-g="` + moved.Path + `#L` + strconv.Itoa(moved.StartLine) + `"]')`
	// Once the page is shown the link is the release's (open in a new
	// tab, it goes there): the newer's as written, the older's moved.
	for _, r := range []struct{ q, want string }{{"", from}, {"?rel=" + oldTag, want}} {
		openPage(t, ctx, fileURL(t, opts.Out)+sync+r.q)
		href, err := chromedp.Run(ctx, chromedp.Evaluate[string](link+`.getAttribute("href")`))
		if err != nil || href != r.want {
			t.Errorf("%s: the link is %q (%v), want %s", r.q, href, err, r.want)
		}
	}
	// So does a click on it. It goes to GitHub, which this machine cannot
	// reach: the navigation's URL is what counts.
	if err := chromedp.Do(ctx, voidEval(link+`.click()`)); err != nil {
		t.Fatal(err)
	}
	var got string
	var err error
	for range 50 {
		err = chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			h, err := cdp.Call(ctx, tg, cdppage.GetNavigationHistory, cdp.Empty{})
			if err == nil && len(h.Entries) > 0 {
				got = h.Entries[len(h.Entries)-1].URL
			}
			return err
		}))
		if err == nil && strings.HasPrefix(got, "https:") {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if got != want {
		t.Errorf("the older reader's link went to %s, want %s", got, want)
	}
}

// TestBrowserLocalLinkMoved: lines an older release shares with the newer
// but for where their links go in the file (a variable it declares on
// another line) are written once; read as the older release, such a link
// goes to the older's line.
func TestBrowserLocalLinkMoved(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	rels, opts := multiFixtureChanged(t)
	const file = "pkg/controller/deployment/sync.go"
	// In the older release, every link to one line of the file goes to
	// the line after it instead.
	in := &rels[0].Input // given oldest first
	xrefs := slices.Clone(in.Xrefs)
	n, uses := 0, 0
	for k, x := range xrefs {
		if x.Path != file {
			continue
		}
		ids := slices.Clone(x.Idents)
		for j := range ids {
			if tg := ids[j].Target; n == 0 && tg.Path == file && tg.StartLine > 1 && !ids[j].Def {
				n = tg.StartLine
			}
		}
		for j := range ids {
			if ids[j].Target.Path == file && ids[j].Target.StartLine == n {
				ids[j].Target.StartLine, ids[j].Target.EndLine = n+1, n+1
				uses++
			}
		}
		xrefs[k].Idents = ids
	}
	if n == 0 {
		t.Fatal("the fixture has no link within sync.go to move")
	}
	in.Xrefs = xrefs
	const sync = "src/pkg/controller/deployment/sync.go.html"
	page := buildPage(t, rels, &opts, sync)
	if !strings.Contains(page, ` data-lnt="#L`) || !strings.Contains(page, ` data-lnk="0 `) {
		t.Fatalf("no data-lnk on the page for %d links moved from line %d", uses, n)
	}
	ctx := browser(t, 1280, 700)
	openPage(t, ctx, fileURL(t, opts.Out)+sync+"?rel="+oldTag)
	// The older release's lines n and n+1 as shown, their anchors (an
	// older rendering of a line has none: its line's is before it), and
	// a link to the first in a line shown for both releases.
	got, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`(() => {
		const ls = [...document.querySelectorAll('pre.src > u')].filter(l => !l.hidden);
		const id = l => { while (l && !l.id) l = l.previousElementSibling; return l ? l.id : ''; };
		const from = id(ls[`+strconv.Itoa(n-1)+`]), to = id(ls[`+strconv.Itoa(n)+`]);
		const a = [...document.querySelectorAll('pre.src > u:not([data-r]) a[href="#' + from + '"]')].find(a => !a.closest('[hidden]'));
		if (!a) return [from, to, ''];
		a.click();
		return [from, to, location.hash];
	})()`))
	if err != nil {
		t.Fatal(err)
	}
	if got[2] == "" {
		t.Fatalf("no shared line links line %d (%s)", n, got[0])
	}
	if got[2] != "#"+got[1] {
		t.Errorf("as %s, the link to line %d (%s) went to %s, want line %d (#%s)", oldTag, n, got[0], got[2], n+1, got[1])
	}
}

// buildPage builds the site of rels into a new directory (opts.Out) and
// returns page p of it.
func buildPage(t *testing.T, rels []Release, opts *Options, p string) string {
	t.Helper()
	opts.Out = filepath.Join(t.TempDir(), "public")
	if _, err := BuildReleases(context.Background(), rels, *opts); err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(filepath.Join(opts.Out, p))
	if err != nil {
		t.Fatal(err)
	}
	return string(page)
}

// withSiteJS writes files (name to content), site.js and releases.js
// (which a page of a multi-release site loads first) into a new
// directory, and returns it.
func withSiteJS(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	js, err := fs.ReadFile(templates.FS, "assets/site.js")
	if err != nil {
		t.Fatal(err)
	}
	files["site.js"] = string(js)
	if js, err = fs.ReadFile(templates.FS, "assets/"+releasesJS); err != nil {
		t.Fatal(err)
	}
	files[releasesJS] = string(js)
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// An older release's reader following a GitHub link in the shared code
// goes to the release's tag: the page names no permalink base for a
// release whose is the newest's at its tag (site.js makes it).
func TestBrowserOlderGitHubLink(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	out, _ := buildShared(t)
	const srcPage = "src/pkg/controller/deployment/deployment_controller.go.html"
	if page, err := os.ReadFile(filepath.Join(out, srcPage)); err != nil || strings.Contains(string(page), `data-gh="https://github.com/kubernetes/kubernetes/blob/`+oldTag+`/"`) {
		t.Fatalf("the page names the older release's permalink base (%v)", err)
	}
	ctx := browser(t, 1280, 700)
	var mu sync.Mutex
	var went []string
	if err := chromedp.Listen(ctx, func(ev any) {
		if e, ok := ev.(*network.EventRequestWillBeSent); ok && strings.HasPrefix(e.Request.URL, "https://github.com/") {
			mu.Lock()
			went = append(went, e.Request.URL)
			mu.Unlock()
		}
	}); err != nil {
		t.Fatal(err)
	}
	openPage(t, ctx, fileURL(t, out)+srcPage+"?rel="+oldTag)
	href, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(() => { const a = document.querySelector('pre.src a[href^="https://github.com/"]'); a.click(); return a.getAttribute('href'); })()`))
	if err != nil {
		t.Fatal(err)
	}
	for range 50 {
		mu.Lock()
		n := len(went)
		mu.Unlock()
		if n > 0 {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	want := strings.Replace(href, "/blob/"+newTag+"/", "/blob/"+oldTag+"/", 1)
	if len(went) == 0 || !strings.HasPrefix(went[0], strings.Split(want, "#")[0]) {
		t.Errorf("following %s at %s went to %q, want %s", href, oldTag, went, want)
	}
}

// TestBrowserSharedGitHubLinks: on a walkthrough the releases share, an
// excerpt's GitHub link in the compact form is, once the page has loaded,
// a link to the permalink at the tag of the release read: the newest's
// without ?rel=, the older's with it.
func TestBrowserSharedGitHubLinks(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	out, _ := buildShared(t)
	const wt = "walkthroughs/deployment.html"
	page, err := os.ReadFile(filepath.Join(out, wt))
	if err != nil || !strings.Contains(string(page), ` data-gh="https://github.com/kubernetes/kubernetes/blob/`+newTag+`/"`) || !strings.Contains(string(page), " data-g=") {
		t.Fatalf("%s is no shared page with GitHub links in the compact form (%v)", wt, err)
	}
	ctx := browser(t, 1280, 700)
	for _, tag := range []string{newTag, oldTag} {
		q := ""
		if tag != newTag {
			q = "?rel=" + tag
		}
		openPage(t, ctx, fileURL(t, out)+wt+q)
		hrefs, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll("pre a[data-g]")].filter(a => !a.closest("[hidden]")).map(a => a.getAttribute("href") || "")`))
		if err != nil {
			t.Fatal(err)
		}
		if len(hrefs) == 0 {
			t.Fatalf("as %s: no GitHub link shown", tag)
		}
		for _, h := range hrefs {
			if !strings.HasPrefix(h, "https://github.com/kubernetes/kubernetes/blob/"+tag+"/") {
				t.Errorf("as %s: a GitHub link goes to %q", tag, h)
			}
		}
	}
}
