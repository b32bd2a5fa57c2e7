package main

import (
	"context"
	"fmt"
	"slices"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"golang.org/x/sync/errgroup"

	"github.com/kubewalk/kubewalk/cmd/kubewalk/internal/pipeline"
	"github.com/kubewalk/kubewalk/source"
)

// releaseList is the releases a command runs at: its repeatable --tag and
// --tags ranges of minor releases ("v1.29..v1.37"), each at its latest
// patch as the module proxy lists them.
type releaseList struct {
	tags   []string
	ranges []string
}

func (r *releaseList) register(fs *pflag.FlagSet, what string) {
	fs.StringArrayVar(&r.tags, "tag", nil, "Kubernetes release tag "+what+"; repeatable (default "+source.DefaultTag+")")
	fs.StringArrayVar(&r.ranges, "tags", nil, "a range of minor releases, each at its latest patch the module proxy serves: v1.29..v1.37 (repeatable; with --tag too)")
}

// resolve returns the releases, in the order given, ranges expanded; a
// release named twice is a usage error. The proxy's list is read only when
// a range is given.
func (r *releaseList) resolve(ctx context.Context, cmd *cobra.Command, g *globals, sf *sourceFlags) ([]string, error) {
	tags := slices.Clone(r.tags)
	if len(r.ranges) > 0 {
		rels, err := source.Releases(ctx, sf.options(g, ""))
		if err != nil {
			return nil, err
		}
		for _, spec := range r.ranges {
			ts, err := source.ExpandRange(spec, rels)
			if err != nil {
				return nil, &usageError{cmd: cmd.CommandPath(), err: fmt.Errorf("--tags %w", err)}
			}
			tags = append(tags, ts...)
		}
	}
	if len(tags) == 0 {
		tags = []string{source.DefaultTag}
	}
	seen := map[string]bool{}
	for _, t := range tags {
		if seen[t] {
			return nil, &usageError{cmd: cmd.CommandPath(), err: fmt.Errorf("release %s given twice", t)}
		}
		seen[t] = true
	}
	return tags, nil
}

// fetchLimit bounds the releases fetched at once: fetching is mostly
// waiting on the network and unpacking, so a few overlap well; analysis,
// which sets the process's memory limit while it loads, stays one release
// at a time (pipeline.OpenTree).
const fetchLimit = 4

// fetchAll fetches the tree of every release, fetchLimit at a time, for
// the releases to be opened one by one afterwards (pipeline.OpenTree).
func fetchAll(ctx context.Context, g *globals, sf *sourceFlags, tags []string) ([]*source.Tree, error) {
	trees := make([]*source.Tree, len(tags))
	eg, ctx := errgroup.WithContext(ctx)
	eg.SetLimit(fetchLimit)
	for i, t := range tags {
		eg.Go(func() (err error) {
			trees[i], err = pipeline.Fetch(ctx, sf.options(g, t))
			return err
		})
	}
	return trees, eg.Wait()
}
