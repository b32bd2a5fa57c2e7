package main

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"golang.org/x/term"
)

// globals are the flags every command takes.
type globals struct {
	cacheDir string
	verbose  int
	quiet    bool

	stdin          io.Reader
	stdout, stderr io.Writer
	log            *slog.Logger
}

const rootLong = `kubewalk turns the Kubernetes source at a release tag into a static website
that walks a reader through what happens inside Kubernetes: you create a
Deployment, the deployment controller creates a ReplicaSet, the replicaset
controller creates Pods, the scheduler binds them, the kubelet starts them —
each step beside the exact code that does it, resolved by Go symbol at the tag
so the links never rot.

The Kubernetes source comes from a go-git clone of the tag, the Go module
proxy, or an existing checkout (--source). Trees and analysis results are
cached under --cache-dir.

Exit codes: 0 success, 1 failure, 2 usage error.`

func newRootCmd(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	g := &globals{stdin: stdin, stdout: stdout, stderr: stderr}
	root := &cobra.Command{
		Use:   "kubewalk",
		Short: "Walk through Kubernetes internals, step by step, linked to the code",
		Long:  rootLong,
		Example: `  # Build the site for the default release into ./public, using the module proxy
  kubewalk build --source goproxy

  # Put the source of a release on disk and print where it is
  kubewalk fetch --tag v1.31.0 --source goproxy`,
		SilenceErrors: true,
		SilenceUsage:  true,
		PersistentPreRunE: func(cmd *cobra.Command, args []string) error {
			return g.setup()
		},
		// Without a command, print the help; an unknown command is a usage
		// error (exit 2), not help with exit 0.
		RunE: func(cmd *cobra.Command, args []string) error {
			return cmd.Help()
		},
	}
	// "explian" → explain: a swap is two edits.
	root.SuggestionsMinimumDistance = 2
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return &usageError{cmd: c.CommandPath(), err: err}
	})
	pf := root.PersistentFlags()
	pf.StringVar(&g.cacheDir, "cache-dir", defaultCacheDir(), "directory for fetched trees and cached facts")
	// Given empty (an unset shell variable), it quietly meant the
	// default cache, while --tag "" is refused.
	pf.Lookup("cache-dir").Value = nonEmptyValue{pf.Lookup("cache-dir").Value, "empty --cache-dir: give a directory, or leave the flag out for the default"}
	pf.CountVarP(&g.verbose, "verbose", "v", "log more (-v debug)")
	pf.BoolVar(&g.quiet, "quiet", false, "print only errors and results")

	root.AddCommand(
		newFetchCmd(g),
		newBuildCmd(g),
		newCheckCmd(g),
		newListCmd(g),
		newTraceCmd(g),
		newDiffCmd(g),
		newExplainCmd(g),
		newServeCmd(g),
		newExportCmd(g),
		newRecordCmd(g),
		newVersionCmd(g),
	)
	// Usage errors for unknown commands and bad arguments too.
	for _, c := range root.Commands() {
		wrapArgs(c)
	}
	wrapArgs(root)
	refuseMistakenValues(root)
	return root
}

// refuseMistakenValues makes the flags whose value can only be a mistake
// (an unset shell variable, a sign typed wrongly) refuse it, in every
// command, so that it is a usage error before any fetch or analysis:
// --out "" failed only after them ("site: no output directory"),
// --walkthroughs "" quietly meant no directory, a negative
// --stall-timeout no limit, and record's --timeout 0 three minutes.
func refuseMistakenValues(c *cobra.Command) {
	c.Flags().VisitAll(func(f *pflag.Flag) {
		switch f.Name {
		case "out":
			f.Value = nonEmptyValue{f.Value, "empty --out: give a directory"}
		case "walkthroughs":
			f.Value = nonEmptyValue{f.Value, "empty --walkthroughs: give a directory of walkthroughs, or leave the flag out"}
		case "stall-timeout":
			f.Value = minDurationValue{f.Value, 0, "negative --stall-timeout: give a duration such as 1m, or 0 to wait for ever"}
		case "timeout":
			f.Value = minDurationValue{f.Value, time.Nanosecond, "--timeout must be more than 0: give a duration such as 3m"}
		}
	})
	for _, sub := range c.Commands() {
		refuseMistakenValues(sub)
	}
}

// wrapArgs turns argument validation failures into usage errors.
func wrapArgs(c *cobra.Command) {
	if c.Args == nil {
		c.Args = cobra.NoArgs
		if c.HasSubCommands() || c.Name() == "kubewalk" {
			c.Args = func(cmd *cobra.Command, args []string) error {
				if len(args) > 0 {
					return fmt.Errorf("unknown command %q for %q%s", args[0], cmd.CommandPath(), didYouMean(cmd.SuggestionsFor(args[0])))
				}
				return nil
			}
		}
	}
	v := c.Args
	c.Args = func(cmd *cobra.Command, args []string) error {
		if err := v(cmd, args); err != nil {
			return &usageError{cmd: cmd.CommandPath(), err: err}
		}
		return nil
	}
}

// defaultCacheDir is $XDG_CACHE_HOME/kubewalk (or ~/.cache/kubewalk), ""
// when neither is set: then a command that needs the cache says to give
// --cache-dir, rather than using a predictable name in the shared /tmp,
// which another local user could create first.
func defaultCacheDir() string {
	d, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(d, "kubewalk")
}

func (g *globals) setup() error {
	level := slog.LevelInfo
	switch {
	case g.quiet:
		level = slog.LevelError
	case g.verbose > 0:
		level = slog.LevelDebug
	}
	g.log = slog.New(slog.NewTextHandler(g.stderr, &slog.HandlerOptions{
		Level: level,
		ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey && len(groups) == 0 {
				return slog.Attr{} // timestamps make logs noisy and tests flaky
			}
			return a
		},
	}))
	return nil
}

// progress returns the writer long work reports progress to: stderr when it
// is a terminal and --quiet is off, else nil (silent).
func (g *globals) progress() io.Writer {
	if g.quiet {
		return nil
	}
	if f, ok := g.stderr.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		return f
	}
	return nil
}

// logf adapts the logger to the Logf hooks of the library packages.
func (g *globals) logf(format string, args ...any) {
	g.log.Debug(fmt.Sprintf(format, args...))
}
