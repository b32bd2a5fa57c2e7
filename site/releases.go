package site

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"

	"github.com/kubewalk/kubewalk/analyzer/fact/factsfile"
)

// Release is one release of a multi-release site (BuildReleases).
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

// relIndex is one release's page inventory.
type relIndex struct {
	b      *builder // the release's (first language's) builder
	tag    string
	prefix string              // site path prefix: "v1.36.3/"
	steps  map[string][]string // walkthrough ID → its step IDs
	pages  map[string]bool     // other generated pages (traces/…)
	docs   int
	since  string
	nChg   int // references whose code changed since the previous release
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

// checkTag rejects a tag that cannot be a directory name of the site.
func checkTag(tag string) error {
	if tag == "" || tag == "." || tag == ".." || strings.HasPrefix(tag, ".") || strings.ContainsAny(tag, "/\\\x00#?%") ||
		tag == "assets" || strings.HasSuffix(tag, ".html") {
		return fmt.Errorf("site: release tag %q cannot name a directory of the site", tag)
	}
	return nil
}

// newerFirst sorts tags newest first, as factsfile.ReadSite expects a
// site's releases to be (factsfile.NewerFirst).
func newerFirst(a, b string) bool { return factsfile.NewerFirst(a, b) }

// ReleaseDir returns the site path prefix of a release in a multi-release
// site: "v1.36.3/".
func ReleaseDir(tag string) string { return tag + "/" }

// BuildReleases renders a site of several releases into opts.Out: one
// subtree per release (<out>/<tag>/…, each laid out as Build lays out a
// single release but for the source pages), the source pages at the top
// (<out>/src/…), each written once for the releases that would show the
// same code (shared.go), an index.html at the top listing the releases
// newest first, and on every page a version switcher that keeps the
// reader on the same walkthrough step or source line where the other
// release has it.
// The whole tree is written to one temporary directory and renamed into
// place, as Build does. A single release is built flat, as Build.
func BuildReleases(ctx context.Context, rels []Release, opts Options) (Stats, error) {
	return buildReleases(ctx, rels, opts, tuning{})
}

// buildReleases is BuildReleases, built as tune says.
func buildReleases(ctx context.Context, rels []Release, opts Options, tune tuning) (Stats, error) {
	if len(rels) == 0 {
		return Stats{}, errors.New("site: no releases")
	}
	if len(rels) == 1 {
		o := opts
		if rels[0].SourceURL != nil {
			o.SourceURL = rels[0].SourceURL
		}
		return Build(ctx, rels[0].Input, o)
	}
	rels = append([]Release(nil), rels...)
	sort.SliceStable(rels, func(i, j int) bool { return newerFirst(rels[i].Tag, rels[j].Tag) })
	seen := map[string]bool{}
	for _, r := range rels {
		if err := checkTag(r.Tag); err != nil {
			return Stats{}, err
		}
		if seen[r.Tag] {
			return Stats{}, fmt.Errorf("site: release %s given twice", r.Tag)
		}
		seen[r.Tag] = true
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
		b, err := prepareLangs(r.Input, o)
		if err != nil {
			return Stats{}, fmt.Errorf("%s: %w", r.Tag, err)
		}
		for _, lb := range langsOf(b) {
			lb.set, lb.self, lb.tune = set, i, tune
		}
		bs = append(bs, b)
	}
	if err := unrenderRegenerated(bs); err != nil {
		return Stats{}, err
	}
	for _, b := range bs {
		ri, err := b.index()
		if err != nil {
			return Stats{}, fmt.Errorf("%s: %w", b.in.Tag, err)
		}
		ri.b = b
		set.rels = append(set.rels, ri)
	}
	if err := set.share(ctx, bs); err != nil {
		return Stats{}, err
	}
	return atomically(opts.Out, func(dir string) (Stats, error) {
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
			if s.LargestBytes > st.LargestBytes {
				st.Largest, st.LargestBytes = ReleaseDir(b.in.Tag)+s.Largest, s.LargestBytes
			}
		}
		n, err := writeRoot(dir, bs)
		if err != nil {
			return Stats{}, err
		}
		st.Pages++
		st.Bytes += n
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
			budget := relPageBudget
			if tune.relPageBudget > 0 {
				budget = tune.relPageBudget
			}
			if db, dp, err = shareReleasePages(ctx, dir, tags, bs[0].set.lineSet(), workers, budget); err != nil {
				return Stats{}, err
			}
		}
		st.Bytes += db
		st.Pages += dp
		if err := shareExplain(dir, bs, &st); err != nil {
			return Stats{}, err
		}
		ds, err := shareReleaseSearch(dir, tags)
		if err != nil {
			return Stats{}, err
		}
		st.Bytes += ds
		st.Largest, st.LargestBytes, err = largestPage(dir)
		return st, err
	})
}

// index lists the pages of b's release for the other releases' switchers.
func (b *builder) index() (*relIndex, error) {
	ri := &relIndex{
		tag: b.in.Tag, prefix: ReleaseDir(b.in.Tag),
		steps: map[string][]string{}, pages: map[string]bool{},
		docs: len(b.docs), since: b.in.Since,
	}
	for _, d := range b.docs {
		ri.steps[d.ID] = docSteps(b.docs, d.ID)
	}
	ps, err := b.releasePages()
	if err != nil {
		return nil, err
	}
	for _, p := range ps {
		ri.pages[p] = true
	}
	for _, c := range b.in.Changes {
		if c.Status != "unchanged" && c.Status != "moved" {
			ri.nChg++
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
	from := self.prefix + b.full(p)
	var out []versionView
	for i, r := range b.set.rels {
		v := versionView{Tag: r.tag, Current: i == b.self}
		target, ok := p, true
		switch {
		case isDoc:
			ids, has := r.steps[docID]
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
		v.Href = relURL(from, r.prefix+b.full(target), "")
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

// writeRoot writes the multi-release site's own files: index.html, the
// assets of every release's pages and the marker. It returns the bytes
// written.
func writeRoot(dir string, bs []*builder) (int64, error) {
	b := bs[0] // the newest release's language and templates
	var rows []releaseRow
	for i, x := range bs {
		ri := x.set.rels[x.self]
		rows = append(rows, releaseRow{
			Tag: x.in.Tag, Href: relURL(homePage, ri.prefix+homePage, ""), Commit: x.in.Commit,
			Since: ri.since, Docs: ri.docs, Changed: ri.nChg, Latest: i == 0,
		})
	}
	data, err := b.exec("releases", struct {
		Lang, CSS string
		Releases  []releaseRow
	}{b.in.Lang, assetsDir + "site.css", rows})
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
