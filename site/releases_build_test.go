package site

import (
	"context"
	"sort"

	"github.com/kubewalk/kubewalk/analyzer/fact/factsfile"
)

// BuildReleases builds a site of several releases for this package's
// tests as package site/releases builds it (releases.Build: the releases
// in order, newest first, rendered into a new directory with the list of
// releases, which replaces opts.Out), which they cannot import.
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
		ms, st, err := renderReleases(ctx, dir, rels, opts, tune)
		if err != nil {
			return Stats{}, err
		}
		lang := rels[0].Lang
		if len(rels[0].Langs) > 1 {
			lang = rels[0].Langs[0]
		}
		n, err := WriteReleaseList(dir, lang, ms)
		st.Pages++
		st.Bytes += n
		return st, err
	})
}
