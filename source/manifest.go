package source

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// A cached tree carries a manifest beside it, written at fetch before the
// tree is published: every regular file with its size and SHA-256. Loading
// a cached tree checks the sizes (a stat of each file, about 0.1 s for a
// whole tree), which finds a file removed, added, truncated or grown, and
// such a tree is fetched again; Tree.Verify hashes every file, which finds
// any change, for `kubewalk fetch --verify`.
const manifestFileName = "manifest.json"

// manifestEntry is one file of the tree, by slash path below the tree.
type manifestEntry struct {
	Path   string `json:"path"`
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
}

// ErrNoManifest: the tree has no manifest to verify against — a checkout
// given as the source, or a tree fetched by an older kubewalk.
var ErrNoManifest = errors.New("tree has no manifest")

// writeManifest hashes every regular file under dir and writes the
// manifest to name.
func writeManifest(dir, name string) error {
	entries, err := scanTree(dir, true)
	if err != nil {
		return err
	}
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	enc := json.NewEncoder(w)
	for _, e := range entries {
		if err := enc.Encode(e); err != nil {
			f.Close()
			return err
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// scanTree lists the regular files under dir, sorted, hashed when hash is
// true. A symbolic link is listed with its target as content (git trees
// hold a few); other file types are not expected in a tree.
func scanTree(dir string, hash bool) ([]manifestEntry, error) {
	var out []manifestEntry
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		e := manifestEntry{Path: filepath.ToSlash(rel)}
		if d.Type()&fs.ModeSymlink != 0 {
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			e.Size = int64(len(target))
			if hash {
				sum := sha256.Sum256([]byte(target))
				e.SHA256 = hex.EncodeToString(sum[:])
			}
			out = append(out, e)
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		e.Size = info.Size()
		if hash {
			if e.SHA256, err = hashFile(p); err != nil {
				return err
			}
		}
		out = append(out, e)
		return nil
	})
	slices.SortFunc(out, func(a, b manifestEntry) int { return strings.Compare(a.Path, b.Path) })
	return out, err
}

func hashFile(name string) (string, error) {
	f, err := os.Open(name)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func readManifest(name string) ([]manifestEntry, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []manifestEntry
	dec := json.NewDecoder(bufio.NewReader(f))
	for dec.More() {
		var e manifestEntry
		if err := dec.Decode(&e); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		out = append(out, e)
	}
	return out, nil
}

// diffManifest compares want (the manifest) with got (the tree now) and
// returns one line per difference, by path.
func diffManifest(want, got []manifestEntry, hashed bool) []string {
	byPath := map[string]manifestEntry{}
	for _, e := range got {
		byPath[e.Path] = e
	}
	var out []string
	for _, w := range want {
		g, ok := byPath[w.Path]
		delete(byPath, w.Path)
		switch {
		case !ok:
			out = append(out, w.Path+": missing")
		case g.Size != w.Size:
			out = append(out, fmt.Sprintf("%s: %d bytes, fetched %d", w.Path, g.Size, w.Size))
		case hashed && g.SHA256 != w.SHA256:
			out = append(out, w.Path+": content changed")
		}
	}
	for p := range byPath {
		out = append(out, p+": not fetched")
	}
	slices.Sort(out)
	return out
}

// checkSizes is the cheap check a cached tree gets on load: every file of
// the manifest there with its size, and no other. A tree without a
// manifest (fetched by an older kubewalk) passes: there is nothing to
// check it against.
func checkSizes(cacheDir, treeDir string) error {
	want, err := readManifest(filepath.Join(cacheDir, manifestFileName))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	got, err := scanTree(treeDir, false)
	if err != nil {
		return err
	}
	if d := diffManifest(want, got, false); len(d) > 0 {
		return fmt.Errorf("%s: %d files differ from what was fetched (%s)", treeDir, len(d), d[0])
	}
	return nil
}

// Verify hashes every file of a cached tree and compares it with the
// manifest written when it was fetched. It returns one line per file that
// differs (missing, not fetched, another size, other content), none when
// the tree is as fetched, and ErrNoManifest for a checkout or a tree
// fetched by an older kubewalk.
func (t *Tree) Verify() ([]string, error) {
	if t.Backend == backendDir {
		return nil, fmt.Errorf("%s: %w: a checkout given with --source is the user's own", t.Dir, ErrNoManifest)
	}
	name := filepath.Join(filepath.Dir(t.Dir), manifestFileName)
	want, err := readManifest(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s: %w: it was fetched by an older kubewalk; remove %s to fetch it again", t.Dir, ErrNoManifest, filepath.Dir(t.Dir))
	}
	if err != nil {
		return nil, err
	}
	got, err := scanTree(t.Dir, true)
	if err != nil {
		return nil, err
	}
	return diffManifest(want, got, true), nil
}
