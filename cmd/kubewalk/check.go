package main

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/kubewalk/kubewalk/cmd/kubewalk/internal/pipeline"
	"github.com/kubewalk/kubewalk/walkthrough"
	"github.com/spf13/cobra"
)

// newCheckCmd is the check command. Like every command constructor here
// it is long because it is mostly the command's help text and flags, which
// read best in one place beside the RunE that uses them.
func newCheckCmd(g *globals) *cobra.Command {
	var (
		sf        sourceFlags
		rl        releaseList
		userDir   string
		noBuiltin bool
	)
	c := &cobra.Command{
		Use:   "check",
		Short: "Resolve every reference of the walkthroughs at one or more releases",
		Long: `Check parses every walkthrough (every language), resolves every symbol
reference, line pattern and facts block at each --tag, and prints each
problem as file:line:col: message, with the nearest existing names as
suggestions. It exits 1 when anything fails to resolve, so it can gate CI
for walkthroughs that must keep up with Kubernetes.`,
		Example: `  # The built-in walkthroughs at the default release
  kubewalk check --source goproxy

  # Your own walkthroughs, at three releases
  kubewalk check --no-builtin --walkthroughs ./docs/walkthroughs --tag v1.34.4 --tag v1.35.4 --tag v1.36.3

  # Every minor release from v1.29 on, each at its latest patch
  kubewalk check --source goproxy --tags v1.29..v1.37`,
		RunE: func(cmd *cobra.Command, args []string) error {
			sets, err := pipeline.Sets(userDir, noBuiltin)
			if err != nil {
				return &usageError{cmd: cmd.CommandPath(), err: err}
			}
			if err := checkSetsHold(sets); err != nil {
				return &usageError{cmd: cmd.CommandPath(), err: err}
			}
			tags, err := rl.resolve(cmd.Context(), cmd, g, &sf)
			if err != nil {
				return err
			}
			trees, err := fetchAll(cmd.Context(), g, &sf, tags)
			if err != nil {
				return err
			}
			// What is checked, said beside "ok": a check that read nothing
			// (an empty --walkthroughs) must not look like a pass.
			files, refs := 0, 0
			for _, s := range sets {
				srcs, _ := walkthrough.ParseDir(s.FS, s.Dir) // syntax errors are Check's to print
				files += len(srcs)
				for _, src := range srcs {
					refs += len(src.Refs)
				}
				dir := "walkthroughs"
				if s.Name != "builtin" {
					dir = s.Name
				}
				translationWarnings(g.stdout, dir, srcs)
				htmlWarnings(g.stdout, dir, srcs)
			}
			problems := 0
			for i, tag := range tags {
				rel, err := pipeline.OpenTree(cmd.Context(), trees[i], sf.options(g, tag), sets, g.logf)
				if err != nil {
					return err
				}
				n := 0
				also := pipeline.LinkTargets(sets)
				for _, s := range sets {
					for _, e := range walkthrough.Check(s.FS, s.Dir, walkthrough.Options{Resolver: rel.Result, Also: also}) {
						fmt.Fprintln(g.stdout, diagnostic(s, tag, e))
						n++
					}
				}
				if _, err := coverageWarnings(g.stdout, rel, sets, tag); err != nil {
					return err
				}
				if n == 0 && !g.quiet {
					fmt.Fprintf(g.stderr, "%s: ok (%s, %s)\n", tag, plural(files, "walkthrough file"), plural(refs, "reference"))
				}
				problems += n
			}
			if problems > 0 {
				fmt.Fprintf(g.stderr, "%d problems\n", problems)
				return silentError{n: problems}
			}
			if !g.quiet && len(tags) > 1 {
				fmt.Fprintf(g.stderr, "checked %s and %s at %d releases: ok\n", plural(files, "walkthrough file"), plural(refs, "reference"), len(tags))
			}
			return nil
		},
	}
	f := c.Flags()
	rl.register(f, "to check at")
	sf.registerSource(f)
	f.StringVar(&userDir, "walkthroughs", "", "directory of walkthrough Markdown files to check besides the built-in ones")
	f.BoolVar(&noBuiltin, "no-builtin", false, "leave the built-in walkthroughs out")
	completeFlags(c, nil)
	return c
}

// checkSetsHold returns an error when a directory given with
// --walkthroughs holds no walkthrough at its top level, where check reads
// them: a check that checked nothing would pass. It is found before any
// release is fetched, with the files that are there but not read.
func checkSetsHold(sets []pipeline.WalkSet) error {
	for _, s := range sets {
		if s.Name == "builtin" {
			continue
		}
		files, err := walkthrough.Files(s.FS, s.Dir)
		if len(files) > 0 {
			continue // problems with other files are check's to report
		}
		msg := fmt.Errorf("--walkthroughs %s: no walkthrough to check: walkthroughs are <id>.md files at the top of the directory", s.Name)
		if err != nil {
			return fmt.Errorf("%w\n%w", msg, err)
		}
		return msg
	}
	return nil
}

// diagnostic formats a problem as file:line:col: [tag] message, the form
// editors jump to, with the file's path as the user can open it: inside the
// repository's walkthroughs/ for the built-in ones, under --walkthroughs for
// the user's.
func diagnostic(s pipeline.WalkSet, tag string, err error) string {
	dir := "walkthroughs"
	if s.Name != "builtin" {
		dir = s.Name
	}
	var we *walkthrough.Error
	if errors.As(err, &we) {
		msg := strings.TrimPrefix(we.Error(), fmt.Sprintf("%s:%d:%d: ", we.File, we.Line, we.Col))
		return termSafe(fmt.Sprintf("%s:%d:%d: [%s] %s", filepath.Join(dir, we.File), we.Line, we.Col, tag, msg))
	}
	return termSafe(fmt.Sprintf("%s: [%s] %v", dir, tag, err))
}

// plural is "1 reference", "2 references".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
