package walkthrough

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

const plainWalkthrough = "---\ntitle: Plain\n---\n\n## One step\n\nText.\n"

// within runs f and fails the test when it has not returned after d: the
// reads this file tests used to block for ever.
func within(t *testing.T, d time.Duration, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("%s: still running after %s", what, d)
	}
}

// mkfifo makes a named pipe, and on cleanup opens it for writing, which
// lets a reader stuck in open(2) go on.
func mkfifo(t *testing.T, p string) {
	t.Helper()
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	t.Cleanup(func() {
		if f, err := os.OpenFile(p, os.O_RDWR, 0); err == nil {
			f.Close()
		}
	})
}

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, data := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// loadDir loads dir as serve and build do (os.DirFS and DirFS), within a
// few seconds, and returns the IDs loaded and the error of each way.
func loadDir(t *testing.T, dir string) map[string]struct {
	ids []string
	err error
} {
	t.Helper()
	dfs, err := DirFS(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]struct {
		ids []string
		err error
	}{}
	for name, fsys := range map[string]fs.FS{"os.DirFS": os.DirFS(dir), "DirFS": dfs} {
		within(t, 5*time.Second, "Load through "+name, func() {
			docs, err := Load(fsys, ".", "en", Options{})
			var ids []string
			for _, d := range docs {
				ids = append(ids, d.ID)
			}
			out[name] = struct {
				ids []string
				err error
			}{ids, err}
		})
	}
	return out
}

// TestInputNotRegular: a named pipe among the walkthroughs made Load wait
// for ever in open(2); a link to /dev/zero made it read without end.
func TestInputNotRegular(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"plain.md": plainWalkthrough})
	mkfifo(t, filepath.Join(dir, "pipe.md"))
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "zero.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "adir"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("adir", filepath.Join(dir, "dirlink.md")); err != nil {
		t.Fatal(err)
	}
	for how, got := range loadDir(t, dir) {
		if strings.Join(got.ids, ",") != "plain" {
			t.Errorf("%s: loaded %q, want plain alone", how, got.ids)
		}
		for _, want := range []struct {
			file string
			err  error
		}{{"pipe.md", ErrNotRegular}, {"zero.md", ErrOutside}, {"dirlink.md", ErrNotRegular}} {
			if e := fileError(got.err, want.file); e == nil || !errors.Is(e, want.err) {
				t.Errorf("%s: %s: got %v, want an error wrapping %q", how, want.file, e, want.err)
			}
		}
	}
}

// fileError returns the *Error about file among the errors joined in err.
func fileError(err error, file string) *Error {
	if err == nil {
		return nil
	}
	for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
		if we, ok := errors.AsType[*Error](e); ok && we.File == file {
			return we
		}
	}
	return nil
}

// TestInputLinksStayInside: a link to a walkthrough beside it is read; a
// link out of the directory, directly or through a linked directory, is
// refused (it published the outside file as a page).
func TestInputLinksStayInside(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "walkthroughs")
	outside := filepath.Join(root, "private")
	writeFiles(t, dir, map[string]string{"real.md": plainWalkthrough})
	writeFiles(t, outside, map[string]string{"secret.md": strings.Replace(plainWalkthrough, "Text.", "SECRET", 1)})
	for link, target := range map[string]string{
		"alias.md":   "real.md",
		"leak.md":    "../private/secret.md",
		"abs.md":     filepath.Join(outside, "secret.md"),
		"sub":        "../private",
		"via-sub.md": "sub/secret.md",
		"loop.md":    "loop.md",
	} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	for how, got := range loadDir(t, dir) {
		if strings.Join(got.ids, ",") != "alias,real" {
			t.Errorf("%s: loaded %q, want alias,real", how, got.ids)
		}
		for _, file := range []string{"leak.md", "abs.md", "via-sub.md", "loop.md"} {
			e := fileError(got.err, file)
			if e == nil {
				t.Errorf("%s: %s: no error", how, file)
				continue
			}
			if file != "loop.md" && !errors.Is(e, ErrOutside) {
				t.Errorf("%s: %s: %v, want %q", how, file, e, ErrOutside)
			}
		}
		if strings.Contains(errString(got.err), "SECRET") {
			t.Errorf("%s: the outside file's text reached the output: %v", how, got.err)
		}
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestInputTooLarge: the size is checked before anything is read, and the
// message names the file, the limit and what to do.
func TestInputTooLarge(t *testing.T) {
	dir := t.TempDir()
	big := plainWalkthrough + strings.Repeat("word ", MaxFileBytes/5+1)
	writeFiles(t, dir, map[string]string{"big.md": big, "plain.md": plainWalkthrough})
	for how, got := range loadDir(t, dir) {
		e := fileError(got.err, "big.md")
		if e == nil || !errors.Is(e, ErrTooLarge) {
			t.Fatalf("%s: got %v, want %q", how, got.err, ErrTooLarge)
		}
		for _, want := range []string{"big.md: ", "524288", "512 KiB", "split it"} {
			if !strings.Contains(e.Error(), want) {
				t.Errorf("%s: %q lacks %q", how, e.Error(), want)
			}
		}
		if strings.Join(got.ids, ",") != "plain" {
			t.Errorf("%s: loaded %q, want plain", how, got.ids)
		}
	}
}

// TestDirFSOpensPipesAtOnce: DirFS is what serve hashes the watched
// directory through; fs.ReadFile of a pipe there returns at once.
func TestDirFSOpensPipesAtOnce(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"plain.md": plainWalkthrough})
	mkfifo(t, filepath.Join(dir, "notes.txt"))
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "zero")); err != nil {
		t.Fatal(err)
	}
	fsys, err := DirFS(dir)
	if err != nil {
		t.Fatal(err)
	}
	within(t, 5*time.Second, "reading the directory", func() {
		ents, err := fs.ReadDir(fsys, ".")
		if err != nil || len(ents) != 3 {
			t.Errorf("ReadDir: %v %v", ents, err)
		}
		if _, err := fs.ReadFile(fsys, "notes.txt"); !errors.Is(err, ErrNotRegular) {
			t.Errorf("pipe: %v, want %q", err, ErrNotRegular)
		}
		if _, err := fs.ReadFile(fsys, "zero"); err == nil {
			t.Error("a link to /dev/zero was read")
		}
		if b, err := fs.ReadFile(fsys, "plain.md"); err != nil || string(b) != plainWalkthrough {
			t.Errorf("plain.md: %q %v", b, err)
		}
	})
}
