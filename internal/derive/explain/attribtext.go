package explain

import (
	"fmt"
	"io"
	"strings"

	"github.com/kubewalk/kubewalk/analyzer/fact"
)

// WriteAttribution writes an Attribution for a terminal: the events,
// then the audit entries, each as WriteText writes an explanation, with
// its phase and, for a watch, its selectors and parameters; then what
// the watch parameters mean (once), the counts by kind and phase, and
// the closing line Summary.String.
func WriteAttribution(w io.Writer, at *Attribution) error {
	tw := NewTextWriter(w)
	var params []WatchParam
	seen := map[string]bool{}
	write := func(ex Explanation, phase string) error {
		if err := tw.Write(ex); err != nil {
			return err
		}
		var b strings.Builder
		fmt.Fprintf(&b, "   %-10s %s\n", "phase", phase)
		if ex.Rule != "" {
			fmt.Fprintf(&b, "   %-10s %s\n", "rule", termSafe(ex.Rule))
		}
		if wt := ex.Watch; wt != nil {
			if wt.FieldSelector != "" {
				fmt.Fprintf(&b, "   %-10s fieldSelector %s\n", "selector", termSafe(wt.FieldSelector))
			}
			if wt.LabelSelector != "" {
				fmt.Fprintf(&b, "   %-10s labelSelector %s\n", "selector", termSafe(wt.LabelSelector))
			}
			var ps []string
			for _, p := range wt.Params {
				ps = append(ps, p.Name+"="+p.Value)
				if !seen[p.Name+" "+p.Symbol] {
					seen[p.Name+" "+p.Symbol] = true
					params = append(params, p)
				}
			}
			if len(ps) > 0 {
				fmt.Fprintf(&b, "   %-10s %s\n", "params", termSafe(strings.Join(ps, " ")))
			}
		}
		_, err := io.WriteString(w, b.String())
		return err
	}
	if len(at.Events) > 0 {
		if _, err := io.WriteString(w, "events:\n\n"); err != nil {
			return err
		}
	}
	for _, e := range at.Events {
		if err := write(e.Explanation, e.Phase); err != nil {
			return err
		}
	}
	if len(at.Audit) > 0 {
		prefix := "\n"
		if len(at.Events) == 0 {
			prefix = ""
		}
		if _, err := io.WriteString(w, prefix+"\naudit entries:\n\n"); err != nil {
			return err
		}
		tw.n = 0 // the audit entries are numbered on their own
	}
	for _, a := range at.Audit {
		if err := write(a.Explanation, a.Phase); err != nil {
			return err
		}
	}
	var b strings.Builder
	if len(params) > 0 {
		b.WriteString("\nwatch parameters:\n")
		for _, p := range params {
			fmt.Fprintf(&b, "  %-21s %s\n", p.Name, p.Meaning)
			if p.Symbol != "" {
				fmt.Fprintf(&b, "  %-21s set by %s\n", "", fact.ReadableSymbol(p.Symbol))
			}
		}
	}
	b.WriteString("\nattributed, by kind and phase:\n")
	for _, k := range at.Summary.Kinds {
		fmt.Fprintf(&b, "  %-8s %-10s %4d of %4d\n", k.Kind, k.Phase, k.Attributed, k.Items)
	}
	fmt.Fprintf(&b, "\n%s\n", at.Summary)
	_, err := io.WriteString(w, b.String())
	return err
}
