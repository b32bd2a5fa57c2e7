package main

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/kubewalk/kubewalk/cmd/kubewalk/internal/pipeline"
	"github.com/kubewalk/kubewalk/internal/derive/explain"
	"github.com/kubewalk/kubewalk/record"
	"github.com/kubewalk/kubewalk/source"
	"github.com/spf13/cobra"
)

// newRecordCmd is the record command: mostly its help text and flags,
// kept beside the RunE that uses them, as every command's.
func newRecordCmd(g *globals) *cobra.Command {
	var sf sourceFlags
	var output, scenario string
	var timeout time.Duration
	var keep, cached, coverage bool
	var keepIn string
	c := &cobra.Command{
		Use:   "record",
		Short: "Run the release's own control plane on 127.0.0.1 and record what a scenario makes it do",
		Long: `Record builds the release's own kube-apiserver, kube-controller-manager,
kube-scheduler, kubectl, a hollow kubelet (the release's kubelet code over its
fake CRI runtime) and etcd from the fetched tree, starts them as separate
processes on 127.0.0.1, applies the scenario with the release's kubectl, and
records every event, every audit entry of a write or a watch, and the etcd keys
of the scenario's objects. Each recorded item is then attributed to the code
that emitted or made it, and to the walkthrough step that explains it.

The service scenario also runs the release's kube-proxy (nftables mode), in a
network namespace the run makes and that ends with it, and keeps the rules it
wrote (nft list ruleset): it needs root and nft (Debian: nftables).

The recording is saved in the cache, keyed by release and scenario; build uses
it for the site's Observed panels and Recorded run page.

Cost: the first record of a release builds the programs, about 10 minutes on
2 cores with an empty Go build cache and 2.4 GB of memory; they are cached per
release and Go version, and a second record builds nothing. A run with built
programs takes about a minute. Every process it starts ends when it returns,
also on an error or Ctrl-C, and its temporary directory is removed.

Scenarios:
` + scenarioHelp(),
		Example: `  # Record the deployment scenario at the default release
  kubewalk record --source goproxy

  # The recording made earlier, attributed again (after editing walkthroughs)
  kubewalk record --source goproxy --cached

  # An older release, as JSON
  kubewalk record --source goproxy --tag v1.31.0 -o json > v1.31.0.json`,
		RunE: func(cmd *cobra.Command, args []string) error {
			switch output {
			case "text", "json":
			default:
				return &usageError{cmd: cmd.CommandPath(), err: fmt.Errorf("-o %q: want text or json", output)}
			}
			// A misspelt scenario is a usage error at once, before
			// minutes of fetching and building.
			if !slices.Contains(record.ScenarioNames(), scenario) {
				return &usageError{cmd: cmd.CommandPath(), err: fmt.Errorf("--scenario %q: want one of %s", scenario, strings.Join(record.ScenarioNames(), ", "))}
			}
			ctx := cmd.Context()
			// The run's lines name their scenario: several records at once
			// (make recordings) write to one terminal.
			log := g.log.With("scenario", scenario)
			logf := func(format string, args ...any) { log.Info(fmt.Sprintf(format, args...)) }
			var rec *record.Recording
			if cached {
				var err error
				if rec, err = record.Cached(g.cacheDir, sf.tag, scenario); err != nil {
					return err
				}
				if rec == nil {
					return fmt.Errorf("no recording of %s (scenario %s) in %s: run kubewalk record without --cached first", sf.tag, scenario, g.cacheDir)
				}
			} else {
				var err error
				if rec, err = recordReleaseWith(ctx, g, sf.options(g, sf.tag), coverage, record.RunOptions{Scenario: scenario, Timeout: timeout, Logf: logf, KeepDir: keep}); err != nil {
					return err
				}
			}
			if keepIn != "" {
				name, err := record.SaveKept(keepIn, rec)
				if err != nil {
					return err
				}
				logf("kept the recording as %s", name)
			}
			at, err := attribute(cmd.Context(), g, sf, rec)
			if err != nil {
				return err
			}
			if output == "json" {
				return writeJSON(g.stdout, struct {
					*record.Recording
					Attribution *explain.Attribution `json:"attribution"`
				}{rec, at})
			}
			return writeRecordingText(g, rec, at)
		},
	}
	sf.register(c.Flags())
	c.Flags().StringVarP(&output, "output", "o", "text", "output format: text (a timeline) or json (the recording)")
	c.Flags().StringVar(&scenario, "scenario", "deployment", "what to run: "+strings.Join(record.ScenarioNames(), ", "))
	c.Flags().DurationVar(&timeout, "timeout", 3*time.Minute, "how long the scenario may take from the apply until its pods run")
	c.Flags().BoolVar(&keep, "keep", false, "keep the run directory (component logs, certificates, the audit log) and print where it is")
	c.Flags().BoolVar(&coverage, "coverage", true, "build the programs with coverage counters and record which code ran in each phase of the scenario (--coverage=false: the plain programs, no coverage)")
	c.Flags().StringVar(&keepIn, "keep-in", "", "also write the recording, compressed, as `DIR`/<tag>/<scenario>.json.zst, as the walkthroughs keep theirs (make recordings: --keep-in walkthroughs/recordings)")
	c.Flags().BoolVar(&cached, "cached", false, "show the recording made earlier for the release, attributed again, without building or running anything")
	completeFlags(c, map[string][]cobra.Completion{"output": {"text", "json"}, "scenario": record.ScenarioNames()})
	return c
}

// recordRelease records as kubewalk record does by default, with coverage.
func recordRelease(ctx context.Context, g *globals, opts source.Options, ro record.RunOptions) (*record.Recording, error) {
	return recordReleaseWith(ctx, g, opts, true, ro)
}

// kubemarkTree fetches the release the hollow node of a release without
// one comes from: the newest patch of record.LastKubemark the module
// proxy serves.
func kubemarkTree(ctx context.Context, g *globals, opts source.Options) (*source.Tree, error) {
	releases, err := source.Releases(ctx, opts)
	if err != nil {
		return nil, err
	}
	tags, err := source.ExpandRange(record.LastKubemark+".."+record.LastKubemark, releases)
	if err != nil {
		return nil, fmt.Errorf("%s has no hollow node (Kubernetes removed kubemark in v1.38), and the one of %s cannot be found: %w", opts.Tag, record.LastKubemark, err)
	}
	km := opts
	km.Tag = tags[len(tags)-1]
	g.log.Info("the release has no hollow node (kubemark left Kubernetes in v1.38): the recorded run's hollow kubelet is the release's kubelet in the hollow node of "+km.Tag, "tag", opts.Tag)
	return source.Fetch(ctx, km)
}

// recordReleaseWith fetches the release, builds its programs (with
// coverage counters or not; either is cached), runs the scenario and saves
// the recording in the cache, where build finds it.
func recordReleaseWith(ctx context.Context, g *globals, opts source.Options, coverage bool, ro record.RunOptions) (*record.Recording, error) {
	tree, err := source.Fetch(ctx, opts)
	if err != nil {
		return nil, err
	}
	bo := record.BuildOptions{CacheDir: g.cacheDir, Coverage: coverage, Logf: ro.Logf}
	if !record.HasKubemark(tree) {
		if bo.Kubemark, err = kubemarkTree(ctx, g, opts); err != nil {
			return nil, err
		}
	}
	if coverage {
		if bo.CoverRoots, err = coverRoots(ctx, g, opts); err != nil {
			return nil, err
		}
	}
	bins, err := record.Build(ctx, tree, bo)
	if err != nil {
		return nil, err
	}
	rec, err := record.Run(ctx, bins, ro)
	if err != nil {
		return nil, err
	}
	name, err := record.Save(g.cacheDir, rec)
	if err != nil {
		return nil, err
	}
	ro.Logf("saved the recording to %s", name)
	return rec, nil
}

// coverRoots are the packages a coverage build counts: those whose code
// the site shows and list coverage lists, the analyzer's roots and the
// walkthroughs' packages (pipeline.Roots) and the packages of the
// release's facts' files (record.CoverRoots). Every other package is
// built as in the plain programs.
func coverRoots(ctx context.Context, g *globals, opts source.Options) ([]string, error) {
	sets, err := pipeline.Sets("", false)
	if err != nil {
		return nil, err
	}
	roots, err := pipeline.Roots(sets)
	if err != nil {
		return nil, err
	}
	rel, err := pipeline.Open(ctx, opts, sets, g.logf)
	if err != nil {
		return nil, err
	}
	return record.CoverRoots(roots, rel.Result.Facts()), nil
}

func scenarioHelp() string {
	var b strings.Builder
	w := 0
	for _, s := range record.Scenarios {
		w = max(w, len(s.Name))
	}
	for _, s := range record.Scenarios {
		fmt.Fprintf(&b, "  %-*s  %s\n", w, s.Name, s.Doc)
	}
	return strings.TrimRight(b.String(), "\n")
}

// attribute explains every item of rec by the facts and built-in
// walkthroughs of its release.
func attribute(ctx context.Context, g *globals, sf sourceFlags, rec *record.Recording) (*explain.Attribution, error) {
	sets, err := pipeline.Sets("", false)
	if err != nil {
		return nil, err
	}
	rel, err := pipeline.Open(ctx, sf.options(g, rec.Tag), sets, g.logf)
	if err != nil {
		return nil, err
	}
	docs, err := pipeline.Docs(rel, sets, "en")
	if err != nil {
		g.log.Warn("walkthroughs not loaded; no steps shown", "err", err)
		docs = nil
	}
	return explain.New(rel.Result.Facts(), docs, explain.Options{Permalink: rel.Tree.Permalink}).Attribute(rec), nil
}

// writeRecordingText prints what the scenario did, from the apply on, each
// item with the code and step it is attributed to.
func writeRecordingText(g *globals, rec *record.Recording, at *explain.Attribution) error {
	w := g.stdout
	fmt.Fprintf(w, "%s, scenario %s\n\ncomponents:\n", rec.Tag, rec.Scenario)
	for _, c := range rec.Components {
		fmt.Fprintf(w, "  %-24s ready in %5d ms  %s\n", c.Name, c.ReadyMillis, c.Version)
	}
	var unattributed []string
	fmt.Fprintln(w, "\naudited writes of the scenario:")
	for _, a := range at.Audit {
		if !a.Scenario {
			continue
		}
		res := a.Resource
		if a.Subresource != "" {
			res += "/" + a.Subresource
		}
		line := fmt.Sprintf("%+7d ms  %-7s %-22s %-40s %s", a.At, a.Verb, res, a.Name, a.User)
		fmt.Fprintf(w, "  %s\n%s", line, attributionText(a.Explanation))
		if !a.Explanation.Explained {
			unattributed = append(unattributed, line)
		}
	}
	fmt.Fprintln(w, "\nevents of the scenario:")
	for _, e := range at.Events {
		if !e.Scenario {
			continue
		}
		line := fmt.Sprintf("%+7d ms  %-7s %-18s %s/%s  %s", e.At, e.Type, e.Reason, strings.ToLower(e.Object.Kind), e.Object.Name, e.Message)
		fmt.Fprintf(w, "  %s\n%s", line, attributionText(e.Explanation))
		if !e.Explanation.Explained {
			unattributed = append(unattributed, line)
		}
	}
	fmt.Fprintln(w, "\netcd keys:")
	for _, k := range rec.Keys {
		revs := ""
		switch n := len(k.Revisions); {
		case n == 1:
			revs = "  1 revision"
		case n > 1:
			revs = fmt.Sprintf("  %d revisions", n)
		}
		if k.Deleted {
			revs += ", deleted"
		}
		fmt.Fprintf(w, "  %-70s %6d bytes  %s %s %s%s\n", k.Key, k.Size, k.Encoding, k.APIVersion, k.Kind, revs)
	}
	if len(rec.Keys) > 0 {
		fmt.Fprintln(w, "  (their values, revision by revision, are in -o json and on the site's Recorded run page)")
	}
	if r := rec.Rules; r != nil {
		fmt.Fprintf(w, "\nrules kube-proxy wrote (--proxy-mode=%s; %s in the run's network namespace):\n", r.Mode, r.Command)
		for _, l := range strings.Split(strings.TrimRight(r.Text, "\n"), "\n") {
			fmt.Fprintf(w, "  %s\n", l)
		}
	}
	for _, n := range rec.NotObserved {
		fmt.Fprintf(w, "\nnot observed: %s\n", n)
	}
	if len(unattributed) > 0 {
		fmt.Fprintf(w, "\nnot attributed to code (%d):\n", len(unattributed))
		for _, l := range unattributed {
			fmt.Fprintf(w, "  %s\n", l)
		}
	}
	return nil
}

// attributionText is the code and the step an item is attributed to, as
// indented lines.
func attributionText(ex explain.Explanation) string {
	var b strings.Builder
	for i, c := range ex.Code {
		if i == 2 {
			fmt.Fprintf(&b, "               … %d more\n", len(ex.Code)-i)
			break
		}
		fmt.Fprintf(&b, "               %s %s (%s)\n", c.Role, c.Symbol, c.Where())
	}
	if len(ex.Steps) > 0 {
		s := ex.Steps[0]
		fmt.Fprintf(&b, "               step: %s › %s\n", s.Title, s.StepTitle)
	}
	if !ex.Explained {
		fmt.Fprintf(&b, "               not attributed: %s\n", ex.Note)
	}
	return b.String()
}
