package releases

import (
	"context"
	"runtime"
	"strings"

	"github.com/kubewalk/kubewalk/site"
	"github.com/kubewalk/kubewalk/site/internal/explainshare"
	"github.com/kubewalk/kubewalk/site/internal/pageshare"
	"github.com/kubewalk/kubewalk/site/internal/searchshare"
	"github.com/kubewalk/kubewalk/site/internal/sitetree"
	"github.com/kubewalk/kubewalk/site/internal/srcmerge"
)

// Build renders a site of several releases into opts.Out: the releases
// of rels in the site's build matrix (NewMatrix: newest first, tags
// checked, one set of languages), each prepared and written by package
// site (site.PrepareReleases, Prepared.Write) with the source pages they
// share laid out by srcmerge.Layout, their resource graphs drawn on one
// layout (drawGraphs), what their pages, search
// and explain scripts share then written once by this package's passes
// over the site's files (write), and the list of releases at the site's
// root (site.WriteReleaseList) from what site reports of each
// (site.Manifest). The files are held in memory (sitetree.Tree) until
// the passes are done, then written to one temporary directory and
// renamed into place, as site.Build does. A single release is built
// flat, as site.Build builds it.
func Build(ctx context.Context, rels []site.Release, opts site.Options) (site.Stats, error) {
	m, rels, err := NewMatrix(rels)
	if err != nil {
		return site.Stats{}, err
	}
	if len(rels) == 1 {
		if rels[0].SourceURL != nil {
			opts.SourceURL = rels[0].SourceURL
		}
		return site.Build(ctx, rels[0].Input, opts)
	}
	return site.WriteAtomically(opts.Out, func(dir string) (site.Stats, error) {
		p, err := site.PrepareReleases(ctx, rels, opts)
		if err != nil {
			return site.Stats{}, err
		}
		var facts []any
		for _, r := range rels {
			facts = append(facts, r.Facts, r.Traces)
		}
		if _, err := srcmerge.Layout(ctx, p, m.Tags, facts...); err != nil {
			return site.Stats{}, err
		}
		if err := drawGraphs(p, len(m.Langs)); err != nil {
			return site.Stats{}, err
		}
		t := sitetree.New()
		st, ms, err := write(ctx, t, p, m.Tags, opts.Workers)
		if err != nil {
			return site.Stats{}, err
		}
		n, err := site.WriteReleaseList(t, m.Langs[0], ms)
		if err != nil {
			return site.Stats{}, err
		}
		st.Pages++
		st.Bytes += n
		return st, t.WriteTo(ctx, dir, 0)
	})
}

// write writes the prepared releases p, tags newest first, into t, and
// runs the passes: over what they wrote, the pages two releases or more
// have written once (pageshare, with the releases' line maps); then the
// releases' explain and search scripts, which p hands over as data,
// their links moved to the shared pages (pageshare.Links), are written
// with what the releases share written once (explainshare, searchshare).
// It returns the releases' Manifests. What the passes need of p is taken
// before they run, so that p, most of the build's heap, can go while
// they do. Site's tests run the same steps (site/releases_build_test.go),
// which cannot import this package.
func write(ctx context.Context, t *sitetree.Tree, p *site.Prepared, tags []string, workers int) (site.Stats, []site.Manifest, error) {
	st, err := p.Write(ctx, t)
	if err != nil {
		return site.Stats{}, nil, err
	}
	maps, ms := p.LineMaps(), p.Manifests()
	xs, err := p.ExplainScripts()
	if err != nil {
		return site.Stats{}, nil, err
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	ss := p.SearchScripts()
	shared, err := pageshare.Share(ctx, t, tags, maps, workers, pageshare.Budget)
	if err != nil {
		return site.Stats{}, nil, err
	}
	st.Bytes += shared.Bytes
	st.Pages += shared.Pages
	// The releases' data links the pages they share where the
	// releases' copies were.
	for i := range xs {
		shared.Links.Move(xs[i].Page(), xs[i].Links())
	}
	for i := range ss {
		shared.Links.Move(ss[i].Page(), ss[i].Links())
	}
	nx, err := explainshare.Share(t, xs)
	if err != nil {
		return site.Stats{}, nil, err
	}
	st.Bytes += nx
	ns, err := searchshare.Share(t, tags, ss)
	if err != nil {
		return site.Stats{}, nil, err
	}
	st.Bytes += ns
	st.Largest, st.LargestBytes, err = largestPage(t)
	return st, ms, err
}

// largestPage names the largest HTML page of the site t.
func largestPage(t *sitetree.Tree) (string, int64, error) {
	var name string
	var size int64
	for _, p := range t.Paths() { // sorted: the first of equal sizes wins
		if !strings.HasSuffix(p, ".html") {
			continue
		}
		data, err := t.ReadFile(p)
		if err != nil {
			return "", 0, err
		}
		if n := int64(len(data)); n > size {
			name, size = p, n
		}
	}
	return name, size, nil
}
