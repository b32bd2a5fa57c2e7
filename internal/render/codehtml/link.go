package codehtml

import "strings"

// SafeHref reports whether href may be written into a page: an https://
// URL, or a relative reference ("#L12", "../x/y.go.html#L3", "/p") with
// no scheme. Everything else — javascript:, data:, http:, protocol-relative
// "//host", anything with a backslash (browsers read "/\host" as
// "//host"), whitespace or control characters — is refused, and the
// identifier is written without a link.
func SafeHref(href string) bool {
	if href == "" {
		return false
	}
	for i := 0; i < len(href); i++ {
		if c := href[i]; c <= ' ' || c == 0x7f || c == '\\' {
			return false
		}
	}
	if strings.HasPrefix(href, "https://") {
		return len(href) > len("https://")
	}
	if strings.HasPrefix(href, "//") {
		return false
	}
	// A colon before the first '/', '?' or '#' would make the first
	// segment a scheme (RFC 3986 section 4.2).
	for i := 0; i < len(href); i++ {
		switch href[i] {
		case ':':
			return false
		case '/', '?', '#':
			return true
		}
	}
	return true
}
