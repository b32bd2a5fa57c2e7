package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/object"
	"golang.org/x/tools/txtar"

	"github.com/kubewalk/kubewalk/internal/derive/reldiff"
)

func TestDiffUsageErrors(t *testing.T) {
	cache := t.TempDir()
	for _, args := range [][]string{
		{"diff"},
		{"diff", "--from", "v1.35.4"},
		{"diff", "--to", "v1.36.3"},
		{"diff", "--from", "v1.35.4", "--to", "v1.36.3", "-o", "yaml"},
		{"diff", "--from", "v1.35.4", "--to", "v1.36.3", "--no-builtin"},
		{"diff", "--from", "v1.35.4", "--to", "v1.36.3", "extra"},
	} {
		code, _, stderr := kw(t, append([]string{"--cache-dir", cache}, args...)...)
		if code != exitUsage || !strings.Contains(stderr, "--help") {
			t.Errorf("kubewalk %s: exit %d, want %d (stderr: %s)", strings.Join(args, " "), code, exitUsage, stderr)
		}
	}
}

// twoTagRepo makes a git repository whose two tagged commits hold
// internal/derive/reldiff's fixture at its two releases: common.txtar plus a.txtar
// at from, plus b.txtar at to.
func twoTagRepo(t *testing.T, from, to string) string {
	t.Helper()
	td := filepath.Join("..", "..", "internal", "derive", "reldiff", "testdata")
	dir := t.TempDir()
	repo, err := git.PlainInit(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	wt, err := repo.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	sig := &object.Signature{Name: "test", Email: "test@example.com", When: time.Unix(1700000000, 0)}
	for _, rel := range []struct{ tag, archive string }{{from, "a.txtar"}, {to, "b.txtar"}} {
		// The demo package is rewritten whole at each tag.
		if err := os.RemoveAll(filepath.Join(dir, "pkg")); err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"common.txtar", rel.archive} {
			ar, err := txtar.ParseFile(filepath.Join(td, name))
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range ar.Files {
				data := f.Data
				if f.Name == "go.mod" {
					// As the real go.mod does: the staging modules by
					// replace. (A fresh slice: f.Data shares its array
					// with the files after it.)
					data = []byte(string(data) + "\nreplace k8s.io/client-go => ./staging/src/k8s.io/client-go\n")
				}
				p := filepath.Join(dir, filepath.FromSlash(f.Name))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
		if err := wt.AddWithOptions(&git.AddOptions{All: true}); err != nil {
			t.Fatal(err)
		}
		h, err := wt.Commit(rel.tag, &git.CommitOptions{Author: sig})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := repo.CreateTag(rel.tag, h, nil); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestDiffFromGitFixture runs kubewalk diff offline on a repository with
// two tags and a user walkthrough.
func TestDiffFromGitFixture(t *testing.T) {
	if testing.Short() {
		t.Skip("loads packages")
	}
	t.Setenv("GOPROXY", "off")
	t.Setenv("GOFLAGS", "-mod=mod")
	repo := twoTagRepo(t, "v1.98.0", "v1.99.0")
	wdir := t.TempDir()
	md, err := os.ReadFile(filepath.Join("..", "..", "internal", "derive", "reldiff", "testdata", "walkthroughs", "demo.md"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(wdir, "demo.md"), md, 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"--cache-dir", t.TempDir(), "--quiet", "diff", "--from", "v1.98.0", "--to", "v1.99.0",
		"--source", "git", "--repo", repo, "--no-builtin", "--walkthroughs", wdir}

	code, out, stderr := kw(t, append(args, "-o", "json")...)
	if code != exitOK {
		t.Fatalf("diff -o json: exit %d: %s", code, stderr)
	}
	var rep reldiff.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if rep.From.Tag != "v1.98.0" || rep.To.Tag != "v1.99.0" {
		t.Errorf("tags %+v → %+v", rep.From, rep.To)
	}
	status := map[string]reldiff.Status{}
	for _, rc := range rep.Refs {
		status[filepath.Base(rc.File)+":"+strconv.Itoa(rc.Line)] = rc.Status
	}
	for at, want := range map[string]reldiff.Status{
		"demo.md:14": reldiff.Moved, "demo.md:15": reldiff.Changed, "demo.md:19": reldiff.Renamed,
		"demo.md:20": reldiff.Gone, "demo.md:21": reldiff.New, "demo.md:26": reldiff.PatternLost,
	} {
		if status[at] != want {
			t.Errorf("%s: %s, want %s", at, status[at], want)
		}
	}
	if n := rep.Summary.Facts["events"][reldiff.Removed]; n != 2 {
		t.Errorf("events removed: %d, want 2", n)
	}

	// The text report names the user's file so an editor can open it, and
	// differences are not a failure.
	code, out, stderr = kw(t, args...)
	if code != exitOK {
		t.Fatalf("diff: exit %d: %s", code, stderr)
	}
	for _, s := range []string{
		"kubewalk diff v1.98.0 → v1.99.0\n",
		wdir + "/demo.md:19:1: renamed: ",
		"== handlers added (locations at v1.99.0)\n",
	} {
		if !strings.Contains(out, s) {
			t.Errorf("text report lacks %q:\n%s", s, out)
		}
	}
}
