package safedir

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"

	"golang.org/x/sync/errgroup"
)

// SyncTree flushes every regular file and directory under root to disk
// (fsync), so that after a crash of the machine — not only of the process
// — a tree renamed into place after SyncTree holds its content, not empty
// files the journal recorded before their data. Files are synced in
// parallel: a journaling file system commits concurrent fsyncs together.
func SyncTree(root string) error {
	var g errgroup.Group
	g.SetLimit(4 * runtime.GOMAXPROCS(0))
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.Type().IsRegular() && !d.IsDir() {
			return nil // a link's target is synced where it is
		}
		g.Go(func() error { return syncPath(p) })
		return nil
	})
	if gerr := g.Wait(); err == nil {
		err = gerr
	}
	return err
}

// SyncDir flushes directory dir's entries, so a rename into or out of it
// is on disk.
func SyncDir(dir string) error { return syncPath(dir) }

func syncPath(p string) error {
	f, err := os.Open(p)
	if err != nil {
		return err
	}
	err = f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil && runtime.GOOS == "windows" {
		return nil // a directory cannot be synced there
	}
	return err
}
