package main

import (
	"fmt"

	"github.com/kubewalk/kubewalk/cmd/kubewalk/internal/pipeline"
	"github.com/kubewalk/kubewalk/internal/derive/reldiff"
	"github.com/kubewalk/kubewalk/walkthrough"
	"github.com/spf13/cobra"
)

func newDiffCmd(g *globals) *cobra.Command {
	var (
		sf        sourceFlags
		from, to  string
		userDir   string
		noBuiltin bool
		output    string
	)
	c := &cobra.Command{
		Use:   "diff --from A --to B",
		Short: "Report what changed between two releases for the walkthroughs",
		Long: `Diff resolves every walkthrough reference at two releases and reports, for
a maintainer updating the walkthroughs, each reference that moved, changed
(with a unified diff of the declaration), was renamed (resolved through
another alternate), disappeared, appeared, or whose lines: regexp stopped
matching — each as file:line:col of the Markdown, so editors jump to it —
then the informer handler registrations, events and API writes added or
removed between the two releases.

Both releases are fetched and analysed as build and check do (from the
cache when done before). Differences are the report, not a failure: diff
exits 0 whenever it could compare, 1 when it could not.`,
		Example: `  # What changed for the built-in walkthroughs from v1.35.4 to v1.36.3
  kubewalk diff --from v1.35.4 --to v1.36.3 --source goproxy

  # Your walkthroughs only, as JSON
  kubewalk diff --from v1.35.4 --to v1.36.3 --no-builtin --walkthroughs ./docs/walkthroughs -o json \
    | jq '.refs[] | select(.status != "unchanged" and .status != "moved")'`,
		RunE: func(cmd *cobra.Command, args []string) error {
			usage := func(err error) error { return &usageError{cmd: cmd.CommandPath(), err: err} }
			switch {
			case from == "" || to == "":
				return usage(fmt.Errorf("--from and --to are required"))
			case output != "text" && output != "json":
				return usage(fmt.Errorf("-o %q: want text or json", output))
			}
			sets, err := pipeline.Sets(userDir, noBuiltin)
			if err != nil {
				return usage(err)
			}
			var refs []walkthrough.RefUse
			for _, s := range sets {
				uses, err := walkthrough.Refs(s.FS, s.Dir)
				if err != nil {
					// Syntax errors are kubewalk check's to report; the
					// references that parsed are still worth comparing.
					g.log.Warn("walkthroughs have syntax errors; run kubewalk check", "set", s.Name, "err", err)
				}
				for _, u := range uses {
					u.File = setPath(s, u.File)
					refs = append(refs, u)
				}
			}
			var rels [2]reldiff.Release
			for i, tag := range []string{from, to} {
				rel, err := pipeline.Open(cmd.Context(), sf.options(g, tag), sets, g.logf)
				if err != nil {
					return err
				}
				rels[i] = reldiff.Release{Tag: rel.Tree.Tag, Result: rel.Result}
			}
			rep := reldiff.Compare(rels[0], rels[1], refs)
			if output == "json" {
				return writeJSON(g.stdout, rep)
			}
			return reldiff.WriteText(g.stdout, rep)
		},
	}
	f := c.Flags()
	f.StringVar(&from, "from", "", "the older release tag (required)")
	f.StringVar(&to, "to", "", "the newer release tag (required)")
	sf.registerSource(f)
	f.StringVar(&userDir, "walkthroughs", "", "directory of walkthrough Markdown files besides the built-in ones")
	f.BoolVar(&noBuiltin, "no-builtin", false, "leave the built-in walkthroughs out")
	f.StringVarP(&output, "output", "o", "text", "output format: text or json")
	return c
}

// setPath names a walkthrough file as the reader finds it: under
// walkthroughs/ for the built-in set (as check prints it), under the
// directory given otherwise.
func setPath(s pipeline.WalkSet, file string) string {
	if s.Name == "builtin" {
		return "walkthroughs/" + file
	}
	return s.Name + "/" + file
}
