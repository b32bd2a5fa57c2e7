package pipeline

import (
	"context"
	"fmt"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sort"

	"golang.org/x/mod/semver"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/internal/derive/reldiff"
	"github.com/kubewalk/kubewalk/internal/derive/trace"
	"github.com/kubewalk/kubewalk/site"
	"github.com/kubewalk/kubewalk/source"
	"github.com/kubewalk/kubewalk/walkthrough"
)

// Docs loads and resolves the walkthroughs of every set in lang against
// rel; lang "" loads every language (walkthrough.LoadAll). A user
// walkthrough with the ID of a built-in one replaces it.
func Docs(rel *Release, sets []WalkSet, lang string) ([]*walkthrough.Doc, error) {
	return loadDocs(rel, sets, lang, alsoTargets(sets), nil)
}

// loadDocs is Docs, with the link targets of the sets given (they are the
// same for every release) and the sets whose files did not change since
// memo loaded them taken from it.
func loadDocs(rel *Release, sets []WalkSet, lang string, also walkthrough.LinkTargets, memo *docsMemo) ([]*walkthrough.Doc, error) {
	var docs []*walkthrough.Doc
	for _, s := range sets {
		opts := walkthrough.Options{Resolver: rel.Result, Also: also}
		ds, err := memo.load(s, lang, also, func() ([]*walkthrough.Doc, error) {
			if lang == "" {
				return walkthrough.LoadAll(s.FS, s.Dir, opts)
			}
			return walkthrough.Load(s.FS, s.Dir, lang, opts)
		})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.Name, err)
		}
		// A later set's walkthrough replaces an earlier one's of its ID,
		// in every language.
		ids := map[string]bool{}
		for _, d := range ds {
			ids[d.ID] = true
		}
		docs = slices.DeleteFunc(docs, func(d *walkthrough.Doc) bool { return ids[d.ID] })
		docs = append(docs, ds...)
	}
	return docs, nil
}

// alsoTargets is walkthrough.Options.Also for sets: LinkTargets when
// there are several, nil for one, whose walkthroughs Load finds in its
// own parse (a set's own walkthroughs win over Also's), so the default
// build parses its walkthroughs once for the links instead of twice.
func alsoTargets(sets []WalkSet) walkthrough.LinkTargets {
	if len(sets) < 2 {
		return nil
	}
	return LinkTargets(sets)
}

// LinkTargets returns the walkthroughs of every set with their step
// anchors, for walkthrough.Options.Also: a user's walkthroughs may link
// to the built-in ones. A later set's walkthrough replaces an earlier
// one's of the same ID, as in Docs. Syntax errors are left for Load and
// Check to report, at their file and line.
func LinkTargets(sets []WalkSet) walkthrough.LinkTargets {
	all := walkthrough.LinkTargets{}
	for _, s := range sets {
		t, _ := walkthrough.Targets(s.FS, s.Dir)
		maps.Copy(all, t)
	}
	return all
}

// Build renders the site for rel into out.
func Build(ctx context.Context, rel *Release, sets []WalkSet, lang, out string, logf func(string, ...any)) (site.Stats, error) {
	return BuildReleases(ctx, []*Release{rel}, sets, lang, out, logf)
}

// BuildReleases renders one site of several releases into out
// (site.BuildReleases): a subtree per release with a version switcher, and
// on each release's walkthroughs a badge for every reference whose code
// changed since the previous (older) release in the site, with the diff
// (reldiff.CompareRef). One release builds the flat single-release site.
// Each release's facts come from its own cache entry (Open), so adding a
// release to a site costs one analysis.
func BuildReleases(ctx context.Context, rels []*Release, sets []WalkSet, lang, out string, logf func(string, ...any)) (site.Stats, error) {
	return buildReleases(ctx, rels, sets, lang, site.Options{Out: out, Logf: logf, CommitURL: CommitURL}, nil)
}

// buildReleases is BuildReleases with the site's options given, and a
// memo of the walkthroughs (one release only).
func buildReleases(ctx context.Context, rels []*Release, sets []WalkSet, lang string, opts site.Options, memo *docsMemo) (site.Stats, error) {
	rels = append([]*Release(nil), rels...)
	sort.SliceStable(rels, func(i, j int) bool { return olderFirst(rels[i].Tree.Tag, rels[j].Tree.Tag) })
	// The walkthroughs' link targets depend on their files alone: read
	// once for every release.
	also := alsoTargets(sets)
	var srels []site.Release
	for i, rel := range rels {
		docs, err := loadDocs(rel, sets, lang, also, memo)
		if err != nil {
			return site.Stats{}, fmt.Errorf("%s: %w", rel.Tree.Tag, err)
		}
		in := input(rel, lang, docs)
		in.Traces = Traces(rel)
		if i > 0 {
			prev := rels[i-1]
			in.Since = prev.Tree.Tag
			in.Changes = changes(prev, rel, docs)
			in.FactChanges = reldiff.CompareFacts(prev.Result.Facts(), rel.Result.Facts())
		}
		srels = append(srels, site.Release{Input: in, SourceURL: rel.Tree.Permalink})
	}
	return site.BuildReleases(ctx, srels, opts)
}

// CommitURL is the GitHub page of a commit of the Kubernetes repository
// (source.Repository, which every permalink names too).
func CommitURL(commit string) string {
	return source.Repository + "/commit/" + url.PathEscape(commit)
}

// TraceKinds are the kinds the site has a trace page for — the workload
// kinds a reader creates, and Service — as trace.FindKind takes them, with
// the page name and title.
var TraceKinds = []struct{ Resource, Kind, Title string }{
	{"deployments.apps", "deployment", "Deployment"},
	{"statefulsets.apps", "statefulset", "StatefulSet"},
	{"daemonsets.apps", "daemonset", "DaemonSet"},
	{"jobs.batch", "job", "Job"},
	{"cronjobs.batch", "cronjob", "CronJob"},
	{"services", "service", "Service"},
}

// Traces derives the trace of each of TraceKinds from rel's facts, once
// per Release; a kind the facts do not know gets a nil Trace (the site
// notes it).
func Traces(rel *Release) []site.TraceInput {
	rel.tracesOnce.Do(func() { rel.traces = deriveTraces(rel) })
	return rel.traces
}

func deriveTraces(rel *Release) []site.TraceInput {
	in := trace.Input{Facts: rel.Result.Facts(), Symbols: rel.Result.Symbols, Source: rel.read}
	var out []site.TraceInput
	for _, k := range TraceKinds {
		ti := site.TraceInput{Kind: k.Kind, Title: k.Title}
		if r, err := trace.FindKind(in.Facts, k.Resource); err == nil {
			ti.Trace = trace.Derive(in, r, trace.Options{})
		}
		out = append(out, ti)
	}
	return out
}

// input is the site's view of one release: in lang, or for lang "" in
// every language the site has.
func input(rel *Release, lang string, docs []*walkthrough.Doc) site.Input {
	res := rel.Result
	var langs []string
	if lang == "" {
		langs = site.Languages() // sorted: English first
	}
	return site.Input{
		Langs:      langs,
		Tag:        rel.Tree.Tag,
		Commit:     rel.Tree.Commit,
		Backend:    rel.Tree.Backend,
		Lang:       lang,
		Facts:      res.Facts(),
		Symbols:    res.Symbols,
		Xrefs:      res.Xrefs,
		Docs:       docs,
		ReadFile:   rel.read,
		Recordings: rel.Recordings,
	}
}

func (rel *Release) read(path string) ([]byte, error) {
	return os.ReadFile(filepath.Join(rel.Tree.Dir, filepath.FromSlash(path)))
}

// changes compares every reference of docs (inline and excerpts) between
// prev and cur, once per distinct reference.
func changes(prev, cur *Release, docs []*walkthrough.Doc) map[string]reldiff.RefChange {
	a := reldiff.Release{Tag: prev.Tree.Tag, Result: prev.Result, Read: prev.read}
	b := reldiff.Release{Tag: cur.Tree.Tag, Result: cur.Result, Read: cur.read}
	out := map[string]reldiff.RefChange{}
	add := func(r fact.Ref) {
		k := r.String()
		if _, ok := out[k]; !ok {
			out[k] = reldiff.CompareRef(a, b, r)
		}
	}
	segs := func(ss []walkthrough.Segment) {
		for _, s := range ss {
			if s.Excerpt != nil {
				add(s.Excerpt.Ref.Ref)
			}
		}
	}
	for _, d := range docs {
		segs(d.Intro)
		for _, s := range d.Steps {
			segs(s.Segments)
			for _, r := range s.Refs {
				add(r.Ref)
			}
		}
	}
	return out
}

// olderFirst orders release tags by semantic version, oldest first (tags
// that are not semantic versions last, by name): the order "previous
// release" follows.
func olderFirst(a, b string) bool {
	va, vb := semver.IsValid(a), semver.IsValid(b)
	if va != vb {
		return va
	}
	if va {
		if c := semver.Compare(a, b); c != 0 {
			return c < 0
		}
	}
	return a < b
}
