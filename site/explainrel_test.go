package site

import (
	"context"
	"encoding/json"
	"fmt"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/internal/derive/explain"
	"github.com/kubewalk/kubewalk/internal/linkcheck"
	"github.com/kubewalk/kubewalk/site/internal/explainshare"
	"github.com/kubewalk/kubewalk/site/internal/jsdata"
	"github.com/kubewalk/kubewalk/site/internal/searchindex"
	"github.com/kubewalk/kubewalk/site/internal/sitetree"
	"github.com/kubewalk/kubewalk/walkthrough"
)

// named is idx with its sites' reach as directories, and no Dirs: two
// indexes can number the same directories differently.
func named(idx *explain.Index) any {
	dirs := func(s *explain.IndexSite) []string {
		var out []string
		for _, k := range s.Reach {
			out = append(out, idx.Dirs[k])
		}
		s.Reach = nil
		return out
	}
	type event struct {
		explain.IndexEvent
		Dirs []string
	}
	type write struct {
		explain.IndexWrite
		Dirs []string
	}
	type handler struct {
		explain.IndexHandler
		Dirs []string
	}
	var evs []event
	var ws []write
	var hs []handler
	for _, e := range idx.Events {
		evs = append(evs, event{e, dirs(&e.IndexSite)})
	}
	for _, w := range idx.Writes {
		ws = append(ws, write{w, dirs(&w.IndexSite)})
	}
	for _, h := range idx.Handlers {
		hs = append(hs, handler{h, dirs(&h.IndexSite)})
	}
	x := *idx
	x.Dirs, x.Events, x.Writes, x.Handlers = nil, nil, nil, nil
	return struct {
		Index    explain.Index
		Events   []event
		Writes   []write
		Handlers []handler
	}{x, evs, ws, hs}
}

// explainRelCopies are three releases' indexes, newest first, as the
// releases would write them (and as explain.Indexes), and their steps:
// the same call sites at other lines (and GitHub's tag and line in their
// permalinks), a source page link with ?rel= in all but the newest, a
// permalink whose range ends elsewhere, two sites the middle release
// lists in the other order, a site only the oldest has, a detail with
// characters outside the BMP and with the characters the tokens would be
// ('~', '^'), and the oldest's steps unlike the others'.
func explainRelCopies(t *testing.T) ([]*explainshare.Copy, []*explainshare.View, []*explain.Index) {
	t.Helper()
	type ev struct {
		line, end      int
		reason, detail string
		reach          []string
	}
	scaled, killed := "Eventf(Normal, \"Scaled\") 𝄞 ~^", "Eventf(Warning)"
	rels := []struct {
		tag    string
		events []ev
	}{
		{"v1.3.0", []ev{{10, 12, "Scaled", scaled, []string{"pkg/a"}}, {20, 0, "Killed", killed, []string{"pkg/b", "pkg/a"}}, {30, 0, "Pulled", "Eventf(Normal)", nil}}},
		{"v1.2.0", []ev{{30, 0, "Pulled", "Eventf(Normal)", nil}, {13, 16, "Scaled", scaled, []string{"pkg/a"}}, {23, 0, "Killed", killed, []string{"pkg/b", "pkg/a"}}}},
		{"v1.1.0", []ev{{13, 15, "Scaled", scaled, []string{"pkg/a"}}, {5, 0, "Old", "Eventf(Normal, \"Old\")", []string{"pkg/c"}}, {23, 0, "Killed", killed, []string{"pkg/b", "pkg/a"}}}},
	}
	var copies []*explainshare.Copy
	var views []*explainshare.View
	var idxs []*explain.Index
	for i, r := range rels {
		idx := &explain.Index{Tag: r.tag, Dirs: []string{}, Reasons: map[string][]int{"Scaled": {0}},
			Controllers: map[string][]string{"deployment": {"pkg/a"}}, Components: map[string][]string{}, Kinds: map[string]string{}}
		for _, e := range r.events {
			s := explain.IndexSite{Symbol: "k8s.io/kubernetes/pkg/a.F", Path: "pkg/a/a.go", Line: e.line, Detail: e.detail,
				Permalink: fmt.Sprintf("https://github.com/kubernetes/kubernetes/blob/%s/pkg/a/a.go#L%d", r.tag, e.line),
				Page:      fmt.Sprintf("../src/pkg/a/a.go.html?rel=%s#L%d", r.tag, e.line)}
			if e.end > 0 {
				s.Permalink += fmt.Sprintf("-L%d", e.end)
			}
			if i == 0 {
				s.Page = fmt.Sprintf("../src/pkg/a/a.go.html#L%d", e.line)
			}
			for _, d := range e.reach {
				if !slices.Contains(idx.Dirs, d) {
					idx.Dirs = append(idx.Dirs, d)
				}
				s.Reach = append(s.Reach, slices.Index(idx.Dirs, d))
			}
			idx.Events = append(idx.Events, explain.IndexEvent{IndexSite: s, Reason: e.reason})
		}
		idxs = append(idxs, idx)
		js, err := jsdata.Assign("kubewalkExplain", explainshare.Base{Index: idx})
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := jsdata.Read("kubewalkExplain", js, &m); err != nil {
			t.Fatal(err)
		}
		c, err := explainshare.NewCopy(r.tag+"/"+explainIndexJS, r.tag, m)
		if err != nil {
			t.Fatal(err)
		}
		copies = append(copies, c)
		steps := []explain.IndexStep{{Title: "Deployment", StepTitle: "Scale", Page: "../walkthroughs/deployment.html?rel=" + r.tag + "#step-1"}}
		if i == 2 {
			steps[0].StepTitle, steps[0].Page = "Scale (old)", "../walkthroughs/deployment.v1.1.0.html?rel="+r.tag+"#step-1"
		}
		js, err = jsdata.Assign("kubewalkExplainSteps", steps)
		if err != nil {
			t.Fatal(err)
		}
		v := &explainshare.View{Tag: r.tag, Steps: r.tag + "/" + explainStepsJS}
		if err := jsdata.Read("kubewalkExplainSteps", js, &v.Data); err != nil {
			t.Fatal(err)
		}
		idx.Steps = steps
		views = append(views, v)
	}
	return copies, views, idxs
}

// TestExplainShared: what three releases' indexes share is written once,
// and each release's explain-index.js, read with explain-shared.js, is
// its index again, every value as it wrote it.
func TestExplainShared(t *testing.T) {
	copies, views, want := explainRelCopies(t)
	shared, owns, steps, err := explainshare.Encode(copies, views)
	if err != nil {
		t.Fatal(err)
	}
	if shared.Tok != "|@" {
		t.Errorf("tokens %q, want |@ (the data has ~ and ^)", shared.Tok)
	}
	// Scaled and Killed are everyone's. Pulled, first in the middle
	// release and last in the newest, cannot be one site in an order
	// both agree with: it is each one's own, as Old is the oldest's.
	var reasons []string
	for _, e := range shared.Entries["events"] {
		reasons = append(reasons, e["reason"].(string)+" "+e["in"].(string))
	}
	if diff := cmp.Diff([]string{"Scaled 7", "Killed 7"}, reasons); diff != "" {
		t.Errorf("shared sites (-want +got):\n%s", diff)
	}
	var own []string
	for _, o := range owns {
		for _, e := range o.Entries["events"] {
			own = append(own, fmt.Sprintf("%s %s at %v", o.Tag, e["reason"], e["at"]))
		}
	}
	if diff := cmp.Diff([]string{"v1.3.0 Pulled at 2", "v1.2.0 Pulled at 0", "v1.1.0 Old at 1"}, own); diff != "" {
		t.Errorf("the releases' own sites (-want +got):\n%s", diff)
	}
	if len(shared.Tables) != 1 || len(steps[""].Lists) != 2 {
		t.Errorf("%d tables, %d lists of steps; want one of them, two of steps", len(shared.Tables), len(steps[""].Lists))
	}

	// Read back through the scripts, as the link checker does.
	sharedJS, err := jsdata.Assign("kubewalkExplainShared", shared)
	if err != nil {
		t.Fatal(err)
	}
	stepsJS, err := jsdata.Assign("kubewalkExplainStepsShared", steps[""])
	if err != nil {
		t.Fatal(err)
	}
	byTag, err := explainshare.ParseSharedSteps(stepsJS)
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range copies {
		ownJS, err := jsdata.Assign("kubewalkExplain", owns[i])
		if err != nil {
			t.Fatal(err)
		}
		got, err := explainshare.ParseIndex(ownJS, func() ([]byte, error) { return sharedJS, nil })
		if err != nil {
			t.Fatal(err)
		}
		got.Steps = byTag[c.Tag]
		if diff := cmp.Diff(named(want[i]), named(got), cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("%s (-want +got):\n%s", c.Tag, diff)
		}
	}
}

// explainRelFixture is multiFixture with the older release's lines
// further down in the deployment controller's files (shiftedTree),
// SuccessfulCreate recorded in both releases and Scheduled in the newer
// only, each in English and Korean.
func explainRelFixture(t testing.TB) ([]Release, Options) {
	t.Helper()
	rels, opts := multiFixtureOf(t, shiftedTree(t))
	for i := range rels {
		in := &rels[i].Input
		w := in.Facts.Writes
		in.Facts.Events = append(in.Facts.Events, fact.Event{Caller: w[0].Caller, At: w[0].At, Recorder: "record", Method: "Eventf",
			Type: "Normal", Reason: "SuccessfulCreate", Message: "Created pod: %v"})
		if len(w) > 1 {
			in.Facts.Events = append(in.Facts.Events, fact.Event{Caller: w[1].Caller, At: w[1].At, Recorder: "events", Method: "Eventf",
				Type: "Normal", Reason: "Scheduled", Message: "Successfully assigned %v/%v to %v"})
		}
		bilingual(in)
	}
	return rels, opts
}

func buildExplainRel(t *testing.T) (string, []Release) {
	t.Helper()
	rels, opts := explainRelFixture(t)
	opts.Out = filepath.Join(t.TempDir(), "public")
	if _, err := BuildReleases(context.Background(), rels, opts); err != nil {
		t.Fatal(err)
	}
	return opts.Out, rels
}

// TestMultiReleaseExplain: in a site of two releases, each explain page
// reads its own release's index out of what the releases share: the call
// sites at that release's lines, with its permalinks, steps and scores,
// and links to the shared source pages for that release.
func TestMultiReleaseExplain(t *testing.T) {
	out, rels := buildExplainRel(t)
	files := readTree(t, out)
	for p := range files {
		if strings.HasSuffix(p, "/"+explainStepsJS) {
			t.Errorf("%s: a release's steps left", p)
		}
	}
	for _, p := range []string{explainshare.SharedJS, "en/" + explainshare.StepsSharedJS, "ko/" + explainshare.StepsSharedJS} {
		if _, ok := files[p]; !ok {
			t.Errorf("no %s", p)
		}
	}
	lines := map[string]int{}
	for _, r := range rels {
		for _, lang := range r.Langs {
			page := r.Tag + "/" + lang + "/" + explainPage
			got, at := readExplainIndex(t, files, page)
			if at != r.Tag+"/"+explainIndexJS {
				t.Errorf("%s loads %s", page, at)
			}
			// What the release's explainer says, but for the links to
			// the source pages (which the site makes) and the reach's
			// numbering (the site's dirs).
			x := explain.New(r.Facts, walkthrough.Select(r.Docs, lang), explainOptions(r.SourceURL))
			want := x.Index()
			if diff := cmp.Diff(named(want), named(got), cmpopts.IgnoreFields(explain.IndexSite{}, "Page"), cmpopts.IgnoreFields(explain.IndexStep{}, "Page"),
				cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("%s: index (-want +got):\n%s", page, diff)
			}
			for _, e := range got.Events {
				if e.Reason != "ScalingReplicaSet" {
					continue
				}
				lines[r.Tag] = e.Line
				// The shared source page's anchors are the newer's lines;
				// a link for the older names it.
				wantPage := fmt.Sprintf("../../src/pkg/controller/deployment/sync.go.html#L%d", e.Line)
				if r.Tag == oldTag {
					wantPage = fmt.Sprintf("../../src/pkg/controller/deployment/sync.go.html?rel=%s#L%d", oldTag, e.Line-4)
				}
				if e.Page != wantPage {
					t.Errorf("%s: ScalingReplicaSet links %s, want %s", page, e.Page, wantPage)
				}
			}
			other := map[string]string{oldTag: newTag, newTag: oldTag}[r.Tag]
			for _, s := range got.Steps {
				if strings.Contains(s.Page, other) {
					t.Errorf("%s: step %s is %s's", page, s.Page, other)
				}
			}
		}
	}
	// shiftedTree: three lines at the top, one above getNewReplicaSet.
	if lines[oldTag] != lines[newTag]+4 || lines[newTag] == 0 {
		t.Errorf("ScalingReplicaSet at line %d in %s and %d in %s, want four lines further down in the older", lines[oldTag], oldTag, lines[newTag], newTag)
	}
	for _, err := range linkcheck.Check(out, ScriptLinks) {
		t.Error(err)
	}
}

// TestBrowserExplainOlderRelease pastes the blog post's events into the
// older release's explain page of the two-release site, opened from
// file://, in each language: it says what kubewalk explain says at that
// release (that release's lines and permalinks, its steps), links the
// shared source pages for that release, and holds the very index the
// Go side reads.
func TestBrowserExplainOlderRelease(t *testing.T) {
	events := watchEvents(t)
	out, rels := buildExplainRel(t)
	files := readTree(t, out)
	ctx := browser(t, 1400, 1000)
	noHref := func(rs []lineResult) []lineResult {
		for i := range rs {
			for j, s := range rs[i].Steps {
				_, rs[i].Steps[j], _ = strings.Cut(s, " ")
			}
		}
		return rs
	}
	codes := map[string][]string{}
	for _, r := range rels {
		for _, lang := range r.Langs {
			page := r.Tag + "/" + lang + "/" + explainPage
			got := pasteExplain(t, ctx, fileURL(t, out)+page, events)
			want := localized(lang, goResults(explain.New(r.Facts, walkthrough.Select(r.Docs, lang), explainOptions(r.SourceURL)), events))
			if diff := cmp.Diff(noHref(want), noHref(got), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("%s: page differs from kubewalk explain at %s (-go +page):\n%s", page, r.Tag, diff)
			}
			for _, l := range got {
				if strings.Contains(l.Text, "ScalingReplicaSet") {
					codes[r.Tag] = l.Code
				}
			}
			links, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](pageLinksJS))
			if err != nil {
				t.Fatal(err)
			}
			for _, l := range links {
				if strings.Contains(l, "?rel=") != (r.Tag == oldTag) {
					t.Errorf("%s: code link %s", page, l)
				}
			}
			// The index and steps the page put together are what the
			// scripts give the Go side.
			js, err := chromedp.Run(ctx, chromedp.Evaluate[string](`JSON.stringify(window.kubewalkExplain)`))
			if err != nil {
				t.Fatal(err)
			}
			var inPage explain.Index
			if err := json.Unmarshal([]byte(js), &inPage); err != nil {
				t.Fatal(err)
			}
			inGo, _ := readExplainIndex(t, files, page)
			if diff := cmp.Diff(inGo, &inPage, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("%s: the page's index (-go +page):\n%s", page, diff)
			}
		}
	}
	if len(codes[newTag]) != 1 || len(codes[oldTag]) != 1 || codes[newTag][0] == codes[oldTag][0] {
		t.Errorf("ScalingReplicaSet: %q in %s, %q in %s; want one site each, at each release's line", codes[newTag], newTag, codes[oldTag], oldTag)
	}
}

// TestPreparedScriptsAsData: in a site of several releases, package site
// writes none of a release's search or explain scripts; it hands them
// over as data (Prepared.SearchScripts, Prepared.ExplainScripts), each at
// the path its page loads it from, and each call's values are the
// caller's to change.
func TestPreparedScriptsAsData(t *testing.T) {
	ctx := context.Background()
	rels, opts := explainRelFixture(t)
	if rels[0].Tag != oldTag {
		t.Fatalf("the fixture's releases: %s, %s; want the older first", rels[0].Tag, rels[1].Tag)
	}
	rels[0], rels[1] = rels[1], rels[0] // newest first, as PrepareReleases takes them
	p, err := PrepareReleases(ctx, rels, opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := sourcesForTest(ctx, p); err != nil {
		t.Fatal(err)
	}
	tr := sitetree.New()
	if _, err := p.Write(ctx, tr); err != nil {
		t.Fatal(err)
	}
	for _, f := range tr.Paths() {
		if b := path.Base(f); searchindex.IsIndex(f) || b == explainIndexJS || b == explainStepsJS {
			t.Errorf("site wrote %s", f)
		}
	}
	// loads reports whether the page at site path page loads the script
	// at site path script.
	loads := func(page, script string) bool {
		data, err := tr.ReadFile(page)
		if err != nil {
			t.Fatalf("%s: %v", page, err)
		}
		for _, m := range regexp.MustCompile(`<script src="([^"]*)">`).FindAllStringSubmatch(string(data), -1) {
			if path.Join(path.Dir(page), m[1]) == script {
				return true
			}
		}
		return false
	}

	ss := p.SearchScripts()
	var got []string
	for _, s := range ss {
		got = append(got, s.Path)
		if !loads(s.Page(), s.Path) {
			t.Errorf("%s does not load %s", s.Page(), s.Path)
		}
		if len(s.Data.Docs) == 0 {
			t.Errorf("%s: no entries", s.Path)
		}
	}
	var want []string
	for _, tag := range []string{newTag, oldTag} {
		want = append(want, tag+"/en/"+searchIndexJS, tag+"/en/"+searchSharedJS, tag+"/ko/"+searchIndexJS)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("search scripts (-want +got):\n%s", diff)
	}
	ss[0].Data.Docs[0][2] = "moved.html"
	if again := p.SearchScripts(); again[0].Data.Docs[0][2] == "moved.html" {
		t.Error("a URL moved in one call's scripts is moved in the next call's")
	}

	xs, err := p.ExplainScripts()
	if err != nil {
		t.Fatal(err)
	}
	if len(xs) != 4 {
		t.Fatalf("%d explain pages' scripts, want 4 (two releases, two languages)", len(xs))
	}
	for _, x := range xs {
		if x.IndexData == nil || len(x.StepsData) == 0 {
			t.Errorf("%s: no index or no steps", x.Steps)
		}
		if !loads(x.Page(), x.Index) {
			t.Errorf("%s does not load %s", x.Page(), x.Index)
		}
		if want := x.Tag + "/" + x.Lang + explainStepsJS; x.Steps != want {
			t.Errorf("steps at %s, want %s", x.Steps, want)
		}
	}
	xs[0].StepsData[0].Page = "moved.html"
	if again, _ := p.ExplainScripts(); again[0].StepsData[0].Page == "moved.html" {
		t.Error("a step's link moved in one call's scripts is moved in the next call's")
	}
}
