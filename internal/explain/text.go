package explain

import (
	"fmt"
	"io"
	"strings"

	"github.com/kubewalk/kubewalk/analyzer/fact"
)

// maxHandlers bounds the handlers WriteText lists per record (pods have
// dozens); JSON output carries them all.
const maxHandlers = 4

// WriteText writes explanations for a terminal: per record, its input line
// and what explains it, indented, with file:line locations editors jump to
// and permalinks at the tag.
//
//	3: Normal  SuccessfulCreate  replicaset/nginx-x  Created pod: nginx-x-26lvf
//	   component  replicaset-controller (object kind)
//	   emitted    pkg/controller/controller_utils.go:614  controller.RealPodControl.createPods
//	              https://github.com/kubernetes/kubernetes/blob/v1.36.3/pkg/controller/controller_utils.go#L614
//	   step       walkthroughs/deployment.md:228  What happens when you create a Deployment › The replicaset controller creates Pods
func WriteText(w io.Writer, exs []Explanation) error {
	var b strings.Builder
	explained := 0
	for i, ex := range exs {
		if i > 0 {
			b.WriteByte('\n')
		}
		text := ex.Text
		if ex.Format != "table" && ex.Summary != "" {
			text = ex.Summary // JSON is unreadable in a terminal
		}
		fmt.Fprintf(&b, "%d: %s\n", ex.Line, text)
		if ex.Explained {
			explained++
		} else {
			b.WriteString("   UNEXPLAINED")
			if ex.Note != "" {
				b.WriteString(": " + ex.Note)
			}
			b.WriteByte('\n')
		}
		if c := ex.Component; c != nil {
			fmt.Fprintf(&b, "   %-10s %s (%s)\n", "component", c.Name, c.From)
		}
		for _, c := range ex.Code {
			writeCode(&b, c)
		}
		for i, c := range ex.Handlers {
			if i == maxHandlers {
				fmt.Fprintf(&b, "   %-10s … %d more (-o json lists them)\n", "", len(ex.Handlers)-maxHandlers)
				break
			}
			writeCode(&b, c)
		}
		for _, s := range ex.Steps {
			fmt.Fprintf(&b, "   %-10s %s:%d  %s › %s\n", "step", s.File, s.Line, s.Title, s.StepTitle)
		}
		if ex.Explained && ex.Note != "" {
			fmt.Fprintf(&b, "   %-10s %s\n", "note", ex.Note)
		}
	}
	if len(exs) > 0 {
		fmt.Fprintf(&b, "\n%d of %d explained\n", explained, len(exs))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeCode(b *strings.Builder, c Code) {
	fmt.Fprintf(b, "   %-10s %s  %s\n", c.Role, c.Where(), fact.ShortSymbol(c.Symbol))
	if c.Detail != "" {
		fmt.Fprintf(b, "   %-10s %s\n", "", c.Detail)
	}
	if c.Via != "" {
		fmt.Fprintf(b, "   %-10s via %s\n", "", fact.ShortSymbol(c.Via))
	}
	if c.Permalink != "" {
		fmt.Fprintf(b, "   %-10s %s\n", "", c.Permalink)
	}
}
