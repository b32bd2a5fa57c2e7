package explain

import (
	"fmt"
	"io"
	"strings"
	"unicode"

	"github.com/kubewalk/kubewalk/analyzer/fact"
)

// maxHandlers bounds the handlers WriteText lists per record (pods have
// dozens); JSON output carries them all.
const maxHandlers = 4

// WriteText writes explanations for a terminal: per record, its input line
// and what explains it, indented, with file:line locations editors jump to
// and permalinks at the tag, then how many were explained.
//
//	3: Normal  SuccessfulCreate  replicaset/nginx-x  Created pod: nginx-x-26lvf
//	   component  replicaset-controller (object kind)
//	   emitted    pkg/controller/controller_utils.go:614  controller.RealPodControl.createPods
//	              https://github.com/kubernetes/kubernetes/blob/v1.36.3/pkg/controller/controller_utils.go#L614
//	   step       walkthroughs/deployment.md:228  What happens when you create a Deployment › The replicaset controller creates Pods
func WriteText(w io.Writer, exs []Explanation) error {
	tw := NewTextWriter(w)
	for _, ex := range exs {
		if err := tw.Write(ex); err != nil {
			return err
		}
	}
	return tw.Close()
}

// TextWriter writes explanations as WriteText does, one at a time as they
// are made, for input that arrives over time (kubectl get events --watch).
type TextWriter struct {
	w         io.Writer
	n         int // explanations written
	explained int
}

// NewTextWriter returns a TextWriter writing to w.
func NewTextWriter(w io.Writer) *TextWriter { return &TextWriter{w: w} }

// Write writes one explanation. Every text in it is made safe for a
// terminal first (termSafe): the input line comes from a cluster, and an
// event's message may carry escape sequences.
func (t *TextWriter) Write(ex Explanation) error {
	var b strings.Builder
	if t.n > 0 {
		b.WriteByte('\n')
	}
	t.n++
	text := ex.Text
	if ex.Format != "table" && ex.Summary != "" {
		text = ex.Summary // JSON is unreadable in a terminal
	}
	fmt.Fprintf(&b, "%d: %s\n", ex.Line, termSafe(text))
	if ex.Explained {
		t.explained++
	} else {
		b.WriteString("   UNEXPLAINED")
		if ex.Note != "" {
			b.WriteString(": " + termSafe(ex.Note))
		}
		b.WriteByte('\n')
	}
	if c := ex.Component; c != nil {
		fmt.Fprintf(&b, "   %-10s %s (%s)\n", "component", termSafe(c.Name), termSafe(c.From))
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
		fmt.Fprintf(&b, "   %-10s %s:%d  %s › %s\n", "step", termSafe(s.File), s.Line, termSafe(s.Title), termSafe(s.StepTitle))
	}
	if ex.Explained && ex.Note != "" {
		fmt.Fprintf(&b, "   %-10s %s\n", "note", termSafe(ex.Note))
	}
	_, err := io.WriteString(t.w, b.String())
	return err
}

// Close writes how many of the explanations written were explained, when
// there were any.
func (t *TextWriter) Close() error {
	if t.n == 0 {
		return nil
	}
	_, err := fmt.Fprintf(t.w, "\n%d of %d explained\n", t.explained, t.n)
	return err
}

func writeCode(b *strings.Builder, c Code) {
	fmt.Fprintf(b, "   %-10s %s  %s\n", termSafe(c.Role), termSafe(c.Where()), termSafe(fact.ReadableSymbol(c.Symbol)))
	if c.Detail != "" {
		fmt.Fprintf(b, "   %-10s %s\n", "", termSafe(c.Detail))
	}
	if c.Via != "" {
		fmt.Fprintf(b, "   %-10s via %s\n", "", termSafe(fact.ReadableSymbol(c.Via)))
	}
	if c.Permalink != "" {
		fmt.Fprintf(b, "   %-10s %s\n", "", termSafe(c.Permalink))
	}
}

// termSafe escapes what a terminal would act on instead of showing:
// control characters (ESC starts the sequences that retitle a window,
// clear the screen or move the cursor; C1 controls such as U+009B do the
// same on some terminals; CR and BS overwrite what was printed) and the
// Unicode bidirectional controls that reorder what is shown. They become
// Go escapes (\x1b, \u202e), so the line still says what was there. A tab
// stays: it only moves the cursor forward.
func termSafe(s string) string {
	if strings.IndexFunc(s, unsafeRune) < 0 {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case !unsafeRune(r):
			b.WriteRune(r)
		case r < 0x80:
			fmt.Fprintf(&b, "\\x%02x", r)
		default:
			fmt.Fprintf(&b, "\\u%04x", r)
		}
	}
	return b.String()
}

func unsafeRune(r rune) bool {
	switch {
	case r == '\t':
		return false
	case unicode.IsControl(r):
		return true
	case r == '\u061c', r == '\u200e', r == '\u200f', r >= '\u202a' && r <= '\u202e', r >= '\u2066' && r <= '\u2069':
		return true
	}
	return false
}
