package site

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"hash"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"sync"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/internal/render/codehtml"
	"github.com/kubewalk/kubewalk/record"
)

// Cache carries pages from one Build to the next build of the same
// release, so that a build after a walkthrough edit renders again only
// what the edit can change (kubewalk serve: save → reload). Pass the same
// Cache in Options.Cache to every build of a session; without one, Build
// renders everything, as it always did.
//
// What a build reuses, and the inputs its key covers besides the release:
//
//   - a source page: the file's path, its backlinks (the steps citing it,
//     as the page shows them), and which of the files its identifiers
//     link to have a source page (a link goes in-site or to GitHub);
//   - the handlers, events and resources pages and the trace pages: the
//     set of files with a source page (their links);
//   - the highlighted files behind walkthrough excerpts: as a source page's
//     links;
//   - facts.json: nothing but the release;
//   - the files whose content is known before rendering (assets, search
//     index, marker): that content.
//
// Every other page (home, walkthroughs, search, explain) is rendered each
// time. A reused page is a hard link to the same file of the previous
// successful build, so the output is byte for byte what a fresh build
// writes, and nothing is rewritten; where the link fails (the previous
// output is gone, another file system), the page is rendered. With
// Options.InPlace, a build into the output of an earlier build leaves the
// pages that kept their key where they are.
//
// A page shared by hard link is never written to: a build replaces such a
// file by unlinking it first. Only the pages rendered every time, which
// are never linked, are overwritten in place.
//
// "The release" is everything in Input but Docs and what is derived from
// them (Changes, FactChanges: only pages rendered every time show those):
// Tag, Commit, Backend, Lang, Since, Facts, Symbols, Xrefs, Traces and
// Recordings (source pages mark the lines a recorded run counted) are
// compared (the slices and Facts by identity: an analysis result is never
// modified) and the Cache starts afresh when any of them differs. ReadFile and
// Options.SourceURL cannot be compared: a Cache must not outlive the tree
// they read. Build uses the Cache; PrepareReleases, for a site of several
// releases, does not. Builds using one Cache run one at a time.
type Cache struct {
	mu sync.Mutex // held for a whole build

	base cacheBase
	last string // absolute output of the last successful build; "" for none
	// outs are what the last few successful builds wrote, by absolute
	// output directory, most recent last in order.
	outs  map[string]map[string]cachedOut
	order []string

	// Both below depend on the release only, and survive failed builds.
	tmu     sync.Mutex
	targets map[string][]string    // by file: the paths its identifiers link to
	lines   map[string]cachedLines // highlighted files for excerpts
	// factsSize is facts.json.zst's size, 0 until a build measured it;
	// factsAgainst the facts the file was compressed against (the newest
	// release's, for an older release of a site of several), nil for
	// none. An analysis result is never modified: the pointer names the
	// facts, and keeping it keeps another's from taking its address.
	factsSize    int
	factsAgainst *fact.Facts
}

// keptOuts is how many outputs a Cache remembers: serve rotates three.
const keptOuts = 4

// NewCache returns an empty Cache.
func NewCache() *Cache { return &Cache{} }

// cacheBase identifies the release a Cache's entries belong to.
type cacheBase struct {
	tag, commit, backend, lang, since string
	facts                             *fact.Facts
	xrefs                             *fact.FileXref
	symbols                           *fact.Symbol
	traces                            *TraceInput
	// recordings: source pages mark the lines their coverage counted.
	recordings                       **record.Recording
	nXrefs, nSymbols, nTraces, nRecs int
}

func baseOf(in Input) cacheBase {
	return cacheBase{
		tag: in.Tag, commit: in.Commit, backend: in.Backend, lang: in.Lang, since: in.Since,
		facts: in.Facts, xrefs: first(in.Xrefs), symbols: first(in.Symbols), traces: first(in.Traces),
		recordings: first(in.Recordings), nRecs: len(in.Recordings),
		nXrefs: len(in.Xrefs), nSymbols: len(in.Symbols), nTraces: len(in.Traces),
	}
}

func first[T any](s []T) *T {
	if len(s) == 0 {
		return nil
	}
	return &s[0]
}

type pageKey [sha256.Size]byte

// cachedOut is a file a build put in its output.
type cachedOut struct {
	key   pageKey
	keyed bool  // false: rendered every time, never linked elsewhere
	size  int64 // -1: unknown content
}

type cachedLines struct {
	key   pageKey
	lines []codehtml.Line
}

// begin locks c for a build of in and drops every entry of another
// release.
func (c *Cache) begin(in Input) {
	c.mu.Lock()
	if base := baseOf(in); base != c.base {
		c.base, c.last, c.outs, c.order = base, "", nil, nil
		c.tmu.Lock()
		c.targets, c.lines, c.factsSize, c.factsAgainst = nil, nil, 0, nil
		c.tmu.Unlock()
	}
}

// takeOut returns what opts.Out holds when the build may update it in
// place, and forgets it: from now on it is half-written until end.
func (c *Cache) takeOut(opts Options) (map[string]cachedOut, bool) {
	if !opts.InPlace {
		return nil, false
	}
	abs, err := filepath.Abs(opts.Out)
	if err != nil {
		return nil, false
	}
	old, ok := c.outs[abs]
	if !ok {
		return nil, false
	}
	c.forget(abs)
	// A file that is no longer as that build left it is unknown: it is
	// unlinked before anything is written at its path.
	for p, o := range old {
		if st, err := os.Lstat(filepath.Join(abs, filepath.FromSlash(p))); err != nil || !st.Mode().IsRegular() || st.Size() != o.size {
			old[p] = cachedOut{keyed: true, size: -1}
		}
	}
	return old, true
}

func (c *Cache) forget(abs string) {
	delete(c.outs, abs)
	if i := slices.Index(c.order, abs); i >= 0 {
		c.order = slices.Delete(c.order, i, i+1)
	}
	if c.last == abs {
		c.last = ""
	}
}

// end records what a build that succeeded put into out (pl, nil when the
// build failed before writing) and unlocks c. After a failure the last
// successful build stays the one to link from.
func (c *Cache) end(out string, pl *placer, err error) {
	defer c.mu.Unlock()
	abs, aerr := filepath.Abs(out)
	if aerr != nil {
		return
	}
	if err != nil || pl == nil || pl.now == nil {
		return
	}
	c.forget(abs)
	if c.outs == nil {
		c.outs = map[string]map[string]cachedOut{}
	}
	c.outs[abs] = pl.now
	c.order = append(c.order, abs)
	if len(c.order) > keptOuts {
		delete(c.outs, c.order[0])
		c.order = c.order[1:]
	}
	c.last = abs
}

// link puts the last build's copy of the page at site path p into dir
// when its key is key, and returns its size.
func (c *Cache) link(p string, key pageKey, dir string) (int64, bool) {
	if c.last == "" {
		return 0, false
	}
	old, ok := c.outs[c.last][p]
	if !ok || !old.keyed || old.key != key {
		return 0, false
	}
	src := filepath.Join(c.last, filepath.FromSlash(p))
	// A file of the wrong size was changed since: render it again.
	if st, err := os.Lstat(src); err != nil || !st.Mode().IsRegular() || st.Size() != old.size {
		return 0, false
	}
	if err := os.Link(src, filepath.Join(dir, filepath.FromSlash(p))); err != nil {
		return 0, false
	}
	return old.size, true
}

// placer puts the pages of a build with a Cache into its output: it keeps
// what the directory holds already (an update in place), links from the
// last build, or lets the page be written; and records what it put where.
type placer struct {
	c   *Cache
	dir string
	old map[string]cachedOut // what dir held: an update in place; nil for a new directory
	now map[string]cachedOut // what it holds, once finish succeeded
}

// reuse puts page p, whose key is key, into the output without rendering
// it, when it can, and returns its size; when it cannot, the caller
// renders the page and writes it at p, which is then free to write.
func (pl *placer) reuse(p string, key pageKey) (int64, bool, error) {
	if o, ok := pl.old[p]; ok && o.keyed && o.size >= 0 && o.key == key {
		return o.size, true, nil
	}
	if err := pl.free(p); err != nil {
		return 0, false, err
	}
	n, ok := pl.c.link(p, key, pl.dir)
	return n, ok, nil
}

// free makes site path p of an output updated in place safe to write: a
// page that has a key may be a link shared with other outputs, and is
// unlinked, never written through. A page rendered every time was
// written by the build that left it, and is overwritten.
func (pl *placer) free(p string) error {
	if o, ok := pl.old[p]; ok && o.keyed {
		if err := os.Remove(filepath.Join(pl.dir, filepath.FromSlash(p))); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}

// finish removes from an output updated in place the files and
// directories the new build does not have, and records the new content.
func (pl *placer) finish(pages []page, keys []pageKey, sizes []int64) error {
	now := make(map[string]cachedOut, len(pages))
	for i, p := range pages {
		now[p.path] = cachedOut{key: keys[i], keyed: p.key != nil, size: sizes[i]}
	}
	if pl.old != nil {
		keep := map[string]bool{}
		for p := range now {
			for d := path.Dir(p); d != "." && !keep[d]; d = path.Dir(d) {
				keep[d] = true
			}
		}
		var gone []string // directories
		for p := range pl.old {
			if _, ok := now[p]; ok {
				continue
			}
			if err := os.Remove(filepath.Join(pl.dir, filepath.FromSlash(p))); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
			for d := path.Dir(p); d != "." && !keep[d]; d = path.Dir(d) {
				gone = append(gone, d)
			}
		}
		// Deepest first; a directory shared by several gone files comes
		// up more than once, and is gone after the first time.
		sort.Slice(gone, func(i, j int) bool { return gone[i] > gone[j] })
		for _, d := range gone {
			if err := os.Remove(filepath.Join(pl.dir, filepath.FromSlash(d))); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
		}
	}
	pl.now = now
	return nil
}

// linkTargets returns the paths file p's identifiers link to, sorted.
func (c *Cache) linkTargets(p string, idents []fact.Ident) []string {
	c.tmu.Lock()
	defer c.tmu.Unlock()
	if ts, ok := c.targets[p]; ok {
		return ts
	}
	seen := map[string]bool{}
	var ts []string
	for _, id := range idents {
		if t := id.Target.Path; t != "" && !seen[t] {
			seen[t] = true
			ts = append(ts, t)
		}
	}
	sort.Strings(ts)
	if c.targets == nil {
		c.targets = map[string][]string{}
	}
	c.targets[p] = ts
	return ts
}

// cachedHighlight returns the lines cached for p under key.
func (c *Cache) cachedHighlight(p string, key pageKey) ([]codehtml.Line, bool) {
	c.tmu.Lock()
	defer c.tmu.Unlock()
	l, ok := c.lines[p]
	return l.lines, ok && l.key == key
}

func (c *Cache) keepHighlight(p string, key pageKey, lines []codehtml.Line) {
	c.tmu.Lock()
	defer c.tmu.Unlock()
	if c.lines == nil {
		c.lines = map[string]cachedLines{}
	}
	c.lines[p] = cachedLines{key, lines}
}

// keyWriter hashes a page's inputs, each length-prefixed so that no two
// different input lists hash alike by concatenation.
type keyWriter struct{ h hash.Hash }

func newKey(kind string) keyWriter {
	k := keyWriter{sha256.New()}
	k.str(kind)
	return k
}

func (k keyWriter) str(s string) {
	var n [binary.MaxVarintLen64]byte
	k.h.Write(n[:binary.PutUvarint(n[:], uint64(len(s)))])
	k.h.Write([]byte(s))
}

func (k keyWriter) sum() pageKey {
	var out pageKey
	k.h.Sum(out[:0])
	return out
}

// linksKey adds to k which of the files p links to have a source page.
func (b *builder) linksKey(k keyWriter, p string) {
	for _, t := range b.reuse.linkTargets(p, b.xrefs[p]) {
		if b.rendered[t] {
			k.str(t)
		}
	}
}

// sourceKey is the key of file f's source page.
func (b *builder) sourceKey(f string) pageKey {
	k := newKey("source")
	for _, c := range b.citeViews(f) {
		k.str(c.Doc)
		k.str(c.Step)
		k.str(c.Href)
		k.str(c.Lines)
	}
	k.str("links")
	b.linksKey(k, f)
	return k.sum()
}

// filesKey is the key of the pages whose links depend only on which
// files have a source page.
func (b *builder) filesKey() pageKey {
	b.filesOnce.Do(func() {
		k := newKey("files")
		for _, f := range b.files {
			k.str(f)
		}
		b.filesSum = k.sum()
	})
	return b.filesSum
}

// dataKey is the key of a page whose content is known: the content.
func dataKey(data []byte) pageKey {
	k := newKey("data")
	k.h.Write(data)
	return k.sum()
}

// releaseKey is the key of a page that depends on the release only.
func releaseKey() pageKey { return newKey("release").sum() }

// cachedFactsSize is facts.json.zst's size for the release, compressed
// against the facts against (nil: alone), if a build measured it; c may
// be nil.
func (c *Cache) cachedFactsSize(against *fact.Facts) (int, bool) {
	if c == nil {
		return 0, false
	}
	c.tmu.Lock()
	defer c.tmu.Unlock()
	return c.factsSize, c.factsSize > 0 && c.factsAgainst == against
}

// keepFactsSize remembers facts.json.zst's size for the release,
// compressed against the facts against (nil: alone); c may be nil.
func (c *Cache) keepFactsSize(n int, against *fact.Facts) {
	if c == nil {
		return
	}
	c.tmu.Lock()
	c.factsSize, c.factsAgainst = n, against
	c.tmu.Unlock()
}
