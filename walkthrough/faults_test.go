package walkthrough

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/kubewalk/kubewalk/internal/testsupport/fakeresolver"
	"github.com/kubewalk/kubewalk/templates"
)

// errorTexts returns the errors' messages.
func errorTexts(errs []error) []string {
	var out []string
	for _, e := range errs {
		out = append(out, e.Error())
	}
	return out
}

// TestWalkthroughsOutOfReach: a walkthrough check and build would not read
// (in a subdirectory, named *.MD) is a problem naming the file; it was
// skipped without a word, and a check of a directory holding only such
// files passed having checked nothing.
func TestWalkthroughsOutOfReach(t *testing.T) {
	fsys := fstest.MapFS{
		"sub/broken.md":      {Data: []byte("no front matter")},
		"deep/a/b/c.md":      {Data: []byte(plainWalkthrough)},
		"Upper.MD":           {Data: []byte(plainWalkthrough)},
		"mixed.Md":           {Data: []byte(plainWalkthrough)},
		"_drafts/x.md":       {Data: []byte("kept out on purpose")},
		".git/notes.md":      {Data: []byte("kept out on purpose")},
		"images/diagram.png": {Data: []byte("not Markdown")},
		"images/README.md":   {Data: []byte("a README is not a walkthrough")},
	}
	want := []string{
		"Upper.MD: file name: a walkthrough's name ends in .md, in lower case: rename it to Upper.md",
		"deep/a/b/c.md: walkthroughs in subdirectories are not read: move it to the top of the walkthrough directory",
		"mixed.Md: file name: a walkthrough's name ends in .md, in lower case: rename it to mixed.md",
		"sub/broken.md: walkthroughs in subdirectories are not read",
	}
	check := func(what string, got []string) {
		t.Helper()
		if len(got) != len(want) {
			t.Fatalf("%s: got\n\t%s\nwant\n\t%s", what, strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
		}
		for i := range want {
			if !strings.HasPrefix(got[i], want[i]) {
				t.Errorf("%s: got %q, want it to start %q", what, got[i], want[i])
			}
		}
	}
	opts := testOptions(&fakeresolver.Resolver{})
	check("Check", errorTexts(Check(fsys, ".", opts)))
	_, err := Load(fsys, ".", "en", opts)
	check("Load", strings.Split(err.Error(), "\n"))
	files, err := Files(fsys, ".")
	if len(files) != 0 {
		t.Errorf("Files = %q, want none", files)
	}
	check("Files", strings.Split(err.Error(), "\n"))

	fsys["real.md"] = &fstest.MapFile{Data: []byte(plainWalkthrough)}
	fsys["real.ko.md"] = &fstest.MapFile{Data: []byte(plainWalkthrough)}
	if files, _ := Files(fsys, "."); !slices.Equal(files, []string{"real.ko.md", "real.md"}) {
		t.Errorf("Files = %q", files)
	}
}

// TestByteOrderMark: a walkthrough saved with a UTF-8 byte order mark
// reads as one without; its front matter was "missing".
func TestByteOrderMark(t *testing.T) {
	for name, src := range map[string]string{
		"lf":   "\ufeff" + plainWalkthrough,
		"crlf": "\ufeff" + strings.ReplaceAll(plainWalkthrough, "\n", "\r\n"),
	} {
		docs, err := Load(fstest.MapFS{"w.md": {Data: []byte(src)}}, ".", "en", testOptions(&fakeresolver.Resolver{}))
		if err != nil || len(docs) != 1 || docs[0].Title != "Plain" || len(docs[0].Steps) != 1 {
			t.Errorf("%s: %v, %v", name, docs, err)
		}
	}
}

// TestPageIDsTaken: a step or heading id that the walkthrough page has of
// its own (in its templates) is refused; check passed {#main} and
// {#diffbox}, and the page had two elements of that id.
func TestPageIDsTaken(t *testing.T) {
	literal := regexp.MustCompile(`\bid="([A-Za-z][\w-]*)"`)
	var ids []string
	for _, name := range []string{"layout.html", "walkthrough.html"} {
		b, err := templates.FS.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range literal.FindAllStringSubmatch(string(b), -1) {
			ids = append(ids, m[1])
		}
	}
	if len(ids) == 0 {
		t.Fatal("no id in the templates: the pattern is stale")
	}
	for _, id := range ids {
		for what, src := range map[string]string{
			"step":    "---\ntitle: T\n---\n\n## S {#" + id + "}\n\nText.\n",
			"heading": "---\ntitle: T\n---\n\n## S\n\n- item\n\n  ## Inner {#" + id + "}\n",
		} {
			errs := Check(fstest.MapFS{"w.md": {Data: []byte(src)}}, ".", testOptions(&fakeresolver.Resolver{}))
			var e *Error
			if len(errs) != 1 || !errors.As(errs[0], &e) || !strings.Contains(e.Msg, `id "`+id+`" is the page's own`) {
				t.Errorf("%s {#%s}: %q, want the id refused", what, id, errorTexts(errs))
			}
		}
	}
}

// TestDirFSDirectoryMadeAgain: a walkthrough directory removed and made
// again is read anew; DirFS kept reading the removed one ("no such file or
// directory" for ever in serve).
func TestDirFSDirectoryMadeAgain(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "w")
	writeFiles(t, dir, map[string]string{"plain.md": plainWalkthrough})
	fsys, err := DirFS(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := Files(fsys, "."); err == nil {
		t.Error("the removed directory still reads")
	}
	writeFiles(t, dir, map[string]string{"again.md": strings.Replace(plainWalkthrough, "Plain", "Again", 1)})
	files, err := Files(fsys, ".")
	if err != nil || !slices.Equal(files, []string{"again.md"}) {
		t.Fatalf("Files = %q, %v; want the new directory's", files, err)
	}
	docs, err := Load(fsys, ".", "en", testOptions(&fakeresolver.Resolver{}))
	if err != nil || len(docs) != 1 || docs[0].Title != "Again" {
		t.Errorf("Load = %v, %v", docs, err)
	}
}
