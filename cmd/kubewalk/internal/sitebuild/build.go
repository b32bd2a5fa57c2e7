// Package sitebuild renders the site of releases opened by pipeline: it
// puts each release's facts, walkthroughs, traces, recordings and its
// changes since the previous release into site.Input, and has site write
// them. It is the part of the command line that needs the site; pipeline
// holds the rest.
package sitebuild

import (
	"context"
	"fmt"
	"net/url"
	"sort"

	"golang.org/x/mod/semver"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/cmd/kubewalk/internal/pipeline"
	"github.com/kubewalk/kubewalk/internal/derive/reldiff"
	"github.com/kubewalk/kubewalk/internal/derive/trace"
	"github.com/kubewalk/kubewalk/site"
	"github.com/kubewalk/kubewalk/site/releases"
	"github.com/kubewalk/kubewalk/source"
	"github.com/kubewalk/kubewalk/walkthrough"
)

// Build renders the site for rel into out.
func Build(ctx context.Context, rel *pipeline.Release, sets []pipeline.WalkSet, lang, out string, logf func(string, ...any)) (site.Stats, error) {
	return BuildReleases(ctx, []*pipeline.Release{rel}, sets, lang, out, logf)
}

// BuildReleases renders one site of several releases into out
// (package site/releases): a subtree per release with a version switcher, and
// on each release's walkthroughs a badge for every reference whose code
// changed since the previous (older) release in the site, with the diff
// (reldiff.CompareRef). One release builds the flat single-release site.
// Each release's facts come from its own cache entry (pipeline.Open), so adding a
// release to a site costs one analysis.
func BuildReleases(ctx context.Context, rels []*pipeline.Release, sets []pipeline.WalkSet, lang, out string, logf func(string, ...any)) (site.Stats, error) {
	return buildReleases(ctx, rels, sets, lang, site.Options{Out: out, Logf: logf, CommitURL: CommitURL}, nil, deriveTraces)
}

// buildReleases is BuildReleases with the site's options given, a memo
// of the walkthroughs (one release only) and the traces of a release
// (deriveTraces, or what Rebuild kept of it).
func buildReleases(ctx context.Context, rels []*pipeline.Release, sets []pipeline.WalkSet, lang string, opts site.Options, memo *pipeline.DocsMemo, traces func(*pipeline.Release) []site.TraceInput) (site.Stats, error) {
	rels = append([]*pipeline.Release(nil), rels...)
	sort.SliceStable(rels, func(i, j int) bool { return olderFirst(rels[i].Tree.Tag, rels[j].Tree.Tag) })
	// The walkthroughs' link targets depend on their files alone: read
	// once for every release.
	also := pipeline.AlsoTargets(sets)
	var srels []site.Release
	for i, rel := range rels {
		docs, err := pipeline.LoadDocs(rel, sets, lang, also, memo)
		if err != nil {
			return site.Stats{}, fmt.Errorf("%s: %w", rel.Tree.Tag, err)
		}
		in := input(rel, lang, docs)
		in.Traces = traces(rel)
		if i > 0 {
			prev := rels[i-1]
			in.Since = prev.Tree.Tag
			in.Changes = changes(prev, rel, docs)
			in.FactChanges = reldiff.CompareFacts(prev.Result.Facts(), rel.Result.Facts())
		}
		srels = append(srels, site.Release{Input: in, SourceURL: rel.Tree.Permalink})
	}
	return releases.Build(ctx, srels, opts)
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

// deriveTraces derives the trace of each of TraceKinds from rel's facts;
// a kind the facts do not know gets a nil Trace (the site notes it).
func deriveTraces(rel *pipeline.Release) []site.TraceInput {
	in := traceInput(rel)
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

// traceInput is what trace.Derive reads of rel.
func traceInput(rel *pipeline.Release) trace.Input {
	return trace.Input{Facts: rel.Result.Facts(), Symbols: rel.Result.Symbols, Source: rel.Read}
}

// input is the site's view of one release: in lang, or for lang "" in
// every language the site has.
func input(rel *pipeline.Release, lang string, docs []*walkthrough.Doc) site.Input {
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
		ReadFile:   rel.Read,
		Recordings: rel.Recordings,
	}
}

// changes compares every reference of docs (inline and excerpts) between
// prev and cur, once per distinct reference.
func changes(prev, cur *pipeline.Release, docs []*walkthrough.Doc) map[string]reldiff.RefChange {
	a := reldiff.Release{Tag: prev.Tree.Tag, Result: prev.Result, Read: prev.Read}
	b := reldiff.Release{Tag: cur.Tree.Tag, Result: cur.Result, Read: cur.Read}
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
