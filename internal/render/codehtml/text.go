package codehtml

import (
	"path"
	"strings"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
)

// Text highlights a file that is not Go (YAML, shell, JSON, Markdown,
// Dockerfile, …) with chroma, choosing the lexer by file name. A ".go"
// file is passed to Go without identifiers. A file chroma has no lexer
// for, or fails on, is written as plain escaped text. Output has the same
// shape and guarantees as Go's.
func Text(filename string, src []byte) []Line {
	if strings.HasSuffix(filename, ".go") {
		return Go(src, nil, Options{})
	}
	return highlight(lexers.Match(path.Base(filename)), src)
}

// Lang is Text for a language name or alias instead of a file name: the
// info string of a fenced code block ("yaml", "sh", "console", "json").
// "go" gets Go's own highlighter.
func Lang(lang string, src []byte) []Line {
	lang = strings.ToLower(strings.TrimSpace(lang))
	if lang == "go" || lang == "golang" {
		return Go(src, nil, Options{})
	}
	var l chroma.Lexer
	if lang != "" {
		l = lexers.Get(lang)
	}
	return highlight(l, src)
}

// Plain is src as escaped text without any highlighting, in Lines of the
// same shape: the last resort for a file whose highlighted page would be
// too heavy even with Options.DeclsOnly.
func Plain(src []byte) []Line { return highlight(nil, src) }

func highlight(l chroma.Lexer, src []byte) []Line {
	w := writers.Get().(*lineWriter)
	defer writers.Put(w)
	w.reset()
	if l == nil {
		w.write("", src)
		return w.lines()
	}
	it, err := chroma.Coalesce(l).Tokenise(nil, string(src))
	if err != nil {
		w.write("", src)
		return w.lines()
	}
	var pending []byte // plain text waiting for the next classed token
	for tok := it(); tok != chroma.EOF; tok = it() {
		class := chromaClass(tok.Type)
		if class == "" {
			pending = append(pending, tok.Value...)
			continue
		}
		w.gap(pending, class)
		pending = pending[:0]
		w.write(class, []byte(tok.Value))
	}
	w.gap(pending, "")
	return w.lines()
}

// chromaClass maps a chroma token type onto this package's classes (see
// CSS), by exact type, then sub-category, then category; "" for plain.
// Sharing Go's classes, instead of chroma's own two-letter names, keeps
// one palette and one stylesheet for every language on the site.
func chromaClass(tt chroma.TokenType) string {
	for _, t := range [...]chroma.TokenType{tt, tt.SubCategory(), tt.Category()} {
		if c, ok := chromaClasses[t]; ok {
			return c
		}
	}
	return ""
}

var chromaClasses = map[chroma.TokenType]string{
	chroma.Keyword:           "k",
	chroma.KeywordType:       "t",
	chroma.KeywordConstant:   "o",
	chroma.NameBuiltin:       "b",
	chroma.NameFunction:      "f",
	chroma.NameDecorator:     "f",
	chroma.NameClass:         "t",
	chroma.NameException:     "t",
	chroma.NameConstant:      "o",
	chroma.NameVariable:      "v",
	chroma.NameTag:           "a",
	chroma.NameAttribute:     "a",
	chroma.NameNamespace:     "p",
	chroma.LiteralString:     "s",
	chroma.LiteralNumber:     "i",
	chroma.LiteralDate:       "i",
	chroma.Comment:           "c",
	chroma.CommentPreproc:    "c",
	chroma.GenericDeleted:    "xd",
	chroma.GenericInserted:   "xi",
	chroma.GenericHeading:    "xh",
	chroma.GenericSubheading: "xh",
	chroma.GenericStrong:     "xs",
	chroma.GenericEmph:       "xe",
	chroma.GenericPrompt:     "xp",
	// Name, Operator, Punctuation, Text, Other, Error: plain.
	chroma.Name:     "",
	chroma.Operator: "",
	chroma.Text:     "",
}
