package site

import (
	"html/template"
	"strings"
	"sync"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/internal/render/codehtml"
	"github.com/kubewalk/kubewalk/templates"
)

// parsedTemplates parses templates/*.html once per process. Each build
// clones the result and binds "t" to its language.
var parsedTemplates = sync.OnceValues(func() (*template.Template, error) {
	return template.New("site").Funcs(template.FuncMap{
		// t translates a UI message key; bound per build.
		"t": func(string) string { return "" },
		// href is a link's href attribute, or a GitHub permalink's
		// compact form (ghHref); bound per build.
		"href": func(string) template.HTMLAttr { return "" },
		// short_symbol drops the import path: "deployment.DeploymentController.sync".
		"short_symbol": fact.ShortSymbol,
		"inc":          func(i int) int { return i + 1 },
		// code_spans splits text on backticks into plain and code runs,
		// for front-matter summaries written with Markdown code spans.
		"code_spans": codeSpans,
		// beside_css is the link to the asset name beside the page's
		// stylesheet link css: every asset is in the one assets/.
		"beside_css": func(css, name string) string { return strings.TrimSuffix(css, "site.css") + name },
	}).ParseFS(templates.FS, "*.html")
})

// release is the release line every page shows.
type release struct {
	Tag, Commit, CommitShort string
	// CommitURL is the commit's page (Options.CommitURL), "" when unknown.
	CommitURL string
}

// pageData is what the layout needs; Body is the page kind's own data.
type pageData struct {
	Lang   string
	Title  string
	Path   string
	Active string // nav key of the current section
	// Links from this page to the site's fixed pages and assets.
	Home, Handlers, Events, Resources, Gates, Search, Explain, SearchJS, SearchIndexJS, CSS, JS, Facts string
	// RelJS links releases.js, loaded before JS by the pages of a release
	// of several (releasesScript); "" otherwise.
	RelJS   string
	Release release
	// Versions is the version switcher (multi-release sites only) and
	// Root the link to the list of releases.
	Versions []versionView
	Root     string
	// Recorded links the Recorded run page, "" when the release has no
	// recording.
	Recorded string
	// Controllers links the controllers index, "" when the facts list none.
	Controllers string
	// Langs is the language switch and hreflang alternates of a
	// bilingual site; SrcRoot the link to its source pages' directory,
	// where site.js carries a reader's language (see langs.go). Empty in
	// a site of one language.
	Langs   []langView
	SrcRoot string
	// LangRoot links the bilingual release's root, which picks the
	// reader's language: the hreflang x-default. "" otherwise.
	LangRoot string
	// Diffs, on a walkthrough page with change badges and on the
	// changes page, links the release's diffs script (diffsFile), which
	// its languages share; "" otherwise.
	Diffs string
	// GH, on a page that shows code, is the release's GitHub base
	// (githubBase), from which its code's GitHub links name their
	// permalinks (data-g): the <body>'s data-gh, which site.js puts
	// before each. "" on the other pages.
	GH   string
	Body any
}

// codePageData is pageData for a page that shows code (source pages,
// walkthroughs, traces): it carries the base of its code's GitHub links.
func (b *builder) codePageData(p, title, active string, body any) pageData {
	d := b.pageData(p, title, active, body)
	d.GH = b.githubBase()
	return d
}

func (b *builder) pageData(p, title, active string, body any) pageData {
	r := release{Tag: b.in.Tag, Commit: b.in.Commit}
	r.CommitShort = r.Commit
	if r.Commit != "" && b.opts.CommitURL != nil {
		r.CommitURL = b.opts.CommitURL(r.Commit)
	}
	if len(r.CommitShort) > 12 {
		r.CommitShort = r.CommitShort[:12]
	}
	return pageData{
		Lang: b.in.Lang, Title: title, Path: p, Active: active,
		Home:          b.link(p, homePage, ""),
		Handlers:      b.link(p, handlersPage, ""),
		Events:        b.link(p, eventsPage, ""),
		Resources:     b.link(p, resourcesPage, ""),
		Gates:         b.link(p, gatesPage, ""),
		Search:        b.link(p, searchPage, ""),
		Explain:       b.link(p, explainPage, ""),
		SearchJS:      b.asset(p, "search.js"),
		SearchIndexJS: b.link(p, searchIndexJS, ""),
		CSS:           b.asset(p, "site.css"),
		JS:            b.asset(p, "site.js"),
		RelJS:         b.releasesScript(p),
		Facts:         b.link(p, factsFile, ""),
		Release:       r,
		Versions:      b.versions(p),
		Root:          b.rootHref(p),
		Recorded:      b.recordedLink(p),
		Controllers:   b.controllersLink(p),
		Langs:         b.langViews(p),
		SrcRoot:       b.srcRoot(p),
		LangRoot:      b.langRoot(p),
		Diffs:         b.diffsLink(p),
		GH:            b.pageGitHubBase(),
		Body:          body,
	}
}

// pageGitHubBase is a page's data-gh in a site of one release: its links
// to GitHub are written from it on (ghHref). In a site of several, only
// the pages that show code carry it (codePageData): the pages the
// releases share move their permalinks' lines per release on the href
// (site/internal/linemap), so theirs are written whole.
func (b *builder) pageGitHubBase() string {
	if b.set != nil {
		return ""
	}
	return b.githubBase()
}

// ghHref is the href attribute of a link to u, escaped for a
// double-quoted attribute; in a site of one release a GitHub permalink
// at the release (githubBase) is data-g, the rest of its URL after the
// page's data-gh (compact: codehtml.CompactGitHub), which site.js puts back into an href as the page loads,
// as for the code's (codehtml.Options.GitHub). Without script such a
// link is text. A URL that is not a safe href gives no attribute.
func (b *builder) ghHref(u string) template.HTMLAttr {
	if !codehtml.SafeHref(u) {
		return ""
	}
	if base := b.pageGitHubBase(); base != "" {
		if rest, ok := strings.CutPrefix(u, base); ok && rest != "" {
			return template.HTMLAttr(`data-g="` + template.HTMLEscapeString(codehtml.CompactGitHub(rest)) + `"`)
		}
	}
	return template.HTMLAttr(`href="` + template.HTMLEscapeString(u) + `"`)
}

// span is a run of text, Code when it was between backticks.
type span struct {
	Text string
	Code bool
}

// codeSpans splits s on backticks: "From `kubectl apply` to" → "From ",
// code "kubectl apply", " to". An unpaired backtick is kept as text. The
// template escapes every run; no HTML is built here.
func codeSpans(s string) []span {
	var out []span
	for {
		i := strings.IndexByte(s, '`')
		if i < 0 {
			break
		}
		j := strings.IndexByte(s[i+1:], '`')
		if j < 0 {
			break
		}
		if i > 0 {
			out = append(out, span{Text: s[:i]})
		}
		if j > 0 {
			out = append(out, span{Text: s[i+1 : i+1+j], Code: true})
		}
		s = s[i+2+j:]
	}
	if s != "" {
		out = append(out, span{Text: s})
	}
	return out
}

// langRoot is the link from the page at site path p to the root of a
// bilingual release (the language chooser); "" otherwise.
func (b *builder) langRoot(p string) string {
	if !b.bilingual() {
		return ""
	}
	return relURL(b.full(p), homePage, "")
}

// srcRoot is the link from the page at site path p to the shared source
// pages' directory of a bilingual site; "" otherwise.
func (b *builder) srcRoot(p string) string {
	if !b.bilingual() {
		return ""
	}
	return relURL(b.site(p), "src/", "")
}

// recordedLink is recordedHref for any page, shared ones included: the
// Recorded run page is a page of each language.
func (b *builder) recordedLink(p string) string {
	target := b.recordedHref(homePage) // from the root: a site path
	if target == "" {
		return ""
	}
	return b.link(p, target, "")
}
