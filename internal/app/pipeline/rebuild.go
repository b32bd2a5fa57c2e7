package pipeline

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"hash"
	"io/fs"
	"maps"
	"path"
	"slices"

	"github.com/kubewalk/kubewalk/site"
	"github.com/kubewalk/kubewalk/walkthrough"
)

// Rebuild returns a Build of rel for building again and again, as serve
// does after each walkthrough edit. Each call renders the site into out;
// the calls share what an edit cannot change:
//
//   - the walkthroughs of a set whose files are as they were at the last
//     call are not parsed and resolved again (the built-in set never
//     changes; loading it is most of the time walkthrough.Load takes);
//   - a site.Cache carries over the pages the walkthroughs do not reach
//     (most source pages, the fact indexes, facts.json), instead of
//     rendering and writing them again;
//   - an out that holds an earlier call's output is updated in place
//     (site.Options.InPlace): the caller must serve none of it while the
//     call runs.
//
// The output is what Build writes. Calls must not overlap.
func Rebuild(rel *Release, sets []WalkSet, lang string, logf func(string, ...any)) func(ctx context.Context, out string) (site.Stats, error) {
	cache := site.NewCache()
	memo := &docsMemo{sets: map[string]memoSet{}}
	return func(ctx context.Context, out string) (site.Stats, error) {
		return buildReleases(ctx, []*Release{rel}, sets, lang, site.Options{Out: out, Logf: logf, Cache: cache, InPlace: true}, memo)
	}
}

// docsMemo remembers the walkthroughs loaded from each set of one
// release, with a hash of the set's files.
type docsMemo struct {
	sets map[string]memoSet // by set name, directory and language
}

type memoSet struct {
	sum  [sha256.Size]byte
	docs []*walkthrough.Doc
}

// load returns the walkthroughs of s in lang: the ones loaded before when
// its files did not change since, else what load returns. A nil memo
// always loads.
func (m *docsMemo) load(s WalkSet, lang string, also walkthrough.LinkTargets, load func() ([]*walkthrough.Doc, error)) ([]*walkthrough.Doc, error) {
	if m == nil {
		return load()
	}
	sum, err := setSum(s)
	if err != nil {
		return load() // which reports the problem
	}
	// The set's links are checked against also: a change there (a step
	// of another set renamed) loads it again.
	key := s.Name + "\x00" + s.Dir + "\x00" + lang + "\x00" + targetsKey(also)
	if e, ok := m.sets[key]; ok && e.sum == sum {
		return e.docs, nil
	}
	docs, err := load()
	if err != nil {
		delete(m.sets, key)
		return docs, err
	}
	// Should a file change between setSum and load, the next call sees
	// another sum and loads again.
	m.sets[key] = memoSet{sum, docs}
	return docs, nil
}

// targetsKey is a digest of link targets, for the memo's key.
func targetsKey(t walkthrough.LinkTargets) string {
	h := sha256.New()
	for _, id := range slices.Sorted(maps.Keys(t)) {
		fmt.Fprintf(h, "%q %q\n", id, t[id])
	}
	return string(h.Sum(nil))
}

// setSum hashes the name and content of every file in the set's
// directory: everything walkthrough.Load reads (it does not descend).
func setSum(s WalkSet) ([sha256.Size]byte, error) {
	var sum [sha256.Size]byte
	ents, err := fs.ReadDir(s.FS, s.Dir)
	if err != nil {
		return sum, err
	}
	h := sha256.New()
	for _, e := range ents {
		if e.IsDir() {
			continue
		}
		data, err := fs.ReadFile(s.FS, path.Join(s.Dir, e.Name()))
		if err != nil {
			return sum, err
		}
		writeField(h, []byte(e.Name()))
		writeField(h, data)
	}
	h.Sum(sum[:0])
	return sum, nil
}

// writeField writes b length-prefixed, so that no two lists of fields
// hash alike by concatenation.
func writeField(h hash.Hash, b []byte) {
	var n [binary.MaxVarintLen64]byte
	h.Write(n[:binary.PutUvarint(n[:], uint64(len(b)))])
	h.Write(b)
}
