package pipeline

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"hash"
	"io/fs"
	"maps"
	"path"
	"slices"

	"github.com/kubewalk/kubewalk/walkthrough"
)

// Docs loads and resolves the walkthroughs of every set in lang against
// rel; lang "" loads every language (walkthrough.LoadAll). A user
// walkthrough with the ID of a built-in one replaces it.
func Docs(rel *Release, sets []WalkSet, lang string) ([]*walkthrough.Doc, error) {
	return LoadDocs(rel, sets, lang, AlsoTargets(sets), nil)
}

// LoadDocs is Docs, with the link targets of the sets given (they are the
// same for every release: AlsoTargets) and the sets whose files did not
// change since memo loaded them taken from it. A nil memo loads every set.
func LoadDocs(rel *Release, sets []WalkSet, lang string, also walkthrough.LinkTargets, memo *DocsMemo) ([]*walkthrough.Doc, error) {
	var docs []*walkthrough.Doc
	for _, s := range sets {
		opts := walkthrough.Options{Resolver: rel.Result, Also: also}
		ds, err := memo.load(s, lang, also, func() ([]*walkthrough.Doc, error) {
			if lang == "" {
				return walkthrough.LoadAll(s.FS, s.Dir, opts)
			}
			return walkthrough.Load(s.FS, s.Dir, lang, opts)
		})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.Name, err)
		}
		// A later set's walkthrough replaces an earlier one's of its ID,
		// in every language.
		ids := map[string]bool{}
		for _, d := range ds {
			ids[d.ID] = true
		}
		docs = slices.DeleteFunc(docs, func(d *walkthrough.Doc) bool { return ids[d.ID] })
		docs = append(docs, ds...)
	}
	return docs, nil
}

// AlsoTargets is walkthrough.Options.Also for sets: LinkTargets when
// there are several, nil for one, whose walkthroughs Load finds in its
// own parse (a set's own walkthroughs win over Also's), so the default
// build parses its walkthroughs once for the links instead of twice.
func AlsoTargets(sets []WalkSet) walkthrough.LinkTargets {
	if len(sets) < 2 {
		return nil
	}
	return LinkTargets(sets)
}

// LinkTargets returns the walkthroughs of every set with their step
// anchors, for walkthrough.Options.Also: a user's walkthroughs may link
// to the built-in ones. A later set's walkthrough replaces an earlier
// one's of the same ID, as in Docs. Syntax errors are left for Load and
// Check to report, at their file and line.
func LinkTargets(sets []WalkSet) walkthrough.LinkTargets {
	all := walkthrough.LinkTargets{}
	for _, s := range sets {
		t, _ := walkthrough.Targets(s.FS, s.Dir)
		maps.Copy(all, t)
	}
	return all
}

// DocsMemo remembers the walkthroughs loaded from each set of one
// release, with a hash of the set's files, for LoadDocs called again and
// again on the same release (serve's rebuilds): a set whose files are as
// they were is not parsed and resolved again. Calls must not overlap.
type DocsMemo struct {
	sets map[string]memoSet // by set name, directory and language
}

// NewDocsMemo returns an empty memo.
func NewDocsMemo() *DocsMemo {
	return &DocsMemo{sets: map[string]memoSet{}}
}

type memoSet struct {
	sum  [sha256.Size]byte
	docs []*walkthrough.Doc
}

// load returns the walkthroughs of s in lang: the ones loaded before when
// its files did not change since, else what load returns. A nil memo
// always loads.
func (m *DocsMemo) load(s WalkSet, lang string, also walkthrough.LinkTargets, load func() ([]*walkthrough.Doc, error)) ([]*walkthrough.Doc, error) {
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
