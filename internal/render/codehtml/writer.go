package codehtml

import "html/template"

// lineWriter accumulates highlighted HTML for a whole file in one byte
// slice and records where each source line ends, so a file costs one
// allocation for its text (the final string) plus one slice of Lines.
//
// At most one element is open at a time; it is closed before every newline
// and reopened after it, so each Line is balanced HTML on its own. Runs of
// tokens of the same class separated only by blanks share one element
// ("else if" is one), which keeps the output small. The commonest classes
// are elements of their own (element), restyled by CSS; the rest are
// <span class=…>.
type lineWriter struct {
	buf  []byte
	ends []int  // ends[i] is the end offset in buf of line i
	cur  string // class of the open element, "" when none
}

func (w *lineWriter) reset() {
	w.buf = w.buf[:0]
	w.ends = w.ends[:0]
	w.cur = ""
}

// element is how class is written: the element that carries it, and the
// class attribute that element needs ("" for none). A keyword is <b>, a
// comment <i>, a string <kbd>, a builtin, number or constant (one colour)
// <var>, and a definition <dfn> (the element for a term's defining
// instance, bold), with the class of its kind's colour (<dfn class=t> for
// a type's); the rest are spans. Each element is one the page uses for
// nothing else inside a code block, and none is announced by assistive
// technology (HTML-AAM maps b, i, kbd and var to no role of their own,
// dfn to a term).
//
// Strings are <kbd>, not <q>, the element the HTML spec has for a
// quotation: Firefox's plain-text serializer (nsPlainTextSerializer,
// which copying a selection uses) writes a '"' at each end of a <q>
// whatever the CSS says, so a copied "x" would paste as ""x"".
//
// A keyword's, builtin's or string's markup is a short element rather
// than a span with a class: a release's source pages hold tens of
// thousands of each.
func element(class string) (tag, attr string) {
	switch class {
	case clsKeyword:
		return "b", ""
	case clsComment:
		return "i", ""
	case clsString:
		return "kbd", ""
	case clsNumber, clsBuiltin, "o", "v":
		return "var", ""
	case clsDef:
		return "dfn", ""
	case "td", "fd", "md", "od", "pd":
		return "dfn", class[:1]
	case clsPkgUse:
		return "s", ""
	}
	return "span", class
}

func (w *lineWriter) closeSpan() {
	if w.cur != "" {
		t, _ := element(w.cur)
		w.buf = append(w.buf, "</"...)
		w.buf = append(w.buf, t...)
		w.buf = append(w.buf, '>')
		w.cur = ""
	}
}

func (w *lineWriter) openSpan(class string) {
	if w.cur == class {
		return
	}
	w.closeSpan()
	if class == "" {
		return
	}
	w.openTag(class, "", "")
}

// openTag opens class's element, with attribute attr=value when attr is
// not "" (value attribute-escaped), and makes it the open one.
func (w *lineWriter) openTag(class, attr, value string) {
	t, c := element(class)
	w.buf = append(w.buf, '<')
	w.buf = append(w.buf, t...)
	if c != "" {
		w.buf = append(w.buf, " class="...)
		w.buf = append(w.buf, c...)
	}
	if attr != "" {
		w.buf = append(w.buf, ' ')
		w.buf = append(w.buf, attr...)
		w.buf = append(w.buf, '=')
		w.buf = appendValue(w.buf, value)
	}
	w.buf = append(w.buf, '>')
	w.cur = class
}

// writeMarked writes token s, which holds no newline, in an element of
// its own of class, carrying attr=value (value a Go identifier's text).
func (w *lineWriter) writeMarked(class, attr, value string, s []byte) {
	w.closeSpan()
	w.openTag(class, attr, value)
	w.buf = appendEscaped(w.buf, s)
	w.closeSpan()
}

// newline ends the current line.
func (w *lineWriter) newline() {
	w.closeSpan()
	w.ends = append(w.ends, len(w.buf))
}

// write writes source text s in the given class, splitting it at newlines.
func (w *lineWriter) write(class string, s []byte) {
	for len(s) > 0 {
		i := indexByte(s, '\n')
		seg := s
		if i >= 0 {
			seg = s[:i]
		}
		if len(seg) > 0 {
			w.openSpan(class)
			w.buf = appendEscaped(w.buf, seg)
		}
		if i < 0 {
			return
		}
		w.newline()
		s = s[i+1:]
	}
}

// gap writes the plain text between two tokens, next being the class of
// the token that follows. Blanks between two tokens of one class stay
// inside the open span, so "else if" is one span.
func (w *lineWriter) gap(s []byte, next string) {
	if len(s) == 0 {
		return
	}
	if w.cur == "" || w.cur != next || !blank(s) {
		w.closeSpan()
	}
	w.write(w.cur, s)
}

// link writes one identifier (never containing a newline) as an anchor:
// with an href, or a GitHub link's data-g (Options.GitHub). href must
// already have passed SafeHref and been attribute-escaped.
func (w *lineWriter) link(class string, href Href, s []byte) {
	w.closeSpan()
	w.buf = append(w.buf, "<a"...)
	if class != "" {
		w.buf = append(w.buf, " class="...)
		w.buf = append(w.buf, class...)
	}
	w.buf = append(w.buf, ' ')
	w.buf = append(w.buf, href.attr()...)
	w.buf = append(w.buf, '=')
	w.buf = appendValue(w.buf, href.Value)
	w.buf = append(w.buf, '>')
	w.buf = appendEscaped(w.buf, s)
	w.buf = append(w.buf, "</a>"...)
}

// lines finishes the output and cuts it into Lines. A final line without
// a trailing newline counts; an empty file has no lines.
func (w *lineWriter) lines() []Line {
	w.closeSpan()
	if n := len(w.ends); len(w.buf) > 0 && (n == 0 || w.ends[n-1] != len(w.buf)) {
		w.ends = append(w.ends, len(w.buf))
	}
	// This is where source text becomes trusted HTML. It is safe because
	// every byte of source went through appendEscaped (which escapes &, <
	// and >, so text can neither open nor close a tag), the only markup is
	// the fixed elements of element and <a …> written above with class
	// names from this package's own constant tables, and every href
	// passed SafeHref (https:// or a relative URL, nothing else) and
	// appendAttr (quotes, & and angle brackets escaped) before
	// appendValue wrote it, quoted unless it is one token (bare); a
	// GitHub link's data-g is the rest of such an https URL after the
	// page's base, which the page's script puts back before it.
	all := template.HTML(w.buf)
	out := make([]Line, len(w.ends))
	start := 0
	for i, end := range w.ends {
		out[i] = all[start:end]
		start = end
	}
	return out
}

func indexByte(s []byte, c byte) int {
	for i, b := range s {
		if b == c {
			return i
		}
	}
	return -1
}

func blank(s []byte) bool {
	for _, b := range s {
		if b != ' ' && b != '\t' {
			return false
		}
	}
	return true
}

// appendEscaped appends s with &, < and > escaped: enough for HTML text
// content, where quotes are harmless. Carriage returns are dropped: the
// HTML parser turns a lone CR into a line break, which would split a Line
// in two on the page. Runs without special bytes are copied in one append.
func appendEscaped(dst, s []byte) []byte {
	last := 0
	for i, b := range s {
		var esc string
		switch b {
		case '\r':
		case '&':
			esc = "&amp;"
		case '<':
			esc = "&lt;"
		case '>':
			esc = "&gt;"
		default:
			continue
		}
		dst = append(dst, s[last:i]...)
		dst = append(dst, esc...)
		last = i + 1
	}
	return append(dst, s[last:]...)
}

// appendAttr appends s escaped for a double-quoted attribute value.
func appendAttr(dst []byte, s string) []byte {
	last := 0
	for i := 0; i < len(s); i++ {
		var esc string
		switch s[i] {
		case '&':
			esc = "&amp;"
		case '<':
			esc = "&lt;"
		case '>':
			esc = "&gt;"
		case '"':
			esc = "&#34;"
		case '\'':
			esc = "&#39;"
		default:
			continue
		}
		dst = append(dst, s[last:i]...)
		dst = append(dst, esc...)
		last = i + 1
	}
	return append(dst, s[last:]...)
}

func needsAttrEscape(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '&', '<', '>', '"', '\'':
			return true
		}
	}
	return false
}
