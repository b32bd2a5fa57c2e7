package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/kubewalk/kubewalk/cmd/kubewalk/internal/pipeline"
	"github.com/kubewalk/kubewalk/cmd/kubewalk/internal/sitebuild"
	"github.com/kubewalk/kubewalk/record"
	"github.com/spf13/cobra"
)

// buildFlags are build's flags.
type buildFlags struct {
	sf        sourceFlags
	rl        releaseList
	out       string
	userDir   string
	noBuiltin bool
	lang      string
	rec       bool
}

func newBuildCmd(g *globals) *cobra.Command {
	var bf buildFlags
	c := &cobra.Command{
		Use:   "build",
		Short: "Build the static site for a release",
		Long: `Build fetches the Kubernetes source of a release (or takes it from the
cache), analyses it (or takes the facts from the cache), resolves every
walkthrough reference by Go symbol, and renders the site into --out: the
walkthroughs with their sequence diagrams, source pages with line anchors and
identifier links, indexes of informer handlers, events and writes, search,
and facts.json.zst. The site is written to a temporary directory and renamed into
place, so a failed build leaves the previous site untouched.

With several --tag flags, one site holds every release: a subtree per
release (<out>/<tag>/…), an index.html listing them newest first, a version
switcher on every page that keeps the reader on the same walkthrough step or
source file, and on each step a badge for code that changed since the
previous release, with the diff. Each release's facts are cached on their
own, so adding a release to a site costs one analysis.

When a recorded run of a release is in the cache (kubewalk record, or
--record here) or kept with the walkthroughs (the default release), each step
shows what was observed of it and the site has a Recorded run page.

Without --lang the site holds English and Korean: a directory per language
(<out>/en/, <out>/ko/) sharing one set of source pages, a switch between them
on every page, and an index.html that opens the browser's preferred language.
A walkthrough not yet translated shows in English, marked as such. --lang
builds one language.

Open <out>/index.html in a browser, or serve the directory from anywhere.`,
		Example: `  kubewalk build --source goproxy
  kubewalk build --tag v1.35.4 --lang ko --out public-ko
  kubewalk build --walkthroughs ./my-walkthroughs --out public
  kubewalk build --source goproxy --tag v1.35.4 --tag v1.36.3 --out public
  kubewalk build --source goproxy --tags v1.29..v1.37 --out public-all
  kubewalk build --source goproxy --tag v1.31.0 --record`,
		RunE: func(cmd *cobra.Command, args []string) error { return runBuild(cmd, g, &bf) },
	}
	f := c.Flags()
	// --tag repeats on build (one site, several releases); the other
	// commands that take one release register it through sf.register.
	bf.rl.register(f, "to build; repeat for a site of several releases")
	bf.sf.registerSource(f)
	f.StringVar(&bf.out, "out", "public", "output directory")
	f.StringVar(&bf.userDir, "walkthroughs", "", "directory of walkthrough Markdown files to add to the built-in ones (same ID replaces a built-in)")
	f.BoolVar(&bf.noBuiltin, "no-builtin", false, "leave the built-in walkthroughs out")
	f.StringVar(&bf.lang, "lang", "", "build one language only, en or ko (default: both, one site)")
	f.BoolVar(&bf.rec, "record", false, "record each release's deployment scenario first (kubewalk record), for the Observed panels and the Recorded run page")
	return c
}

// runBuild builds the site of every release bf names, recording each
// first with --record.
func runBuild(cmd *cobra.Command, g *globals, bf *buildFlags) error {
	if bf.lang != "" { // "": every language
		if err := checkLang(cmd, bf.lang); err != nil {
			return err
		}
	}
	sets, err := pipeline.Sets(bf.userDir, bf.noBuiltin)
	if err != nil {
		return &usageError{cmd: cmd.CommandPath(), err: err}
	}
	tags, err := bf.rl.resolve(cmd.Context(), cmd, g, &bf.sf)
	if err != nil {
		return err
	}
	start := time.Now()
	trees, err := fetchAll(cmd.Context(), g, &bf.sf, tags)
	if err != nil {
		return err
	}
	var rels []*pipeline.Release
	for i, tag := range tags {
		if bf.rec {
			logf := func(format string, args ...any) { g.log.Info(fmt.Sprintf(format, args...)) }
			if _, err := recordRelease(cmd.Context(), g, bf.sf.options(g, tag), record.RunOptions{Logf: logf}); err != nil {
				return err
			}
		}
		rel, err := pipeline.OpenTree(cmd.Context(), trees[i], bf.sf.options(g, tag), sets, g.logf)
		if err != nil {
			return err
		}
		rels = append(rels, rel)
	}
	rendered := pipeline.Phase(g.log, "rendering", "out", bf.out)
	stats, err := sitebuild.BuildReleases(cmd.Context(), rels, sets, bf.lang, bf.out, g.logf)
	if err != nil {
		rendered("render failed")
		return err
	}
	rendered("rendered", "pages", stats.Pages+stats.SourcePages)
	if !g.quiet {
		fmt.Fprintf(g.stderr, "built %s (%s): %d pages, %d source pages, %.1f MB in %s\n",
			bf.out, strings.Join(tags, ", "), stats.Pages, stats.SourcePages, float64(stats.Bytes)/1e6, time.Since(start).Round(100*time.Millisecond))
	}
	return nil
}
