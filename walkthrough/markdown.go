package walkthrough

import (
	"bytes"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/util"
	"go.abhg.dev/goldmark/frontmatter"

	"github.com/kubewalk/kubewalk/analyzer/fact"
)

// md is the one goldmark every walkthrough is parsed with. goldmark's
// Markdown is safe for concurrent use (each Parse makes its own
// parser.Context), so Load may run in parallel for several tags. Its
// renderer is not used: this package makes no HTML.
var md = goldmark.New(
	goldmark.WithExtensions(
		// YAML front matter between "---" lines, decoded in frontmatter.go.
		// TOML (+++) is left out: one way to write it.
		&frontmatter.Extender{Formats: []frontmatter.Format{frontmatter.YAML}},
		// GitHub tables: walkthroughs map "kubectl get events" lines to code.
		extension.Table,
		// GitHub ~~strikethrough~~, for text that matches what GitHub shows.
		extension.Strikethrough,
		// Bare URLs become links, as on GitHub (never reference links:
		// only [text](dest) links are symbol references).
		extension.Linkify,
		// go: and pkg.go.dev links become symbol references (refs.go).
		refLinks{},
	),
	goldmark.WithParserOptions(
		// {from=… to=… label=… #id} at the end of headings: a step's
		// sequence-diagram message. steps.go validates the keys and removes
		// every attribute from the node, so none is ever rendered as given.
		parser.WithHeadingAttribute(),
	),
)

// Markdown is a run of a walkthrough's Markdown blocks, parsed and with
// its references resolved: plain data, which whoever shows it makes HTML
// of with its own link rules (the site: internal/render/prosehtml).
// Blocks are goldmark nodes over Source, of goldmark's kinds and the
// extensions md parses (tables, strikethrough, bare-URL links) but for
// two of this package's: an inline symbol reference is a node of kind
// KindRefLink (RefNodeOf tells what it resolved to), a link to another
// walkthrough one of kind KindWalkLink (WalkNodeOf names it); fenced code
// is an *ast.FencedCodeBlock (CodeText). The nodes are shared by every
// reader of the Doc: they are read, never changed.
type Markdown struct {
	Source []byte     `json:"-"`
	Blocks []ast.Node `json:"-"`
}

// RefNode is what a node of kind KindRefLink holds: an inline symbol
// reference. Its children are the link text.
type RefNode struct {
	// Dest is the destination as written (after Markdown unescaping).
	Dest string
	// Title is the link title as written, nil if none.
	Title []byte
	// Resolved is the symbol and lines it names; nil in Markdown parsed
	// without resolving (Parse), which shows the link as written.
	Resolved *fact.Resolved
}

// RefNodeOf returns the reference n is, when its kind is KindRefLink.
func RefNodeOf(n ast.Node) (RefNode, bool) {
	r, ok := n.(*refLink)
	if !ok {
		return RefNode{}, false
	}
	return RefNode{Dest: string(r.dest), Title: r.title, Resolved: r.resolved}, true
}

// WalkNode is what a node of kind KindWalkLink holds: a link to another
// walkthrough. Its children are the link text.
type WalkNode struct {
	// ID is the walkthrough linked, Anchor one of its step anchors or ""
	// for the walkthrough itself (a translation's anchors are its
	// original's).
	ID, Anchor string
	// Title is the link title as written, nil if none.
	Title []byte
}

// WalkNodeOf returns the link n is, when its kind is KindWalkLink.
func WalkNodeOf(n ast.Node) (WalkNode, bool) {
	w, ok := n.(*walkLinkNode)
	if !ok {
		return WalkNode{}, false
	}
	return WalkNode{ID: w.id, Anchor: w.anchor, Title: w.title}, true
}

// CodeText returns a fenced block's language (its info string's first
// word, "" for none) and text, without its final newline. Blocks of
// language "excerpt" and "facts" are segments of their own (Segment) but
// where nested in another block, a list item, say.
func CodeText(n *ast.FencedCodeBlock, source []byte) (lang string, code []byte) {
	var b bytes.Buffer
	for i := 0; i < n.Lines().Len(); i++ {
		seg := n.Lines().At(i)
		b.Write(seg.Value(source))
	}
	return string(n.Language(source)), bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// Text is m's text without markup: its words as a reader sees them, a
// block's on a line of its own (a code block's lines as written). Raw
// HTML, which no page shows, is left out.
func (m *Markdown) Text() string {
	var sb strings.Builder
	newline := func() {
		if sb.Len() > 0 && !strings.HasSuffix(sb.String(), "\n") {
			sb.WriteByte('\n')
		}
	}
	for _, n := range m.Blocks {
		_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
			if !entering {
				return ast.WalkContinue, nil
			}
			switch c := c.(type) {
			case *ast.Text:
				v := c.Segment.Value(m.Source)
				if c.Parent().Kind() != ast.KindCodeSpan {
					// As a reader sees it: backslash escapes and entities
					// resolved, as goldmark's HTML writer resolves them.
					v = util.ResolveEntityNames(util.ResolveNumericReferences(util.UnescapePunctuations(v)))
				}
				sb.Write(v)
				if c.SoftLineBreak() || c.HardLineBreak() {
					sb.WriteByte('\n')
				}
			case *ast.String:
				sb.Write(c.Value)
			case *ast.AutoLink:
				sb.Write(c.Label(m.Source))
			case *ast.RawHTML, *ast.HTMLBlock:
				return ast.WalkSkipChildren, nil
			case *ast.FencedCodeBlock, *ast.CodeBlock:
				newline()
				lines := c.Lines()
				for i := 0; i < lines.Len(); i++ {
					seg := lines.At(i)
					sb.Write(seg.Value(m.Source))
				}
				return ast.WalkSkipChildren, nil
			default:
				if c.Type() == ast.TypeBlock {
					newline()
				}
			}
			return ast.WalkContinue, nil
		})
	}
	return strings.TrimSpace(sb.String())
}
