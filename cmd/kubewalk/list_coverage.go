package main

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/internal/app/pipeline"
	"github.com/kubewalk/kubewalk/internal/derive/coverage"
	"github.com/kubewalk/kubewalk/record"
	"github.com/spf13/cobra"
)

func newListCoverageCmd(g *globals) *cobra.Command {
	var (
		sf                            sourceFlags
		output, scenario, phase, prog string
		all                           bool
	)
	c := &cobra.Command{
		Use:   "coverage [SYMBOL]...",
		Short: "List the functions that ran in the recorded runs, per scenario, phase and program",
		Long: `List coverage prints, for the functions of the analysed code, how many
times each was entered in the release's recorded runs (kubewalk record, or the
recordings kept with the walkthroughs): per scenario, per phase of the
scenario (startup; then per step the moments kubectl returned, the
ReplicaSet, the pods, their binding and Running were observed; quiet) and per
program. A count is that of the function's entry block.

Without SYMBOL it lists the functions that ran. A SYMBOL narrows the list to
functions whose name contains it, and shows those that did not run too (with
0), as does --all. A phase is observed some milliseconds after the request
that ends it, so a phase may hold the first calls of the next.`,
		Example: `  # The deployment controller's functions that ran while the ReplicaSet was made
  kubewalk list coverage --source goproxy --scenario deployment --phase apply/replicaset deployment.DeploymentController

  # Did getNewReplicaSet and rollback run, and where?
  kubewalk list coverage getNewReplicaSet DeploymentController.rollback

  # Everything the scheduler entered during a rollout, as JSON
  kubewalk list coverage --scenario rollout --program kube-scheduler -o json`,
		RunE: func(cmd *cobra.Command, args []string) error {
			usage := func(err error) error { return &usageError{cmd: cmd.CommandPath(), err: err} }
			switch output {
			case "table", "json":
			default:
				return usage(fmt.Errorf("-o %q: want table or json", output))
			}
			if scenario != "" && !slices.Contains(record.ScenarioNames(), scenario) {
				return usage(fmt.Errorf("--scenario %q: want one of %s", scenario, strings.Join(record.ScenarioNames(), ", ")))
			}
			if prog != "" && !slices.Contains(record.Programs, prog) {
				return usage(fmt.Errorf("--program %q: want one of %s", prog, strings.Join(record.Programs, ", ")))
			}
			sets, err := pipeline.Sets("", false)
			if err != nil {
				return err
			}
			rel, err := pipeline.Open(cmd.Context(), sf.options(g, sf.tag), sets, g.logf)
			if err != nil {
				return err
			}
			idx, phases := coverageIndexes(rel.Recordings, scenario)
			if len(idx) == 0 {
				return fmt.Errorf("no recording of %s%s carries coverage: run kubewalk record --tag %s%s first", sf.tag, scenarioSuffix(scenario), sf.tag, scenarioFlag(scenario))
			}
			if phase != "" && !slices.ContainsFunc(phases, func(p string) bool { return p == phase || strings.HasPrefix(p, phase+"/") }) {
				return usage(fmt.Errorf("--phase %q: the recordings' phases are %s (a step's name picks its phases)", phase, strings.Join(phases, ", ")))
			}
			fns := selectFunctions(coverage.Functions(rel.Result.Symbols, idx, coverage.Filter{Phase: phase, Program: prog}), args, all)
			if output == "json" {
				return writeJSON(g.stdout, fns)
			}
			return coverageTable(g.stdout, fns)
		},
	}
	f := c.Flags()
	sf.register(f)
	f.StringVarP(&output, "output", "o", "table", "output format: table or json")
	f.StringVar(&scenario, "scenario", "", "the recorded scenario to read (default all that carry coverage): "+strings.Join(record.ScenarioNames(), ", "))
	f.StringVar(&phase, "phase", "", `a phase ("apply/replicaset") or a step ("apply": all its phases); default all`)
	f.StringVar(&prog, "program", "", "one program's counts (default all): "+strings.Join(record.Programs, ", "))
	f.BoolVar(&all, "all", false, "list the counted functions that did not run too")
	completeFlags(c, map[string][]cobra.Completion{"output": {"table", "json"}, "scenario": record.ScenarioNames(), "program": record.Programs})
	return c
}

func scenarioSuffix(s string) string {
	if s == "" {
		return ""
	}
	return " (scenario " + s + ")"
}

func scenarioFlag(s string) string {
	if s == "" {
		return ""
	}
	return " --scenario " + s
}

// coverageIndexes indexes the recordings that carry coverage, of one
// scenario or all, and returns the names of their phases, each once in
// the order first met.
func coverageIndexes(recs []*record.Recording, scenario string) ([]*coverage.Index, []string) {
	var idx []*coverage.Index
	var phases []string
	for _, r := range recs {
		if scenario != "" && r.Scenario != scenario {
			continue
		}
		x := coverage.New(r)
		if x == nil {
			continue
		}
		idx = append(idx, x)
		for _, p := range x.Phases() {
			if !slices.Contains(phases, p) {
				phases = append(phases, p)
			}
		}
	}
	return idx, phases
}

// selectFunctions keeps the functions whose symbol contains one of
// names, or, with no names, those that ran (all of them with all).
func selectFunctions(fns []coverage.Function, names []string, all bool) []coverage.Function {
	out := []coverage.Function{}
	for _, fn := range fns {
		switch {
		case len(names) > 0:
			if !slices.ContainsFunc(names, func(n string) bool { return strings.Contains(fn.Symbol, n) }) {
				continue
			}
		case !all && len(fn.Runs) == 0:
			continue
		}
		out = append(out, fn)
	}
	return out
}

// coverageTable prints a row per function, scenario, phase and program
// in which it ran, and a row with 0 for a function that ran in none.
func coverageTable(w io.Writer, fns []coverage.Function) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "FUNCTION\tAT\tSCENARIO\tPHASE\tPROGRAM\tENTERED")
	for _, fn := range fns {
		name, where := fact.ReadableSymbol(fn.Symbol), fmt.Sprintf("%s:%d", fn.Path, fn.Start)
		if len(fn.Runs) == 0 {
			fmt.Fprintf(tw, "%s\t%s\t%s\t-\t-\t0\n", name, where, strings.Join(fn.Counted, ","))
			continue
		}
		for _, r := range fn.Runs {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", name, where, r.Scenario, r.Phase, r.Program, strconv.FormatInt(r.Count, 10))
		}
	}
	return tw.Flush()
}
