package site

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/internal/testsupport/testfs"
	"github.com/kubewalk/kubewalk/walkthrough"
)

// An edit session against one Cache, each edit on top of the ones before
// (but the one that fails): after every edit, the site the Cache helped
// build is byte for byte a fresh full build of the same input, the pages
// the edit cannot reach are the very files of the build before (hard
// links, or left in place), not written again, and the two builds before
// are untouched (serve may still be serving them). It stays one function:
// the edits are one session, each on top of the ones before.
func TestCacheRebuildIsFullBuild(t *testing.T) {
	const (
		dcPage    = "src/pkg/controller/deployment/deployment_controller.go.html"
		syncPage  = "src/pkg/controller/deployment/sync.go.html"
		schPage   = "src/pkg/scheduler/schedule_one.go.html"
		stgPage   = "src/staging/src/k8s.io/client-go/tools/cache/shared_informer.go.html"
		addMethod = "k8s.io/client-go/tools/cache.sharedIndexInformer.AddEventHandler"
	)
	base, opts := fixture(t)
	opts.Logf = nil
	enDeployment := func(docs []*walkthrough.Doc) *walkthrough.Doc {
		for _, d := range docs {
			if d.ID == "deployment" && d.Lang == "en" {
				return d
			}
		}
		t.Fatal("fixture has no English deployment walkthrough")
		return nil
	}
	watchDoc := func(docs []*walkthrough.Doc) *walkthrough.Doc {
		for _, d := range docs {
			if d.ID == "watch" {
				return d
			}
		}
		t.Fatal("fixture has no watch walkthrough")
		return nil
	}
	// citeInformer makes the watch walkthrough cite AddEventHandler, so
	// shared_informer.go gets a source page, and the identifier linking
	// to it from deployment_controller.go goes in-site.
	citeInformer := func(docs []*walkthrough.Doc) {
		i := slices.IndexFunc(base.Symbols, func(s fact.Symbol) bool { return s.Name == addMethod })
		if i < 0 {
			t.Fatalf("fixture has no %s", addMethod)
		}
		w := watchDoc(docs)
		w.Steps[0].Refs = append(slices.Clone(w.Steps[0].Refs), refTo(base.Symbols[i]))
	}
	type edit struct {
		name string
		do   func(docs []*walkthrough.Doc)
		// same are the pages that must be the very files of the build
		// before; rewritten the ones that must not.
		same, rewritten []string
		err             bool
	}
	edits := []edit{
		{name: "first build"},
		{name: "nothing changed", same: []string{dcPage, syncPage, schPage, factsFile, "handlers.html", "events.html", "resources.html", "assets/site.css", "search-index.js", ".kubewalk-site"},
			rewritten: []string{"index.html", "walkthroughs/deployment.html", "explain-index.js"}},
		{name: "step text", do: func(docs []*walkthrough.Doc) {
			d := enDeployment(docs)
			d.Steps[1].Segments = append([]walkthrough.Segment{prose("An edit.")}, d.Steps[1].Segments...)
		}, same: []string{dcPage, syncPage, schPage, factsFile, "handlers.html"}, rewritten: []string{"walkthroughs/deployment.html"}},
		{name: "step title: the backlinks of the files the step cites", do: func(docs []*walkthrough.Doc) {
			enDeployment(docs).Steps[1].Title = "rolloutRolling, retitled"
		}, same: []string{dcPage, schPage, factsFile, "handlers.html"}, rewritten: []string{syncPage, "search-index.js"}},
		{name: "a file gets a source page: links to it go in-site", do: citeInformer,
			same: []string{syncPage, schPage, factsFile}, rewritten: []string{dcPage, stgPage, "handlers.html", "events.html", "resources.html"}},
		{name: "an excerpt outside its file: fails while pages are written", do: func(docs []*walkthrough.Doc) {
			s := &enDeployment(docs).Steps[0]
			s.Segments = slices.Clone(s.Segments)
			for i, seg := range s.Segments {
				if seg.Excerpt != nil {
					e := *seg.Excerpt
					e.To = 100000
					s.Segments[i].Excerpt = &e
				}
			}
		}, err: true},
		{name: "after the failed build, as before it", same: []string{dcPage, stgPage, syncPage, "handlers.html"}},
		// With three directories, the next build is in place in one that
		// holds shared_informer.go's page.
		{name: "nothing changed again", same: []string{dcPage, stgPage, syncPage, "handlers.html"}},
		{name: "the file loses its source page", do: func(docs []*walkthrough.Doc) {
			watchDoc(docs).Steps[0].Refs = watchDoc(base.Docs).Steps[0].Refs
		}, same: []string{syncPage, schPage, factsFile}, rewritten: []string{dcPage, "handlers.html"}},
		{name: "another analysis of the release", rewritten: []string{dcPage, factsFile, "handlers.html"}},
	}
	for _, mode := range []string{"new directory", "in place"} {
		t.Run(mode, func(t *testing.T) {
			c := NewCache()
			root := t.TempDir()
			var served []string // the last two builds that succeeded, newest last
			docs := base.Docs   // as the edits so far left them
			for n, e := range edits {
				in := base
				in.Docs = cloneDocs(docs)
				if e.do != nil {
					e.do(in.Docs)
				}
				if n == len(edits)-1 {
					f := *base.Facts // equal, but another value: nothing is reused
					in.Facts = &f
				}
				o := opts
				o.Cache = c
				o.Out = filepath.Join(root, "build-"+strconv.Itoa(n))
				if mode == "in place" {
					// As serve does: three directories, the next build
					// in the one that is neither of the last two.
					o.InPlace = true
					for i := range 3 {
						if d := filepath.Join(root, "slot-"+strconv.Itoa(i)); !slices.Contains(served, d) {
							o.Out = d
							break
						}
					}
				}
				kept := map[string]map[string]string{}
				for _, d := range served {
					kept[d] = testfs.Tree(t, d)
				}
				_, err := Build(context.Background(), in, o)
				for _, d := range served {
					if diff := cmp.Diff(kept[d], testfs.Tree(t, d)); diff != "" {
						t.Fatalf("%s: the build changed %s, an earlier build's output (-before +after):\n%s", e.name, d, diff)
					}
				}
				if e.err {
					if err == nil {
						t.Fatalf("%s: built", e.name)
					}
					continue
				}
				if err != nil {
					t.Fatalf("%s: %v", e.name, err)
				}
				sameAsFullBuild(t, e.name, in, opts, o.Out)
				prev := ""
				if len(served) > 0 {
					prev = served[len(served)-1]
				}
				for _, p := range e.same {
					if !sameFile(t, prev, o.Out, p) {
						t.Errorf("%s: %s was written again", e.name, p)
					}
				}
				for _, p := range e.rewritten {
					if sameFile(t, prev, o.Out, p) {
						t.Errorf("%s: %s was not written again", e.name, p)
					}
				}
				docs = in.Docs
				served = append(served, o.Out)
				if len(served) > 2 {
					served = served[1:]
				}
			}
		})
	}
}

// buildCached builds base, changed by mod (nil: as it is; on a copy of
// its docs), with the Cache c into a directory of its own (the n-th of
// the test), fails t unless that is a full build's output (the step
// named name), and returns the directory.
func buildCached(t *testing.T, c *Cache, base Input, opts Options, n int, name string, mod func(*Input)) string {
	t.Helper()
	in := base
	in.Docs = cloneDocs(base.Docs)
	if mod != nil {
		mod(&in)
	}
	o := opts
	o.Cache = c
	o.Out = filepath.Join(t.TempDir(), "build-"+strconv.Itoa(n))
	if _, err := Build(context.Background(), in, o); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	sameAsFullBuild(t, name, in, opts, o.Out)
	return o.Out
}

// sameAsFullBuild fails t (at the edit named name) when out, a build of
// in with a Cache, is not byte for byte a full build of in with opts.
func sameAsFullBuild(t *testing.T, name string, in Input, opts Options, out string) {
	t.Helper()
	fresh := opts
	fresh.Out = filepath.Join(t.TempDir(), "fresh")
	if _, err := Build(context.Background(), in, fresh); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(testfs.Tree(t, fresh.Out), testfs.Tree(t, out)); diff != "" {
		t.Fatalf("%s: the build with a Cache differs from a full build (-full +cached):\n%s", name, diff)
	}
}

// refTo is an inline reference to the whole of sym.
func refTo(sym fact.Symbol) walkthrough.Ref {
	return walkthrough.Ref{Text: sym.Name, Line: 1, Ref: fact.Ref{Alternates: []string{sym.Name}}, Resolved: fact.Resolved{Symbol: sym}}
}

// cloneDocs copies docs deep enough for a test to edit their fields and
// steps without touching the originals.
func cloneDocs(docs []*walkthrough.Doc) []*walkthrough.Doc {
	out := make([]*walkthrough.Doc, len(docs))
	for i, d := range docs {
		c := *d
		c.Steps = slices.Clone(d.Steps)
		out[i] = &c
	}
	return out
}

// sameFile reports whether site path p is one file in the builds at a
// and b (a hard link, or the file left in place).
func sameFile(t *testing.T, a, b, p string) bool {
	t.Helper()
	if a == "" {
		return false
	}
	sa, err := os.Stat(filepath.Join(a, filepath.FromSlash(p)))
	if err != nil {
		return false
	}
	sb, err := os.Stat(filepath.Join(b, filepath.FromSlash(p)))
	if err != nil {
		t.Fatalf("%s: %v", p, err)
	}
	return os.SameFile(sa, sb)
}

// TestCacheCoverage: the recordings' coverage, which a Cache keeps from
// one build of a release to the next, is what a full build shows after a
// walkthrough edit, and after the recordings change (another release, to
// the Cache) it is theirs, not the ones before.
func TestCacheCoverage(t *testing.T) {
	base, opts := fixture(t)
	opts.Logf = nil
	base.Recordings = coverageRecordings()
	onlyDeployment := coverageRecordings()[1:]
	c := NewCache()
	for n, step := range []struct {
		name string
		mod  func(in *Input)
	}{
		{"first build", nil},
		{"a step's text", func(in *Input) {
			for _, d := range in.Docs {
				if d.ID == "deployment" {
					d.Steps[1].Segments = append([]walkthrough.Segment{prose("An edit.")}, d.Steps[1].Segments...)
				}
			}
		}},
		{"the rollout's recording gone", func(in *Input) { in.Recordings = onlyDeployment }},
	} {
		buildCached(t, c, base, opts, n, step.name, step.mod)
	}
}

// TestCacheRecordedSteps: the recorded runs' items matched to code, which
// a Cache keeps from one build of a release to the next, are put under
// the steps of each build. An edit of a step's text that moves what the
// steps cite (the facts block naming the rollout's event, from the
// scheduling step to the rollout's) and the lines of the steps after it,
// and the edit taken back: each time, the Observed panels, the recorded
// run pages and the controller pages that link them are a full build's,
// and the run page is not the build's before.
func TestCacheRecordedSteps(t *testing.T) {
	base, opts := fixture(t)
	opts.Logf = nil
	base.Recordings = coverageRecordings()
	c := NewCache()
	var before string
	for n, step := range []struct {
		name string
		mod  func(in *Input)
	}{
		{"first build", nil},
		{"a step's text cites the event", func(in *Input) {
			for _, d := range in.Docs {
				if d.ID != "deployment" || d.Lang != "en" {
					continue
				}
				rollout, sched := &d.Steps[1], &d.Steps[2]
				i := slices.IndexFunc(sched.Segments, func(s walkthrough.Segment) bool { return s.Facts != nil && s.Facts.Kind == "events" })
				if i < 0 {
					t.Fatal("the scheduling step has no events facts block")
				}
				rollout.Segments = append(slices.Clone(rollout.Segments), prose("It records an event:"), sched.Segments[i])
				sched.Segments = slices.Delete(slices.Clone(sched.Segments), i, i+1)
				sched.Line += 4
			}
		}},
		{"the edit taken back", nil},
	} {
		out := buildCached(t, c, base, opts, n, step.name, step.mod)
		page, err := os.ReadFile(filepath.Join(out, RecordedPage(panelScenario)))
		if err != nil {
			t.Fatal(err)
		}
		if string(page) == before {
			t.Errorf("%s: the recorded run's page is the build's before: the edit does not reach it", step.name)
		}
		before = string(page)
	}
}

// TestCacheControllers: what the controller pages share and their tables
// of what ran, which a Cache keeps from one build of a release to the
// next, are a full build's after a walkthrough edit, and after the
// recordings or the facts change (another release, to the Cache: here a
// recording gone, then the controller renamed) they are theirs, not the
// ones before.
func TestCacheControllers(t *testing.T) {
	base, opts := fixture(t)
	opts.Logf = nil
	withControllers(&base)
	base.Recordings = coverageRecordings()
	onlyDeployment := coverageRecordings()[1:]
	renamed := *base.Facts
	renamed.Controllers = slices.Clone(renamed.Controllers)
	renamed.Controllers[0].Name = "renamed-controller"
	c := NewCache()
	for n, step := range []struct {
		name, page string
		mod        func(in *Input)
	}{
		{"first build", ControllerPage("deployment-controller"), nil},
		{"a step's text", ControllerPage("deployment-controller"), func(in *Input) {
			for _, d := range in.Docs {
				if d.ID == "deployment" {
					d.Steps[1].Segments = append([]walkthrough.Segment{prose("An edit.")}, d.Steps[1].Segments...)
				}
			}
		}},
		{"the rollout's recording gone", ControllerPage("deployment-controller"), func(in *Input) { in.Recordings = onlyDeployment }},
		{"the controller renamed", ControllerPage("renamed-controller"), func(in *Input) { in.Facts = &renamed; in.Recordings = onlyDeployment }},
	} {
		out := buildCached(t, c, base, opts, n, step.name, step.mod)
		if _, err := os.Stat(filepath.Join(out, step.page)); err != nil {
			t.Errorf("%s: %v", step.name, err)
		}
	}
}
