package testfs

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/tools/txtar"
)

// CopyTree copies the directory src into dst (created if need be),
// expanding each *.txtar file it holds into the archive's directory
// instead of copying it: a fixture keeps part of its tree as an archive
// (the kubelike fixture's staging modules, whose paths must look like
// Kubernetes' but whose files are ours) and tests get the whole tree.
func CopyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if strings.HasSuffix(p, ".txtar") {
			ar, err := txtar.ParseFile(p)
			if err != nil {
				return err
			}
			for _, f := range ar.Files {
				out := filepath.Join(filepath.Dir(target), filepath.FromSlash(f.Name))
				if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
					return err
				}
				if err := os.WriteFile(out, f.Data, 0o644); err != nil {
					return err
				}
			}
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
}
