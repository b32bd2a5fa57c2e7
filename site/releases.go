package site

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/kubewalk/kubewalk/site/internal/pageshare"
	"github.com/kubewalk/kubewalk/site/internal/searchshare"
)

// Release is one release of a multi-release site (RenderReleases; package
// site/releases builds such a site).
type Release struct {
	Input
	// SourceURL is the release's permalink rule (Options.SourceURL for
	// this tag); nil uses Options.SourceURL.
	SourceURL func(path string, from, to int) string
}

// releaseSet is what every page of a multi-release site knows about the
// other releases: enough to compute, at build time, where the version
// switcher sends the reader.
type releaseSet struct {
	rels []*relIndex // newest first
	// pages are the shared source pages and their parts (shared.go);
	// merged is each file's code, byPath the same by the site path of
	// each part of its page.
	pages  []sharedSrc
	merged map[string]*mergedSrc
	byPath map[string]*mergedSrc
	// graphs are the releases' resource graphs (graphrel.go).
	graphs releaseGraphs
}

// relIndex is one release's page inventory: its Manifest, and its
// builder while the site is rendered.
type relIndex struct {
	Manifest
	b     *builder        // the release's (first language's) builder
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

// RenderReleases is the releases stage's hook into rendering: package
// site/releases, whose Build makes a site of several releases, has it
// render rels — two or more, newest first, their tags checked — into dir
// as the releases of one site, and gets back each release's Manifest,
// newest first, and what was written. It writes one subtree per release
// (<dir>/<tag>/…, each laid out as Build lays out a single release but
// for the source pages), the source pages at the top (<dir>/src/…), each
// written once for the releases that show the same code (shared.go), on
// every page a version switcher that keeps the reader on the same
// walkthrough step or source line where the other release has it, and
// what the releases' pages, search and explain scripts share written
// once (packages pageshare, searchshare; explainrel.go). The site's list of
// releases, its assets and its marker are the stage's to write
// (WriteReleaseList); so is making the site atomically
// (WriteAtomically).
func RenderReleases(ctx context.Context, dir string, rels []Release, opts Options) ([]Manifest, Stats, error) {
	return renderReleases(ctx, dir, rels, opts, tuning{})
}

// renderReleases is RenderReleases, built as tune says.
func renderReleases(ctx context.Context, dir string, rels []Release, opts Options, tune tuning) ([]Manifest, Stats, error) {
	if len(rels) < 2 {
		return nil, Stats{}, errors.New("site: RenderReleases needs two releases or more")
	}
	// Prepare every release first: each page's switcher needs to know the
	// pages of all of them.
	set := &releaseSet{}
	var bs []*builder
	for i, r := range rels {
		o := opts
		if r.SourceURL != nil {
			o.SourceURL = r.SourceURL
		}
		b, err := prepareLangs(r.Input, o, false)
		if err != nil {
			return nil, Stats{}, fmt.Errorf("%s: %w", r.Tag, err)
		}
		for _, lb := range langsOf(b) {
			lb.set, lb.self, lb.tune = set, i, tune
		}
		bs = append(bs, b)
	}
	if err := unrenderRegenerated(bs); err != nil {
		return nil, Stats{}, err
	}
	for _, b := range bs {
		ri, err := b.index()
		if err != nil {
			return nil, Stats{}, fmt.Errorf("%s: %w", b.in.Tag, err)
		}
		ri.b = b
		set.rels = append(set.rels, ri)
	}
	if err := set.share(ctx, bs); err != nil {
		return nil, Stats{}, err
	}
	ms := make([]Manifest, len(set.rels))
	for i, r := range set.rels {
		ms[i] = r.Manifest
	}
	st, err := writeReleases(ctx, dir, bs, opts, tune)
	return ms, st, err
}

// writeReleases writes the releases bs, prepared and shared, into dir.
func writeReleases(ctx context.Context, dir string, bs []*builder, opts Options, tune tuning) (Stats, error) {
	st, err := writeShared(ctx, dir, bs)
	if err != nil {
		return Stats{}, err
	}
	for _, b := range bs {
		sub := filepath.Join(dir, b.in.Tag)
		if err := os.Mkdir(sub, 0o755); err != nil {
			return Stats{}, err
		}
		s, err := b.write(ctx, sub)
		if err != nil {
			return Stats{}, fmt.Errorf("%s: %w", b.in.Tag, err)
		}
		st.Pages += s.Pages
		st.SourcePages += s.SourcePages
		st.Bytes += s.Bytes
	}
	tags := make([]string, len(bs))
	for i, b := range bs {
		tags[i] = b.in.Tag
	}
	var db int64
	var dp int
	if !tune.ownReleasePages {
		workers := opts.Workers
		if workers <= 0 {
			workers = runtime.GOMAXPROCS(0)
		}
		budget := pageshare.Budget
		if tune.relPageBudget > 0 {
			budget = tune.relPageBudget
		}
		if db, dp, err = pageshare.Share(ctx, dir, tags, bs[0].set.lineMaps(), workers, budget); err != nil {
			return Stats{}, err
		}
	}
	st.Bytes += db
	st.Pages += dp
	if err := shareExplain(dir, bs, &st); err != nil {
		return Stats{}, err
	}
	ds, err := searchshare.Share(dir, tags)
	if err != nil {
		return Stats{}, err
	}
	st.Bytes += ds
	st.Largest, st.LargestBytes, err = largestPage(dir)
	return st, err
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

// WriteReleaseList writes, into dir, a multi-release site's own files:
// index.html, the list of the releases ms (newest first) in language
// lang ("" for English), the assets every release's pages load, and the
// marker. It returns the bytes written.
func WriteReleaseList(dir, lang string, ms []Manifest) (int64, error) {
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
	files := append(as, asset{homePage, data}, asset{markerFile, []byte("kubewalk site\n")})
	var n int64
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f.path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return 0, err
		}
		if err := os.WriteFile(p, f.data, 0o644); err != nil {
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

// largestPage names the largest HTML page of the site in dir.
func largestPage(dir string) (string, int64, error) {
	var name string
	var size int64
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".html") {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		if r, _ := filepath.Rel(dir, p); fi.Size() > size || fi.Size() == size && filepath.ToSlash(r) < name {
			name, size = filepath.ToSlash(r), fi.Size()
		}
		return nil
	})
	return name, size, err
}
