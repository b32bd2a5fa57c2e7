package codehtml

import "strings"

// Attribute values are written bare where HTML allows it, and quoted
// otherwise: an href is most of a link's markup and there are 175,000 of
// them in a release's source pages (v1.37.2), each two bytes lighter
// without its quotes.
//
// HTML's unquoted attribute value syntax admits any text but the empty
// string, ASCII whitespace and " ' = < > ` (HTML Living Standard,
// "Attributes"). A value here is already escaped (appendAttr), so it
// holds none of " ' < >; it is bare unless it is empty or holds
// whitespace, '=', '`' or '&': a character reference is allowed bare,
// but quoting every escaped value keeps the rule one a reader can check
// at a glance, and a URL with one is rare.

// bare reports whether the escaped attribute value v may be written
// without quotes.
func bare(v string) bool {
	if v == "" {
		return false
	}
	for i := 0; i < len(v); i++ {
		switch v[i] {
		case ' ', '\t', '\n', '\f', '\r', '"', '\'', '=', '<', '>', '`', '&':
			return false
		}
	}
	return true
}

// appendValue appends the escaped attribute value v, quoted unless bare.
func appendValue(dst []byte, v string) []byte {
	if bare(v) {
		return append(dst, v...)
	}
	dst = append(dst, '"')
	dst = append(dst, v...)
	return append(dst, '"')
}

// stagingDir is where the staging modules' code sits in the tree; most
// of the code's links to files the site does not render go there (the
// API types, client-go, apimachinery), so a GitHub link's data-g writes
// stagingMark in its place.
const (
	stagingDir  = "staging/src/k8s.io/"
	stagingMark = "~"
)

// CompactGitHub is the data-g of a GitHub link: rest, the rest of its
// permalink after the page's base, with stagingDir at its start written
// as stagingMark ("~api/core/v1/types.go#L30"). A rest that starts with
// the mark itself has it percent-encoded, the same URL to GitHub, so
// that GitHubRest gives every rest back.
func CompactGitHub(rest string) string {
	if r, ok := strings.CutPrefix(rest, stagingDir); ok {
		return stagingMark + r
	}
	if r, ok := strings.CutPrefix(rest, stagingMark); ok {
		return "%7E" + r
	}
	return rest
}

// GitHubRest is the rest of the permalink after the page's base that a
// GitHub link's data-g names: CompactGitHub undone, as site.js undoes
// it before it puts the base in front (and writes the whole rest back
// into data-g, which releases.js then reads).
func GitHubRest(g string) string {
	if r, ok := strings.CutPrefix(g, stagingMark); ok {
		return stagingDir + r
	}
	return g
}

// A Href is where a link of highlighted code goes, as written:
// attribute-escaped, without quotes.
type Href struct {
	// Value is the link's href, or, for a GitHub link, its data-g: the
	// URL from the page's GitHub base (Options.GitHub) on, compact
	// (CompactGitHub).
	Value string
	// GitHub marks a GitHub link in the compact form (data-g), which
	// has no href until the page's script gives it one.
	GitHub bool
}

// attr is the attribute that holds h's Value.
func (h Href) attr() string {
	if h.GitHub {
		return "data-g"
	}
	return "href"
}

// attrValue is URL u written as an attribute's value the way this
// package writes its own: attribute-escaped, and quoted unless it is one
// bare token.
func attrValue(u string) string {
	if needsAttrEscape(u) {
		u = string(appendAttr(nil, u))
	}
	if bare(u) {
		return u
	}
	return `"` + u + `"`
}

// A link starts, as lineWriter.link writes it, with the fixed shape of
// an anchor's start tag: "<a ", then, when it has a class, "class=", a
// name of a-z and a space, then its attribute (href, or a GitHub link's
// data-g), '=' and the value, quoted (any text but '"') or bare (at
// least one byte, none of HTML's unquoted-value exclusions: ASCII
// whitespace and " ' = < > `). Text cannot hold one: its '<' is escaped.
// nextLink reads that one shape byte by byte, exactly; whatever is not
// of it (a class in capitals, <abbr, an anchor's other attribute, an
// empty value) is passed over. It is a scanner of the one shape, not a
// regular expression, because Hrefs and ReplaceHrefs run on every line
// of every release a site merges (site/internal/srcmerge); FuzzHrefs
// holds it to the regular expression of the shape.

// nextLink finds the first link in h at or after from: its attribute,
// from the name to the end of the value (quotes included), is
// h[name:end], and v is what Hrefs gives for it. name is -1 when there
// is none.
func nextLink(h string, from int) (v Href, name, end int) {
	for {
		i := strings.Index(h[from:], "<a ")
		if i < 0 {
			return Href{}, -1, -1
		}
		from += i + len("<a ")
		if v, name, end = linkAttr(h, from); name >= 0 {
			return v, name, end
		}
	}
}

// linkAttr reads the attributes of an anchor's start tag from h[i], just
// past "<a ", as nextLink does: the link's Href and where its attribute
// is, h[name:end], or a name of -1 when they are not a link's.
func linkAttr(h string, i int) (v Href, name, end int) {
	if c, ok := strings.CutPrefix(h[i:], "class="); ok {
		n := 0
		for n < len(c) && 'a' <= c[n] && c[n] <= 'z' {
			n++
		}
		if n == 0 || n == len(c) || c[n] != ' ' {
			return Href{}, -1, -1
		}
		i += len("class=") + n + len(" ")
	}
	name = i
	switch {
	case strings.HasPrefix(h[i:], "href="):
		i += len("href=")
	case strings.HasPrefix(h[i:], "data-g="):
		i += len("data-g=")
		v.GitHub = true
	default:
		return Href{}, -1, -1
	}
	if i < len(h) && h[i] == '"' {
		n := strings.IndexByte(h[i+1:], '"')
		if n < 0 {
			return Href{}, -1, -1
		}
		v.Value = h[i+1 : i+1+n]
		return v, name, i + 1 + n + 1
	}
	end = i
	for end < len(h) && !unquotedEnd(h[end]) {
		end++
	}
	if end == i {
		return Href{}, -1, -1
	}
	v.Value = h[i:end]
	return v, name, end
}

// unquotedEnd reports whether c ends an unquoted attribute value (or
// may not be in one).
func unquotedEnd(c byte) bool {
	switch c {
	case '\t', '\n', '\f', '\r', ' ', '"', '\'', '=', '<', '>', '`':
		return true
	}
	return false
}

// Hrefs returns where the links in h, HTML this package wrote (a Line,
// or Lines joined), go, in order, attribute-escaped, as written but for
// the quotes.
func Hrefs(h string) []Href {
	var out []Href
	for from := 0; ; {
		v, name, end := nextLink(h, from)
		if name < 0 {
			return out
		}
		if out == nil {
			// At most one more link for each "<a " left.
			out = make([]Href, 0, 1+strings.Count(h[end:], "<a "))
		}
		out = append(out, v)
		from = end
	}
}

// ReplaceHrefs returns h, HTML this package wrote, with each link's
// attribute (as Hrefs gives it) replaced by what f returns for it when
// ok: an href, or a GitHub link's data-g, whose Value is the URL (or the
// rest of it) unescaped, as it is to go — ReplaceHrefs escapes and
// quotes it as the package writes its own (an empty Value is href="").
// A link f declines is left as it was.
func ReplaceHrefs(h string, f func(Href) (to Href, ok bool)) string {
	var sb strings.Builder
	last := 0
	for from := 0; ; {
		v, name, end := nextLink(h, from)
		if name < 0 {
			break
		}
		from = end
		to, ok := f(v)
		if !ok {
			continue
		}
		if last == 0 {
			sb.Grow(len(h))
		}
		sb.WriteString(h[last:name]) // up to the attribute's name
		sb.WriteString(to.attr())
		sb.WriteByte('=')
		sb.WriteString(attrValue(to.Value))
		last = end
	}
	if last == 0 {
		return h
	}
	sb.WriteString(h[last:])
	return sb.String()
}
