package pagecache

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"sync"

	"github.com/kubewalk/kubewalk/internal/disk/publish"
)

// Store remembers what the last few successful builds of one release
// wrote, by output directory, for the next build to reuse. The zero
// Store is empty. Builds using one Store run one at a time: Begin locks
// it for a build, Publish runs the build and unlocks it.
type Store[B comparable] struct {
	mu sync.Mutex // held for a whole build

	base B
	last string // absolute output of the last successful build; "" for none
	// outs are what the last few successful builds wrote, by absolute
	// output directory, most recent last in order.
	outs  map[string]map[string]entry
	order []string
}

// keptOuts is how many outputs a Store remembers: kubewalk serve
// rotates three.
const keptOuts = 4

// entry is a file a build put in its output.
type entry struct {
	key   Key
	keyed bool  // false: made every time, never linked elsewhere
	size  int64 // -1: unknown content
}

// Begin locks s for a build of the release base. When base is another
// release's, it forgets every output s remembers, and resets memos, what
// the caller keeps of the release besides (Memo).
func (s *Store[B]) Begin(base B, memos ...interface{ Reset() }) {
	s.mu.Lock()
	if base == s.base {
		return
	}
	s.base, s.last, s.outs, s.order = base, "", nil, nil
	for _, m := range memos {
		m.Reset()
	}
}

// Publish runs build, which writes a site into dir putting its files
// there with pl, and publishes the site at out; then it remembers what
// pl put where, when the build succeeded, and unlocks s, which Begin
// locked. With inPlace, when out holds the output of one of the builds
// s remembers, the build updates out where it stands (publish.InPlace):
// the files that kept their key are not touched, and no directory is
// made again; out is half-written while build runs and after it fails,
// so this is for callers that serve none of out meanwhile. Otherwise the
// site is written beside out and swapped into place
// (publish.Atomically). After a failure the last successful build
// stays the one to link from.
func Publish[B comparable, T any](s *Store[B], out string, inPlace bool, build func(dir string, pl *Placer) (T, error)) (T, error) {
	var pl *Placer
	var st T
	var err error
	if old, ok := s.takeOut(out, inPlace); ok {
		st, err = publish.InPlace(out, func() (T, error) {
			pl = s.placer(out, old)
			return build(out, pl)
		})
	} else {
		st, err = publish.Atomically(out, func(dir string) (T, error) {
			pl = s.placer(dir, nil)
			return build(dir, pl)
		})
	}
	s.end(out, pl, err)
	return st, err
}

// takeOut returns what out holds when the build may update it in place,
// and forgets it: from now on it is half-written until end.
func (s *Store[B]) takeOut(out string, inPlace bool) (map[string]entry, bool) {
	if !inPlace {
		return nil, false
	}
	abs, err := filepath.Abs(out)
	if err != nil {
		return nil, false
	}
	old, ok := s.outs[abs]
	if !ok {
		return nil, false
	}
	s.forget(abs)
	// A file that is no longer as that build left it is unknown: it is
	// unlinked before anything is written at its path.
	for p, o := range old {
		if st, err := os.Lstat(filepath.Join(abs, filepath.FromSlash(p))); err != nil || !st.Mode().IsRegular() || st.Size() != o.size {
			old[p] = entry{keyed: true, size: -1}
		}
	}
	return old, true
}

func (s *Store[B]) forget(abs string) {
	delete(s.outs, abs)
	if i := slices.Index(s.order, abs); i >= 0 {
		s.order = slices.Delete(s.order, i, i+1)
	}
	if s.last == abs {
		s.last = ""
	}
}

// end records what a build that succeeded put into out (pl, nil when the
// build failed before writing) and unlocks s.
func (s *Store[B]) end(out string, pl *Placer, err error) {
	defer s.mu.Unlock()
	abs, aerr := filepath.Abs(out)
	if aerr != nil {
		return
	}
	if err != nil || pl == nil || pl.now == nil {
		return
	}
	s.forget(abs)
	if s.outs == nil {
		s.outs = map[string]map[string]entry{}
	}
	s.outs[abs] = pl.now
	s.order = append(s.order, abs)
	if len(s.order) > keptOuts {
		delete(s.outs, s.order[0])
		s.order = s.order[1:]
	}
	s.last = abs
}

// placer returns the Placer of a build into dir, which holds old (an
// update in place; nil for a new directory), linking from the last
// successful build.
func (s *Store[B]) placer(dir string, old map[string]entry) *Placer {
	return &Placer{dir: dir, old: old, from: s.last, prev: s.outs[s.last]}
}

// Placer puts the files of a build into its output: it keeps what the
// directory holds already (an update in place), links from the last
// build, or lets the file be written; and records what it put where.
// Its methods may be called for different paths at once.
type Placer struct {
	dir  string
	old  map[string]entry // what dir held: an update in place; nil for a new directory
	from string           // the last successful build's output, "" for none
	prev map[string]entry // what from holds

	mu  sync.Mutex
	put map[string]entry // what the build put into dir so far
	now map[string]entry // what dir holds, once Finish succeeded
}

// Reuse puts the file at site path p, whose key is key, into the output
// without making it, when it can, and returns its size; when it cannot,
// the caller makes the file, and writes it at p after Made.
func (pl *Placer) Reuse(p string, key Key) (int64, bool, error) {
	if o, ok := pl.old[p]; ok && o.keyed && o.size >= 0 && o.key == key {
		pl.record(p, o)
		return o.size, true, nil
	}
	if err := pl.free(p); err != nil {
		return 0, false, err
	}
	n, ok := pl.link(p, key)
	if ok {
		pl.record(p, entry{key: key, keyed: true, size: n})
	}
	return n, ok, nil
}

// Made records that the build made the file at p, of size bytes, under
// key when keyed (after Reuse could not put it), and makes p safe to
// write.
func (pl *Placer) Made(p string, key Key, keyed bool, size int64) error {
	if !keyed {
		if err := pl.free(p); err != nil {
			return err
		}
	}
	pl.record(p, entry{key: key, keyed: keyed, size: size})
	return nil
}

func (pl *Placer) record(p string, e entry) {
	pl.mu.Lock()
	defer pl.mu.Unlock()
	if pl.put == nil {
		pl.put = map[string]entry{}
	}
	pl.put[p] = e
}

// link puts the last build's copy of the file at p into the output when
// its key is key, and returns its size.
func (pl *Placer) link(p string, key Key) (int64, bool) {
	if pl.from == "" {
		return 0, false
	}
	old, ok := pl.prev[p]
	if !ok || !old.keyed || old.key != key {
		return 0, false
	}
	src := filepath.Join(pl.from, filepath.FromSlash(p))
	// A file of the wrong size was changed since: make it again.
	if st, err := os.Lstat(src); err != nil || !st.Mode().IsRegular() || st.Size() != old.size {
		return 0, false
	}
	if err := os.Link(src, filepath.Join(pl.dir, filepath.FromSlash(p))); err != nil {
		return 0, false
	}
	return old.size, true
}

// free makes site path p of an output updated in place safe to write:
// a file that had a key may be a link shared with other outputs, and is
// unlinked, never written through. A file made every time was written
// by the build that left it, and is overwritten.
func (pl *Placer) free(p string) error {
	if o, ok := pl.old[p]; ok && o.keyed {
		if err := os.Remove(filepath.Join(pl.dir, filepath.FromSlash(p))); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}

// Finish, once the build put every file (Reuse, Made), removes from an
// output updated in place the files and directories the build does not
// have, and records what the output holds for the next build.
func (pl *Placer) Finish() error {
	now := pl.put
	if now == nil {
		now = map[string]entry{}
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
