package site

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"html/template"
	"maps"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/internal/derive/explain"
	"github.com/kubewalk/kubewalk/internal/derive/reldiff"
	"github.com/kubewalk/kubewalk/internal/disk/publish"
	"github.com/kubewalk/kubewalk/internal/render/codehtml"
	"github.com/kubewalk/kubewalk/record"
	"github.com/kubewalk/kubewalk/site/internal/pagecache"
	"github.com/kubewalk/kubewalk/site/internal/sitetree"
	"github.com/kubewalk/kubewalk/site/internal/srcmerge"
	"github.com/kubewalk/kubewalk/walkthrough"
)

// Input is everything a site is made from. It is plain data: Build never
// loads Go packages or reads the tree except through ReadFile.
type Input struct {
	// Tag, Commit and Backend identify the release. Pages show the tag,
	// and the commit where it is known (Commit may be ""); the backend is
	// how the tree was fetched, a build detail no page shows.
	Tag, Commit, Backend string
	// Lang picks the UI language ("en" or "ko") and, among Docs, the
	// translation of each walkthrough (a walkthrough missing in Lang falls
	// back to English).
	Lang string
	// Langs, with two languages or more, makes the site bilingual (Lang
	// is then ignored): a directory per language ("en/", "ko/"), each
	// with every page but the source pages and facts, which the languages
	// share at the release's root (code is code), a language switch on
	// every page, and an index.html at the root that sends the reader to
	// the browser's preferred language. The first language is the one a
	// shared page shows without a choice. A bilingual site does not use
	// Options.Cache.
	Langs []string
	Facts *fact.Facts
	// Symbols are sorted by Name, as analyzer.Result.Symbols (and
	// trace.Input, which site hands them to).
	Symbols []fact.Symbol
	// Xrefs are the identifier tables of the analysed (root) files. A
	// rendered file without one is still highlighted, without links.
	Xrefs []fact.FileXref
	Docs  []*walkthrough.Doc
	// ReadFile returns a file of the tree by repository-relative path.
	ReadFile func(path string) ([]byte, error)

	// Since is the tag of the release Changes and FactChanges compare
	// against — in a multi-release site, the previous release; "" for
	// none.
	Since string
	// Changes says how the code of each walkthrough reference fared since
	// Since, keyed by fact.Ref.String() (reldiff.CompareRef): the
	// badges on excerpts and steps and the diffs under them. A reference
	// missing from it gets no badge.
	Changes map[string]reldiff.RefChange
	// FactChanges are the handler registrations, events and writes added
	// or removed since Since (reldiff.CompareFacts), summarised on the
	// home page.
	FactChanges []reldiff.FactChange

	// Traces are the chains derived from the facts for the kinds the site
	// shows (internal/derive/trace), one page each (traces/<kind>.html).
	Traces []TraceInput

	// Recordings are the release's recorded runs (package record), one
	// per scenario, or none: each gets a Recorded run page, and the
	// deployment scenario's, the one the walkthroughs follow, gives each
	// step the panel of what was observed of it (recorded.go).
	Recordings []*record.Recording
}

// Options are the build's output and link rules.
type Options struct {
	// Out is the output directory. The site is written to a temporary
	// directory beside it and renamed into place, so a failed build leaves
	// the previous site untouched. An existing Out must be empty or a site
	// an earlier Build wrote (it carries a marker file); Build refuses to
	// replace anything else.
	Out string
	// SourceURL returns the GitHub permalink of lines from..to of a file at
	// the tag (source.Permalink curried); from 0 means the whole file.
	SourceURL func(path string, from, to int) string
	// CommitURL, when set, returns the page of a commit of the release
	// (GitHub's permalink), which the home page links its commit to.
	CommitURL func(commit string) string
	// Logf, when set, receives progress lines.
	Logf func(format string, args ...any)
	// Workers bounds the pages rendered at once; 0 means GOMAXPROCS.
	Workers int
	// Cache, when set, lets Build reuse the pages of the previous build
	// of the same release that the new input cannot have changed (see
	// Cache); the output is the same either way.
	Cache *Cache
	// InPlace, with Cache, lets Build update Out where it stands when Out
	// holds the output of one of the Cache's earlier builds, instead of
	// writing a new tree beside it and renaming that into place: pages
	// that did not change are not touched, and no directory is made
	// again. Out is half-written while Build runs and after it fails, so
	// this is for callers that serve none of Out meanwhile (kubewalk serve
	// builds into a directory it does not serve).
	InPlace bool
}

// Stats describes a built site.
type Stats struct {
	// Pages counts HTML pages, SourcePages the source pages among them.
	Pages, SourcePages int
	// Bytes is the size of every file written; Largest names the largest
	// HTML page (site path) and LargestBytes its size.
	Bytes        int64
	Largest      string
	LargestBytes int64
}

// ErrNotASite is returned when Options.Out exists, is not empty and was not
// written by Build: kubewalk never replaces a directory it did not make.
var ErrNotASite = publish.ErrNotASite

// Build renders the site for in into opts.Out.
func Build(ctx context.Context, in Input, opts Options) (Stats, error) {
	c := opts.Cache
	if c == nil || len(in.Langs) > 1 { // the Cache keeps one language's pages
		return atomically(opts.Out, func(dir string) (Stats, error) {
			return render(ctx, in, opts, dir)
		})
	}
	c.begin(in)
	return pagecache.Publish(&c.store, opts.Out, opts.InPlace, func(dir string, pl *pagecache.Placer) (Stats, error) {
		b, err := prepare(in, opts)
		if err == nil {
			b.reuse = c
			err = unrenderOversized(b)
		}
		if err != nil {
			return Stats{}, err
		}
		b.place = pl
		return b.write(ctx, output{dir: dir})
	})
}

// builder holds what every page of one build shares. Everything in it is
// read-only once prepare returns, except the caches, which lock.
type builder struct {
	in   Input
	opts Options
	tune tuning // a site of several releases' (buildReleases)
	t    func(string) string
	tmpl *template.Template

	docs []*walkthrough.Doc
	// prose is docs' Markdown rendered for the search index's text
	// (renderProse).
	prose    map[*walkthrough.Markdown]template.HTML
	files    []string // rendered source files, sorted
	rendered map[string]bool
	xrefs    map[string][]fact.Ident
	cites    map[string][]cite

	mu    sync.Mutex
	cache map[string]*cachedFile // highlighted, by page directory and file

	// langDir is the builder's language directory in a bilingual site
	// ("ko/"), "" otherwise; its site paths are from there, but for
	// shared pages (sharedPage).
	langDir string
	// shareIndexes: the index pages are one page for every language
	// (shared).
	shareIndexes bool
	// ghBaseOnce is githubBase, made once.
	ghBaseOnce func() string
	// rel is what b shares with the builders of its release's other
	// languages.
	rel *relBuild

	// set is the multi-release site this release is part of, nil for a
	// single-release build; self is this release's index in it.
	set  *releaseSet
	self int

	// changeN numbers the references with a badge (changes.go);
	// changeKeys lists them in that order.
	changeN    map[string]int
	changeKeys []string

	// reuse is the Cache of a single-release Build and place puts its
	// pages into the output; both nil otherwise.
	reuse     *Cache
	place     *pagecache.Placer
	filesOnce sync.Once
	filesSum  pageKey

	// explain is the build's Explainer, made once (explain.go): the
	// release's facts and this language's walkthroughs.
	explainOnce sync.Once
	explainX    *explain.Explainer

	// recs are the attributed Recordings, made once (recorded.go): their
	// items are put under this language's steps.
	recOnce sync.Once
	recs    []*recordedRun
}

type cachedFile struct {
	once  sync.Once
	lines []codehtml.Line
	err   error
}

// cite is a step citing lines of a file, for backlinks on source pages.
type cite struct {
	doc      *walkthrough.Doc
	step     int // index in doc.Steps, -1 for the intro
	from, to int
}

// page is one file of output.
type page struct {
	path   string
	source bool // a source page, for Stats
	html   bool
	render func() ([]byte, error)
	// key, when set, hashes every input of the page that can change
	// within a release (Cache); nil for a page rendered every time.
	key func() pageKey
}

func render(ctx context.Context, in Input, opts Options, dir string) (Stats, error) {
	b, err := prepareLangs(in, opts, true)
	if err == nil {
		err = unrenderOversized(b)
	}
	if err != nil {
		return Stats{}, err
	}
	return b.write(ctx, output{dir: dir})
}

// write renders every page into out with bounded parallelism.
func (b *builder) write(ctx context.Context, out output) (Stats, error) {
	pages, err := b.allPages()
	if err != nil {
		return Stats{}, err
	}
	if err := out.prepare(pages); err != nil {
		return Stats{}, err
	}
	sizes, err := b.renderPages(ctx, out, pages)
	if err != nil {
		return Stats{}, err
	}
	var st Stats
	for i, p := range pages { // pages are sorted by path: ties break the same way every time
		st.Bytes += sizes[i]
		if !p.html {
			continue
		}
		st.Pages++
		if p.source {
			st.SourcePages++
		}
		if sizes[i] > st.LargestBytes {
			st.Largest, st.LargestBytes = p.path, sizes[i]
		}
	}
	if b.opts.Logf != nil {
		b.opts.Logf("site: %d pages (%d source), %d bytes; largest %s (%d bytes)", st.Pages, st.SourcePages, st.Bytes, st.Largest, st.LargestBytes)
	}
	return st, nil
}

// output is where a build's files go: under a directory on disk (a
// release's site of its own), or into a sitetree.Tree under the
// release's directory (a release of a site of several, whose files the
// releases stage's passes rewrite before the Tree is written once).
type output struct {
	dir string
	// tree, when set, takes the files instead of dir, each under
	// prefix.
	tree   *sitetree.Tree
	prefix string
}

// prepare makes what out needs before pages are put into it: on disk,
// their directories.
func (o output) prepare(pages []page) error {
	if o.tree != nil {
		return nil
	}
	return makeDirs(o.dir, pages)
}

// put writes the file at site path p, whose directory prepare made.
func (o output) put(p string, data []byte) error {
	if o.tree != nil {
		return o.tree.Put(o.prefix+p, data)
	}
	return os.WriteFile(filepath.Join(o.dir, filepath.FromSlash(p)), data, 0o644)
}

// makeDirs makes the directories of pages in dir, first and once, so
// page writers need no MkdirAll.
func makeDirs(dir string, pages []page) error {
	dirs := map[string]bool{}
	for _, p := range pages {
		dirs[path.Dir(p.path)] = true
	}
	for _, d := range slices.Sorted(maps.Keys(dirs)) {
		if err := os.MkdirAll(filepath.Join(dir, filepath.FromSlash(d)), 0o755); err != nil {
			return err
		}
	}
	return nil
}

// renderPages renders pages into out, prepared for them, and
// returns the size of each; with a Cache, a page whose key is unchanged
// is taken from the previous build instead.
//
// Rendering is CPU-bound and limited to Options.Workers; writing a file
// blocks in the kernel (creating a file on a journaled file system costs
// more than rendering a small page), so writes run in their own group
// with more slots, and a render worker only waits when all of those are
// busy.
func (b *builder) renderPages(ctx context.Context, out output, pages []page) ([]int64, error) {
	workers := b.opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	sizes := make([]int64, len(pages))
	pl := b.place
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(workers)
	var w errgroup.Group
	w.SetLimit(4 * workers)
	for i, p := range pages {
		g.Go(func() error {
			if err := gctx.Err(); err != nil {
				return err
			}
			var key pageKey
			if pl != nil && p.key != nil {
				key = p.key()
				n, ok, err := pl.Reuse(p.path, key)
				if err != nil {
					return err
				}
				if ok {
					sizes[i] = n
					return nil
				}
			}
			data, err := p.render()
			if err != nil {
				return fmt.Errorf("%s: %w", p.path, err)
			}
			if pl != nil {
				if err := pl.Made(p.path, key, p.key != nil, int64(len(data))); err != nil {
					return err
				}
			}
			sizes[i] = int64(len(data))
			w.Go(func() error {
				return out.put(p.path, data)
			})
			return nil
		})
	}
	err := g.Wait()
	if werr := w.Wait(); err == nil {
		err = werr
	}
	if err == nil && pl != nil {
		err = pl.Finish()
	}
	if err != nil {
		return nil, err
	}
	return sizes, nil
}

// prepare validates the input and computes what pages share: the
// walkthroughs in the build's language, the files to render, backlinks.
func prepare(in Input, opts Options) (*builder, error) { return prepareLang(in, opts, "", false) }

// prepareLang is prepare for the language of a bilingual site whose
// pages are in langDir ("en/"), "" for a site of one language; its index
// pages are shared by the languages when shareIndexes is set
// (prepareLangs).
func prepareLang(in Input, opts Options, langDir string, shareIndexes bool) (*builder, error) {
	b, err := newBuilder(in, opts)
	if err != nil {
		return nil, err
	}
	b.langDir, b.shareIndexes = langDir, shareIndexes
	b.docs = walkthrough.Select(b.in.Docs, b.in.Lang)
	if err := b.renderProse(); err != nil {
		return nil, err
	}
	b.numberChanges()
	for _, x := range b.in.Xrefs {
		b.xrefs[x.Path] = x.Idents
	}
	if err := b.citeDocs(); err != nil {
		return nil, err
	}
	for p := range b.cites {
		b.rendered[p] = true
	}
	f := b.in.Facts
	fact.Locations(f.Handlers, f.Events, f.Writes, f.Wirings, b.markRendered)
	delete(b.rendered, "")
	for p := range b.rendered {
		if err := checkRepoPath(p); err != nil {
			return nil, err
		}
		b.files = append(b.files, p)
	}
	sort.Strings(b.files)
	for p, cs := range b.cites {
		sort.SliceStable(cs, func(i, j int) bool {
			a, c := cs[i], cs[j]
			if a.doc != c.doc {
				return walkthrough.Compare(a.doc, c.doc) < 0
			}
			if a.step != c.step {
				return a.step < c.step
			}
			return a.from < c.from
		})
		b.cites[p] = cs
	}
	return b, nil
}

// newBuilder checks in and opts, fills in in's defaults and makes the
// build's templates, in its language.
func newBuilder(in Input, opts Options) (*builder, error) {
	if in.ReadFile == nil {
		return nil, errors.New("site: Input.ReadFile is nil")
	}
	if in.Facts == nil {
		in.Facts = &fact.Facts{}
	}
	if in.Lang == "" {
		in.Lang = "en"
	}
	if opts.SourceURL == nil {
		return nil, errors.New("site: Options.SourceURL is nil")
	}
	t, err := catalog(in.Lang)
	if err != nil {
		return nil, err
	}
	tmpl, err := parsedTemplates()
	if err != nil {
		return nil, err
	}
	// Clone per build so the language's translate func binds to this
	// build only; the parse itself happened once per process.
	tmpl, err = tmpl.Clone()
	if err != nil {
		return nil, err
	}
	b := &builder{
		in: in, opts: opts, t: t, tmpl: tmpl,
		rendered: map[string]bool{},
		xrefs:    map[string][]fact.Ident{},
		cites:    map[string][]cite{},
		cache:    map[string]*cachedFile{},
	}
	b.ghBaseOnce = sync.OnceValue(func() string { return ghBase(b, "go.mod") })
	tmpl.Funcs(template.FuncMap{"t": t, "href": b.ghHref})
	b.rel = newRelBuild(b)
	return b, nil
}

// markRendered marks the file l is in for a source page.
func (b *builder) markRendered(l fact.Location) {
	if !l.IsZero() {
		b.rendered[l.Path] = true
	}
}

// citeDocs records which lines of which file each step cites (backlinks
// from source pages), and marks the files of facts blocks for rendering.
func (b *builder) citeDocs() error {
	for _, d := range b.docs {
		if err := checkID(d.ID); err != nil {
			return fmt.Errorf("%s: %w", d.File, err)
		}
		visit := func(step int, segs []walkthrough.Segment, refs []walkthrough.Ref) {
			for _, r := range refs {
				from, to := resolvedLines(r.Resolved)
				b.addCite(r.Resolved.Symbol.Decl.Path, cite{d, step, from, to})
			}
			for _, s := range segs {
				if s.Excerpt != nil {
					b.addCite(s.Excerpt.Resolved.Symbol.Decl.Path, cite{d, step, s.Excerpt.From, s.Excerpt.To})
				}
				if s.Facts != nil {
					fact.Locations(s.Facts.Handlers, s.Facts.Events, s.Facts.Writes, nil, b.markRendered)
				}
			}
		}
		visit(-1, d.Intro, nil)
		for i, s := range d.Steps {
			visit(i, s.Segments, s.Refs)
		}
	}
	return nil
}

func (b *builder) addCite(p string, c cite) {
	if p == "" {
		return
	}
	b.cites[p] = append(b.cites[p], c)
}

func checkID(id string) error {
	if id == "" || strings.ContainsAny(id, "/\\\x00") || id == "." || id == ".." {
		return fmt.Errorf("bad walkthrough id %q", id)
	}
	return nil
}

// pages lists every output file, sorted by path.
func (b *builder) pages() ([]page, error) {
	var l pageList
	if err := b.contentPages(&l); err != nil {
		return nil, err
	}
	b.indexPages(&l)
	if err := b.dataPages(&l); err != nil {
		return nil, err
	}
	cps, err := b.controllerPages()
	if err != nil {
		return nil, err
	}
	ps := append(l.ps, cps...)
	sort.Slice(ps, func(i, j int) bool { return ps[i].path < ps[j].path })
	for i := 1; i < len(ps); i++ {
		if ps[i].path == ps[i-1].path {
			return nil, fmt.Errorf("site: two pages at %s", ps[i].path)
		}
	}
	listPages(ps)
	return ps, nil
}

// pageList collects the pages of a build.
type pageList struct{ ps []page }

func (l *pageList) html(p string, src bool, f func() ([]byte, error)) {
	l.ps = append(l.ps, page{path: p, source: src, html: true, render: f})
}

// keyed marks the page added last as reusable under key (Cache).
func (l *pageList) keyed(key func() pageKey) { l.ps[len(l.ps)-1].key = key }

// static adds a file whose bytes are known now.
func (l *pageList) static(p string, data []byte) {
	l.ps = append(l.ps, page{path: p, render: func() ([]byte, error) { return data, nil }})
	l.keyed(func() pageKey { return pagecache.DataKey(data) })
}

// contentPages adds the home page, the walkthroughs, the changes, the
// traces, the source pages and the recorded runs.
func (b *builder) contentPages(l *pageList) error {
	l.html(homePage, false, b.homePage)
	for i, d := range b.docs {
		l.html(WalkthroughPage(d.ID), false, func() ([]byte, error) { return b.walkthroughPage(i) })
	}
	if b.in.Since != "" {
		l.html(changesPage, false, b.changesPage)
		if diffs := b.releaseDiffs(); len(diffs) > 0 {
			l.ps = append(l.ps, page{path: diffsFile, render: func() ([]byte, error) { return diffsScript(diffs) }})
		}
	}
	for _, ti := range b.in.Traces {
		if err := checkID(ti.Kind); err != nil {
			return fmt.Errorf("trace: %w", err)
		}
		if !traceEmpty(ti.Trace) {
			l.html(TracePage(ti.Kind), false, func() ([]byte, error) { return b.tracePage(ti) })
			l.keyed(b.filesKey)
		}
	}
	for _, f := range b.files {
		if b.set != nil {
			break // shared by the releases, written once (shared.go)
		}
		l.html(SourcePage(f), true, func() ([]byte, error) { return b.sourcePage(f) })
		l.keyed(func() pageKey { return b.sourceKey(f) })
	}
	for _, r := range b.in.Recordings {
		if err := checkID(r.Scenario); err != nil {
			return fmt.Errorf("recording: %w", err)
		}
		l.html(RecordedPage(r.Scenario), false, func() ([]byte, error) { return b.recordedPage(r.Scenario) })
	}
	return nil
}

// indexPages adds the indexes, search and explain.
func (b *builder) indexPages(l *pageList) {
	l.html(handlersPage, false, b.handlersPage)
	l.keyed(b.filesKey)
	l.html(eventsPage, false, b.eventsPage)
	l.keyed(b.eventsKey)
	l.html(resourcesPage, false, b.resourcesPage)
	l.keyed(b.filesKey)
	l.html(gatesPage, false, b.gatesPage)
	l.keyed(b.gatesKey)
	l.html(searchPage, false, b.searchPage)
	l.html(explainPage, false, b.explainPage)
}

// dataPages adds the scripts of data (explain's and search's indexes),
// the facts, the site marker and the assets.
func (b *builder) dataPages(l *pageList) error {
	b.explainScripts(l)
	if err := b.searchScripts(l); err != nil {
		return err
	}
	// Rendered by a worker like a page, so a build that reuses it does
	// not marshal the facts, several megabytes of JSON.
	l.ps = append(l.ps, page{path: factsFile, render: b.factsFileData})
	l.keyed(releaseKey)
	if b.set != nil {
		return nil // a multi-release site has one marker and one assets/, at its root (writeRoot)
	}
	l.static(markerFile, []byte(publish.MarkerHeader))
	as, err := assets(b.in.Since != "")
	if err != nil {
		return err
	}
	for _, a := range as {
		l.static(a.path, a.data)
	}
	return nil
}

// linkFor returns the identifier link rule for the page at site path from:
// in-site when the target file is rendered, else GitHub at the tag.
func (b *builder) linkFor(from string) func(fact.Location) string {
	if b.set != nil { // each line has its own page and anchor: link
		return func(l fact.Location) string {
			if !b.rendered[l.Path] {
				return b.opts.SourceURL(l.Path, l.StartLine, 0)
			}
			return b.link(from, SourcePage(l.Path), lineFragment(l.StartLine, 0))
		}
	}
	prefix := map[string]string{}
	return func(l fact.Location) string {
		if !b.rendered[l.Path] {
			return b.opts.SourceURL(l.Path, l.StartLine, 0)
		}
		frag := lineFragment(l.StartLine, 0)
		pre, ok := prefix[l.Path]
		if !ok {
			switch to := SourcePage(l.Path); {
			case to == from:
			case strings.HasPrefix(from, "src/"): // the shortest way between source pages
				pre = srcmerge.NearURL(b.site(from), b.site(to), "")
			default:
				pre = b.link(from, to, "")
			}
			prefix[l.Path] = pre // "" for the page itself: just the fragment
		}
		return pre + "#" + frag
	}
}

// githubBase is where the release's GitHub permalinks start
// ("https://github.com/kubernetes/kubernetes/blob/v1.37.2/"): the code's
// links to them name the rest (highlight), and every page that shows
// code carries it once (pageData.GH). "" when the permalink rule does not
// end a file's link with its path (ghBase); then the links are hrefs.
// Made once per build (ghBaseOnce): every link of the index pages asks.
func (b *builder) githubBase() string { return b.ghBaseOnce() }

// srcLink is the URL, from the page at site path from, of lines from..to of
// file p: its source page when rendered, else GitHub.
func (b *builder) srcLink(fromPage, p string, from, to int) string {
	if b.rendered[p] {
		return b.link(fromPage, SourcePage(p), lineFragment(from, to))
	}
	return b.opts.SourceURL(p, from, to)
}

// highlighted returns the highlighted lines of p with identifier links for
// page and every page in its directory (they share one link prefix: the
// walkthroughs, the traces), highlighting each file at most once per
// build and directory.
func (b *builder) highlighted(p, page string) ([]codehtml.Line, error) {
	dir := path.Dir(b.full(page))
	b.mu.Lock()
	c, ok := b.cache[dir+"\x00"+p]
	if !ok {
		c = &cachedFile{}
		b.cache[dir+"\x00"+p] = c
	}
	b.mu.Unlock()
	c.once.Do(func() {
		var key pageKey
		if b.reuse != nil {
			k := pagecache.NewHasher("highlighted")
			k.Add(p)
			k.Add(dir)
			b.linksKey(k, p)
			key = k.Sum()
			if lines, ok := b.reuse.lines.Get(p, key); ok {
				c.lines = lines
				return
			}
		}
		var src []byte
		src, c.err = b.in.ReadFile(p)
		if c.err != nil {
			return
		}
		c.lines = highlight(path.Base(p), src, b.xrefs[p], b.linkFor(page), b.githubBase())
		if b.reuse != nil {
			b.reuse.lines.Put(p, key, c.lines)
		}
	})
	return c.lines, c.err
}

// dropHighlighted lets go of the files b highlighted for its pages,
// once they are written.
func (b *builder) dropHighlighted() {
	b.mu.Lock()
	b.cache = map[string]*cachedFile{}
	b.mu.Unlock()
}

// exec runs the named template into a buffer.
func (b *builder) exec(name string, data any) ([]byte, error) {
	var buf bytes.Buffer
	if err := b.tmpl.ExecuteTemplate(&buf, name, data); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
