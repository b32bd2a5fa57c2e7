package codehtml

import (
	"go/scanner"
	"go/token"
	"html/template"
	"slices"
	"strings"
	"sync"

	"github.com/kubewalk/kubewalk/analyzer/fact"
)

// Line is one line of highlighted HTML, without its newline. Every Line is
// balanced: tags opened in it are closed in it.
type Line = template.HTML

// Options are the site's rules for Go.
type Options struct {
	// Link returns the href for a declaration target: an in-site relative
	// URL when that file is rendered, else a GitHub permalink; "" for no
	// link. It is called once per distinct target in a file. Hrefs that
	// fail SafeHref are dropped.
	Link func(target fact.Location) string

	// GitHub, when not "", is where the GitHub permalinks Link returns
	// start (the release's base, "https://github.com/kubernetes/kubernetes/blob/v1.37.2/"),
	// which the page states once. A link to a URL that starts with it is
	// written in the compact form: no href, and the rest of the URL in
	// data-g, staging/src/k8s.io/ abbreviated (CompactGitHub: <a class=t
	// data-g=~api/core/v1/types.go#L30>), which the page's script turns
	// into the href (GitHub + the rest data-g names, GitHubRest) of
	// every such link as the page loads. A permalink is most of its
	// link's markup, and a page's links to code the site does not render
	// are thousands; without script such an identifier is shown, in its
	// class's colour, but is no link. Any other URL is an href.
	GitHub string

	// DeclsOnly renders only a file's outline, for pages that would
	// otherwise be too heavy to load (generated code, very large files):
	// comments and declared names keep their classes; uses get neither a
	// class nor a link (Link is never called), and keywords, strings and
	// numbers are plain. Links are the bulk of a page's markup (many
	// bytes around a name of a few letters), and in generated code a
	// keyword or tag string on every line adds more: an outline of the
	// CRI's api.pb.go weighs less than half its full page.
	DeclsOnly bool
}

// Token classes for Go. Short names keep the output small: a source page
// of Kubernetes has a few hundred thousand of them.
const (
	clsKeyword = "k"
	clsString  = "s"
	clsComment = "c"
	clsNumber  = "i"  // not "n": the site's line-number anchors are a.n
	clsBuiltin = "b"  // a predeclared identifier: int, nil, len, error …
	clsDef     = "d"  // a variable's, field's or label's definition
	clsPkgUse  = "ps" // a package's use linked to its import on the page (importLines)
)

// identClass maps an fact.Ident Kind to the class of a use and of a
// definition (written as element says: a definition is a <dfn>). Variables, fields and labels are the bulk of identifiers and
// get no colour (as on GitHub and in godoc): a span around each would cost
// bytes and add noise. Their definitions are still marked, and their uses
// still link.
var identClass = map[string][2]string{
	"type":    {"t", "td"},
	"func":    {"f", "fd"},
	"method":  {"m", "md"},
	"const":   {"o", "od"},
	"pkg":     {"p", "pd"},
	"builtin": {clsBuiltin, clsBuiltin},
	"var":     {"", clsDef},
	"field":   {"", clsDef},
	"label":   {"", clsDef},
}

// predeclared names the universe scope's identifiers. They get the builtin
// class when the analyzer said nothing about an identifier (a file outside
// the root packages is rendered without idents) and it is not a selector.
var predeclared = map[string]bool{
	"any": true, "bool": true, "byte": true, "comparable": true,
	"complex64": true, "complex128": true, "error": true, "float32": true,
	"float64": true, "int": true, "int8": true, "int16": true, "int32": true,
	"int64": true, "rune": true, "string": true, "uint": true, "uint8": true,
	"uint16": true, "uint32": true, "uint64": true, "uintptr": true,
	"true": true, "false": true, "iota": true, "nil": true,
	"append": true, "cap": true, "clear": true, "close": true, "complex": true,
	"copy": true, "delete": true, "imag": true, "len": true, "make": true,
	"max": true, "min": true, "new": true, "panic": true, "print": true,
	"println": true, "real": true, "recover": true,
}

var writers = sync.Pool{New: func() any { return new(lineWriter) }}

// Go highlights a Go file. Tokens come from go/scanner (so the lexing is the
// compiler's own); identifiers are classed and linked by idents, the
// analyzer's table for the file (sorted by Off; nil is fine and gives
// lexical highlighting only). An Ident whose Off and Len do not match an
// identifier token is ignored, so a stale table degrades to no links rather
// than to broken HTML. Source that does not scan (a syntax error) is still
// rendered: what the scanner cannot classify is written as plain text.
//
// Operators and punctuation get no span: colouring them buys little and
// would double the size of the output.
//
// It is one loop over the scanner's tokens, long because the position
// state (the last byte written, the next ident, the previous token) is
// read and moved by every case.
func Go(src []byte, idents []fact.Ident, opts Options) []Line {
	if !slices.IsSortedFunc(idents, func(a, b fact.Ident) int { return a.Off - b.Off }) {
		idents = slices.Clone(idents)
		slices.SortStableFunc(idents, func(a, b fact.Ident) int { return a.Off - b.Off })
	}
	w := writers.Get().(*lineWriter)
	defer writers.Put(w)
	w.reset()

	fset := token.NewFileSet()
	file := fset.AddFile("", fset.Base(), len(src))
	base := file.Base()
	var s scanner.Scanner
	s.Init(file, src, nil, scanner.ScanComments)

	links := linker{link: opts.Link, github: opts.GitHub}
	imports := localImports(src, idents, &links, opts)

	last, next := 0, 0 // last: end of the previous token written; next: into idents
	prev := token.ILLEGAL
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		off := int(pos) - base
		if off < last || off >= len(src) {
			// An automatic semicolon at a newline or EOF (lit "\n" or "")
			// has no text of its own.
			continue
		}
		class, end := lexClass(tok, src, off, lit)
		if opts.DeclsOnly && class != clsComment {
			class = "" // written as plain text with the next gap
		}
		switch {
		case class != "":
		case tok == token.IDENT:
			for next < len(idents) && idents[next].Off < off {
				next++
			}
			if next < len(idents) && idents[next].Off == off && idents[next].Len == len(lit) {
				id := &idents[next]
				c := identClass[id.Kind]
				switch {
				case id.Def:
					class = c[1]
				case !opts.DeclsOnly:
					class = c[0]
				}
				if !id.Def && !opts.DeclsOnly {
					h := links.use(id, file.Line(pos))
					if imports.local(id, h) {
						w.gap(src[last:off], clsPkgUse)
						w.write(clsPkgUse, src[off:end])
						last, prev = end, tok
						continue
					}
					if h.Value != "" {
						w.gap(src[last:off], "")
						w.link(class, h, src[off:end])
						last, prev = end, tok
						continue
					}
				}
			} else if prev != token.PERIOD && predeclared[lit] && !opts.DeclsOnly {
				class = clsBuiltin
			}
		default:
			prev = tok
			continue
		}
		if end > len(src) {
			end = len(src)
		}
		if name := imports.at(tok, file.Line(pos)); name != "" {
			w.gap(src[last:off], "")
			w.writeMarked(class, "data-p", name, src[off:end])
			last, prev = end, tok
			continue
		}
		w.gap(src[last:off], class)
		w.write(class, src[off:end])
		last, prev = end, tok
	}
	w.gap(src[last:], "")
	return w.lines()
}

// lexClass returns the class of a token that is classed by its kind
// alone — comment, string or rune, number, keyword — and where it ends in
// src; "" for any other token.
func lexClass(tok token.Token, src []byte, off int, lit string) (class string, end int) {
	end = off + len(lit)
	switch {
	case tok == token.COMMENT:
		// lit has carriage returns removed; measure on src instead.
		class = clsComment
		if src[off+1] == '/' {
			end = off + indexOrLen(src[off:], '\n')
		} else {
			end = off + 2 + indexStr(src[off+2:], "*/") + 2
		}
	case tok == token.STRING || tok == token.CHAR:
		class = clsString
		if src[off] == '`' {
			end = off + 1 + indexOrLen(src[off+1:], '`') + 1
		}
	case tok == token.INT || tok == token.FLOAT || tok == token.IMAG:
		class = clsNumber
	case tok.IsKeyword():
		class = clsKeyword
	}
	return class, end
}

// linker makes the hrefs of identifier links through Options.Link, each
// target once per file.
type linker struct {
	link   func(fact.Location) string
	github string                 // Options.GitHub
	hrefs  map[fact.Location]Href // target → escaped href, "" = none
}

// href returns the attribute-escaped href of loc, in the compact form
// when it is a GitHub permalink (Options.GitHub); Value "" for none or
// one SafeHref refuses.
func (l *linker) href(loc fact.Location) Href {
	if l.link == nil {
		return Href{}
	}
	if h, ok := l.hrefs[loc]; ok {
		return h
	}
	var h Href
	if u := l.link(loc); SafeHref(u) {
		// The rest of a safe https URL: the script puts the base back
		// before it, and the page's base is https.
		if rest, ok := strings.CutPrefix(u, l.github); ok && l.github != "" && rest != "" {
			h = Href{Value: CompactGitHub(rest), GitHub: true}
		} else {
			h = Href{Value: u}
		}
		if needsAttrEscape(h.Value) {
			h.Value = string(appendAttr(nil, h.Value))
		}
	}
	if l.hrefs == nil {
		l.hrefs = make(map[fact.Location]Href)
	}
	l.hrefs[loc] = h
	return h
}

// use returns the href of a use of id on line line, Value "" for none. A
// variable, field or label links only to a declaration in the site: a
// GitHub permalink is long beside a name of a few letters, and such uses
// are many (their permalinks were a tenth of a release's source pages).
// Nor does it link to a declaration on its own page at most nearLines
// above it, which a reader sees with it: such uses are half of a page's
// links. Types, functions, methods and constants link wherever they are
// declared, and a field's type is one click from its use.
func (l *linker) use(id *fact.Ident, line int) Href {
	if id.Target.IsZero() {
		return Href{}
	}
	h := l.href(id.Target)
	if identClass[id.Kind][0] != "" {
		return h
	}
	if h.GitHub || strings.HasPrefix(h.Value, "https:") {
		return Href{}
	}
	if d := line - id.Target.StartLine; strings.HasPrefix(h.Value, "#") && d >= 0 && d <= nearLines {
		return Href{}
	}
	return h
}

// importLines are the imports of a file whose package a use names with a
// link to the import's line on the same page: by line, the package's
// name. Such a use is written in the compact form <s>name</s> (clsPkgUse,
// no href), and its import's path string carries data-p=name, which the
// page's script finds when the name is clicked. Package names before a
// selector are a tenth of a source page's links, nearly all to one of a
// few import lines, so each link's markup saved counts; the link is a
// script's, like data-g's.
type importLines struct {
	names  map[int]string
	marked map[int]bool
}

// localImports returns the importLines of a file: the target lines of the
// package uses whose link stays on the page ("#L…").
func localImports(src []byte, idents []fact.Ident, links *linker, opts Options) importLines {
	m := importLines{names: map[int]string{}, marked: map[int]bool{}}
	if opts.DeclsOnly {
		return m
	}
	for i := range idents {
		id := &idents[i]
		if id.Kind != "pkg" || id.Def || id.Target.IsZero() || id.Off < 0 || id.Off+id.Len > len(src) {
			continue
		}
		name := string(src[id.Off : id.Off+id.Len])
		if h := links.href(id.Target); token.IsIdentifier(name) && !h.GitHub && strings.HasPrefix(h.Value, "#L") {
			m.names[id.Target.StartLine] = name
		}
	}
	return m
}

// local reports whether use id, whose link is h, is written in the compact
// form: a package's use linked to its import on this page.
func (m importLines) local(id *fact.Ident, h Href) bool {
	return id.Kind == "pkg" && !h.GitHub && strings.HasPrefix(h.Value, "#L") && m.names[id.Target.StartLine] != ""
}

// at returns the package name to mark on a string token at line, once:
// an import's path. "" for any other token.
func (m importLines) at(tok token.Token, line int) string {
	name := m.names[line]
	if tok != token.STRING || name == "" || m.marked[line] {
		return ""
	}
	m.marked[line] = true
	return name
}

// nearLines is how far above its use a declaration on the same page may
// be and still be in view with it (use).
const nearLines = 10

func indexOrLen(s []byte, c byte) int {
	if i := indexByte(s, c); i >= 0 {
		return i
	}
	return len(s)
}

// indexStr returns the index of sub in s, or len(s) (an unterminated
// comment runs to the end of the file).
func indexStr(s []byte, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i] == sub[0] && string(s[i:i+len(sub)]) == sub {
			return i
		}
	}
	return len(s)
}
