package pagecache

import (
	"errors"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"testing"
)

// file is a file of a test build: its content, and whether it has a key
// (the key of its content).
type file struct {
	data  string
	keyed bool
}

// build publishes files at out with s, as a site's build does, and
// returns the paths it made (the others were reused). fail, when set,
// fails the build after it placed every file.
func build(t *testing.T, s *Store[string], base, out string, inPlace bool, files map[string]file, fail error) ([]string, error) {
	t.Helper()
	s.Begin(base)
	var made []string
	_, err := Publish(s, out, inPlace, func(dir string, pl *Placer) (struct{}, error) {
		for _, p := range slices.Sorted(maps.Keys(files)) {
			f := files[p]
			if err := os.MkdirAll(filepath.Join(dir, path.Dir(p)), 0o755); err != nil {
				return struct{}{}, err
			}
			key := DataKey([]byte(f.data))
			if f.keyed {
				_, ok, err := pl.Reuse(p, key)
				if err != nil {
					return struct{}{}, err
				}
				if ok {
					continue
				}
			}
			if err := pl.Made(p, key, f.keyed, int64(len(f.data))); err != nil {
				return struct{}{}, err
			}
			if err := os.WriteFile(filepath.Join(dir, p), []byte(f.data), 0o644); err != nil {
				return struct{}{}, err
			}
			made = append(made, p)
		}
		if fail != nil {
			return struct{}{}, fail
		}
		return struct{}{}, pl.Finish()
	})
	return made, err
}

// tree reads every regular file under dir, by slash path.
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		data, err := os.ReadFile(p)
		out[filepath.ToSlash(rel)] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	delete(out, ".kubewalk-site") // publish's marker
	return out
}

func same(t *testing.T, a, b string) bool {
	t.Helper()
	sa, err := os.Stat(a)
	if err != nil {
		t.Fatal(err)
	}
	sb, err := os.Stat(b)
	if err != nil {
		t.Fatal(err)
	}
	return os.SameFile(sa, sb)
}

func want(t *testing.T, name string, got, want []string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s: made %q, want %q", name, got, want)
	}
}

// TestReuseByLink: a build into a new directory links the files whose
// key is unchanged from the last successful build, and makes the files
// without a key, the files whose key changed and, after another
// release, every file.
func TestReuseByLink(t *testing.T) {
	root := t.TempDir()
	one := map[string]file{"a.html": {"a", true}, "d/b.html": {"b", true}, "index.html": {"i", false}}
	var s Store[string]
	made, err := build(t, &s, "r1", filepath.Join(root, "1"), false, one, nil)
	if err != nil {
		t.Fatal(err)
	}
	want(t, "first build", made, []string{"a.html", "d/b.html", "index.html"})

	two := map[string]file{"a.html": {"a", true}, "d/b.html": {"b2", true}, "index.html": {"i", false}}
	made, err = build(t, &s, "r1", filepath.Join(root, "2"), false, two, nil)
	if err != nil {
		t.Fatal(err)
	}
	want(t, "an edit", made, []string{"d/b.html", "index.html"})
	if !same(t, filepath.Join(root, "1", "a.html"), filepath.Join(root, "2", "a.html")) {
		t.Error("a.html, unchanged, is not a link to the build before")
	}
	if got := tree(t, filepath.Join(root, "1")); got["d/b.html"] != "b" {
		t.Errorf("the build before now holds %q", got)
	}

	// A failed build is not linked from: the next links from the one
	// before it.
	if _, err := build(t, &s, "r1", filepath.Join(root, "3"), false, map[string]file{"a.html": {"a", true}}, errors.New("failed")); err == nil {
		t.Fatal("the failing build succeeded")
	}
	made, err = build(t, &s, "r1", filepath.Join(root, "4"), false, two, nil)
	if err != nil {
		t.Fatal(err)
	}
	want(t, "after a failed build", made, []string{"index.html"})

	// A file changed since its build is made again.
	if err := os.WriteFile(filepath.Join(root, "4", "a.html"), []byte("changed"), 0o644); err != nil {
		t.Fatal(err)
	}
	made, err = build(t, &s, "r1", filepath.Join(root, "5"), false, two, nil)
	if err != nil {
		t.Fatal(err)
	}
	want(t, "a file changed since", made, []string{"a.html", "index.html"})

	made, err = build(t, &s, "r2", filepath.Join(root, "6"), false, two, nil)
	if err != nil {
		t.Fatal(err)
	}
	want(t, "another release", made, []string{"a.html", "d/b.html", "index.html"})
}

// TestInPlace: a build in place into an earlier build's output leaves
// the files that kept their key where they are, unlinks a file that may
// be shared before writing its path again (the build it is linked from
// keeps its content), overwrites the files without a key, and removes
// the files and directories it does not have.
func TestInPlace(t *testing.T) {
	root := t.TempDir()
	a, b := filepath.Join(root, "a"), filepath.Join(root, "b")
	one := map[string]file{"keep.html": {"k", true}, "edit.html": {"e", true}, "gone/deep/x.html": {"x", true}, "gone/y.html": {"y", false}, "index.html": {"i", false}}
	var s Store[string]
	if _, err := build(t, &s, "r", a, true, one, nil); err != nil {
		t.Fatal(err)
	}
	// b links every keyed file from a.
	made, err := build(t, &s, "r", b, true, one, nil)
	if err != nil {
		t.Fatal(err)
	}
	want(t, "b", made, []string{"gone/y.html", "index.html"})
	index, err := os.Stat(filepath.Join(a, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	before := tree(t, b)

	two := map[string]file{"keep.html": {"k", true}, "edit.html": {"e2", true}, "index.html": {"i2", false}}
	made, err = build(t, &s, "r", a, true, two, nil)
	if err != nil {
		t.Fatal(err)
	}
	want(t, "a in place", made, []string{"edit.html", "index.html"})
	if got, want := tree(t, a), map[string]string{"keep.html": "k", "edit.html": "e2", "index.html": "i2"}; !maps.Equal(got, want) {
		t.Errorf("a holds %q, want %q", got, want)
	}
	if _, err := os.Stat(filepath.Join(a, "gone")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the directory of the gone files is still there (%v)", err)
	}
	if got := tree(t, b); !maps.Equal(got, before) {
		t.Errorf("the build in place changed b: %q, was %q", got, before)
	}
	if !same(t, filepath.Join(a, "keep.html"), filepath.Join(b, "keep.html")) {
		t.Error("keep.html was written again")
	}
	if now, err := os.Stat(filepath.Join(a, "index.html")); err != nil || !os.SameFile(index, now) {
		t.Errorf("index.html, without a key, was not overwritten in place (%v)", err)
	}
}

// TestKeptOuts: a Store remembers the last keptOuts outputs, and the
// build in place into one takes it out until it succeeds.
func TestKeptOuts(t *testing.T) {
	root := t.TempDir()
	var s Store[string]
	files := map[string]file{"a.html": {"a", true}}
	var outs []string
	for i := range keptOuts + 1 {
		out := filepath.Join(root, string(rune('a'+i)))
		if _, err := build(t, &s, "r", out, false, files, nil); err != nil {
			t.Fatal(err)
		}
		outs = append(outs, out)
	}
	for i, out := range outs {
		abs, _ := filepath.Abs(out)
		if _, ok := s.outs[abs]; ok != (i > 0) {
			t.Errorf("output %d remembered: %v", i, ok)
		}
	}
	s.Begin("r")
	if _, ok := s.takeOut(outs[0], true); ok {
		t.Error("the forgotten output can be updated in place")
	}
	if _, ok := s.takeOut(outs[1], false); ok {
		t.Error("an output is taken for a build that is not in place")
	}
	if _, ok := s.takeOut(outs[1], true); !ok {
		t.Error("a remembered output cannot be updated in place")
	}
	if _, ok := s.takeOut(outs[1], true); ok {
		t.Error("an output taken for an update in place is still remembered")
	}
	s.end(outs[1], nil, errors.New("failed"))
	if s.last != outs[len(outs)-1] {
		t.Errorf("last is %s after a failed build, want %s", s.last, outs[len(outs)-1])
	}
}

// TestBeginResets: Begin with another release resets the memos it is
// given; with the same release, it keeps them.
func TestBeginResets(t *testing.T) {
	var s Store[string]
	var m Memo[struct{}, int]
	m.Put("p", struct{}{}, 1)
	s.Begin("r1", &m)
	s.end("out", nil, nil)
	if _, ok := m.Get("p", struct{}{}); ok {
		t.Error("a memo outlived its release")
	}
	m.Put("p", struct{}{}, 1)
	s.Begin("r1", &m)
	s.end("out", nil, nil)
	if _, ok := m.Get("p", struct{}{}); !ok {
		t.Error("a memo was reset for a build of its release")
	}
}
