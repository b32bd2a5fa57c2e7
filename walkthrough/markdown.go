package walkthrough

import (
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"go.abhg.dev/goldmark/frontmatter"
)

// md is the one goldmark every walkthrough is parsed with. goldmark's
// Markdown is safe for concurrent use (each Parse makes its own
// parser.Context), so Load may run in parallel for several tags. Its
// renderer is not used: a Renderer renders with the link rules it is
// given (render.go), from a goldmark newMarkdown made with them, so that
// parsing and rendering have the same extensions by construction.
var md = newMarkdown(nil)

// newMarkdown is the goldmark of walkthroughs, its renderers for
// references, links between walkthroughs and fenced code using links (nil
// for parsing only).
func newMarkdown(links *Links) goldmark.Markdown {
	return goldmark.New(
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
			refLinks{links},
			// Links to other walkthroughs go to their pages (walklinks.go).
			walkLinks{links},
			// Ordinary fenced code, highlighted by Links.HighlightCode (codeblock.go).
			codeBlocks{links},
		),
		goldmark.WithParserOptions(
			// {from=… to=… label=… #id} at the end of headings: a step's
			// sequence-diagram message. steps.go validates the keys and removes
			// every attribute from the node, so none is ever rendered as given.
			parser.WithHeadingAttribute(),
		),
		// Raw HTML stays off: no html.WithUnsafe(), so inline and block HTML
		// render as "<!-- raw HTML omitted -->" and dangerous link schemes
		// (javascript:, vbscript:, file:, data: other than images) get an
		// empty href.
	)
}
