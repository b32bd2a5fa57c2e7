// Package sitetree holds a site's files in memory: what package site
// renders of a site of several releases, which the releases stage's
// passes (pageshare, explainshare, searchshare) read and rewrite as data
// before the whole is written to disk once (WriteTo), so that no release
// is written out only to be read back, merged and removed.
//
// Paths are site paths: slash-separated, relative to the site's root
// ("v1.36.3/en/handlers.html"). A Tree is safe for concurrent use.
package sitetree

import (
	"context"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"golang.org/x/sync/errgroup"
)

// Tree is a site's files by site path.
type Tree struct {
	mu    sync.RWMutex
	files map[string][]byte
}

// New returns an empty Tree.
func New() *Tree { return &Tree{files: map[string][]byte{}} }

// Put sets the file at site path p to data, which the Tree keeps: the
// caller no longer changes it.
func (t *Tree) Put(p string, data []byte) error {
	if !fs.ValidPath(p) || p == "." {
		return fmt.Errorf("sitetree: %q is not a site path", p)
	}
	t.mu.Lock()
	t.files[p] = data
	t.mu.Unlock()
	return nil
}

// ReadFile returns the file at site path p, an error wrapping
// fs.ErrNotExist when there is none. The bytes are the Tree's: the caller
// does not change them.
func (t *Tree) ReadFile(p string) ([]byte, error) {
	t.mu.RLock()
	data, ok := t.files[p]
	t.mu.RUnlock()
	if !ok {
		return nil, &fs.PathError{Op: "read", Path: p, Err: fs.ErrNotExist}
	}
	return data, nil
}

// Remove removes the file at site path p, an error wrapping
// fs.ErrNotExist when there is none.
func (t *Tree) Remove(p string) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if _, ok := t.files[p]; !ok {
		return &fs.PathError{Op: "remove", Path: p, Err: fs.ErrNotExist}
	}
	delete(t.files, p)
	return nil
}

// Paths lists the Tree's files, sorted.
func (t *Tree) Paths() []string {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return slices.Sorted(maps.Keys(t.files))
}

// Dirs lists the directories directly under site path dir ("" for the
// site's root) that hold a file, sorted: their names.
func (t *Tree) Dirs(dir string) []string {
	if dir != "" {
		dir += "/"
	}
	t.mu.RLock()
	defer t.mu.RUnlock()
	seen := map[string]bool{}
	for p := range t.files {
		if rest, ok := strings.CutPrefix(p, dir); ok {
			if d, _, ok := strings.Cut(rest, "/"); ok {
				seen[d] = true
			}
		}
	}
	return slices.Sorted(maps.Keys(seen))
}

// WriteTo writes every file of the Tree under dir, which exists, making
// the directories it needs, workers files at a time (0: four per CPU,
// as a write waits in the kernel more than it computes).
func (t *Tree) WriteTo(ctx context.Context, dir string, workers int) error {
	ps := t.Paths()
	dirs := map[string]bool{}
	for _, p := range ps {
		dirs[path.Dir(p)] = true
	}
	for _, d := range slices.Sorted(maps.Keys(dirs)) {
		if err := os.MkdirAll(filepath.Join(dir, filepath.FromSlash(d)), 0o755); err != nil {
			return err
		}
	}
	g, gctx := errgroup.WithContext(ctx)
	if workers <= 0 {
		workers = 4 * runtime.GOMAXPROCS(0)
	}
	g.SetLimit(workers)
	for _, p := range ps {
		g.Go(func() error {
			if err := gctx.Err(); err != nil {
				return err
			}
			data, err := t.ReadFile(p)
			if err != nil {
				return err
			}
			return os.WriteFile(filepath.Join(dir, filepath.FromSlash(p)), data, 0o644)
		})
	}
	return g.Wait()
}
