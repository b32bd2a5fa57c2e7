// Package safehtml checks, in tests, that HTML made of hostile input
// holds only the markup its maker writes.
package safehtml

import (
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// Markdown are the tags and attributes goldmark's HTML renderer writes
// for the Markdown walkthroughs are written in (tables and
// strikethrough included), raw HTML off.
var Markdown = Allowed{
	Tags: []string{"p", "a", "em", "strong", "code", "pre", "span", "h3", "h4", "h5", "h6", "ul", "ol", "li",
		"blockquote", "table", "thead", "tbody", "tr", "th", "td", "img", "br", "hr", "del"},
	Attrs: []string{"href", "title", "class", "id", "alt", "src", "aria-label", "start"},
}

// Allowed are the tags and attributes a fragment may hold.
type Allowed struct{ Tags, Attrs []string }

// With is a, plus tags and attrs.
func (a Allowed) With(tags, attrs []string) Allowed {
	return Allowed{Tags: append(append([]string(nil), a.Tags...), tags...), Attrs: append(append([]string(nil), a.Attrs...), attrs...)}
}

// Check reports an error for each tag or attribute of s that a does
// not allow, and each href or src with a script or data URL. s is
// tokenised, so an "onclick=" that is escaped text inside an attribute
// value is fine and a real one is not.
func (a Allowed) Check(t testing.TB, s string) {
	t.Helper()
	z := html.NewTokenizer(strings.NewReader(s))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return
		case html.StartTagToken, html.SelfClosingTagToken:
			tok := z.Token()
			if !slices.Contains(a.Tags, tok.Data) {
				t.Errorf("tag <%s> in output", tok.Data)
			}
			for _, at := range tok.Attr {
				if !slices.Contains(a.Attrs, at.Key) {
					t.Errorf("attribute %s=%q on <%s>", at.Key, at.Val, tok.Data)
				}
				v := strings.ToLower(strings.TrimSpace(at.Val))
				if (at.Key == "href" || at.Key == "src") && (strings.HasPrefix(v, "javascript:") || strings.HasPrefix(v, "vbscript:") || strings.HasPrefix(v, "data:")) {
					t.Errorf("%s=%q on <%s>", at.Key, at.Val, tok.Data)
				}
			}
		}
	}
}
