package releases

import (
	"context"

	"github.com/kubewalk/kubewalk/site"
)

// Build renders a site of several releases into opts.Out: the releases
// of rels in the site's build matrix (NewMatrix: newest first, tags
// checked, one set of languages), each rendered by package site
// (site.RenderReleases) and combined as the package comment says, and
// the list of releases at the site's root (site.WriteReleaseList) from
// what site reports of each (site.Manifest). The whole tree is written to
// one temporary directory and renamed into place, as site.Build does. A
// single release is built flat, as site.Build builds it.
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
		ms, st, err := site.RenderReleases(ctx, dir, rels, opts)
		if err != nil {
			return site.Stats{}, err
		}
		n, err := site.WriteReleaseList(dir, m.Langs[0], ms)
		st.Pages++
		st.Bytes += n
		return st, err
	})
}
