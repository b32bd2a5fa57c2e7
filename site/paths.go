package site

import (
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/analyzer/fact/factsfile"
	"github.com/kubewalk/kubewalk/internal/disk/publish"
	"github.com/kubewalk/kubewalk/site/internal/searchindex"
	"github.com/kubewalk/kubewalk/site/internal/sitepath"
)

// Every URL the site emits is relative to the page it appears on, so the
// site works from file:// and under any URL prefix — including a
// multi-release site, whose releases' pages (<out>/<tag>/…) and shared
// source pages (<out>/src/…) link each other through builder.site and
// builder.link (shared.go, langs.go).
//
// Site paths (the paths below) are slash-separated paths from the site root,
// unescaped: "src/pkg/controller/deployment/sync.go.html".

const (
	homePage       = "index.html"
	handlersPage   = "handlers.html"
	eventsPage     = "events.html"
	resourcesPage  = "resources.html"
	searchPage     = searchindex.Page
	changesPage    = "changes.html"
	searchIndexJS  = searchindex.IndexJS
	searchSharedJS = searchindex.SharedJS
	factsFile      = factsfile.Name
	markerFile     = publish.Marker
)

// WalkthroughPage returns the site path of the walkthrough with the given ID.
func WalkthroughPage(id string) string { return "walkthroughs/" + id + ".html" }

// SourcePage returns the site path of the rendered source page of a
// repository file.
func SourcePage(repoPath string) string { return "src/" + repoPath + ".html" }

// relURL returns the URL of site path target as seen from the page at site
// path from (sitepath.Rel).
func relURL(from, target, fragment string) string { return sitepath.Rel(from, target, fragment) }

// lineFragment is the anchor of lines from..to: "L12" or "L12-L20".
func lineFragment(from, to int) string {
	if from <= 0 {
		return ""
	}
	if to <= from {
		return "L" + strconv.Itoa(from)
	}
	return "L" + strconv.Itoa(from) + "-L" + strconv.Itoa(to)
}

// parseLines reads lineFragment's output back: lines from..to, to 0 for
// one line.
func parseLines(frag string) (from, to int, ok bool) {
	a, b, rng := strings.Cut(frag, "-")
	n, ok := lineNumber(a)
	if !ok {
		return 0, 0, false
	}
	if !rng {
		return n, 0, true
	}
	m, ok := lineNumber(b)
	return n, m, ok
}

func lineNumber(s string) (int, bool) {
	d, ok := strings.CutPrefix(s, "L")
	if !ok || d == "" || d[0] == '0' {
		return 0, false
	}
	n, err := strconv.Atoi(d)
	return n, err == nil && n > 0
}

// symbolURLFor returns the function prosehtml.Links.SymbolURL wants for
// Markdown rendered onto the page at site path pagePath (for a walkthrough,
// WalkthroughPage(id)): the rendered source page of the symbol's file at
// the declaration's lines, or at the matched lines when the reference named
// some. Every file a walkthrough cites gets a source page, so the URL is
// always in-site.
func symbolURLFor(pagePath string) func(fact.Resolved) string {
	return func(r fact.Resolved) string {
		from, to := resolvedLines(r)
		return relURL(pagePath, SourcePage(r.Symbol.Decl.Path), lineFragment(from, to))
	}
}

// walkthroughURL is prosehtml.Links.WalkthroughURL for the site: a link
// from one walkthrough page to another's page and step.
func walkthroughURL(id, anchor string) string {
	return relURL(WalkthroughPage("x"), WalkthroughPage(id), anchor)
}

// resolvedLines is the span a reference points at: the matched lines when
// the reference narrowed the declaration, else the whole declaration.
func resolvedLines(r fact.Resolved) (from, to int) {
	if len(r.Matched) > 0 {
		return r.Matched[0], r.Matched[len(r.Matched)-1]
	}
	return r.Symbol.Decl.StartLine, r.Symbol.Decl.EndLine
}

// checkRepoPath rejects repository paths that could write outside the
// output directory or do not name a file: absolute, "..", unclean.
func checkRepoPath(p string) error {
	if p == "" || path.IsAbs(p) || path.Clean(p) != p || p == ".." || strings.HasPrefix(p, "../") || strings.Contains(p, "\\") || strings.ContainsRune(p, 0) {
		return fmt.Errorf("site: bad repository path %q", p)
	}
	return nil
}

// anchorID turns arbitrary text (an event reason, a resource) into an HTML
// id: letters, digits, '-' and '_' kept, everything else as '-' plus its
// code point, so different texts never collide.
func anchorID(prefix, s string) string {
	var b strings.Builder
	b.WriteString(prefix)
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_':
			b.WriteRune(r)
		default:
			b.WriteString("-" + strconv.FormatInt(int64(r), 16))
		}
	}
	return b.String()
}
