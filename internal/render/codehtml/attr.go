package codehtml

import (
	"regexp"
	"strings"
)

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

// HrefValue is URL u written as the value of an href the way this
// package writes its own: attribute-escaped, and quoted unless it is one
// bare token. The caller vouches for u (SafeHref, or a URL it made).
func HrefValue(u string) string {
	if needsAttrEscape(u) {
		u = string(appendAttr(nil, u))
	}
	if bare(u) {
		return u
	}
	return `"` + u + `"`
}

// hrefRE matches an href of a link as lineWriter.link writes it, in an
// anchor's start tag (text cannot hold one: its '<' is escaped): the
// value quoted (group 1) or bare (group 2).
var hrefRE = regexp.MustCompile(`<a (?:class=[a-z]+ )?href=(?:"([^"]*)"|([^\t\n\f\r "'=<>` + "`" + `]+))`)

// Hrefs returns the values of the hrefs of the links in h, HTML this
// package wrote (a Line, or Lines joined), in order and
// attribute-escaped, as written but for the quotes.
func Hrefs(h string) []string {
	var out []string
	for _, m := range hrefRE.FindAllStringSubmatchIndex(h, -1) {
		out = append(out, value(h, m))
	}
	return out
}

// ReplaceHrefs returns h, HTML this package wrote, with the value of each
// link's href v (attribute-escaped, without quotes) replaced by what f
// returns for it when ok: the value as it is to be written, quotes and
// all (HrefValue). An href f declines is left as it was.
func ReplaceHrefs(h string, f func(v string) (to string, ok bool)) string {
	ms := hrefRE.FindAllStringSubmatchIndex(h, -1)
	if ms == nil {
		return h
	}
	var sb strings.Builder
	last := 0
	for _, m := range ms {
		to, ok := f(value(h, m))
		if !ok {
			continue
		}
		start := m[2] - 1 // the opening quote
		if m[2] < 0 {
			start = m[4]
		}
		sb.WriteString(h[last:start])
		sb.WriteString(to)
		last = m[1]
	}
	if last == 0 {
		return h
	}
	sb.WriteString(h[last:])
	return sb.String()
}

// value is the href value of match m of hrefRE in h.
func value(h string, m []int) string {
	if m[2] >= 0 {
		return h[m[2]:m[3]]
	}
	return h[m[4]:m[5]]
}
