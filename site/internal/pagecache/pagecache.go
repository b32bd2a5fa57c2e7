// Package pagecache carries the files of one build of a site into the
// next build of the same release, so that a build after a small edit
// makes again only the files the edit can change (kubewalk serve: save →
// reload; package site's Cache says which pages it covers).
//
// Every file a build puts into its output may have a Key, which hashes
// every input of the file that can change within a release (Hasher);
// the release itself is the Store's base, a comparable value the caller
// makes of it, and a Store forgets everything when the base changes. A
// file whose key is the one it had in the last successful build is not
// made again: it is a hard link to that build's copy, or, when the
// build updates that very directory (Publish with inPlace), left where
// it is. So the output is byte for byte what a build making every file
// writes, and nothing is rewritten; where the link fails (the previous
// output is gone, another file system), the caller makes the file.
//
// A file that has a key may be shared by hard link with the outputs of
// earlier builds, which a server may still be serving: it is never
// written to, but unlinked before a file is written at its path. Only
// files without a key, made every time and never linked, are
// overwritten in place.
//
// The package knows nothing of pages or releases: it takes site paths
// (slash-separated, relative to the output), keys, sizes and the base.
package pagecache

import (
	"crypto/sha256"
	"encoding/binary"
	"hash"
	"sync"
)

// Key hashes every input of a file that can change within a release.
type Key [sha256.Size]byte

// Hasher makes a Key of a file's inputs, each added length-prefixed (Add)
// so that no two different input lists hash alike by concatenation.
type Hasher struct{ h hash.Hash }

// NewHasher starts the key of a kind of file: keys of different kinds
// differ even when their inputs are the same.
func NewHasher(kind string) Hasher {
	k := Hasher{sha256.New()}
	k.Add(kind)
	return k
}

// Add adds the input s.
func (k Hasher) Add(s string) {
	var n [binary.MaxVarintLen64]byte
	k.h.Write(n[:binary.PutUvarint(n[:], uint64(len(s)))])
	k.h.Write([]byte(s))
}

// Write adds p as it is, without a length: the bytes of another Key, or
// the whole content of a file.
func (k Hasher) Write(p []byte) (int, error) { return k.h.Write(p) }

// Sum is the key of what was added.
func (k Hasher) Sum() Key {
	var out Key
	k.h.Sum(out[:0])
	return out
}

// DataKey is the key of a file whose content is known before it is
// written: the content.
func DataKey(data []byte) Key {
	k := NewHasher("data")
	k.Write(data)
	return k.Sum()
}

// Memo keeps, by site path, one value computed from the release and
// what k stands for (a file's highlighted lines under the Key of their
// links, say), so that a build meeting the same k takes the value
// instead of computing it again. It keeps the latest value of each path,
// and is safe for concurrent use. Store.Begin resets the memos it is
// given when the release changes.
type Memo[K comparable, V any] struct {
	mu sync.Mutex
	m  map[string]memoEntry[K, V]
}

type memoEntry[K comparable, V any] struct {
	k K
	v V
}

// Get returns the value kept for p under k.
func (m *Memo[K, V]) Get(p string, k K) (V, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.m[p]
	return e.v, ok && e.k == k
}

// Put keeps v for p under k, in place of what p had.
func (m *Memo[K, V]) Put(p string, k K, v V) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.m == nil {
		m.m = map[string]memoEntry[K, V]{}
	}
	m.m[p] = memoEntry[K, V]{k, v}
}

// Keep returns the value kept for p under k, or else f's, which it keeps.
// f runs without the memo locked: two callers may both compute a value,
// and the later one's is kept.
func (m *Memo[K, V]) Keep(p string, k K, f func() V) V {
	if v, ok := m.Get(p, k); ok {
		return v
	}
	v := f()
	m.Put(p, k, v)
	return v
}

// Reset forgets every value.
func (m *Memo[K, V]) Reset() {
	m.mu.Lock()
	m.m = nil
	m.mu.Unlock()
}
