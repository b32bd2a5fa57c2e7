package reldiff

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/kubewalk/kubewalk/analyzer/fact"
)

// WriteText writes the report for a maintainer updating walkthroughs:
// a summary, then the references that are not unchanged grouped by
// walkthrough file, each on a line starting "file:line:col: status" so
// that editors jump to it (moved ones on that line alone, others with
// their resolution at each release and the declaration's diff, indented,
// the first time the reference appears and "as at file:line:col" after),
// then the facts added and removed, each starting "path:line:" in the
// release that has it.
func WriteText(w io.Writer, r Report) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "kubewalk diff %s → %s\n", r.From.Tag, r.To.Tag)
	fmt.Fprintf(bw, "references: %s\n", r.Summary.refsLine())
	fmt.Fprintf(bw, "facts: %s\n", r.Summary.factsLine())

	file := ""
	first := map[string]string{} // Ref → where it was first printed in full
	for _, rc := range r.Refs {
		if rc.Status == Unchanged {
			continue
		}
		if rc.File != file {
			file = rc.File
			fmt.Fprintf(bw, "\n== %s\n", file)
		}
		fmt.Fprintf(bw, "%s:%d:%d: %s: %s\n", rc.File, rc.Line, rc.Col, rc.Status, rc.Text)
		if rc.Status == Moved {
			fmt.Fprintf(bw, "    %s → %s\n", span(rc.From), span(rc.To))
			continue
		}
		if at, ok := first[rc.Ref]; ok {
			// The same reference is often written in the original and
			// in each translation: print its details once.
			fmt.Fprintf(bw, "    as at %s\n", at)
			continue
		}
		first[rc.Ref] = fmt.Sprintf("%s:%d:%d", rc.File, rc.Line, rc.Col)
		writeSide(bw, r.From.Tag, rc.From)
		writeSide(bw, r.To.Tag, rc.To)
		if rc.Diff != "" {
			for _, l := range strings.SplitAfter(strings.TrimSuffix(rc.Diff, "\n"), "\n") {
				fmt.Fprintf(bw, "    %s", l)
			}
			fmt.Fprintln(bw)
		}
	}

	for _, k := range []FactKind{KindHandler, KindEvent, KindWrite} {
		for _, ch := range []Change{Added, Removed} {
			tag := r.To.Tag
			if ch == Removed {
				tag = r.From.Tag
			}
			header := false
			for _, f := range r.Facts {
				if f.Kind != k || f.Change != ch {
					continue
				}
				if !header {
					fmt.Fprintf(bw, "\n== %s %s (locations at %s)\n", k.plural(), ch, tag)
					header = true
				}
				fmt.Fprintf(bw, "%s:%d: %s\n", f.At.Path, f.At.StartLine, f.Label)
			}
		}
	}
	return bw.Flush()
}

func writeSide(w io.Writer, tag string, s Side) {
	switch {
	case s.Symbol == "":
		fmt.Fprintf(w, "    %s: %s\n", tag, s.Error)
	case s.Error != "":
		fmt.Fprintf(w, "    %s: %s at %s: %s\n", tag, fact.ShortSymbol(s.Symbol), span(s), s.Error)
	default:
		fmt.Fprintf(w, "    %s: %s at %s", tag, fact.ShortSymbol(s.Symbol), span(s))
		if s.Alternate > 0 {
			fmt.Fprintf(w, " (alternate %d)", s.Alternate+1)
		}
		if len(s.Matched) > 0 {
			fmt.Fprintf(w, " lines %s", intList(s.Matched))
		}
		fmt.Fprintln(w)
	}
}

func span(s Side) string {
	if s.Symbol == "" {
		return "-"
	}
	return fmt.Sprintf("%s:%d-%d", s.Decl.Path, s.Decl.StartLine, s.Decl.EndLine)
}

func intList(ns []int) string {
	var b strings.Builder
	for i, n := range ns {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprint(&b, n)
	}
	return b.String()
}

// refsLine is "1 renamed, 2 changed, 10 unchanged": non-zero statuses in
// the order of Statuses, or "none".
func (s Summary) refsLine() string {
	var parts []string
	for _, st := range Statuses {
		if n := s.Refs[st]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, st))
		}
	}
	if parts == nil {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// factsLine is "handlers +1 -0, events +0 -2, writes +0 -0".
func (s Summary) factsLine() string {
	var parts []string
	for _, k := range []FactKind{KindHandler, KindEvent, KindWrite} {
		m := s.Facts[k.plural()]
		parts = append(parts, fmt.Sprintf("%s +%d -%d", k.plural(), m[Added], m[Removed]))
	}
	return strings.Join(parts, ", ")
}
