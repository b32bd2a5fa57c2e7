package safedir

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// Sweep removes the directories in parent whose names match pattern
// (filepath.Match) and that no one holds the lock of: what a killed
// process left. Directories a live process holds the lock of are left
// alone, and so is anything that is not a directory (a link, a file).
// Callers sweep under a lock that also covers making such directories,
// so a directory cannot be swept between its making and its locking. It
// returns the paths removed; removal errors are returned joined, after
// trying them all.
func Sweep(parent, pattern string) ([]string, error) {
	ents, err := os.ReadDir(parent)
	if err != nil {
		return nil, err
	}
	var removed []string
	var errs []error
	for _, e := range ents {
		if ok, _ := filepath.Match(pattern, e.Name()); !ok || !e.IsDir() {
			continue
		}
		p := filepath.Join(parent, e.Name())
		l, err := TryLockDir(p)
		// Locked: a live build's. Gone: a build removing the old site it
		// swapped out (outside the turn the sweep runs in) got there
		// first.
		if errors.Is(err, ErrLocked) || errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			errs = append(errs, err)
			continue
		}
		err = RemoveAll(p)
		l.Unlock()
		if err != nil {
			errs = append(errs, err)
			continue
		}
		removed = append(removed, p)
	}
	return removed, errors.Join(errs...)
}

// RemoveAll is os.RemoveAll that also removes read-only directories (a
// tree copied from the module cache has them).
func RemoveAll(path string) error {
	if err := os.RemoveAll(path); err == nil {
		return nil
	}
	filepath.WalkDir(path, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			os.Chmod(p, 0o755)
		}
		return nil
	})
	return os.RemoveAll(path)
}
