package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/kubewalk/kubewalk/internal/app/pipeline"
	"github.com/kubewalk/kubewalk/internal/derive/explain"
	"github.com/kubewalk/kubewalk/record"
	"github.com/kubewalk/kubewalk/source"
	"github.com/spf13/cobra"
)

// explainFlags are explain's command line.
type explainFlags struct {
	sf        sourceFlags
	output    string
	userDir   string
	noBuiltin bool
	lang      string
	// recording and audit name a whole run to attribute instead of
	// pasted lines.
	recording string
	audit     string
}

func newExplainCmd(g *globals) *cobra.Command {
	var f explainFlags
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
resource and subresource to the client writes (typed clients, the REST
client, resource.Helper), narrowed by the user name or user agent
(system:serviceaccount:kube-system:deployment-controller is
pkg/controller/deployment), and lists the informer handlers the write
reaches.

With --audit FILE (an API server audit log, one JSON event a line) or
--recording FILE (a recording from kubewalk record), explain attributes the
whole run as the site's Recorded run page does: every write, event and
watch, start-up included; a watch names the informers and list-watches that
opened it, its selectors and the parameters client-go added. Each request is
taken once (a watch when it started, a write or list when it completed; gets
are left out). The
output closes with "N of M items attributed; K listed as not attributable,
with reasons", and every item not attributed says why.`,
		Example: `  # The events of a rollout, as they happen
  kubectl get events --watch | kubewalk explain --source goproxy

  # A saved event list, as JSON for scripts
  kubectl get events -A -o json > events.json
  kubewalk explain events.json -o json | jq '.[] | select(.explained | not)'

  # API server audit log lines
  kubewalk explain --tag v1.31.0 /var/log/kubernetes/audit.log

  # A whole audit log, watches and start-up included, with the count of
  # what was attributed
  kubewalk explain --tag v1.31.0 --audit /var/log/kubernetes/audit.log

  # A recording made by kubewalk record (its own release unless --tag)
  kubewalk explain --recording deployment.json -o json | jq .summary`,
		// FILE completes to file names: cobra's default.
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return f.run(cmd, g, args)
		},
	}
	fl := c.Flags()
	f.sf.register(fl)
	fl.StringVarP(&f.output, "output", "o", "table", "output format: table or json")
	fl.StringVar(&f.userDir, "walkthroughs", "", "directory of walkthrough Markdown files besides the built-in ones")
	fl.BoolVar(&f.noBuiltin, "no-builtin", false, "leave the built-in walkthroughs out")
	fl.StringVar(&f.lang, "lang", "en", "language of the walkthrough steps named: en or ko")
	fl.StringVar(&f.recording, "recording", "", "attribute a whole recording (kubewalk record's JSON) instead of FILE")
	fl.StringVar(&f.audit, "audit", "", "attribute a whole API server audit log (JSON lines) instead of FILE")
	completeFlags(c, map[string][]cobra.Completion{"output": {"table", "json"}})
	return c
}

// run explains the input a record at a time.
func (f *explainFlags) run(cmd *cobra.Command, g *globals, args []string) error {
	switch f.output {
	case "table", "json":
	default:
		return &usageError{cmd: cmd.CommandPath(), err: fmt.Errorf("-o %q: want table or json", f.output)}
	}
	if err := checkLang(cmd, f.lang); err != nil {
		return err
	}
	sets, err := pipeline.Sets(f.userDir, f.noBuiltin)
	if err != nil {
		return &usageError{cmd: cmd.CommandPath(), err: err}
	}
	if f.recording != "" && f.audit != "" {
		return &usageError{cmd: cmd.CommandPath(), err: fmt.Errorf("--recording with --audit: give one input")}
	}
	if f.recording != "" || f.audit != "" {
		if len(args) > 0 {
			return &usageError{cmd: cmd.CommandPath(), err: fmt.Errorf("FILE %q with --recording or --audit: give one input", args[0])}
		}
		return f.runWhole(cmd, g, sets)
	}
	// Opened first, so a FILE that is not there fails before the
	// release is fetched; read only once the release is ready, a line
	// at a time: the input may be a --watch that never ends.
	in, err := openInput(cmd.Context(), g, args)
	if err != nil {
		return err
	}
	defer in.Close()
	x, err := openExplainer(cmd.Context(), g, f.sf.options(g, f.sf.tag), sets, f.lang)
	if err != nil {
		return err
	}
	var out explanationWriter = explain.NewTextWriter(g.stdout)
	if f.output == "json" {
		out = &jsonArrayWriter{w: g.stdout}
	}
	err = explain.Stream(in, func(r explain.Record) error { return out.Write(x.One(r)) })
	// Closed whatever happened: a JSON array stays valid JSON.
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return err
}

// runWhole attributes a whole recording or audit log. A recording is of
// its own release unless --tag says otherwise.
func (f *explainFlags) runWhole(cmd *cobra.Command, g *globals, sets []pipeline.WalkSet) error {
	rec, err := f.wholeInput()
	if err != nil {
		return err
	}
	tag := f.sf.tag
	if f.recording != "" && !cmd.Flags().Changed("tag") {
		tag = rec.Tag
	}
	x, err := openExplainer(cmd.Context(), g, f.sf.options(g, tag), sets, f.lang)
	if err != nil {
		return err
	}
	at := x.Attribute(rec)
	if f.output == "json" {
		return writeJSON(g.stdout, at)
	}
	return explain.WriteAttribution(g.stdout, at)
}

// wholeInput reads --recording or --audit, before the release is opened:
// a file that is not there or not one fails at once.
func (f *explainFlags) wholeInput() (*record.Recording, error) {
	if f.recording != "" {
		return record.Load(f.recording)
	}
	in, err := os.Open(f.audit)
	if err != nil {
		return nil, err
	}
	defer in.Close()
	entries, err := explain.ReadAuditLog(in)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.audit, err)
	}
	return &record.Recording{Format: record.Format, Tag: f.sf.tag, Audit: entries}, nil
}

// openInput opens FILE, or standard input for "-" or no argument, for
// reading until ctx is done. A read of standard input cannot be
// interrupted, so reads happen in a goroutine that ctx's end abandons:
// Ctrl-C ends explain at once, even while kubectl is quiet.
func openInput(ctx context.Context, g *globals, args []string) (io.ReadCloser, error) {
	var r io.Reader = g.stdin
	var closeFile func() error
	if len(args) > 0 && args[0] != "-" {
		f, err := os.Open(args[0])
		if err != nil {
			return nil, err
		}
		r, closeFile = f, f.Close
	}
	pr, pw := io.Pipe()
	stop := context.AfterFunc(ctx, func() { pw.CloseWithError(ctx.Err()) })
	go func() {
		_, err := io.Copy(pw, r)
		stop()
		pw.CloseWithError(err) // nil: io.EOF for the reader
	}()
	return readCloser{pr, func() error {
		stop()
		pr.Close() // a copy still running ends at its next write
		if closeFile != nil {
			return closeFile()
		}
		return nil
	}}, nil
}

type readCloser struct {
	io.Reader
	close func() error
}

func (r readCloser) Close() error { return r.close() }

// explanationWriter is explain's output, written one explanation at a
// time.
type explanationWriter interface {
	Write(explain.Explanation) error
	Close() error
}

// jsonArrayWriter writes explanations as one JSON array, element by
// element as they come, in writeJSON's layout: the same bytes as writeJSON
// of the whole slice.
type jsonArrayWriter struct {
	w io.Writer
	n int
}

func (j *jsonArrayWriter) Write(ex explain.Explanation) error {
	var b bytes.Buffer
	b.WriteString(",\n  ")
	if j.n == 0 {
		b.Reset()
		b.WriteString("[\n  ")
	}
	enc := json.NewEncoder(&b)
	enc.SetIndent("  ", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(ex); err != nil {
		return err
	}
	b.Truncate(b.Len() - 1) // Encode's newline: the separator comes next
	j.n++
	_, err := j.w.Write(b.Bytes())
	return err
}

func (j *jsonArrayWriter) Close() error {
	end := "\n]\n"
	if j.n == 0 {
		end = "[]\n"
	}
	_, err := io.WriteString(j.w, end)
	return err
}

// checkLang is the --lang check of every command that takes it.
// openExplainer opens the release and its walkthroughs in lang and returns
// their Explainer, for explain and record.
func openExplainer(ctx context.Context, g *globals, opts source.Options, sets []pipeline.WalkSet, lang string) (*explain.Explainer, error) {
	rel, err := pipeline.Open(ctx, opts, sets, g.logf)
	if err != nil {
		return nil, err
	}
	docs, err := pipeline.Docs(rel, sets, lang)
	if err != nil {
		// Steps are a bonus: explain without them rather than not at
		// all, and say why.
		g.log.Warn("walkthroughs not loaded; no steps shown", "err", err)
		docs = nil
	}
	return explain.New(rel.Result.Facts(), docs, explain.Options{Permalink: rel.Tree.Permalink}), nil
}

func checkLang(cmd *cobra.Command, lang string) error {
	if lang != "en" && lang != "ko" {
		return &usageError{cmd: cmd.CommandPath(), err: fmt.Errorf("--lang %q: want en or ko", lang)}
	}
	return nil
}
