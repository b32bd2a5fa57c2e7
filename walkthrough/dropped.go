package walkthrough

import (
	"strings"

	"github.com/yuin/goldmark/ast"
)

// Dropped is HTML written in a walkthrough's prose, which the site leaves
// out (raw HTML is never rendered): most often a placeholder meant as
// text, "Node <name> status is now: …", whose "<name>" reads as a tag.
type Dropped struct {
	Line, Col int
	// Text is the HTML as written, its first line for a block.
	Text string
}

// DroppedHTML lists the HTML in s's prose, in source order: inline tags
// and HTML blocks, which a reader of the site does not see. Code spans,
// code blocks and autolinks are not HTML.
func (s *Source) DroppedHTML() []Dropped {
	if s.doc == nil {
		return nil
	}
	var out []Dropped
	_ = ast.Walk(s.doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.RawHTML:
			if n.Segments.Len() > 0 {
				var b strings.Builder
				for i := 0; i < n.Segments.Len(); i++ {
					seg := n.Segments.At(i)
					b.Write(seg.Value(s.src))
				}
				line, col := s.lineCol(n.Segments.At(0).Start)
				out = append(out, Dropped{Line: line, Col: col, Text: b.String()})
			}
			return ast.WalkSkipChildren, nil
		case *ast.HTMLBlock:
			if n.Lines().Len() > 0 {
				seg := n.Lines().At(0)
				line, col := s.lineCol(seg.Start)
				out = append(out, Dropped{Line: line, Col: col, Text: strings.TrimRight(string(seg.Value(s.src)), "\n")})
			}
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	return out
}
