package source

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"golang.org/x/sync/errgroup"
)

// checkoutWorkers is how many files are written at once. Writing a file
// is mostly the kernel's work (create, write, close), which goes as wide
// as the cores; on 2 cores two and four writers measured alike (0.76 and
// 0.78 of git clone's wall time, medians of three), and four leave room
// for a wider machine.
const checkoutWorkers = 4

// checkoutQueue is how many read blobs may wait for a writer. It bounds
// the memory held (a Kubernetes file is at most a few MB).
const checkoutQueue = 64

// checkoutHead writes the tree of r's HEAD commit into dir, a fresh clone
// made with NoCheckout: what go-git's own checkout writes — directories
// 0755, files with their tree mode's permissions (0644, 0755), symbolic
// links — and no index (the .git directory is removed afterwards).
//
// go-git checks a file out at a time, and before each one lstats every
// component of its path (for links planted by an earlier entry) and the
// file itself; for Kubernetes' 25,000 files that made its clone 1.3 times
// git's. Here one goroutine walks the tree, makes the directories and
// reads the blobs (go-git's object storage is not safe for concurrent
// reads), and checkoutWorkers goroutines write the files. The same
// protections hold by other means: a path component that is ".", "..",
// or a name a file system may take for .git is refused, a directory is
// made only where nothing is or a real directory is (never through a
// link), and a file or link is created only where nothing is (O_EXCL
// refuses a link too), so no entry can write through another.
func checkoutHead(ctx context.Context, r *git.Repository, dir string) error {
	head, err := r.Head()
	if err != nil {
		return err
	}
	commit, err := r.CommitObject(head.Hash())
	if err != nil {
		return err
	}
	tree, err := commit.Tree()
	if err != nil {
		return err
	}
	g, ctx := errgroup.WithContext(ctx)
	queues := make([]chan treeFile, checkoutWorkers)
	for i := range queues {
		queues[i] = make(chan treeFile, checkoutQueue/checkoutWorkers)
		g.Go(func() error {
			for f := range queues[i] {
				if err := f.write(dir); err != nil {
					return err
				}
			}
			return nil
		})
	}
	g.Go(func() error {
		defer func() {
			for _, q := range queues {
				close(q)
			}
		}()
		return walkTree(ctx, r, tree, dir, queues)
	})
	return g.Wait()
}

// treeFile is a file or symbolic link to write: its slash path in the
// tree, its mode and its content (a link's target).
type treeFile struct {
	name string
	mode filemode.FileMode
	data []byte
}

// walkTree makes tree's directories under dir and sends every file, with
// its content, to a writer's queue, in the tree's order. The files of one
// directory go to one writer: creating a file locks its directory, and
// writers taking turns at one directory's lock spent more time waiting
// than writing.
func walkTree(ctx context.Context, r *git.Repository, tree *object.Tree, dir string, queues []chan treeFile) error {
	w := object.NewTreeWalker(tree, true, nil)
	defer w.Close()
	for {
		name, e, err := w.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if err := checkTreePath(name); err != nil {
			return err
		}
		switch e.Mode {
		case filemode.Dir, filemode.Submodule:
			// A submodule is an empty directory, as go-git leaves it.
			if err := mkdirNoLink(filepath.Join(dir, filepath.FromSlash(name))); err != nil {
				return err
			}
			continue
		case filemode.Regular, filemode.Executable, filemode.Deprecated, filemode.Symlink:
		default:
			return fmt.Errorf("%s: unsupported mode %v", name, e.Mode)
		}
		data, err := readBlob(r, e)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		q := queues[dirHash(name)%uint32(len(queues))]
		select {
		case q <- treeFile{name: name, mode: e.Mode, data: data}:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// dirHash is the FNV-1a hash of the directory part of slash path name.
func dirHash(name string) uint32 {
	h := uint32(2166136261)
	for i := range strings.LastIndexByte(name, '/') + 1 {
		h = (h ^ uint32(name[i])) * 16777619
	}
	return h
}

func readBlob(r *git.Repository, e object.TreeEntry) ([]byte, error) {
	b, err := r.BlobObject(e.Hash)
	if err != nil {
		return nil, err
	}
	rd, err := b.Reader()
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	data := make([]byte, b.Size)
	if _, err := io.ReadFull(rd, data); err != nil {
		return nil, err
	}
	return data, nil
}

// write creates f under dir, whose directories walkTree made.
func (f treeFile) write(dir string) error {
	p := filepath.Join(dir, filepath.FromSlash(f.name))
	if f.mode == filemode.Symlink {
		return os.Symlink(string(f.data), p)
	}
	mode, err := f.mode.ToOSFileMode()
	if err != nil {
		return err
	}
	out, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode.Perm())
	if err != nil {
		return err
	}
	_, err = out.Write(f.data)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return err
}

// mkdirNoLink makes directory p, or accepts a directory already there;
// anything else there (a link, a file) is an error.
func mkdirNoLink(p string) error {
	err := os.Mkdir(p, 0o755)
	if err == nil || !errors.Is(err, os.ErrExist) {
		return err
	}
	fi, lerr := os.Lstat(p)
	if lerr != nil {
		return lerr
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s is in the way of a directory (%v)", p, fi.Mode().Type())
	}
	return nil
}

// checkTreePath refuses a tree path that could leave the checkout or
// write into .git: empty, "." or ".." components, and any component a
// file system may take for .git (case, trailing dots and spaces, the
// NTFS short name GIT~1), split at backslashes too — the names go-git's
// own checkout refuses.
func checkTreePath(name string) error {
	for _, part := range strings.FieldsFunc(name, func(r rune) bool { return r == '/' || r == '\\' }) {
		base := strings.ToLower(strings.TrimRight(part, ". "))
		if part == "." || part == ".." || base == ".git" || base == "git~1" {
			return fmt.Errorf("refusing tree path %q", name)
		}
	}
	if name == "" || strings.HasPrefix(name, "/") {
		return fmt.Errorf("refusing tree path %q", name)
	}
	return nil
}
