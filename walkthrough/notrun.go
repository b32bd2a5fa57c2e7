package walkthrough

// Not-run marks: a reference whose code is not meant to run in the
// recorded scenarios (an error path, a rollback, a branch only another
// configuration takes) says so, with the reason, right after its link in
// goldmark's attribute syntax, the one step headings use:
//
//	[rollback][]{notrun="only a rollout that is undone rolls back"}
//
// An inline parser reads the attribute block that follows a link; the
// reference transformer (refs.go) moves it onto the refLink and out of
// the tree, so it is never rendered. An excerpt says the same with a
// notrun: key (excerpt.go).

import (
	"cmp"
	"maps"
	"slices"
	"strconv"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// notRunKey is the attribute (and excerpt key) of a not-run mark.
const notRunKey = "notrun"

// kindRefMark is the node kind of an attribute block after a link, until
// the reference transformer takes it out of the tree.
var kindRefMark = ast.NewNodeKind("RefMark")

// refMark is an attribute block read after a link: {notrun="why"}.
type refMark struct {
	ast.BaseInline
	// off is the source offset of its "{", for error positions.
	off int
	// reason is the notrun value; err says what is wrong with the block
	// when it is not one well-formed notrun= attribute.
	reason string
	err    string
}

func (n *refMark) Kind() ast.NodeKind { return kindRefMark }

func (n *refMark) Dump(source []byte, level int) {
	ast.DumpHelper(n, source, level, map[string]string{"Reason": n.reason, "Err": n.err}, nil)
}

// markWant is what a not-run mark looks like, for error messages.
const markWant = `write {notrun="why the code is not meant to run"} right after the reference's link`

// refMarkParser reads "{…}" right after a symbol reference's link. A
// "{" anywhere else is text, unless what follows reads as attributes
// with a notrun key: a mark that lost its reference is an error, not
// prose.
type refMarkParser struct{}

func (refMarkParser) Trigger() []byte { return []byte{'{'} }

func (refMarkParser) Parse(parent ast.Node, block text.Reader, _ parser.Context) ast.Node {
	_, seg := block.PeekLine()
	line, pos := block.Position()
	l, ok := parent.LastChild().(*ast.Link)
	afterRef := ok && isRefDest(string(l.Destination))
	attrs, ok := parser.ParseAttributes(block)
	if !ok {
		if !afterRef {
			return nil
		}
		// The attribute block does not parse (an unquoted reason with
		// blanks, a missing "}", a reason across lines): say how to
		// write it rather than show it as text.
		block.Advance(1)
		return &refMark{off: seg.Start, err: "the attribute block after the reference does not parse: " + markWant}
	}
	m := &refMark{off: seg.Start}
	has := false
	for _, at := range attrs {
		key := string(at.Name)
		if key != notRunKey {
			if m.err == "" {
				m.err = "unknown reference attribute " + strconv.Quote(key) + " (a reference takes only notrun): " + markWant
			}
			continue
		}
		has = true
		var v string
		switch x := at.Value.(type) {
		case []byte:
			v = string(x)
		default:
			m.err = "notrun: want the reason as a quoted string: " + markWant
			continue
		}
		if v == "" && m.err == "" {
			m.err = "notrun: the reason is empty: " + markWant
		}
		m.reason = v
	}
	if !afterRef && !has {
		// Attributes-like prose ({a=b}) with no mark in it: text.
		block.SetPosition(line, pos)
		return nil
	}
	switch {
	case !afterRef:
		// Whatever else is wrong with it, it marks nothing.
		m.err = "this notrun mark follows no symbol reference: " + markWant
	case len(attrs) == 0:
		m.err = "empty attribute block after the reference: " + markWant
	}
	return m
}

// strayMarksKey holds, in the parser context, the marks the reference
// transformer found after no reference: Parse reports them.
var strayMarksKey = parser.NewContextKey()

// takeMarks moves each mark that follows a reference's link into it and
// every other mark out of the tree, into pc's stray marks: no refMark is
// left to render.
func takeMarks(doc *ast.Document, pc parser.Context) {
	var marks []*refMark
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if m, ok := n.(*refMark); ok && entering {
			marks = append(marks, m)
		}
		return ast.WalkContinue, nil
	})
	var stray []*refMark
	for _, m := range marks {
		if r, ok := m.PreviousSibling().(*refLink); ok && r.mark == nil {
			r.mark = m
		} else {
			stray = append(stray, m)
		}
		m.Parent().RemoveChild(m.Parent(), m)
	}
	if len(stray) > 0 {
		pc.Set(strayMarksKey, stray)
	}
}

// markErrors reports the marks of s that follow no reference, at their
// "{" (collectRefs reports a reference's malformed mark).
func (s *Source) markErrors(errs *errorList) {
	stray, _ := s.pc.Get(strayMarksKey).([]*refMark)
	for _, m := range stray {
		line, col := s.lineCol(m.off)
		errs.add(s.File, line, col, "%s", m.err)
	}
}

// stepMarks sets each step's NotRun: the references it marks, inline or
// by excerpt (a use: block by its own notrun:, or in the file of the
// excerpt it names by that one's).
func (s *Source) stepMarks() {
	for _, st := range s.steps {
		marked := map[string]bool{}
		visit := func(n ast.Node) {
			_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
				if r, ok := c.(*refLink); ok && entering && r.err == nil && r.mark != nil && r.mark.reason != "" {
					marked[r.ref.String()] = true
				}
				return ast.WalkContinue, nil
			})
		}
		visit(st.heading)
		for _, b := range st.blocks {
			switch {
			case b.node != nil:
				visit(b.node)
			case b.excerpt != nil:
				spec, why := b.excerpt, b.excerpt.notrun
				if spec.kv["use"].present {
					if spec = spec.use; spec == nil {
						continue // reported by linkExcerpts
					}
					if s.base == nil {
						why = cmp.Or(why, spec.notrun)
					}
				}
				if why != "" {
					marked[spec.ref.String()] = true
				}
			}
		}
		st.NotRun = slices.Sorted(maps.Keys(marked))
	}
}
