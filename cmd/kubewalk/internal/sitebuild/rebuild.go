package sitebuild

import (
	"context"

	"github.com/kubewalk/kubewalk/cmd/kubewalk/internal/pipeline"
	"github.com/kubewalk/kubewalk/site"
)

// Rebuild returns a Build of rel for building again and again, as serve
// does after each walkthrough edit. Each call renders the site into out;
// the calls share what an edit cannot change:
//
//   - the walkthroughs of a set whose files are as they were at the last
//     call are not parsed and resolved again (the built-in set never
//     changes; loading it is most of the time walkthrough.Load takes);
//   - the traces, which depend on the facts only, are derived once;
//   - a site.Cache carries over the pages the walkthroughs do not reach
//     (most source pages, the fact indexes, facts.json), instead of
//     rendering and writing them again;
//   - an out that holds an earlier call's output is updated in place
//     (site.Options.InPlace): the caller must serve none of it while the
//     call runs.
//
// The output is what Build writes. Calls must not overlap.
func Rebuild(rel *pipeline.Release, sets []pipeline.WalkSet, lang string, logf func(string, ...any)) func(ctx context.Context, out string) (site.Stats, error) {
	cache := site.NewCache()
	memo := pipeline.NewDocsMemo()
	var traces []site.TraceInput
	kept := func(rel *pipeline.Release) []site.TraceInput {
		if traces == nil {
			traces = deriveTraces(rel)
		}
		return traces
	}
	return func(ctx context.Context, out string) (site.Stats, error) {
		return buildReleases(ctx, []*pipeline.Release{rel}, sets, lang, site.Options{Out: out, Logf: logf, Cache: cache, InPlace: true}, memo, kept)
	}
}
