package site

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"html/template"
	"maps"
	"slices"
	"strings"

	"github.com/kubewalk/kubewalk/internal/disk/publish"
	"github.com/kubewalk/kubewalk/internal/render/diagram"
	"github.com/kubewalk/kubewalk/site/internal/explainshare"
	"github.com/kubewalk/kubewalk/site/internal/linemap"
	"github.com/kubewalk/kubewalk/site/internal/searchshare"
	"github.com/kubewalk/kubewalk/site/internal/sitetree"
	"github.com/kubewalk/kubewalk/site/internal/srcmerge"
)

// Release is one release of a multi-release site (PrepareReleases; package
// site/releases builds such a site).
type Release struct {
	Input
	// SourceURL is the release's permalink rule (Options.SourceURL for
	// this tag); nil uses Options.SourceURL.
	SourceURL func(path string, from, to int) string
}

// releaseSet is what every page of a multi-release site knows about the
// other releases, as data: enough to compute, at build time, where the
// version switcher sends the reader (their Manifests and the shared
// source pages' layout), and what a release's facts file is compressed
// against. No release reads another's builder.
type releaseSet struct {
	rels []*relIndex // newest first
	// src is the shared source pages, their parts and each file's code
	// (package srcmerge; shared.go, merge.go).
	src *srcmerge.Set
	// newest are the newest release's facts and facts.json.zst, which
	// the others' are compressed against (factsfile.go).
	newest newestFacts
	// graphs are the releases' resource graphs, per language (its index
	// in rel.langs) and release, as the stage drew them
	// (Prepared.SetResourceGraphs).
	graphs [][]template.HTML
}

// relIndex is one release's page inventory: its Manifest.
type relIndex struct {
	Manifest
	pages map[string]bool // Manifest.Pages
}

// Manifest is what site hands the releases stage (package site/releases)
// of one release it rendered as part of a site of several: plain data,
// which the stage writes the site's list of releases from
// (WriteReleaseList) and which every page's version switcher is computed
// from.
type Manifest struct {
	// Tag and Commit are the release's (Input.Tag, Input.Commit); Since
	// is the release whose changes it shows (Input.Since), "" for none.
	Tag, Commit, Since string
	// Dir is the release's subtree, from the site's root: "v1.36.3/"
	// (ReleaseDir).
	Dir string
	// Steps are its walkthroughs' step IDs, by walkthrough ID, one entry
	// per walkthrough.
	Steps map[string][]string
	// Pages are its other HTML pages, which a version switcher looks for
	// in the other releases (releasePages): site paths from a language's
	// directory ("traces/informer.html"), sorted; neither walkthroughs nor
	// source pages.
	Pages []string
	// Sources are the files it has a source page of, sorted: each is
	// served by a shared source page (src/<file>.html, shared.go).
	Sources []string
	// Changed counts the references whose code changed since Since (not
	// unchanged, not merely moved).
	Changed int
}

// versionView is one entry of the version switcher.
type versionView struct {
	Tag  string
	Href string
	// Current marks the release of the page being shown.
	Current bool
	// Keep, on a walkthrough page, lists the page's step IDs that the
	// target walkthrough has too ("*" for all of them): site.js appends
	// the step in view to Href when Keep holds it.
	Keep string
	// Home is true when the page has no counterpart in that release and
	// the link goes to the release's home page.
	Home bool
	// Line, on a source page, has site.js keep the line in view.
	Line bool
}

// ReleaseDir returns the site path prefix of a release in a multi-release
// site: "v1.36.3/".
func ReleaseDir(tag string) string { return tag + "/" }

// Prepared are the releases of a site of several as package site hands
// them to the releases stage (package site/releases). The stage runs its
// passes over the data they give and gives back what the passes found,
// in this order:
//
//  1. the shared source pages (srcmerge.Layout, a Prepared being its
//     srcmerge.Renderer): which files each release leaves unrendered
//     (Sources and ReadFile to srcmerge.Regenerated, its answer to
//     Unrender, after which Manifests lists every release's pages, every
//     page's version switcher computed from them), the files' copies
//     aligned, each release's lines rendered into the srcmerge.Set
//     (RenderLines, which keeps the Set to link into and write from),
//     the pages split by PartBudget;
//  2. the resource graphs: ResourceGraphs, drawn by the stage on one
//     layout, back through SetResourceGraphs;
//  3. the pages: Write, into the site's files in memory (a
//     sitetree.Tree);
//  4. over those files, the passes that write once what the releases'
//     pages, search and explain scripts share: LineMaps for pageshare,
//     ExplainScripts for explainshare, and SearchScripts, the search
//     scripts as data, which searchshare writes.
type Prepared struct {
	set *releaseSet
	bs  []*builder
}

// PrepareReleases prepares rels — two or more, newest first, their tags
// checked — to be written as the releases of one site.
func PrepareReleases(ctx context.Context, rels []Release, opts Options) (*Prepared, error) {
	return prepareReleases(ctx, rels, opts, tuning{})
}

// prepareReleases is PrepareReleases, built as tune says.
func prepareReleases(ctx context.Context, rels []Release, opts Options, tune tuning) (*Prepared, error) {
	if len(rels) < 2 {
		return nil, errors.New("site: PrepareReleases needs two releases or more")
	}
	if len(rels) > srcmerge.MaxRels {
		return nil, fmt.Errorf("site: %d releases in one site; at most %d", len(rels), srcmerge.MaxRels)
	}
	// Prepare every release first: each page's switcher needs to know the
	// pages of all of them.
	set := &releaseSet{}
	var bs []*builder
	for i, r := range rels {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		o := opts
		if r.SourceURL != nil {
			o.SourceURL = r.SourceURL
		}
		b, err := prepareLangs(r.Input, o, true)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", r.Tag, err)
		}
		for _, lb := range b.rel.langs {
			lb.set, lb.self, lb.tune = set, i, tune
		}
		bs = append(bs, b)
	}
	return &Prepared{set: set, bs: bs}, nil
}

// Sources are the files each release has a source page of, newest
// release first, each sorted.
func (r *Prepared) Sources() [][]string {
	out := make([][]string, len(r.bs))
	for i, b := range r.bs {
		out[i] = b.files
	}
	return out
}

// ReadFile reads release rel's copy of file f (its Input.ReadFile): a
// srcmerge.Reader.
func (r *Prepared) ReadFile(rel int, f string) ([]byte, error) { return r.bs[rel].in.ReadFile(f) }

// Unrender takes the files drops names, per release, out of the files it
// renders (srcmerge.Regenerated finds them: each is linked on GitHub
// instead), then lists every release's pages (Manifests). Call it once,
// before any page is rendered.
func (r *Prepared) Unrender(drops [][]string) error {
	for i, drop := range drops {
		if len(drop) > 0 {
			r.bs[i].unrender(drop)
		}
	}
	for _, b := range r.bs {
		ri, err := b.index()
		if err != nil {
			return fmt.Errorf("%s: %w", b.in.Tag, err)
		}
		r.set.rels = append(r.set.rels, ri)
	}
	r.set.newest = newestOf(r.bs[0])
	return nil
}

// RenderLines renders each release's copy of every file of src with a
// page (srcmerge.Align made it of the Manifests' Sources) and files its
// lines there (merge.go); the releases' pages link into, and Write
// writes, the shared source pages src lays out.
func (r *Prepared) RenderLines(ctx context.Context, src *srcmerge.Set) error {
	r.set.src = src
	return r.set.renderLines(ctx, r.bs)
}

// PartBudget is the most code a part of a shared source page serving
// rels releases carries (srcmerge.Set.Split).
func (r *Prepared) PartBudget(rels int) int {
	if b := r.bs[0].tune.partBudget; b > 0 {
		return b
	}
	return partBudget(rels)
}

// ResourceGraphs are the releases' resource graphs in the site's
// language lang (its index in the newest release's Input.Langs; 0 in a
// site of one language), newest release first, as data: a release
// without one has no nodes. The stage draws them on one layout
// (diagram.Graphs), so that the resources page the releases share
// (pageshare) holds what their graphs share once, where each release's
// own layout would differ in every coordinate, and hands the drawings
// back (SetResourceGraphs) before Write. Call it after RenderLines: a
// graph links into the shared source pages.
func (r *Prepared) ResourceGraphs(lang int) []diagram.Drawing {
	out := make([]diagram.Drawing, len(r.bs))
	for i, b := range r.bs {
		lb := b.rel.langs[lang]
		out[i].Nodes, out[i].Edges = lb.resourceGraph(lb.resourceFacts())
	}
	return out
}

// SetResourceGraphs takes the releases' resource graphs in language
// lang as the stage drew them with package diagram, from ResourceGraphs:
// per release, newest first, its SVG, nil for none.
func (r *Prepared) SetResourceGraphs(lang int, svgs [][]byte) {
	if r.set.graphs == nil {
		r.set.graphs = make([][]template.HTML, len(r.bs[0].rel.langs))
	}
	gs := make([]template.HTML, len(svgs))
	for i, s := range svgs {
		// Safe: package diagram's drawing, which escapes every label and
		// checks every href (svg.go).
		gs[i] = template.HTML(s)
	}
	r.set.graphs[lang] = gs
}

// Manifests are what the releases' pages are, newest first.
func (r *Prepared) Manifests() []Manifest {
	ms := make([]Manifest, len(r.set.rels))
	for i, ri := range r.set.rels {
		ms[i] = ri.Manifest
	}
	return ms
}

// Write writes the releases into t, the site's files: the shared source
// pages (src/…) and each release's subtree (<tag>/…, laid out as Build
// lays out a single release but for the source pages). Every page is
// written as the release's own, to be shared by the stage's passes
// (pageshare, searchshare, explainshare) before t is written to disk;
// the site's list of releases, its assets and its marker are the
// stage's to write (WriteReleaseList).
func (r *Prepared) Write(ctx context.Context, t *sitetree.Tree) (Stats, error) {
	st, err := writeShared(ctx, output{tree: t}, r.bs)
	if err != nil {
		return Stats{}, err
	}
	for _, b := range r.bs {
		s, err := b.write(ctx, output{tree: t, prefix: ReleaseDir(b.in.Tag)})
		if err != nil {
			return Stats{}, fmt.Errorf("%s: %w", b.in.Tag, err)
		}
		// Its highlighted files are for its own pages only.
		for _, lb := range b.rel.langs {
			lb.dropHighlighted()
		}
		st.Pages += s.Pages
		st.SourcePages += s.SourcePages
		st.Bytes += s.Bytes
	}
	return st, nil
}

// LineMaps are the releases' line maps (lines.go), for pageshare.Share.
func (r *Prepared) LineMaps() *linemap.Maps { return r.set.lineMaps() }

// SearchScripts are the releases' search scripts as data, newest
// release first, for searchshare.Share, which writes them: per release
// its search-shared.js (when its languages have one) and each language's
// search-index.js, in their site paths' order. Each call makes new
// values, whose URLs the stage moves to the pages it shares.
func (r *Prepared) SearchScripts() []searchshare.Script {
	var out []searchshare.Script
	for _, b := range r.bs {
		var ss []searchshare.Script
		for _, lb := range b.rel.langs {
			own, shared := lb.searchIndex()
			ss = append(ss, searchshare.Script{Tag: b.in.Tag, Path: ReleaseDir(b.in.Tag) + lb.full(searchIndexJS), Data: own.Clone()})
			if shared != nil && lb == b.rel.langs[0] {
				ss = append(ss, searchshare.Script{Tag: b.in.Tag, Path: ReleaseDir(b.in.Tag) + lb.full(searchSharedJS), Data: shared.Clone()})
			}
		}
		slices.SortFunc(ss, func(x, y searchshare.Script) int { return strings.Compare(x.Path, y.Path) })
		out = append(out, ss...)
	}
	return out
}

// ExplainScripts are the releases' explain scripts as data, newest
// release first, for explainshare.Share, which writes them: per release
// and language its Index, at its explain-index.js (one for every
// language when they are the same bytes), and its steps, at its
// explain-steps.js, site paths from the site's root. Each call makes new
// lists of steps, whose links the stage moves to the pages it shares.
func (r *Prepared) ExplainScripts() ([]explainshare.Script, error) {
	var out []explainshare.Script
	for _, b := range r.bs {
		x, err := b.explainIndexes()
		if err != nil {
			return nil, err
		}
		for i, lb := range b.rel.langs {
			p := ReleaseDir(b.in.Tag) + lb.full(explainIndexJS)
			if x.shared {
				p = ReleaseDir(b.in.Tag) + explainIndexJS
			}
			out = append(out, explainshare.Script{
				Tag: b.in.Tag, Lang: lb.langDir,
				Index: p, IndexData: x.idx[i],
				Steps: ReleaseDir(b.in.Tag) + lb.full(explainStepsJS), StepsData: slices.Clone(x.idx[i].Steps),
			})
		}
	}
	return out, nil
}

// WriteAtomically runs write on a temporary directory beside out and
// swaps it into place when write succeeds, as Build makes a site: a
// failed or cancelled write leaves the previous site as it was. out must
// be a site kubewalk wrote, or absent (ErrForeignFiles).
func WriteAtomically(out string, write func(dir string) (Stats, error)) (Stats, error) {
	return atomically(out, write)
}

// index lists the pages of b's release for the other releases' switchers.
func (b *builder) index() (*relIndex, error) {
	ri := &relIndex{
		Manifest: Manifest{
			Tag: b.in.Tag, Commit: b.in.Commit, Since: b.in.Since, Dir: ReleaseDir(b.in.Tag),
			Steps: map[string][]string{}, Sources: b.files,
		},
		pages: map[string]bool{},
	}
	for _, d := range b.docs {
		ri.Steps[d.ID] = docSteps(b.docs, d.ID)
	}
	ps, err := b.releasePages()
	if err != nil {
		return nil, err
	}
	for _, p := range ps {
		ri.pages[p] = true
	}
	ri.Pages = slices.Sorted(maps.Keys(ri.pages))
	for _, c := range b.in.Changes {
		if c.Status != "unchanged" && c.Status != "moved" {
			ri.Changed++
		}
	}
	return ri, nil
}

// versions returns the version switcher of the page at site path p (in
// b's release), newest release first; nil in a single-release site.
func (b *builder) versions(p string) []versionView {
	if b.set == nil {
		return nil
	}
	if b.sharedSource(p) {
		return b.srcVersions(p)
	}
	self := b.set.rels[b.self]
	docID, isDoc := walkthroughID(p)
	steps := docSteps(b.docs, docID)
	from := self.Dir + b.full(p)
	var out []versionView
	for i, r := range b.set.rels {
		v := versionView{Tag: r.Tag, Current: i == b.self}
		target, ok := p, true
		switch {
		case isDoc:
			ids, has := r.Steps[docID]
			ok = has
			if has {
				v.Keep = keepList(steps, ids)
			}
		case self.pages[p]:
			ok = r.pages[p]
		}
		if !ok {
			target, v.Home = homePage, true
		}
		v.Href = relURL(from, r.Dir+b.full(target), "")
		out = append(out, v)
	}
	return out
}

// rootHref is the link from the page at site path p of b's release to the
// multi-release site's index; "" in a single-release site.
func (b *builder) rootHref(p string) string {
	if b.set == nil {
		return ""
	}
	return relURL(b.site(p), homePage, "")
}

// releaseRow is one release on the multi-release index.
type releaseRow struct {
	Tag, Href, Commit, Since string
	Docs, Changed            int
	Latest                   bool
}

// WriteReleaseList writes, into t, a multi-release site's own files:
// index.html, the list of the releases ms (newest first) in language
// lang ("" for English), the assets every release's pages load, and the
// marker. It returns the bytes written.
func WriteReleaseList(t *sitetree.Tree, lang string, ms []Manifest) (int64, error) {
	if lang == "" {
		lang = "en"
	}
	var rows []releaseRow
	for i, m := range ms {
		rows = append(rows, releaseRow{
			Tag: m.Tag, Href: relURL(homePage, m.Dir+homePage, ""), Commit: m.Commit,
			Since: m.Since, Docs: len(m.Steps), Changed: m.Changed, Latest: i == 0,
		})
	}
	data, err := execIn(lang, "releases", struct {
		Lang, CSS string
		Releases  []releaseRow
	}{lang, assetsDir + "site.css", rows})
	if err != nil {
		return 0, err
	}
	as, err := assets(true)
	if err != nil {
		return 0, err
	}
	files := append(as, asset{homePage, data}, asset{markerFile, []byte(publish.MarkerHeader)})
	var n int64
	for _, f := range files {
		if err := t.Put(f.path, f.data); err != nil {
			return 0, err
		}
		n += int64(len(f.data))
	}
	return n, nil
}

// execIn runs the named template in language lang, outside any build.
func execIn(lang, name string, data any) ([]byte, error) {
	t, err := catalog(lang)
	if err != nil {
		return nil, err
	}
	tmpl, err := parsedTemplates()
	if err != nil {
		return nil, err
	}
	if tmpl, err = tmpl.Clone(); err != nil {
		return nil, err
	}
	tmpl.Funcs(template.FuncMap{"t": t})
	var buf bytes.Buffer
	if err := tmpl.ExecuteTemplate(&buf, name, data); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// releasePages lists the pages of b's release a version switcher looks
// for in the other releases (going to that release's home page when it
// lacks one): every HTML page but the walkthroughs, whose steps the
// switcher maps on its own, and the source pages, which it finds by
// file. The list is taken from the pages b renders, so that a new kind of
// page cannot be missed.
func (b *builder) releasePages() ([]string, error) {
	var l pageList
	if err := b.contentPages(&l); err != nil {
		return nil, err
	}
	b.indexPages(&l)
	cps, err := b.controllerPages()
	if err != nil {
		return nil, err
	}
	var ps []string
	for _, p := range append(l.ps, cps...) {
		if _, isDoc := walkthroughID(p.path); p.html && !p.source && !isDoc {
			ps = append(ps, p.path)
		}
	}
	return ps, nil
}
