package source

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/google/go-cmp/cmp"
)

// TestCheckoutMatchesGoGit clones one tag of a repository with regular
// and executable files, a symbolic link, nested and sibling directories
// and more files than writers, with cloneTag (checkoutHead) and with
// go-git's own checkout, and finds the same paths, modes, contents and
// link targets in both.
func TestCheckoutMatchesGoGit(t *testing.T) {
	src := filepath.Join(t.TempDir(), "src")
	files := map[string]string{"README.md": "# r\n", "hack/verify.sh": "#!/bin/sh\nexit 0\n", "empty.txt": ""}
	for i := range 40 {
		files[fmt.Sprintf("pkg/d%d/sub%d/f%d.go", i%5, i%3, i)] = strings.Repeat(fmt.Sprintf("package d%d\n", i), i*100)
	}
	if err := writeFiles(src, files); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../README.md", filepath.Join(src, "pkg", "README.md")); err != nil {
		t.Fatal(err)
	}
	repo, err := git.PlainInit(src, false)
	if err != nil {
		t.Fatal(err)
	}
	wt, err := repo.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	if err := wt.AddWithOptions(&git.AddOptions{All: true}); err != nil {
		t.Fatal(err)
	}
	sig := &object.Signature{Name: "t", Email: "t@example.com", When: time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)}
	h, err := wt.Commit("c", &git.CommitOptions{Author: sig})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := repo.CreateTag("v1.0.0", h, &git.CreateTagOptions{Tagger: sig, Message: "v1.0.0"}); err != nil {
		t.Fatal(err)
	}

	ours := filepath.Join(t.TempDir(), "ours")
	if _, err := cloneTag(context.Background(), src, "v1.0.0", ours, nil); err != nil {
		t.Fatal(err)
	}
	theirs := filepath.Join(t.TempDir(), "theirs")
	_, err = git.PlainClone(theirs, false, &git.CloneOptions{
		URL: src, ReferenceName: plumbing.NewTagReferenceName("v1.0.0"), SingleBranch: true, Depth: 1, Tags: git.NoTags,
	})
	if err != nil {
		t.Fatal(err)
	}
	want, got := treeState(t, theirs), treeState(t, ours)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("checkout differs from go-git's (-go-git +cloneTag):\n%s", diff)
	}
	if !strings.Contains(got["hack/verify.sh"], "-rwx") || !strings.HasPrefix(got["pkg/README.md"], "L") {
		t.Errorf("the fixture lacks an executable or a link: %q, %q", got["hack/verify.sh"], got["pkg/README.md"])
	}
}

// treeState is every path under dir but .git: its mode and its content,
// or a link's target.
func treeState(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == dir {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if rel == ".git" {
			return filepath.SkipDir
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		var body []byte
		switch {
		case info.Mode()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			body = []byte(target)
			if err != nil {
				return err
			}
		case info.Mode().IsRegular():
			if body, err = os.ReadFile(p); err != nil {
				return err
			}
		}
		out[rel] = info.Mode().String() + " " + string(body)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestCheckTreePath(t *testing.T) {
	for _, p := range []string{"a/b.go", "x..y/z", ".github/workflows/ci.yaml", "gitx/.gitignore", "a\\b"} {
		if err := checkTreePath(p); err != nil {
			t.Errorf("checkTreePath(%q) = %v, want nil", p, err)
		}
	}
	for _, p := range []string{"", "/etc/passwd", "../x", "a/../../x", "a/./b", ".git/config", "a/.GIT/hooks/x", ".git./x", ".git  /x", "GIT~1/config", "a\\..\\..\\x"} {
		if err := checkTreePath(p); err == nil {
			t.Errorf("checkTreePath(%q) = nil, want an error", p)
		}
	}
}

// TestCheckoutWritesNothingThroughALink: a link where a directory or a
// file is to go (a hostile tree, or a planted link) is an error, and
// nothing is written where it points.
func TestCheckoutWritesNothingThroughALink(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	if err := os.Symlink(outside, filepath.Join(dir, "pkg")); err != nil {
		t.Fatal(err)
	}
	if err := mkdirNoLink(filepath.Join(dir, "pkg")); err == nil {
		t.Error("mkdirNoLink over a link to a directory succeeded")
	}
	if err := os.Symlink(filepath.Join(outside, "f.go"), filepath.Join(dir, "f.go")); err != nil {
		t.Fatal(err)
	}
	if err := (treeFile{name: "f.go", mode: 0o100644, data: []byte("x")}).write(dir); err == nil {
		t.Error("writing a file over a link succeeded")
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("something was written through a link: %v", entries)
	}
}
