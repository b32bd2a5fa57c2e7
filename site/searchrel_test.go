package site

import (
	"context"
	"encoding/json"
	"maps"
	"math/bits"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/google/go-cmp/cmp"

	"github.com/kubewalk/kubewalk/internal/linkcheck"
	"github.com/kubewalk/kubewalk/site/internal/searchindex"
	"github.com/kubewalk/kubewalk/site/internal/searchshare"
	"github.com/kubewalk/kubewalk/site/internal/sitetree"
	"github.com/kubewalk/kubewalk/source"
)

// releaseSearch is the index search.js makes on the search page at site
// path page of the site files: its scripts (search.html's, and the site
// scripts search-index.js names), put together for its release.
func releaseSearch(t *testing.T, files map[string]string, page string) searchData {
	t.Helper()
	read := func(p string) searchData {
		t.Helper()
		d, err := searchindex.Parse([]byte(files[p]))
		if err != nil {
			t.Fatalf("%s (loaded by %s): %v", p, page, err)
		}
		return d
	}
	var own, shared, site, siteShared *searchData
	for _, m := range regexp.MustCompile(`<script src="([^"]*)">`).FindAllStringSubmatch(files[page], -1) {
		p := path.Join(path.Dir(page), m[1])
		switch path.Base(p) {
		case searchIndexJS:
			d := read(p)
			own = &d
		case searchSharedJS:
			d := read(p)
			shared = &d
		}
	}
	if own == nil {
		t.Fatalf("%s loads no search index", page)
	}
	for _, u := range own.Site {
		d := read(path.Join(path.Dir(page), u))
		if d.Head == searchindex.SiteSharedHead {
			siteShared = &d
		} else {
			site = &d
		}
	}
	out := searchData{Terms: map[string][]int{}}
	for _, p := range []*searchData{siteShared, shared, site, own} {
		if p == nil {
			continue
		}
		at := make([]int, len(p.Docs))
		bit := slices.Index(p.Releases, own.Release)
		for i, e := range p.Docs {
			at[i] = -1
			if p.Releases != nil && (bit < 0 || p.Rels[i]>>bit&1 == 0) {
				continue
			}
			if p.Releases != nil {
				e = []string{e[0], e[1], searchshare.SiteURL(e[2], own.Release, p.Rels[i]&(1<<bit-1) == 0), e[3]}
			}
			at[i] = len(out.Docs)
			out.Docs, out.Lens = append(out.Docs, e), append(out.Lens, p.Lens[i])
		}
		for _, k := range slices.Sorted(maps.Keys(p.Terms)) {
			post := p.Terms[k]
			for i := 0; i+1 < len(post); i += 2 {
				if d := at[post[i]]; d >= 0 {
					out.Terms[k] = append(out.Terms[k], d, post[i+1])
				}
			}
		}
	}
	return out
}

// searchEntryList lists d's entries as what search.js finds and ranks
// them by: kind, title, URL, detail, length, terms and weights; sorted.
func searchEntryList(d searchData) []string {
	terms := make([][]string, len(d.Docs))
	for _, k := range slices.Sorted(maps.Keys(d.Terms)) {
		post := d.Terms[k]
		for i := 0; i+1 < len(post); i += 2 {
			terms[post[i]] = append(terms[post[i]], k+"="+string(rune('0'+post[i+1])))
		}
	}
	var out []string
	for i, e := range d.Docs {
		b, _ := json.Marshal([]any{e, d.Lens[i], terms[i]})
		out = append(out, string(b))
	}
	slices.Sort(out)
	return out
}

// searchHits returns the entries of d that have term, as [title, URL].
func searchHits(d searchData, term string) [][2]string {
	var out [][2]string
	post := d.Terms[term]
	for i := 0; i+1 < len(post); i += 2 {
		e := d.Docs[post[i]]
		out = append(out, [2]string{e[1], e[2]})
	}
	return out
}

// TestShareReleaseSearch: of three bilingual releases' search scripts,
// the entries two releases or more have go to the site's scripts, once,
// and every release's search page puts together the very index it had:
// the same entries, URLs, terms and weights.
func TestShareReleaseSearch(t *testing.T) {
	tags := []string{"v3", "v2", "v1"} // newest first
	type rel struct{ shared, en, ko []searchEntry }
	src := func(file, frag, tag string, bare bool) string {
		if bare {
			return "../../src/" + file + ".html" + frag
		}
		return "../../src/" + file + ".html?rel=" + tag + frag
	}
	sym := func(name, file, frag, tag string, bare bool) searchEntry {
		return searchEntry{Kind: "symbol", Title: name, URL: src(file, frag, tag, bare), Detail: "k8s.io/x." + name, Body: "k8s.io/x." + name}
	}
	event := func(reason, tag string) searchEntry {
		return searchEntry{Kind: "event", Title: reason, URL: "../../en/events.html?rel=" + tag + "#e-" + reason, Detail: "Normal", Body: reason + " happened to %s"}
	}
	step := func(lang, title, tag, body string) searchEntry {
		return searchEntry{Kind: "step", Title: title, URL: "../../" + lang + "/walkthroughs/w.html?rel=" + tag + "#step-1", Detail: "W", Body: body}
	}
	rels := map[string]rel{}
	for _, tag := range tags {
		r := rel{}
		// In every release; a.go's page is v3's first.
		r.shared = append(r.shared, sym("Run", "a.go", "#L1", tag, tag == "v3"), event("Common", tag))
		// b.go is gone from v3: v2 is its page's first.
		if tag != "v3" {
			r.shared = append(r.shared, sym("Old", "b.go", "#L5", tag, tag == "v2"))
		}
		// Moved in v3, which is a.go's first: its URL is v3's own.
		if tag == "v3" {
			r.shared = append(r.shared, sym("Moved", "a.go", "#L9", tag, true))
		} else {
			r.shared = append(r.shared, sym("Moved", "a.go", "#L7", tag, false))
		}
		if tag == "v1" {
			r.shared = append(r.shared, event("OnlyInV1", tag))
		}
		// Bare in a release but the newest: not one entry.
		r.shared = append(r.shared, sym("Odd", "c.go", "#L2", tag, tag == "v1"))
		r.en = append(r.en, step("en", "Sync", tag, "the controller syncs"))
		r.ko = append(r.ko, step("ko", "동기화", tag, "컨트롤러가 동기화합니다"))
		if tag == "v1" {
			// The step's text changed after v1.
			r.en[0].Body += " sync loop"
		}
		// A page of v2 and v1 left in their subtrees (no ?rel=), and
		// v3's at the shared page.
		if tag == "v3" {
			r.en = append(r.en, searchEntry{Kind: "walkthrough", Title: "Own", URL: "../../en/walkthroughs/own.html?rel=v3", Body: "own"})
		} else {
			r.en = append(r.en, searchEntry{Kind: "walkthrough", Title: "Own", URL: "walkthroughs/own.html", Body: "own"})
		}
		// An entry v2 has twice stays v2's, both copies.
		if tag != "v1" {
			r.ko = append(r.ko, step("ko", "둘", tag, "둘"))
		}
		if tag == "v2" {
			r.ko = append(r.ko, step("ko", "둘", tag, "둘"))
		}
		rels[tag] = r
	}
	write := func(dir string) {
		t.Helper()
		for tag, r := range rels {
			for p, js := range map[string]searchData{
				"en/" + searchSharedJS: searchindex.Build(r.shared, searchindex.SharedHead),
				"en/" + searchIndexJS:  searchindex.Build(r.en, searchindex.IndexHead),
				"ko/" + searchIndexJS:  searchindex.Build(r.ko, searchindex.IndexHead),
			} {
				data, err := searchindex.Script(js)
				if err != nil {
					t.Fatal(err)
				}
				writeFile(t, filepath.Join(dir, tag, p), string(data))
			}
			writeFile(t, filepath.Join(dir, tag, "en", searchPage), `<script src="search-shared.js"></script><script src="search-index.js"></script>`)
			writeFile(t, filepath.Join(dir, tag, "ko", searchPage), `<script src="../en/search-shared.js"></script><script src="search-index.js"></script>`)
		}
	}
	dir := t.TempDir()
	write(dir)
	before := readTree(t, dir)
	after, dBytes := shareSearch(t, before, tags)

	size := func(files map[string]string) (n int64) {
		for _, f := range files {
			n += int64(len(f))
		}
		return n
	}
	if got := size(after) - size(before); dBytes != got {
		t.Errorf("searchshare.Share says it wrote the site %d bytes heavier; it grew by %d", dBytes, got)
	}
	if size(after) >= size(before) {
		t.Errorf("the search scripts weigh %d bytes, %d before", size(after), size(before))
	}
	for _, tag := range tags {
		for _, lang := range []string{"en", "ko"} {
			page := tag + "/" + lang + "/" + searchPage
			if diff := cmp.Diff(searchEntryList(releaseSearch(t, before, page)), searchEntryList(releaseSearch(t, after, page))); diff != "" {
				t.Errorf("%s: the index differs (-before +after):\n%s", page, diff)
			}
		}
	}

	site := func(p string) searchData {
		t.Helper()
		d, err := searchindex.Parse([]byte(after[p]))
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if !slices.Equal(d.Releases, tags) || len(d.Rels) != len(d.Docs) {
			t.Fatalf("%s: releases %q, %d masks for %d entries", p, d.Releases, len(d.Rels), len(d.Docs))
		}
		return d
	}
	// Each entry of the site once, with the releases that have it.
	type want struct {
		url  string
		rels uint64
	}
	for _, c := range []struct {
		p    string
		want map[string]want
	}{
		{"en/" + searchindex.SiteSharedJS, map[string]want{
			"Run":    {"../../src/a.go.html?rel=+#L1", 0b111}, // v3 with no ?rel=
			"Old":    {"../../src/b.go.html?rel=+#L5", 0b110}, // v2 with none
			"Moved":  {"../../src/a.go.html?rel=*#L7", 0b110}, // v3's is its own
			"Odd":    {"../../src/c.go.html?rel=*#L2", 0b011}, // v1's is its own
			"Common": {"../../en/events.html?rel=*#e-Common", 0b111},
		}},
		{"en/" + searchindex.SiteJS, map[string]want{
			"Sync": {"../../en/walkthroughs/w.html?rel=*#step-1", 0b011}, // v1's text differs
			"Own":  {"walkthroughs/own.html", 0b110},
		}},
		{"ko/" + searchindex.SiteJS, map[string]want{
			"동기화": {"../../ko/walkthroughs/w.html?rel=*#step-1", 0b111},
		}},
	} {
		d := site(c.p)
		got := map[string]want{}
		for i, e := range d.Docs {
			if _, dup := got[e[1]]; dup {
				t.Errorf("%s: %q twice", c.p, e[1])
			}
			got[e[1]] = want{e[2], d.Rels[i]}
		}
		if diff := cmp.Diff(c.want, got, cmp.AllowUnexported(want{})); diff != "" {
			t.Errorf("%s (-want +got):\n%s", c.p, diff)
		}
	}
	// What one release alone has stays its own, and its own only.
	for _, c := range []struct{ p, title string }{
		{"v1/en/" + searchSharedJS, "OnlyInV1"},
		{"v3/en/" + searchSharedJS, "Moved"},
		{"v1/en/" + searchSharedJS, "Odd"},
		{"v1/en/" + searchIndexJS, "Sync"},
		{"v3/en/" + searchIndexJS, "Own"},
		{"v2/ko/" + searchIndexJS, "둘"},
		{"v3/ko/" + searchIndexJS, "둘"},
	} {
		d, err := searchindex.Parse([]byte(after[c.p]))
		if err != nil {
			t.Fatal(err)
		}
		if !slices.ContainsFunc(d.Docs, func(e []string) bool { return e[1] == c.title }) {
			t.Errorf("%s lost %q", c.p, c.title)
		}
	}
	v2, err := searchindex.Parse([]byte(after["v2/ko/"+searchIndexJS]))
	if err != nil {
		t.Fatal(err)
	}
	if len(v2.Docs) != 2 || v2.Release != "v2" || !slices.Equal(v2.Site, []string{"../../en/" + searchindex.SiteSharedJS, "../../ko/" + searchindex.SiteJS}) {
		t.Errorf("v2/ko/search-index.js: %d entries, release %q, site scripts %q", len(v2.Docs), v2.Release, v2.Site)
	}

	// The same scripts make the same site.
	again := t.TempDir()
	write(again)
	second, _ := shareSearch(t, readTree(t, again), tags)
	if diff := cmp.Diff(after, second); diff != "" {
		t.Errorf("a second run wrote other files (-first +second):\n%s", diff)
	}
}

// shareSearch runs searchshare.Share over the site of files, as the
// releases stage runs it: the releases' search scripts handed over as
// data, the other files held in a tree. It returns the site's files
// after it and the change in bytes, what Share reports written less the
// scripts it was handed.
func shareSearch(t *testing.T, files map[string]string, tags []string) (map[string]string, int64) {
	t.Helper()
	tree := sitetree.New()
	var ss []searchshare.Script
	var handed int64
	for _, p := range slices.Sorted(maps.Keys(files)) {
		tag, rest, _ := strings.Cut(p, "/")
		if b := path.Base(rest); slices.Contains(tags, tag) && (b == searchIndexJS || b == searchSharedJS) {
			d, err := searchindex.Parse([]byte(files[p]))
			if err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			ss = append(ss, searchshare.Script{Tag: tag, Path: p, Data: d})
			handed += int64(len(files[p]))
			continue
		}
		if err := tree.Put(p, []byte(files[p])); err != nil {
			t.Fatal(err)
		}
	}
	written, err := searchshare.Share(tree, tags, ss)
	if err != nil {
		t.Fatal(err)
	}
	dBytes := written - handed
	out := map[string]string{}
	for _, p := range tree.Paths() {
		data, err := tree.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out[p] = string(data)
	}
	return out, dBytes
}

func writeFile(t *testing.T, p, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// oldestTag is the third release of buildMultiSearch.
const oldestTag = "v1.29.0"

// buildMultiSearch builds the two bilingual releases of multiFixture and
// a third, oldestTag, the older's like; the two older have an event the
// newer does not.
func buildMultiSearch(t testing.TB) string {
	t.Helper()
	rels, opts := multiFixture(t)
	oldest, _ := multiFixture(t)
	rels = append(rels, oldest[0])
	rels[2].Tag = oldestTag
	rels[2].SourceURL = func(p string, from, to int) string { return source.Permalink(oldestTag, p, from, to) }
	for i := range rels {
		bilingual(&rels[i].Input)
	}
	for _, old := range []*Input{&rels[0].Input, &rels[2].Input} {
		e := old.Facts.Events[1]
		e.Reason, e.ReasonExpr, e.Message = "DeploymentPaused", `"DeploymentPaused"`, "Paused deployment %s"
		old.Facts.Events = append(old.Facts.Events, e)
	}
	opts.Out = filepath.Join(t.TempDir(), "public")
	if _, err := BuildReleases(context.Background(), rels, opts); err != nil {
		t.Fatal(err)
	}
	return opts.Out
}

// TestMultiReleaseSearch: in a site of three releases, the search
// entries two or more have are the site's, written once, and each
// release's search page finds its own entries, linked to its own pages,
// and no other's.
func TestMultiReleaseSearch(t *testing.T) {
	out := buildMultiSearch(t)
	files := readTree(t, out)
	for _, p := range []string{"en/" + searchindex.SiteSharedJS, "en/" + searchindex.SiteJS, "ko/" + searchindex.SiteJS} {
		if _, ok := files[p]; !ok {
			t.Errorf("no %s", p)
		}
	}
	idx := map[string]searchData{}
	for _, tag := range []string{newTag, oldTag, oldestTag} {
		for _, lang := range []string{"en", "ko"} {
			page := tag + "/" + lang + "/" + searchPage
			idx[page] = releaseSearch(t, files, page)
		}
	}
	// where is what a search URL links from page: the site path, ?rel=
	// and the fragment.
	where := func(page, raw string) string {
		u, err := url.Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		s := path.Join(path.Dir(page), u.Path)
		if r := u.Query().Get("rel"); r != "" {
			s += "?rel=" + r
		}
		return s + "#" + u.Fragment
	}
	hits := func(page, term string) []string {
		var out []string
		for _, h := range searchHits(idx[page], term) {
			out = append(out, h[0]+" "+where(page, h[1]))
		}
		slices.Sort(out)
		return out
	}
	oldEn, newEn := oldTag+"/en/"+searchPage, newTag+"/en/"+searchPage
	oldKo, newKo := oldTag+"/ko/"+searchPage, newTag+"/ko/"+searchPage
	for _, c := range []struct {
		page, term string
		want       []string
	}{
		// Only the older releases have the event.
		{oldEn, "deploymentpaused", []string{"DeploymentPaused events.html?rel=" + oldTag + "#e-DeploymentPaused"}},
		{oldestTag + "/en/" + searchPage, "deploymentpaused", []string{"DeploymentPaused events.html?rel=" + oldestTag + "#e-DeploymentPaused"}},
		{newEn, "deploymentpaused", nil},
		{newKo, "deploymentpaused", nil},
		// The events page is the languages' too: site.js carries ?lang=.
		{oldKo, "deploymentpaused", []string{"DeploymentPaused events.html?rel=" + oldTag + "#e-DeploymentPaused"}},
		// Both have this one, each at its own release.
		{oldEn, "scalingreplicaset", []string{"ScalingReplicaSet events.html?rel=" + oldTag + "#e-ScalingReplicaSet"}},
		{newEn, "scalingreplicaset", []string{
			"ScalingReplicaSet events.html?rel=" + newTag + "#e-ScalingReplicaSet",
			"Scheduling en/walkthroughs/deployment.html?rel=" + newTag + "#step-3-schedule", // a step the older lacks
		}},
		// Only the newer has the watch walkthrough.
		{oldEn, "informers", nil},
		{oldKo, "informers", nil},
	} {
		got := hits(c.page, c.term)
		if c.want == nil {
			for _, h := range got {
				if !strings.HasPrefix(h, "ScalingReplicaSet") {
					t.Errorf("%s finds %q: %s", c.page, c.term, h)
				}
			}
			continue
		}
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("%s %q (-want +got):\n%s", c.page, c.term, diff)
		}
	}
	if len(hits(newEn, "informers")) == 0 || len(hits(newKo, "informers")) == 0 {
		t.Errorf("the newer release's search does not find its watch walkthrough")
	}
	// A symbol both releases have: the newer, first of the shared source
	// page, links it with no ?rel=, the older with its own.
	for page, want := range map[string]string{newEn: "src/pkg/controller/deployment/sync.go.html#L", oldKo: "src/pkg/controller/deployment/sync.go.html?rel=" + oldTag + "#L"} {
		got := hits(page, "getnewreplicaset")
		if !slices.ContainsFunc(got, func(h string) bool { return strings.Contains(h, " "+want) }) {
			t.Errorf("%s getNewReplicaSet: %q, want a link to %s…", page, got, want)
		}
	}
	// Written once: the site's scripts have what two releases or more
	// have, the releases' what one has.
	all := 0
	for _, d := range idx {
		all += len(d.Docs)
	}
	n := 0
	for p, f := range files {
		if !searchindex.IsIndex(p) {
			continue
		}
		d, err := searchindex.Parse([]byte(f))
		if err != nil {
			t.Fatal(err)
		}
		n += len(d.Docs)
		for i, e := range d.Rels {
			if bits.OnesCount64(e) < 2 {
				t.Errorf("%s: %q is the site's, for releases %b", p, d.Docs[i][1], e)
			}
		}
		if p == "en/"+searchindex.SiteSharedJS && !slices.ContainsFunc(d.Docs, func(e []string) bool { return e[1] == "DeploymentPaused" }) {
			t.Errorf("%s: the older releases' event is not the site's", p)
		}
	}
	if n*2 > all {
		t.Errorf("the search scripts hold %d entries, of the releases' %d", n, all)
	}
	for _, err := range linkcheck.Check(out, ScriptLinks) {
		t.Error(err)
	}

	// The link checker reads the site's scripts for every release.
	p := filepath.Join(out, "en", searchindex.SiteSharedJS)
	data := strings.Replace(files["en/"+searchindex.SiteSharedJS], "#e-ScalingReplicaSet", "#e-Nope", 1)
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	var errs []string
	for _, err := range linkcheck.Check(out, ScriptLinks) {
		errs = append(errs, err.Error())
	}
	for _, tag := range []string{newTag, oldTag, oldestTag} {
		if !slices.ContainsFunc(errs, func(e string) bool {
			return strings.HasPrefix(e, tag+"/en/"+searchPage+":") && strings.Contains(e, "e-Nope")
		}) {
			t.Errorf("a broken link of the site's search entries is not reported for %s: %q", tag, errs)
		}
	}
}

// TestBrowserMultiReleaseSearch searches from the older releases' search
// pages of a three-release site, from file://: search.js loads the
// site's scripts the release's index names and finds the release's
// entries, at its pages; the newest release's page does not find what
// only the older have.
func TestBrowserMultiReleaseSearch(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	base := fileURL(t, buildMultiSearch(t))
	ctx := browser(t, 1280, 800)
	type shown struct {
		Count string
		Hrefs []string
	}
	search := func(t *testing.T, page, q string) shown {
		t.Helper()
		openPage(t, ctx, base+page+"?q="+url.QueryEscape(q))
		got, err := chromedp.Run(ctx, chromedp.Poll[shown](`window.kubewalkSearchShown && {Count: document.getElementById('count').textContent,
			Hrefs: Array.from(document.querySelectorAll('#results a')).map(a => a.getAttribute('href'))}`, chromedp.WithPollingTimeout(10*time.Second)))
		if err != nil {
			t.Fatalf("%s?q=%s: %v", page, q, err)
		}
		return got
	}
	oldEn, newEn := oldTag+"/en/"+searchPage, newTag+"/en/"+searchPage
	for _, c := range []struct{ page, q, want string }{
		{oldEn, "DeploymentPaused", "../../events.html?rel=" + oldTag + "#e-DeploymentPaused"},
		{oldEn, "getNewReplica", "../../src/pkg/controller/deployment/sync.go.html?rel=" + oldTag + "#L"},
		{newEn, "getNewReplica", "../../src/pkg/controller/deployment/sync.go.html#L"},
		{oldEn, "rollout", "../../en/walkthroughs/deployment.html?rel=" + oldTag + "#step-2-rollout"},
		{oldTag + "/ko/" + searchPage, "디플로이먼트", "../../ko/walkthroughs/deployment.html?rel=" + oldTag},
		{oldestTag + "/en/" + searchPage, "DeploymentPaused", "../../events.html?rel=" + oldestTag + "#e-DeploymentPaused"},
	} {
		got := search(t, c.page, c.q)
		if !slices.ContainsFunc(got.Hrefs, func(h string) bool { return strings.HasPrefix(h, c.want) }) {
			t.Errorf("%s %q: results %q, want %s…", c.page, c.q, got.Hrefs, c.want)
		}
		self, _, _ := strings.Cut(c.page, "/")
		for _, h := range got.Hrefs {
			if strings.Contains(h, "rel=") && !strings.Contains(h, "rel="+self) {
				t.Errorf("%s %q: %s is another release's", c.page, c.q, h)
			}
		}
	}
	if got := search(t, newEn, "DeploymentPaused"); len(got.Hrefs) != 0 {
		t.Errorf("the newer release finds the older's event: %q", got.Hrefs)
	}
	// The result opens the older release's event.
	search(t, oldEn, "DeploymentPaused")
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#results a`)), chromedp.Sleep(300*time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	if loc, err := chromedp.Run(ctx, chromedp.Location()); err != nil || !strings.HasSuffix(loc, "/public/events.html?rel="+oldTag+"#e-DeploymentPaused") {
		t.Errorf("the result opened %s (%v)", loc, err)
	}
	// From the Korean search page, the events page the languages share
	// opens in Korean.
	search(t, oldTag+"/ko/"+searchPage, "DeploymentPaused")
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#results a`)), chromedp.Sleep(300*time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	var lang string
	loc, err := chromedp.Run(ctx, chromedp.Location())
	if err == nil {
		lang, err = chromedp.Run(ctx, chromedp.Evaluate[string](`document.documentElement.lang`))
	}
	if err != nil || !strings.HasSuffix(loc, "/public/events.html?rel="+oldTag+"&lang=ko#e-DeploymentPaused") || lang != "ko" {
		t.Errorf("the Korean result opened %s in %q (%v)", loc, lang, err)
	}
}

// The search entries the languages share link outside their
// directories (source pages, and the index pages the languages share, in
// a multi-release site too: site.js carries the reader's language); none
// of a Korean search page's scripts links an English page.
func TestBilingualSearchLinksOwnLanguage(t *testing.T) {
	files := readTree(t, buildMultiBilingual(t))
	var shared, ko []string
	for p, data := range files {
		if !strings.HasSuffix(p, ".js") || !strings.Contains(p, "search") {
			continue
		}
		switch {
		case strings.Contains(p, "shared"):
			shared = append(shared, p)
			for _, lang := range []string{"/en/", "/ko/"} {
				if strings.Contains(data, lang) {
					t.Errorf("%s, which every language's search page loads, links into %s", p, lang)
				}
			}
		case strings.HasPrefix(p, "ko/") || strings.Contains(p, "/ko/"):
			ko = append(ko, p)
		}
	}
	if len(shared) == 0 {
		t.Fatal("no search script shared by the languages")
	}
	found := false
	for _, p := range append(ko, shared...) {
		found = found || strings.Contains(files[p], `"../../events.html?`)
	}
	for _, p := range ko {
		// The scripts the languages share are the first language's.
		if own := strings.ReplaceAll(files[p], "/en/"+searchindex.SiteSharedJS, ""); strings.Contains(own, "/en/") {
			t.Errorf("%s links an English page", p)
		}
	}
	if !found {
		t.Errorf("no search script of the Korean search page links the events page: %q %q", ko, shared)
	}
}
