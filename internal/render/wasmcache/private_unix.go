//go:build unix

package wasmcache

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// noCache is a TMPDIR under which go-graphviz's os.Mkdir fails (ENOTDIR,
// /dev/null being no directory), so that it uses no file cache.
const noCache = "/dev/null"

// setup chooses the TMPDIR for go-graphviz's init and sets dir or err.
func setup() (string, bool) {
	root, e := os.UserCacheDir()
	if e == nil {
		dir, e = prepare(filepath.Join(root, "kubewalk", "graphviz"))
	}
	if e != nil {
		dirErr = fmt.Errorf("graphviz compiled in memory, no cache: %w", e)
		return noCache, true
	}
	return dir, true
}

// prepare creates the directory d (mode 0700) and the ones above it if
// they are missing, and returns d's path with symbolic links resolved if
// only the user can put files in it, or an error saying why not.
func prepare(d string) (string, error) {
	parent := filepath.Dir(d)
	if err := os.MkdirAll(parent, 0o700); err != nil {
		return "", err
	}
	// Checked and returned with links resolved, so that the path wazero
	// opens is the one checked, whatever a link is later changed to.
	real, err := filepath.EvalSymlinks(parent)
	if err != nil {
		return "", err
	}
	euid := os.Geteuid()
	for p := real; ; p = filepath.Dir(p) {
		if err := checkAbove(p, euid); err != nil {
			return "", err
		}
		if filepath.Dir(p) == p {
			break
		}
	}
	d = filepath.Join(real, filepath.Base(d))
	if err := os.Mkdir(d, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
		return "", err
	}
	fi, err := os.Lstat(d)
	if err != nil {
		return "", err
	}
	switch st := fi.Sys().(*syscall.Stat_t); {
	case fi.Mode()&os.ModeSymlink != 0:
		return "", fmt.Errorf("%s is a symbolic link", d)
	case !fi.IsDir():
		return "", fmt.Errorf("%s is not a directory", d)
	case int(st.Uid) != euid:
		return "", fmt.Errorf("%s belongs to uid %d, not %d", d, st.Uid, euid)
	case fi.Mode().Perm() != 0o700:
		return "", fmt.Errorf("%s has mode %04o, not 0700", d, fi.Mode().Perm())
	}
	return d, nil
}

// checkAbove fails if anyone but the user and root could replace what p
// holds: p must belong to one of them and be writable by no one else,
// unless it is sticky (as /tmp is), where others cannot rename or remove
// what is not theirs.
func checkAbove(p string, euid int) error {
	fi, err := os.Lstat(p)
	if err != nil {
		return err
	}
	st := fi.Sys().(*syscall.Stat_t)
	switch {
	case !fi.IsDir():
		return fmt.Errorf("%s is not a directory", p)
	case int(st.Uid) != euid && st.Uid != 0:
		return fmt.Errorf("%s belongs to uid %d, neither %d nor root", p, st.Uid, euid)
	case fi.Mode().Perm()&0o022 != 0 && fi.Mode()&os.ModeSticky == 0:
		return fmt.Errorf("%s is writable by others (mode %04o)", p, fi.Mode().Perm())
	}
	return nil
}
