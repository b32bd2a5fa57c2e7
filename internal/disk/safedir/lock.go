package safedir

import (
	"context"
	"errors"
	"time"
)

// ErrLocked is returned by the TryLock functions when another process (or
// another Lock in this one) holds the lock.
var ErrLocked = errors.New("locked by another kubewalk")

// A Lock is an exclusive lock held until Unlock (or the process's end).
type Lock struct {
	release func() error
}

// Unlock releases the lock; a second call does nothing.
func (l *Lock) Unlock() error {
	if l == nil || l.release == nil {
		return nil
	}
	r := l.release
	l.release = nil
	return r()
}

// pollLock tries try until it succeeds, fails otherwise than ErrLocked, or
// ctx is done: flock(2) can wait, but a wait in the kernel cannot be
// interrupted, and Ctrl-C must end the wait.
func pollLock(ctx context.Context, try func() (*Lock, error)) (*Lock, error) {
	for wait := time.Millisecond; ; wait = min(2*wait, 100*time.Millisecond) {
		l, err := try()
		if !errors.Is(err, ErrLocked) {
			return l, err
		}
		select {
		case <-ctx.Done():
			return nil, context.Cause(ctx)
		case <-time.After(wait):
		}
	}
}

// LockDir takes the lock of directory dir, waiting for it until ctx is
// done. dir is opened as the caller names it: a link to a directory is
// followed (the user may well keep --out under a linked directory).
func LockDir(ctx context.Context, dir string) (*Lock, error) {
	return pollLock(ctx, func() (*Lock, error) { return lockDir(dir, true) })
}

// TryLockDir takes the lock of directory dir if no one holds it, else
// returns ErrLocked. dir must not be a symbolic link: it is a directory
// the caller made (a build's temporary directory), not one it was given.
func TryLockDir(dir string) (*Lock, error) {
	return lockDir(dir, false)
}

// LockFile takes the lock of the lock file path, creating it (mode 0600)
// when missing, waiting until ctx is done. A path that is a symbolic link
// is refused, never followed: a link planted there must not make kubewalk
// create or lock a file elsewhere. The file is left in place for the next
// holder: removing a lock file someone else waits on would let a third
// process lock a new file of the same name while the second holds the
// old one.
func LockFile(ctx context.Context, path string) (*Lock, error) {
	return pollLock(ctx, func() (*Lock, error) { return TryLockFile(path) })
}

// TryLockFile is LockFile without the wait: ErrLocked when held.
func TryLockFile(path string) (*Lock, error) {
	return lockFile(path)
}
