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

// hrefRE matches a link as lineWriter.link writes it, in an anchor's
// start tag (text cannot hold one: its '<' is escaped): its attribute
// (group 1, href or data-g), and the value quoted (group 2) or bare
// (group 3).
var hrefRE = regexp.MustCompile(`<a (?:class=[a-z]+ )?(href|data-g)=(?:"([^"]*)"|([^\t\n\f\r "'=<>` + "`" + `]+))`)

// Hrefs returns where the links in h, HTML this package wrote (a Line,
// or Lines joined), go, in order, attribute-escaped, as written but for
// the quotes.
func Hrefs(h string) []Href {
	var out []Href
	for _, m := range hrefRE.FindAllStringSubmatchIndex(h, -1) {
		out = append(out, href(h, m))
	}
	return out
}

// ReplaceHrefs returns h, HTML this package wrote, with each link's
// attribute (as Hrefs gives it) replaced by what f returns for it when
// ok: an href, or a GitHub link's data-g, whose Value is the URL (or the
// rest of it) unescaped, as it is to go — ReplaceHrefs escapes and
// quotes it as the package writes its own (an empty Value is href="").
// A link f declines is left as it was.
func ReplaceHrefs(h string, f func(Href) (to Href, ok bool)) string {
	ms := hrefRE.FindAllStringSubmatchIndex(h, -1)
	if ms == nil {
		return h
	}
	var sb strings.Builder
	last := 0
	for _, m := range ms {
		to, ok := f(href(h, m))
		if !ok {
			continue
		}
		sb.WriteString(h[last:m[2]]) // up to the attribute's name
		sb.WriteString(to.attr())
		sb.WriteByte('=')
		sb.WriteString(attrValue(to.Value))
		last = m[1]
	}
	if last == 0 {
		return h
	}
	sb.WriteString(h[last:])
	return sb.String()
}

// href is the link of match m of hrefRE in h.
func href(h string, m []int) Href {
	v := Href{GitHub: h[m[2]:m[3]] == "data-g"}
	if m[4] >= 0 {
		v.Value = h[m[4]:m[5]]
	} else {
		v.Value = h[m[6]:m[7]]
	}
	return v
}
