package main

import (
	"errors"
	"fmt"
	"github.com/kubewalk/kubewalk/analyzer"
	"os"
	"path/filepath"
	"strings"

	"github.com/kubewalk/kubewalk/cmd/kubewalk/internal/pipeline"
	"github.com/kubewalk/kubewalk/internal/derive/trace"
	"github.com/spf13/cobra"
)

// traceFlags are trace's flags.
type traceFlags struct {
	sf     sourceFlags
	depth  int
	output string
}

func newTraceCmd(g *globals) *cobra.Command {
	var tf traceFlags
	c := &cobra.Command{
		Use:   "trace KIND",
		Short: "Derive the chain of components that follows from creating a resource",
		Long: `Trace follows, from a resource kind, the components watching it (informer
handlers and raw list-watches), their handler, queue and sync function, the
call path to each API write they make, and, for every creation or binding,
the watchers of the written resource — to --depth hops. Every hop is printed
with its file:line; hops the code does not connect statically are marked,
with the reason.

KIND is a kind, a plural resource or kubectl's short name, in any case
(Deployment, deployments, deploy, sts, jobs, svc, …); resource.group picks
a group.

-o markdown writes a draft walkthrough in kubewalk's format, every step
anchored by symbol, for an author to complete.`,
		Example: `  kubewalk trace deployments --source goproxy
  kubewalk trace StatefulSet --depth 2 -o json
  kubewalk trace deployments -o markdown > walkthroughs/deployment-trace.md`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runTrace(cmd, g, &tf, args[0]) },
		ValidArgsFunction: func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
			if len(args) > 0 {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			var out []cobra.Completion
			for _, k := range []string{"deployments", "statefulsets", "daemonsets", "jobs", "cronjobs", "services"} {
				if strings.HasPrefix(k, toComplete) {
					out = append(out, k)
				}
			}
			return out, cobra.ShellCompDirectiveNoFileComp
		},
	}
	f := c.Flags()
	tf.sf.register(f)
	f.IntVar(&tf.depth, "depth", trace.DefaultDepth, "resource hops to follow (a write, then the watchers of what it wrote)")
	f.StringVarP(&tf.output, "output", "o", "table", "output format: table, json or markdown")
	return c
}

// runTrace derives and prints the chain that follows from kind.
func runTrace(cmd *cobra.Command, g *globals, tf *traceFlags, kind string) error {
	switch tf.output {
	case "table", "json", "markdown":
	default:
		return &usageError{cmd: cmd.CommandPath(), err: fmt.Errorf("-o %q: want table, json or markdown", tf.output)}
	}
	if tf.depth < 1 {
		return &usageError{cmd: cmd.CommandPath(), err: fmt.Errorf("--depth %d: want at least 1", tf.depth)}
	}
	// The walkthrough sets decide the analyzer's roots, and so the
	// facts cache key: use the same as build and list, so a trace
	// answers from the facts they cached.
	sets, err := pipeline.Sets("", false)
	if err != nil {
		return err
	}
	rel, err := pipeline.Open(cmd.Context(), tf.sf.options(g, tf.sf.tag), sets, g.logf)
	if err != nil {
		return err
	}
	res := rel.Result
	root, err := trace.FindKind(res.Facts(), kind)
	if err != nil {
		if errors.Is(err, trace.ErrUnknownKind) {
			return &usageError{cmd: cmd.CommandPath(), err: err}
		}
		return err
	}
	in := traceInput(res)
	tr := trace.Derive(in, root, trace.Options{Depth: tf.depth})
	switch tf.output {
	case "json":
		return writeJSON(g.stdout, tr)
	case "markdown":
		return trace.WriteMarkdown(g.stdout, tr, in.Source)
	}
	return trace.WriteText(g.stdout, tr)
}

// traceInput is what trace derives from: res's facts and symbols, and the
// files of the tree it analysed.
func traceInput(res *analyzer.Result) trace.Input {
	dir := res.Dir()
	src := func(path string) ([]byte, error) {
		if !filepath.IsLocal(path) {
			return nil, fmt.Errorf("%s: not a path inside the tree", path)
		}
		return os.ReadFile(filepath.Join(dir, filepath.FromSlash(path)))
	}
	return trace.Input{Facts: res.Facts(), Symbols: res.Symbols, Source: src}
}
