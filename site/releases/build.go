package releases

import (
	"context"
	"io/fs"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/kubewalk/kubewalk/site"
	"github.com/kubewalk/kubewalk/site/internal/explainshare"
	"github.com/kubewalk/kubewalk/site/internal/pageshare"
	"github.com/kubewalk/kubewalk/site/internal/searchshare"
	"github.com/kubewalk/kubewalk/site/internal/srcmerge"
)

// Build renders a site of several releases into opts.Out: the releases
// of rels in the site's build matrix (NewMatrix: newest first, tags
// checked, one set of languages), each prepared and written by package
// site (site.PrepareReleases, Prepared.Write) with the source pages they
// share laid out by srcmerge.Layout, their resource graphs drawn on one
// layout (drawGraphs), what their pages, search
// and explain scripts share then written once by this package's passes
// over the written site (write), and the list of releases at the site's
// root (site.WriteReleaseList) from what site reports of each
// (site.Manifest). The whole tree is written to one temporary directory
// and renamed into place, as site.Build does. A single release is built
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
		st, ms, err := write(ctx, dir, p, m.Tags, opts.Workers)
		if err != nil {
			return site.Stats{}, err
		}
		n, err := site.WriteReleaseList(dir, m.Langs[0], ms)
		st.Pages++
		st.Bytes += n
		return st, err
	})
}

// write writes the prepared releases p, tags newest first, into dir, and
// runs the passes over what they wrote: the pages two releases or more
// have written once (pageshare, with the releases' line maps), then the
// explain scripts (explainshare) and the search scripts (searchshare).
// It returns the releases' Manifests. What the passes need of p is taken
// before they run, so that p, most of the build's heap, can go while
// they do. Site's tests run the same steps (site/releases_build_test.go),
// which cannot import this package.
func write(ctx context.Context, dir string, p *site.Prepared, tags []string, workers int) (site.Stats, []site.Manifest, error) {
	st, err := p.Write(ctx, dir)
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
	db, dp, err := pageshare.Share(ctx, dir, tags, maps, workers, pageshare.Budget)
	if err != nil {
		return site.Stats{}, nil, err
	}
	st.Bytes += db
	st.Pages += dp
	dx, err := explainshare.Share(dir, xs)
	if err != nil {
		return site.Stats{}, nil, err
	}
	st.Bytes += dx
	ds, err := searchshare.Share(dir, tags)
	if err != nil {
		return site.Stats{}, nil, err
	}
	st.Bytes += ds
	st.Largest, st.LargestBytes, err = largestPage(dir)
	return st, ms, err
}

// largestPage names the largest HTML page of the site in dir.
func largestPage(dir string) (string, int64, error) {
	var name string
	var size int64
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".html") {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		if r, _ := filepath.Rel(dir, p); fi.Size() > size || fi.Size() == size && filepath.ToSlash(r) < name {
			name, size = filepath.ToSlash(r), fi.Size()
		}
		return nil
	})
	return name, size, err
}
