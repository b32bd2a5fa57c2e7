package site

import (
	"context"
	"runtime"
	"sort"

	"github.com/kubewalk/kubewalk/analyzer/fact/factsfile"
	"github.com/kubewalk/kubewalk/internal/render/diagram"
	"github.com/kubewalk/kubewalk/site/internal/explainshare"
	"github.com/kubewalk/kubewalk/site/internal/pageshare"
	"github.com/kubewalk/kubewalk/site/internal/searchshare"
	"github.com/kubewalk/kubewalk/site/internal/sitetree"
	"github.com/kubewalk/kubewalk/site/internal/srcmerge"
)

// BuildReleases builds a site of several releases for this package's
// tests as package site/releases builds it (releases.Build: the releases
// in order, newest first, prepared and written, the stage's passes run
// over what they wrote, the list of releases added, the whole replacing
// opts.Out), which they cannot import.
func BuildReleases(ctx context.Context, rels []Release, opts Options) (Stats, error) {
	return buildReleases(ctx, rels, opts, tuning{})
}

// buildReleases is BuildReleases, built as tune says.
func buildReleases(ctx context.Context, rels []Release, opts Options, tune tuning) (Stats, error) {
	if len(rels) == 1 {
		if rels[0].SourceURL != nil {
			opts.SourceURL = rels[0].SourceURL
		}
		return Build(ctx, rels[0].Input, opts)
	}
	rels = append([]Release(nil), rels...)
	sort.SliceStable(rels, func(i, j int) bool { return factsfile.NewerFirst(rels[i].Tag, rels[j].Tag) })
	return atomically(opts.Out, func(dir string) (Stats, error) {
		p, err := prepareReleases(ctx, rels, opts, tune)
		if err != nil {
			return Stats{}, err
		}
		if err := sourcesForTest(ctx, p); err != nil {
			return Stats{}, err
		}
		t := sitetree.New()
		st, err := writeReleasesForTest(ctx, t, p, opts.Workers, tune)
		if err != nil {
			return Stats{}, err
		}
		lang := rels[0].Lang
		if len(rels[0].Langs) > 1 {
			lang = rels[0].Langs[0]
		}
		n, err := WriteReleaseList(t, lang, p.Manifests())
		if err != nil {
			return Stats{}, err
		}
		st.Pages++
		st.Bytes += n
		return st, t.WriteTo(ctx, dir, 0)
	})
}

// sourcesForTest lays out the source pages p's releases share, as
// site/releases does (srcmerge.Layout), and draws their graphs.
func sourcesForTest(ctx context.Context, p *Prepared) error {
	var tags []string
	var facts []any
	for _, b := range p.bs {
		tags = append(tags, b.in.Tag)
		facts = append(facts, b.in.Facts, b.in.Traces)
	}
	if _, err := srcmerge.Layout(ctx, p, tags, facts...); err != nil {
		return err
	}
	return graphsForTest(p)
}

// graphsForTest draws the releases' resource graphs on one layout per
// language, as site/releases does (drawGraphs).
func graphsForTest(p *Prepared) error {
	for l := range p.bs[0].rel.langs {
		svgs, err := diagram.Graphs(p.ResourceGraphs(l))
		if err != nil {
			return err
		}
		p.SetResourceGraphs(l, svgs)
	}
	return nil
}

// writeReleasesForTest is site/releases' write: p written into t and
// the stage's passes run over it, the pages shared as tune says.
func writeReleasesForTest(ctx context.Context, t *sitetree.Tree, p *Prepared, workers int, tune tuning) (Stats, error) {
	st, err := p.Write(ctx, t)
	if err != nil {
		return Stats{}, err
	}
	var tags []string
	for _, m := range p.Manifests() {
		tags = append(tags, m.Tag)
	}
	xs, err := p.ExplainScripts()
	if err != nil {
		return Stats{}, err
	}
	ss := p.SearchScripts()
	var links *pageshare.Links
	if !tune.ownReleasePages {
		if workers <= 0 {
			workers = runtime.GOMAXPROCS(0)
		}
		budget := pageshare.Budget
		if tune.relPageBudget > 0 {
			budget = tune.relPageBudget
		}
		shared, err := pageshare.Share(ctx, t, tags, p.LineMaps(), workers, budget)
		if err != nil {
			return Stats{}, err
		}
		st.Bytes += shared.Bytes
		st.Pages += shared.Pages
		links = shared.Links
	}
	// The releases' data links the pages they share where the
	// releases' copies were.
	for i := range xs {
		links.Move(xs[i].Page(), xs[i].Links())
	}
	for i := range ss {
		links.Move(ss[i].Page(), ss[i].Links())
	}
	nx, err := explainshare.Share(t, xs)
	if err != nil {
		return Stats{}, err
	}
	st.Bytes += nx
	ns, err := searchshare.Share(t, tags, ss)
	if err != nil {
		return Stats{}, err
	}
	st.Bytes += ns
	return st, nil
}
