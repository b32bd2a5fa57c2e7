package pagecache

import (
	"testing"
)

// TestHasher: a key hashes its kind and its inputs as a list, not their
// concatenation.
func TestHasher(t *testing.T) {
	key := func(kind string, in ...string) Key {
		k := NewHasher(kind)
		for _, s := range in {
			k.Add(s)
		}
		return k.Sum()
	}
	if key("page", "ab", "c") == key("page", "a", "bc") {
		t.Error(`("ab", "c") and ("a", "bc") have one key`)
	}
	if key("page", "a") == key("other", "a") {
		t.Error("two kinds of file with the same inputs have one key")
	}
	if key("page", "a", "b") != key("page", "a", "b") {
		t.Error("the same inputs have two keys")
	}
	if DataKey([]byte("x")) != DataKey([]byte("x")) || DataKey([]byte("x")) == DataKey([]byte("y")) {
		t.Error("DataKey is not the key of the content")
	}
}

// TestMemo: a value is taken under the key it was kept under, the latest
// of its path, until Reset.
func TestMemo(t *testing.T) {
	var m Memo[Key, string]
	k1, k2 := DataKey([]byte("1")), DataKey([]byte("2"))
	if _, ok := m.Get("a", k1); ok {
		t.Fatal("an empty Memo has a value")
	}
	m.Put("a", k1, "one")
	if v, ok := m.Get("a", k1); !ok || v != "one" {
		t.Fatalf("Get(a, k1) = %q, %v", v, ok)
	}
	if _, ok := m.Get("a", k2); ok {
		t.Fatal("a value is taken under another key")
	}
	if _, ok := m.Get("b", k1); ok {
		t.Fatal("a value is taken for another path")
	}
	m.Put("a", k2, "two")
	if _, ok := m.Get("a", k1); ok {
		t.Fatal("Put kept the value it replaced")
	}
	m.Reset()
	if _, ok := m.Get("a", k2); ok {
		t.Fatal("a value outlived Reset")
	}
}
