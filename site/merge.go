package site

import (
	"context"
	"fmt"
	"path"
	"runtime"
	"strings"

	"golang.org/x/sync/errgroup"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/internal/render/codehtml"
	"github.com/kubewalk/kubewalk/site/internal/srcmerge"
)

// A multi-release site has one source page per file, serving every
// release that renders the file, its lines aligned across the releases
// and each written once (package srcmerge, whose comment says how). This
// file renders each release's copy of a file's lines for it.

// renderLines renders each release's copy of every file of set.src with
// a page (renderMerged), files side by side.
func (set *releaseSet) renderLines(ctx context.Context, bs []*builder) error {
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(runtime.GOMAXPROCS(0))
	for _, m := range set.src.Sorted() {
		g.Go(func() error {
			if err := gctx.Err(); err != nil {
				return err
			}
			return set.renderMerged(bs, m)
		})
	}
	return g.Wait()
}

// renderMerged renders each release's copy of m's file and files each
// line's rendering under its merged line. Links are rendered as if the
// file were the newest's everywhere: in-site ones as placeholders for a
// merged line of a file (placeholder; resolved per part when written),
// GitHub permalinks with the page's newest tag, in the compact form
// from the page's base on (m.GH; releases.js swaps the tag for an older
// release's, its block's data-gh), so a line renders the same in
// releases that agree on it.
func (set *releaseSet) renderMerged(bs []*builder, m *srcmerge.Src) error {
	newest := bs[m.Rels[0]]
	m.GH = ghBase(newest, m.File)
	m.Moves = make([]map[string]string, len(m.Rels))
	var decls bool
	for k, r := range m.Rels {
		m.Moves[k] = map[string]string{}
		b := bs[r]
		src, err := b.in.ReadFile(m.File)
		if err != nil {
			return err
		}
		if k == 0 { // the newest decides for every release of the page
			decls = path.Ext(m.File) == ".go" && codehtml.Generated(src)
		}
		link := func(l fact.Location) string {
			if !b.rendered[l.Path] {
				u := b.opts.SourceURL(l.Path, l.StartLine, 0)
				if g, gn := ghBase(b, l.Path), ghBase(newest, l.Path); g != "" && gn != "" && strings.HasPrefix(u, g) {
					u = gn + u[len(g):]
				}
				return u
			}
			return set.src.Placeholder(l.Path, r, l.StartLine)
		}
		var lines []codehtml.Line
		if !decls {
			lines = highlight(path.Base(m.File), src, b.xrefs[m.File], link, m.GH)
		}
		// As on a release's own page (sourceCode), generated code and a
		// file too heavy in full show their declarations only, here in
		// every release of the page, so that its lines compare equal.
		if k == 0 && codeSize(lines) > maxCode {
			decls = true
		}
		if decls {
			lines = codehtml.Go(src, b.xrefs[m.File], codehtml.Options{DeclsOnly: true})
		}
		if len(lines) != len(m.At[k]) {
			return fmt.Errorf("site: %s at %s: %d lines rendered, %d read", m.File, b.in.Tag, len(lines), len(m.At[k]))
		}
		for j, l := range lines {
			m.File1(k, int(m.At[k][j]), string(l))
		}
	}
	return nil
}

// partBudget is the most code one part of a merged page may carry: a
// megabyte (maxCode) less the parts every release and language add to
// the page (a header and backlinks each, a few KB).
func partBudget(rels int) int { return maxCode - rels*16<<10 }
