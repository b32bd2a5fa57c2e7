package main

import (
	"encoding/json"
	"io"
	"strconv"
	"strings"
)

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// termSafe returns s with what a terminal would act on rather than show
// (ESC, which starts the sequences that retitle a window or clear the
// screen; C1 controls; CR and BS; the bidirectional controls that reorder
// what is shown) spelled out as Go escapes, as strconv quotes them. A file
// or front matter written by someone else reaches the terminal in error
// messages and tables. Newlines and tabs stay: an error may have several
// lines, and cobra indents its suggestions with a tab (termCell spells a
// tab out, where it would break a table's columns).
func termSafe(s string) string {
	if strings.IndexFunc(s, unshown) < 0 {
		return s
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if strings.IndexFunc(l, unshown) >= 0 {
			q := strconv.QuoteToGraphic(l)
			lines[i] = q[1 : len(q)-1]
		}
	}
	return strings.Join(lines, "\n")
}

// unshown reports a rune a terminal does not simply show.
func unshown(r rune) bool { return r != '\n' && r != '\t' && !strconv.IsGraphic(r) }

// termCell is termSafe for a cell of a table: a tab is spelled out too.
func termCell(s string) string { return strings.ReplaceAll(termSafe(s), "\t", `\t`) }
