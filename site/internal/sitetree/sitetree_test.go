package sitetree

import (
	"context"
	"errors"
	"io/fs"
	"maps"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kubewalk/kubewalk/internal/testsupport/testfs"
)

func TestTree(t *testing.T) {
	tr := New()
	files := map[string]string{
		"index.html":                     "<p>releases</p>",
		"src/pkg/a.go.html":              "a",
		"v1.36.3/en/handlers.html":       "en",
		"v1.36.3/ko/handlers.html":       "ko",
		"v1.36.3/lines.js":               "lines",
		"v1.36.3/en/walkthroughs/x.html": "x",
	}
	for p, d := range files {
		if err := tr.Put(p, []byte(d)); err != nil {
			t.Fatal(err)
		}
	}
	for _, bad := range []string{"", ".", "/abs", "../up", "a//b", "a/./b", `a\..\b/../../c`} {
		if err := tr.Put(bad, nil); err == nil {
			t.Errorf("Put(%q) took a path that is not a site path", bad)
		}
	}
	if got := tr.Dirs("v1.36.3"); !slices.Equal(got, []string{"en", "ko"}) {
		t.Errorf("Dirs(v1.36.3) = %q", got)
	}
	if got := tr.Dirs(""); !slices.Equal(got, []string{"src", "v1.36.3"}) {
		t.Errorf("Dirs(root) = %q", got)
	}

	if err := tr.Remove("v1.36.3/ko/handlers.html"); err != nil {
		t.Fatal(err)
	}
	if err := tr.Remove("v1.36.3/ko/handlers.html"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("removing a file twice: %v", err)
	}
	if _, err := tr.ReadFile("v1.36.3/ko/handlers.html"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("reading a removed file: %v", err)
	}
	if got := tr.Dirs("v1.36.3"); !slices.Equal(got, []string{"en"}) {
		t.Errorf("Dirs(v1.36.3) after its only file in ko/ went = %q", got)
	}
	delete(files, "v1.36.3/ko/handlers.html")

	dir := t.TempDir()
	if err := tr.WriteTo(context.Background(), dir, 2); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"./": "", "src/": "", "src/pkg/": "", "v1.36.3/": "", "v1.36.3/en/": "", "v1.36.3/en/walkthroughs/": ""}
	maps.Copy(want, files)
	if diff := cmp.Diff(want, testfs.Tree(t, dir)); diff != "" {
		t.Errorf("written (-want +got):\n%s", diff)
	}
}

// TestTreeConcurrent has many writers and readers at once, as a site's
// pages are rendered and its passes read them (run with -race).
func TestTreeConcurrent(t *testing.T) {
	tr := New()
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for j := range 100 {
				p := filepath.ToSlash(filepath.Join("d", string(rune('a'+i)), string(rune('a'+j%26))+".html"))
				if err := tr.Put(p, []byte{byte(j)}); err != nil {
					t.Error(err)
				}
				if _, err := tr.ReadFile(p); err != nil {
					t.Error(err)
				}
				_ = tr.Paths()
			}
		})
	}
	wg.Wait()
	if n := len(tr.Paths()); n != 8*26 {
		t.Errorf("%d files, want %d", n, 8*26)
	}
}
