//go:build !(linux || darwin || freebsd || openbsd || netbsd || dragonfly)

package safedir

import (
	"path/filepath"

	"github.com/gofrs/flock"
)

// Elsewhere a directory cannot be opened to be locked: its lock is a file
// in it. Links are followed there, as gofrs/flock does.

func lockDir(dir string, _ bool) (*Lock, error) {
	return lockFile(filepath.Join(dir, ".kubewalk.lock"))
}

func lockFile(path string) (*Lock, error) {
	l := flock.New(path)
	ok, err := l.TryLock()
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, ErrLocked
	}
	return &Lock{release: l.Unlock}, nil
}
