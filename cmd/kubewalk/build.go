package main

import (
	"fmt"
	"time"

	"github.com/kubewalk/kubewalk/internal/pipeline"
	"github.com/spf13/cobra"
)

func newBuildCmd(g *globals) *cobra.Command {
	var (
		sf        sourceFlags
		out       string
		userDir   string
		noBuiltin bool
		lang      string
	)
	c := &cobra.Command{
		Use:   "build",
		Short: "Build the static site for a release",
		Long: `Build fetches the Kubernetes source of a release (or takes it from the
cache), analyses it (or takes the facts from the cache), resolves every
walkthrough reference by Go symbol, and renders the site into --out: the
walkthroughs with their sequence diagrams, source pages with line anchors and
identifier links, indexes of informer handlers, events and writes, search,
and facts.json. The site is written to a temporary directory and renamed into
place, so a failed build leaves the previous site untouched.

Open <out>/index.html in a browser, or serve the directory from anywhere.`,
		Example: `  kubewalk build --source goproxy
  kubewalk build --tag v1.35.4 --lang ko --out public-ko
  kubewalk build --walkthroughs ./my-walkthroughs --out public`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if lang != "en" && lang != "ko" {
				return &usageError{cmd: cmd.CommandPath(), err: fmt.Errorf("--lang %q: want en or ko", lang)}
			}
			sets, err := pipeline.Sets(userDir, noBuiltin)
			if err != nil {
				return &usageError{cmd: cmd.CommandPath(), err: err}
			}
			start := time.Now()
			rel, err := pipeline.Open(cmd.Context(), sf.options(g, sf.tag), sets, g.logf)
			if err != nil {
				return err
			}
			stats, err := pipeline.Build(cmd.Context(), rel, sets, lang, out, g.logf)
			if err != nil {
				return err
			}
			if !g.quiet {
				fmt.Fprintf(g.stderr, "built %s (%s): %d pages, %d source pages, %.1f MB in %s\n",
					out, rel.Tree.Tag, stats.Pages, stats.SourcePages, float64(stats.Bytes)/1e6, time.Since(start).Round(100*time.Millisecond))
			}
			return nil
		},
	}
	f := c.Flags()
	sf.register(f)
	f.StringVar(&out, "out", "public", "output directory")
	f.StringVar(&userDir, "walkthroughs", "", "directory of walkthrough Markdown files to add to the built-in ones (same ID replaces a built-in)")
	f.BoolVar(&noBuiltin, "no-builtin", false, "leave the built-in walkthroughs out")
	f.StringVar(&lang, "lang", "en", "language of the walkthroughs and the site's interface: en or ko")
	return c
}
