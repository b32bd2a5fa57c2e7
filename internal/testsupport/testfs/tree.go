package testfs

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// Tree returns every file under dir with its content, and every
// directory (its slash path ending in "/", with ""), by slash path
// relative to dir: two outputs compare equal when they hold the same
// files with the same bytes and no directory more.
func Tree(t testing.TB, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		if d.IsDir() {
			out[filepath.ToSlash(rel)+"/"] = ""
			return nil
		}
		b, err := os.ReadFile(p)
		out[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
