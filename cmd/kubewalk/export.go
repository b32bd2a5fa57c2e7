package main

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"unicode/utf8"

	"github.com/kubewalk/kubewalk/internal/app/codetour"
	"github.com/kubewalk/kubewalk/internal/app/pipeline"
	"github.com/spf13/cobra"
)

func newExportCmd(g *globals) *cobra.Command {
	c := &cobra.Command{
		Use:     "export codetour",
		Short:   "Export the walkthroughs to other formats",
		Long:    `Export writes the walkthroughs, resolved at a release, in formats other tools play.`,
		Example: `  kubewalk export codetour --source goproxy --out ./kubernetes/.tours`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return cmd.Help()
		},
	}
	c.AddCommand(newExportCodeTourCmd(g))
	return c
}

// codetourFlags are export codetour's flags.
type codetourFlags struct {
	sf        sourceFlags
	out       string
	userDir   string
	noBuiltin bool
	lang      string
}

func newExportCodeTourCmd(g *globals) *cobra.Command {
	var cf codetourFlags
	c := &cobra.Command{
		Use:   "codetour --out DIR",
		Short: "Write one CodeTour .tour file per walkthrough",
		Long: `Codetour writes one CodeTour (https://github.com/microsoft/codetour) tour per
walkthrough into --out: <id>.tour (<id>.<lang>.tour for --lang ko), with
"ref" set to the tag. Each walkthrough step becomes a tour step at the lines
of its first excerpt (selected) or its first reference; each further excerpt
a step of its own. Descriptions keep the walkthrough's Markdown, with
references turned into GitHub permalinks at the tag.

Put the tours in the .tours directory of a Kubernetes checkout of the same
tag and open it in an editor with the CodeTour extension. CodeTour anchors
steps by line: export again for another release.

Files are written atomically (temporary file, then rename) and their
content depends only on the walkthroughs and the release, so re-exporting
an unchanged release rewrites identical files.`,
		Example: `  git clone --depth 1 --branch v1.36.3 https://github.com/kubernetes/kubernetes
  kubewalk export codetour --source kubernetes --tag v1.36.3 --out kubernetes/.tours

  kubewalk export codetour --source goproxy --walkthroughs ./mine --no-builtin --out tours`,
		Args: func(cmd *cobra.Command, args []string) error {
			if err := cobra.NoArgs(cmd, args); err != nil {
				return &usageError{cmd: cmd.CommandPath(), err: err}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error { return runExportCodeTour(cmd, g, &cf) },
	}
	f := c.Flags()
	cf.sf.register(f)
	f.StringVar(&cf.out, "out", "", "directory to write the .tour files into (created if missing)")
	f.StringVar(&cf.userDir, "walkthroughs", "", "directory of walkthrough Markdown files to add to the built-in ones (same ID replaces a built-in)")
	f.BoolVar(&cf.noBuiltin, "no-builtin", false, "leave the built-in walkthroughs out")
	f.StringVar(&cf.lang, "lang", "en", "language of the walkthroughs: en or ko")
	completeFlags(c, nil)
	return c
}

// runExportCodeTour writes a .tour file per walkthrough into cf.out.
func runExportCodeTour(cmd *cobra.Command, g *globals, cf *codetourFlags) error {
	if cf.out == "" {
		return &usageError{cmd: cmd.CommandPath(), err: errors.New("--out DIR is required")}
	}
	if err := checkLang(cmd, cf.lang); err != nil {
		return err
	}
	sets, err := pipeline.Sets(cf.userDir, cf.noBuiltin)
	if err != nil {
		return &usageError{cmd: cmd.CommandPath(), err: err}
	}
	rel, err := pipeline.Open(cmd.Context(), cf.sf.options(g, cf.sf.tag), sets, g.logf)
	if err != nil {
		return err
	}
	docs, err := pipeline.Docs(rel, sets, cf.lang)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(cf.out, 0o755); err != nil {
		return err
	}
	lines := lineLengths(rel.Tree.Dir)
	opts := codetour.Options{
		Tag:       rel.Tree.Tag,
		Markdown:  markdownOf(sets),
		Permalink: rel.Tree.Permalink,
		LineLen:   lines,
	}
	for _, d := range docs {
		name := filepath.Join(cf.out, codetour.FileName(d))
		t := codetour.FromDoc(d, opts)
		if err := codetour.WriteFile(name, t); err != nil {
			return err
		}
		if !g.quiet {
			fmt.Fprintf(g.stderr, "wrote %s (%d steps)\n", name, len(t.Steps))
		}
	}
	return nil
}

// markdownOf returns the source of a walkthrough file: from the last set
// holding it, as pipeline.Docs lets a later set's walkthrough replace an
// earlier one of the same ID.
func markdownOf(sets []pipeline.WalkSet) func(file string) ([]byte, error) {
	return func(file string) ([]byte, error) {
		for i := len(sets) - 1; i >= 0; i-- {
			b, err := fs.ReadFile(sets[i].FS, path.Join(sets[i].Dir, file))
			if err == nil {
				return b, nil
			}
		}
		return nil, fs.ErrNotExist
	}
}

// lineLengths returns the length in characters of a line of a tree file,
// reading each file once.
func lineLengths(root string) func(p string, line int) int {
	cache := map[string][][]byte{}
	return func(p string, line int) int {
		ls, ok := cache[p]
		if !ok {
			b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
			if err == nil {
				ls = bytes.Split(b, []byte("\n"))
			}
			cache[p] = ls
		}
		if line < 1 || line > len(ls) {
			return -1
		}
		return utf8.RuneCount(bytes.TrimSuffix(ls[line-1], []byte("\r")))
	}
}
