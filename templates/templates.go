// Package templates holds the site's HTML templates, stylesheet and scripts
// as an embed.FS. Package site parses the templates once per process and
// copies the assets verbatim into every site it builds.
//
// Layout of FS:
//
//	layout.html        the page skeleton ("layout"), shared partials
//	<page>.html        one file per page kind, each defining "content"
//	assets/site.css    light and dark styles (code token colours come from
//	                   internal/render/codehtml and are appended at build time)
//	assets/site.js     line-range highlighting on source pages
//	assets/search.js   the search page (reads search-index.js)
//	assets/lang.js     the root of a bilingual site: the browser's language
//	i18n/<lang>.yaml   the text of the site's chrome in each language (key: "text";
//	                   Messages reads it)
package templates

import "embed"

// FS holds *.html, assets/* and i18n/*.
//
//go:embed *.html assets i18n
var FS embed.FS
