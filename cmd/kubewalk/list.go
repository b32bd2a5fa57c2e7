package main

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/cmd/kubewalk/internal/pipeline"
	"github.com/kubewalk/kubewalk/walkthrough"
	"github.com/spf13/cobra"
	"sigs.k8s.io/yaml"
)

func newListCmd(g *globals) *cobra.Command {
	var (
		sf        sourceFlags
		output    string
		userDir   string
		noBuiltin bool
		lang      string
	)
	c := &cobra.Command{
		Use:       "list handlers|events|writes|listwatches|gates|controllers|plugins|walkthroughs",
		Short:     "List discovered facts or the walkthroughs",
		ValidArgs: []cobra.Completion{"handlers", "events", "writes", "listwatches", "gates", "controllers", "plugins", "walkthroughs"},
		Args:      cobra.MatchAll(cobra.ExactArgs(1), onlyValidArgs),
		Long: `List prints what the analyzer discovered at a release — informer handler
registrations, recorded events, API writes, raw list-watches (the
kubelet's pod source: a reflector over pods with a spec.nodeName field
selector), feature gates with their stage, default and the code each
guards — or the walkthroughs, as a table, JSON or YAML. The facts come from the cache when the release was
analysed before.`,
		Example: `  kubewalk list handlers --source goproxy
  kubewalk list events -o json | jq '.[] | select(.reason == "Pulling")'
  kubewalk list listwatches
  kubewalk list gates --tag v1.31.0 -o json | jq '.[] | select(.stage == "alpha") | .name'
  kubewalk list walkthroughs -o json`,
		RunE: func(cmd *cobra.Command, args []string) error {
			switch output {
			case "table", "json", "yaml":
			default:
				return &usageError{cmd: cmd.CommandPath(), err: fmt.Errorf("-o %q: want table, json or yaml", output)}
			}
			sets, err := pipeline.Sets(userDir, noBuiltin)
			if err != nil {
				return &usageError{cmd: cmd.CommandPath(), err: err}
			}
			if args[0] == "walkthroughs" {
				return listWalkthroughs(g.stdout, sets, lang, output)
			}
			rel, err := pipeline.Open(cmd.Context(), sf.options(g, sf.tag), sets, g.logf)
			if err != nil {
				return err
			}
			facts := rel.Result.Facts()
			switch args[0] {
			case "handlers":
				return emit(g.stdout, output, facts.Handlers, handlerRows)
			case "events":
				return emit(g.stdout, output, facts.Events, eventRows)
			case "listwatches":
				return emit(g.stdout, output, facts.ListWatches, listWatchRows)
			case "gates":
				return listGates(g.stdout, output, facts)
			case "controllers", "plugins":
				return listControllers(g.stdout, args[0], output, rel.Result)
			default:
				return emit(g.stdout, output, facts.Writes, writeRows)
			}
		},
	}
	f := c.Flags()
	sf.register(f)
	f.StringVarP(&output, "output", "o", "table", "output format: table, json or yaml")
	f.StringVar(&userDir, "walkthroughs", "", "directory of walkthrough Markdown files besides the built-in ones")
	f.BoolVar(&noBuiltin, "no-builtin", false, "leave the built-in walkthroughs out")
	f.StringVar(&lang, "lang", "en", "language of the walkthroughs to list (en or ko)")
	completeFlags(c, map[string][]cobra.Completion{"output": {"table", "json", "yaml"}})
	c.AddCommand(newListCoverageCmd(g))
	return c
}

func emit[T any](w io.Writer, output string, items []T, rows func([]T) [][]string) error {
	if items == nil {
		items = []T{}
	}
	switch output {
	case "json":
		return writeJSON(w, items)
	case "yaml":
		b, err := yaml.Marshal(items)
		if err != nil {
			return err
		}
		_, err = w.Write(b)
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, r := range rows(items) {
		cells := make([]string, len(r))
		for i, c := range r {
			cells[i] = termCell(c)
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	return tw.Flush()
}

func at(l fact.Location) string { return fmt.Sprintf("%s:%d", l.Path, l.StartLine) }

func handlerName(h *fact.Handler) string {
	if h == nil {
		return "-"
	}
	if h.Symbol == "" {
		return h.Form
	}
	name := fact.ReadableSymbol(h.Symbol)
	if h.Form == "func literal" && len(h.Calls) > 0 {
		// What the literal calls tells it from its neighbours; -o json
		// keeps the symbol.
		var cs []string
		for _, c := range h.Calls {
			cs = append(cs, fact.ReadableSymbol(c))
		}
		name += " → " + strings.Join(cs, ", ")
	}
	return name
}

func handlerRows(hs []fact.HandlerRegistration) [][]string {
	rows := [][]string{{"RESOURCE", "COMPONENT", "ADD", "UPDATE", "DELETE", "AT"}}
	for _, h := range hs {
		res := h.Informer.Resource
		if h.Informer.Group != "" {
			res += "." + h.Informer.Group
		}
		if res == "" {
			res = "?"
		}
		if h.InformerDynamic {
			res = "(any: dynamic informer)"
		}
		rows = append(rows, []string{res, h.Component, handlerName(h.Add), handlerName(h.Update), handlerName(h.Delete), at(h.At)})
	}
	return rows
}

func eventRows(es []fact.Event) [][]string {
	rows := [][]string{{"REASON", "TYPE", "CALLER", "AT"}}
	for _, e := range es {
		r := e.Reason
		if r == "" {
			r = "(" + e.ReasonExpr + ")"
		}
		typ := e.Type
		if e.IsDynamic("type") {
			typ = "(" + e.TypeExpr + ")" // set at run time, as a computed reason is
		}
		rows = append(rows, []string{r, typ, fact.ShortSymbol(e.Caller.Symbol), at(e.At)})
	}
	return rows
}

func writeRows(ws []fact.Write) [][]string {
	rows := [][]string{{"RESOURCE", "VERB", "SUBRESOURCE", "CALLER", "AT"}}
	for _, w := range ws {
		sub := w.Subresource
		if sub == "" {
			sub = "-"
		}
		res := w.Resource.Resource
		if w.ResourceDynamic {
			res = "(any: set at run time)"
		}
		rows = append(rows, []string{res, w.Verb, sub, fact.ShortSymbol(w.Caller.Symbol), at(w.At)})
	}
	return rows
}

func listWatchRows(lws []fact.ListWatch) [][]string {
	rows := [][]string{{"RESOURCE", "FIELDS", "FED TO", "CALLER", "AT"}}
	for _, lw := range lws {
		res := lw.Resource.Resource
		if lw.Resource.Group != "" {
			res += "." + lw.Resource.Group
		}
		if res == "" {
			res = "?"
		}
		fields := strings.Join(lw.Fields, ",")
		if fields == "" {
			fields = "-"
		}
		var fed []string
		for _, c := range lw.Consumers {
			fed = append(fed, c.Kind+" "+at(c.At))
		}
		if len(fed) == 0 {
			fed = []string{"-"}
		}
		rows = append(rows, []string{res, fields, strings.Join(fed, ", "), fact.ShortSymbol(lw.Caller.Symbol), at(lw.At)})
	}
	return rows
}

// walkthroughInfo is what `list walkthroughs` prints.
type walkthroughInfo struct {
	ID     string   `json:"id"`
	Title  string   `json:"title"`
	Lang   string   `json:"lang"`
	Topics []string `json:"topics"`
	Steps  int      `json:"steps"`
	Source string   `json:"source"`
}

func listWalkthroughs(w io.Writer, sets []pipeline.WalkSet, lang, output string) error {
	var infos []walkthroughInfo
	for _, s := range sets {
		srcs, err := walkthrough.ParseDir(s.FS, s.Dir)
		if err != nil {
			return err
		}
		for _, src := range srcs {
			if lang != "" && src.Lang != lang {
				continue
			}
			infos = append(infos, walkthroughInfo{ID: src.ID, Title: src.Title, Lang: src.Lang, Topics: src.Topics, Steps: len(src.Steps), Source: s.Name})
		}
	}
	sort.SliceStable(infos, func(i, j int) bool { return infos[i].ID < infos[j].ID })
	return emit(w, output, infos, func(is []walkthroughInfo) [][]string {
		rows := [][]string{{"ID", "LANG", "STEPS", "TITLE", "TOPICS"}}
		for _, i := range is {
			rows = append(rows, []string{i.ID, i.Lang, fmt.Sprint(i.Steps), i.Title, strings.Join(i.Topics, ",")})
		}
		return rows
	})
}
