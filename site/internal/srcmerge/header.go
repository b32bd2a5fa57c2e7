package srcmerge

// A shared source page's header for an older release is often the
// newest release's made over for it, which site.js does from the
// newest's (data-like) instead of the page carrying it again; these
// functions tell, from the HTML package site renders, whether it is.

import (
	"net/url"
	"regexp"
	"strings"

	"github.com/kubewalk/kubewalk/site/internal/pageshare"
)

// Relinked is HTML h with its links moved from release from (the newest,
// or the release of a source header written whole) to rel, as site.js
// moves a made-over header's: the release's directory, and a ?rel=
// naming it.
func Relinked(h, from, rel string) string {
	relOf := regexp.MustCompile(`((?:\?|&amp;)rel=)` + regexp.QuoteMeta(url.QueryEscape(from)) + `([&#]|$)`)
	return pageshare.QuotedURL.ReplaceAllStringFunc(h, func(a string) string {
		sm := pageshare.QuotedURL.FindStringSubmatch(a)
		v := strings.ReplaceAll(sm[2], "/"+from+"/", "/"+rel+"/")
		v = relOf.ReplaceAllString(v, "${1}"+url.QueryEscape(rel)+"${2}")
		return sm[1] + `="` + v + `"`
	})
}

// LikeNewest is the header of a shared source page for release rel, made
// from its newest release's, h, as site.js makes it for a part that says
// it is like the newest's (data-like): links into the newest release's
// directory go to rel's, the version switcher marks rel, and the links to
// the page in other languages (and the switcher's to the newest) name
// rel (and not). A part whose header is not this is written whole.
func LikeNewest(h, newest, rel string) string {
	h = strings.ReplaceAll(h, "/"+newest+"/", "/"+rel+"/")
	h = strings.Replace(h, `">`+newest+`</span></summary>`, `">`+rel+`</span></summary>`, 1)
	q := "rel=" + url.QueryEscape(rel)
	// The switcher's entry for rel: "x.go.html?rel=…" or "…?rel=…&amp;lang=ko".
	i := strings.Index(h, "?"+q+`" data-switch>`+rel+"</a></li>")
	if i < 0 {
		i = strings.Index(h, "?"+q+`&amp;`)
	}
	start := strings.LastIndex(h[:max(i, 0)], `<li><a href="`)
	end := strings.Index(h[max(i, 0):], "</a></li>")
	if i < 0 || start < 0 || end < 0 {
		return ""
	}
	entry := h[start : i+end+len("</a></li>")]
	href := strings.TrimPrefix(entry[:strings.Index(entry, `"`+` data-switch>`)], `<li><a href="`)
	self := strings.Replace(strings.Replace(href, "?"+q+"&amp;", "?", 1), "?"+q, "", 1)
	h = strings.Replace(h, entry, `<li><b aria-current="true">`+rel+`</b></li>`, 1)
	h = strings.Replace(h, `<li><b aria-current="true">`+newest+`</b></li>`, `<li><a href="`+self+`" data-switch>`+newest+`</a></li>`, 1)
	// The language switch's links: the page, in another language.
	return langLinkHref.ReplaceAllStringFunc(h, func(a string) string {
		m := langLinkHref.FindStringSubmatch(a)
		page, query, _ := strings.Cut(m[1], "?")
		if query == "" {
			return `<a href="` + page + "?" + q + `" hreflang=`
		}
		return `<a href="` + page + "?" + q + "&amp;" + query + `" hreflang=`
	})
}

// LikeNewestBut reports whether header h of release rel is LikeNewest of
// the newest release's, newest, but for links in its bar to pages rel
// does not have, and which: their paths from rel's directory on
// (data-drop, which site.js takes out of the bar).
func LikeNewestBut(newestHeader, newest, rel, h string) (drop string, ok bool) {
	made := LikeNewest(newestHeader, newest, rel)
	if made == h {
		return "", true
	}
	var gone []string
	made = barLink.ReplaceAllStringFunc(made, func(a string) string {
		if strings.Contains(h, a) {
			return a
		}
		href := barLink.FindStringSubmatch(a)[1]
		_, p, found := strings.Cut(href, "/"+rel+"/")
		if !found || strings.ContainsAny(p, " ") {
			return a
		}
		gone = append(gone, p)
		return ""
	})
	return strings.Join(gone, " "), made == h && len(gone) > 0
}

// barLink matches a link of the header's bar.
var barLink = regexp.MustCompile(`<a href="([^"]*)"(?: aria-current="page")?>[^<]*</a>`)

// langLinkHref matches a link of the language switch.
var langLinkHref = regexp.MustCompile(`<a href="([^"]*)" hreflang=`)
