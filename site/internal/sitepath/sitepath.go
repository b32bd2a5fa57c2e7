// Package sitepath is how the site's pages link each other: relative
// URLs between site paths (slash-separated paths from the site's root),
// so that a site works from file:// and under any URL prefix.
package sitepath

import (
	"net/url"
	"strings"
)

// Rel returns the URL of site path target as seen from the page at site
// path from, with each segment percent-escaped, plus fragment (without "#")
// when not empty. A link to the page itself is just the fragment.
func Rel(from, target, fragment string) string {
	var b strings.Builder
	if target != from || fragment == "" {
		b.WriteString(strings.Repeat("../", strings.Count(from, "/")))
		for i, seg := range strings.Split(target, "/") {
			if i > 0 {
				b.WriteByte('/')
			}
			b.WriteString(url.PathEscape(seg))
		}
	}
	if fragment != "" {
		b.WriteByte('#')
		b.WriteString(fragment)
	}
	return b.String()
}
