package main

import (
	"fmt"
	"io"
	"os"

	"github.com/kubewalk/kubewalk/internal/explain"
	"github.com/kubewalk/kubewalk/internal/pipeline"
	"github.com/kubewalk/kubewalk/site"
	"github.com/kubewalk/kubewalk/walkthrough"
	"github.com/spf13/cobra"
)

func newExplainCmd(g *globals) *cobra.Command {
	var (
		sf        sourceFlags
		output    string
		userDir   string
		noBuiltin bool
		lang      string
	)
	c := &cobra.Command{
		Use:   "explain [FILE|-]",
		Short: "Explain kubectl events or API server audit lines by the code that produced them",
		Long: `Explain reads what a cluster printed and, for each line, names the component
that reported it, the code that emitted or handled it (file:line and the
permalink at the tag) and the walkthrough step that explains it. Lines it
cannot explain are listed as such, never dropped.

The input (FILE, or standard input when FILE is "-" or missing) is detected
by its shape, line by line:

  kubectl get events [--watch] [-A] [-o wide]   any column layout, with or
                                                without the header
  kubectl get events -o json                    a v1 EventList or single events
  API server audit log lines                    JSON, one audit event a line
                                                (verb, requestURI, objectRef,
                                                user.username, userAgent), or
                                                "key: value" field blocks as
                                                CloudWatch Logs Insights prints them

An event is matched by its reason to the recorder calls that record it,
ranked by the reporting component (or the controller its object's kind
implies) and by the message format. An audit record is matched by verb,
resource and subresource to typed-client writes, narrowed by the user name
or user agent (system:serviceaccount:kube-system:deployment-controller is
pkg/controller/deployment), and lists the informer handlers the write
reaches.`,
		Example: `  # The events of a rollout, as they happen
  kubectl get events --watch | kubewalk explain --source goproxy

  # A saved event list, as JSON for scripts
  kubectl get events -A -o json > events.json
  kubewalk explain events.json -o json | jq '.[] | select(.explained | not)'

  # API server audit log lines
  kubewalk explain --tag v1.31.0 /var/log/kubernetes/audit.log`,
		// FILE completes to file names: cobra's default.
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			switch output {
			case "table", "json":
			default:
				return &usageError{cmd: cmd.CommandPath(), err: fmt.Errorf("-o %q: want table or json", output)}
			}
			if err := checkLang(cmd, lang); err != nil {
				return err
			}
			sets, err := pipeline.Sets(userDir, noBuiltin)
			if err != nil {
				return &usageError{cmd: cmd.CommandPath(), err: err}
			}
			input, err := readInput(g, args)
			if err != nil {
				return err
			}
			recs := explain.Parse(input)
			rel, err := pipeline.Open(cmd.Context(), sf.options(g, sf.tag), sets, g.logf)
			if err != nil {
				return err
			}
			docs, err := pipeline.Docs(rel, sets, lang, walkthrough.Options{SymbolURL: site.SymbolURL, Permalink: rel.Tree.Permalink})
			if err != nil {
				// Steps are a bonus: explain the lines without them rather
				// than not at all, and say why.
				g.log.Warn("walkthroughs not loaded; no steps shown", "err", err)
				docs = nil
			}
			x := explain.New(rel.Result.Facts(), docs, explain.Options{Permalink: rel.Tree.Permalink})
			exs := x.Explain(recs)
			if output == "json" {
				if exs == nil {
					exs = []explain.Explanation{}
				}
				return writeJSON(g.stdout, exs)
			}
			return explain.WriteText(g.stdout, exs)
		},
	}
	f := c.Flags()
	sf.register(f)
	f.StringVarP(&output, "output", "o", "table", "output format: table or json")
	f.StringVar(&userDir, "walkthroughs", "", "directory of walkthrough Markdown files besides the built-in ones")
	f.BoolVar(&noBuiltin, "no-builtin", false, "leave the built-in walkthroughs out")
	f.StringVar(&lang, "lang", "en", "language of the walkthrough steps named: en or ko")
	completeFlags(c, map[string][]cobra.Completion{"output": {"table", "json"}})
	return c
}

// readInput reads FILE, or standard input for "-" or no argument.
func readInput(g *globals, args []string) ([]byte, error) {
	if len(args) == 0 || args[0] == "-" {
		return io.ReadAll(g.stdin)
	}
	return os.ReadFile(args[0])
}

// checkLang is the --lang check of every command that takes it.
func checkLang(cmd *cobra.Command, lang string) error {
	if lang != "en" && lang != "ko" {
		return &usageError{cmd: cmd.CommandPath(), err: fmt.Errorf("--lang %q: want en or ko", lang)}
	}
	return nil
}
