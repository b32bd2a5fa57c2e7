package walkthrough

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
)

// What Load, Check, Refs and ParseDir read is a directory of regular files
// its author wrote. Anything else in it is refused with an error naming
// the file, never read:
//
//   - a named pipe, a socket or a device (a FIFO called notes.md made a
//     build wait forever for a writer, and neither Ctrl-C nor SIGTERM could
//     stop the read; a link to /dev/zero read without end);
//   - a symbolic link that leads out of the directory, where it could
//     publish any file its reader may read (/etc/…, another project's
//     notes) as a page of the site; a link to a file beside it is fine;
//   - a file larger than MaxFileBytes.
//
// So every read is of a regular file of bounded size, and ends.

// MaxFileBytes bounds the size of a walkthrough file: about twenty times
// the largest built-in walkthrough. Parse refuses larger input too, before
// goldmark sees it (see limits.go).
const MaxFileBytes = 512 << 10

// Errors an *Error wraps when an input is refused; match them with
// errors.Is.
var (
	// ErrNotRegular: the file is a named pipe, socket, device or
	// directory.
	ErrNotRegular = errors.New("not a regular file")
	// ErrOutside: a symbolic link leads out of the walkthrough directory.
	ErrOutside = errors.New("a symbolic link out of the walkthrough directory")
	// ErrTooLarge: the input is over one of the limits (MaxFileBytes,
	// and those of limits.go).
	ErrTooLarge = errors.New("over a walkthrough limit")
)

// DirFS is os.DirFS for a walkthrough directory, with the rules above
// built in: nothing outside dir can be opened, whatever the symbolic links
// (it is an os.Root), and opening a named pipe or device fails at once
// instead of waiting for a writer. Callers that read the files themselves
// (a hash of the directory, to see whether anything changed) should read
// them through it.
//
// A directory removed and made again at dir (rm -rf W; mkdir W, or an
// editor or a checkout replacing it) is the one read from then on: an
// os.Root keeps the directory it opened, and `serve` read the removed one
// for ever.
func DirFS(dir string) (fs.FS, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	st, err := root.Stat(".")
	if err != nil {
		root.Close()
		return nil, err
	}
	return &dirFS{dir: dir, root: root, st: st}, nil
}

type dirFS struct {
	dir string
	mu  sync.Mutex
	// root is the directory at dir when it was last looked at, st its
	// identity. The roots replaced are not closed: a read may be using
	// one, and a directory is made again a few times in a session.
	root *os.Root
	st   fs.FileInfo
}

// current returns the root of the directory at dir now: the one opened
// before while it is still there, else a new one. When dir is gone, the
// old one, whose reads then fail as the directory is gone.
func (d *dirFS) current() *os.Root {
	st, err := os.Stat(d.dir)
	d.mu.Lock()
	defer d.mu.Unlock()
	if err != nil || os.SameFile(st, d.st) {
		return d.root
	}
	if root, err := os.OpenRoot(d.dir); err == nil {
		if st, err := root.Stat("."); err == nil {
			d.root, d.st = root, st
		} else {
			root.Close()
		}
	}
	return d.root
}

func (d *dirFS) ReadDir(name string) ([]fs.DirEntry, error) {
	return fs.ReadDir(d.current().FS(), name)
}
func (d *dirFS) Stat(name string) (fs.FileInfo, error)  { return fs.Stat(d.current().FS(), name) }
func (d *dirFS) Lstat(name string) (fs.FileInfo, error) { return fs.Lstat(d.current().FS(), name) }
func (d *dirFS) ReadLink(name string) (string, error)   { return fs.ReadLink(d.current().FS(), name) }

// Open opens name without waiting (O_NONBLOCK: a pipe opens at once, and
// the open file's type is checked before any read), and refuses anything
// but a regular file or a directory.
func (d *dirFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	f, err := d.current().OpenFile(name, os.O_RDONLY|openNonblock, 0)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !fi.Mode().IsRegular() && !fi.IsDir() {
		f.Close()
		return nil, &fs.PathError{Op: "open", Path: name, Err: notRegular(fi.Mode())}
	}
	return f, nil
}

// ReadFile reads a regular file of at most MaxFileBytes.
func (d *dirFS) ReadFile(name string) ([]byte, error) {
	f, err := d.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readBounded(f, name)
}

// readFile reads the walkthrough file name of fsys under the rules above.
// On a file system that can report links (os.DirFS, DirFS), the file is
// looked at before it is opened, so a pipe is refused without an open
// that would wait for a writer.
func readFile(fsys fs.FS, name string) ([]byte, error) {
	if err := checkInput(fsys, name); err != nil {
		return nil, err
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil, fmt.Errorf("walkthroughs: %w", err)
	}
	defer f.Close()
	return readBounded(f, name)
}

// readBounded reads f, which must be a regular file of at most
// MaxFileBytes (a file that grows while it is read is cut there).
func readBounded(f fs.File, name string) ([]byte, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("walkthroughs: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return nil, refused(name, notRegular(fi.Mode()))
	}
	if fi.Size() > MaxFileBytes {
		return nil, tooLarge(name, fi.Size())
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("walkthroughs: %w", err)
	}
	if len(data) > MaxFileBytes {
		return nil, tooLarge(name, int64(len(data)))
	}
	return data, nil
}

// checkInput refuses name when it is not a regular file, or is a link
// that leads out of the directory name is in. Without fs.ReadLinkFS (an
// embed.FS, which has neither links nor pipes) only the type is checked.
func checkInput(fsys fs.FS, name string) error {
	lfs, ok := fsys.(fs.ReadLinkFS)
	if !ok {
		fi, err := fs.Stat(fsys, name)
		if err != nil {
			return fmt.Errorf("walkthroughs: %w", err)
		}
		if !fi.Mode().IsRegular() {
			return refused(name, notRegular(fi.Mode()))
		}
		return nil
	}
	target, err := resolve(lfs, name)
	if err != nil {
		return err
	}
	if dir := path.Dir(name); dir != "." && target != dir && !strings.HasPrefix(target, dir+"/") {
		return refused(name, fmt.Errorf("%w: it leads to %s", ErrOutside, target))
	}
	fi, err := lfs.Lstat(target)
	if err != nil {
		return fmt.Errorf("walkthroughs: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return refused(name, notRegular(fi.Mode()))
	}
	return nil
}

// maxLinks bounds the links followed for one name, as the kernel's
// ELOOP does.
const maxLinks = 40

// resolve follows the symbolic links in name, component by component,
// inside fsys, and returns the path it names. A link whose target is
// absolute, or that climbs above the root of fsys, is refused: what it
// names is not in the directory.
func resolve(fsys fs.ReadLinkFS, name string) (string, error) {
	todo := strings.Split(name, "/")
	done := "."
	for links := 0; len(todo) > 0; {
		next := path.Join(done, todo[0])
		todo = todo[1:]
		if next == ".." || strings.HasPrefix(next, "../") {
			return "", refused(name, ErrOutside)
		}
		fi, err := fsys.Lstat(next)
		if err != nil {
			return "", fmt.Errorf("walkthroughs: %w", err)
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			done = next
			continue
		}
		if links++; links > maxLinks {
			return "", refused(name, errors.New("too many levels of symbolic links"))
		}
		t, err := fsys.ReadLink(next)
		if err != nil {
			return "", fmt.Errorf("walkthroughs: %w", err)
		}
		t = filepath.ToSlash(t)
		if path.IsAbs(t) || filepath.IsAbs(t) || filepath.VolumeName(t) != "" {
			return "", refused(name, fmt.Errorf("%w: it leads to %s", ErrOutside, t))
		}
		todo = append(strings.Split(t, "/"), todo...)
	}
	return done, nil
}

func notRegular(m fs.FileMode) error {
	what := "a special file"
	switch {
	case m&fs.ModeNamedPipe != 0:
		what = "a named pipe"
	case m&fs.ModeSocket != 0:
		what = "a socket"
	case m&fs.ModeDevice != 0:
		what = "a device"
	case m.IsDir():
		what = "a directory"
	}
	return fmt.Errorf("%w: it is %s", ErrNotRegular, what)
}

func refused(name string, err error) *Error {
	return &Error{File: name, Err: err, Msg: err.Error() + "; a walkthrough is a regular Markdown file in the directory: move it or its target in, or rename it to start with _ to leave it out"}
}

func tooLarge(name string, size int64) *Error {
	return &Error{File: name, Err: ErrTooLarge, Msg: fmt.Sprintf("%d bytes, more than the %d (%d KiB) a walkthrough file may have: split it into several walkthroughs", size, MaxFileBytes, MaxFileBytes>>10)}
}
