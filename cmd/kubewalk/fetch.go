package main

import (
	"fmt"
	"path/filepath"

	"github.com/kubewalk/kubewalk/source"
	"github.com/spf13/cobra"
)

func newFetchCmd(g *globals) *cobra.Command {
	var sf sourceFlags
	var output string
	var verify bool
	c := &cobra.Command{
		Use:   "fetch",
		Short: "Put the Kubernetes source of a release tag on disk and print where it is",
		Long: `Fetch puts the Kubernetes source tree of a release tag into the cache and
prints its directory, the tag, the commit hash where it is known, and the
backend that produced it. Fetching a cached tag does no network work, but
for a tree from the module proxy that lacks staging modules the proxy did
not serve: once a day it asks again, and completes the tree if it can.

Backends (--source):
  auto     go-git clone of the tag; if the remote cannot be reached, the Go module proxy
  git      go-git clone of refs/tags/<tag>, depth 1, from --repo
  goproxy  k8s.io/kubernetes@<tag> and its staging modules through the Go command,
           laid out as the repository is (staging/src/k8s.io/<name>)
  DIR      an existing checkout, which must be at the tag's commit`,
		Example: `  kubewalk fetch --source goproxy
  kubewalk fetch --tag v1.31.0 --repo /srv/mirrors/kubernetes.git
  kubewalk fetch --source ~/src/k8s.io/kubernetes --tag v1.36.3
  cd "$(kubewalk fetch --source goproxy -o dir)"
  kubewalk fetch --source goproxy --verify`,
		RunE: func(cmd *cobra.Command, args []string) error {
			switch output {
			case "text", "json", "dir":
			default:
				return &usageError{cmd: cmd.CommandPath(), err: fmt.Errorf("-o %q: want text, json or dir", output)}
			}
			tree, err := source.Fetch(cmd.Context(), sf.options(g, sf.tag))
			if err != nil {
				return err
			}
			if verify {
				bad, err := tree.Verify()
				if err != nil {
					return err
				}
				if len(bad) > 0 {
					for _, b := range bad {
						fmt.Fprintf(g.stderr, "%s/%s\n", tree.Dir, b)
					}
					return fmt.Errorf("%s: %d files differ from what was fetched: remove %s and fetch again", tree.Dir, len(bad), filepath.Dir(tree.Dir))
				}
				g.log.Info("every file is as fetched", "dir", tree.Dir)
			}
			switch output {
			case "dir":
				fmt.Fprintln(g.stdout, tree.Dir)
				return nil
			case "json":
				return writeJSON(g.stdout, tree)
			}
			commit := tree.Commit
			if commit == "" {
				commit = "(unknown)"
			}
			fmt.Fprintf(g.stdout, "dir:     %s\ntag:     %s\ncommit:  %s\nbackend: %s\n", tree.Dir, tree.Tag, commit, tree.Backend)
			for _, m := range tree.Missing {
				fmt.Fprintf(g.stdout, "missing: %s\n", m)
			}
			return nil
		},
	}
	sf.register(c.Flags())
	c.Flags().StringVarP(&output, "output", "o", "text", "output format: text, json (the tree's metadata), or dir (the directory only, for scripts)")
	c.Flags().BoolVar(&verify, "verify", false, "hash every file of the cached tree and compare it with the manifest written when it was fetched (every load already compares their sizes)")
	completeFlags(c, map[string][]cobra.Completion{"output": {"text", "json", "dir"}})
	return c
}
