// Package atomicfile writes a file so that a reader sees either its old
// content or all of the new, never a part: the bytes go to a temporary
// file in the same directory (so the same file system), which is then
// renamed over the file. A process killed in between leaves the old file
// and a temporary ".<name>.tmp-<random>" beside it.
package atomicfile

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Write creates or replaces path, with mode perm, by what write writes.
// On any failure the temporary file is removed and path is left as it
// was.
func Write(path string, perm fs.FileMode, write func(w io.Writer) error) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name()) // after a successful rename, a no-op
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	// CreateTemp makes the file 0600.
	if err := f.Chmod(perm); err != nil {
		f.Close()
		return err
	}
	// The data reaches the disk before the name does, so a machine that
	// loses power after the rename finds the whole file, not an empty one.
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}

// WriteFile is Write of data.
func WriteFile(path string, data []byte, perm fs.FileMode) error {
	return Write(path, perm, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}
