//go:build linux || darwin || freebsd || openbsd || netbsd || dragonfly

package safedir

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

func lockDir(dir string, follow bool) (*Lock, error) {
	flags := unix.O_RDONLY | unix.O_DIRECTORY | unix.O_CLOEXEC
	if !follow {
		flags |= unix.O_NOFOLLOW
	}
	fd, err := unix.Open(dir, flags, 0)
	if err != nil {
		return nil, &os.PathError{Op: "lock", Path: dir, Err: err}
	}
	return flock(fd, dir)
}

func lockFile(path string) (*Lock, error) {
	// O_NONBLOCK: were path a named pipe, open would wait for a writer.
	fd, err := unix.Open(path, unix.O_RDWR|unix.O_CREAT|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0o600)
	if errors.Is(err, unix.ELOOP) || errors.Is(err, unix.EMLINK) {
		return nil, fmt.Errorf("lock %s: it is a symbolic link, which kubewalk does not follow: remove it", path)
	}
	if err != nil {
		return nil, &os.PathError{Op: "lock", Path: path, Err: err}
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return nil, &os.PathError{Op: "lock", Path: path, Err: err}
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		unix.Close(fd)
		return nil, fmt.Errorf("lock %s: not a regular file: remove it", path)
	}
	return flock(fd, path)
}

func flock(fd int, path string) (*Lock, error) {
	if err := unix.Flock(fd, unix.LOCK_EX|unix.LOCK_NB); err != nil {
		unix.Close(fd)
		if errors.Is(err, unix.EWOULDBLOCK) {
			return nil, ErrLocked
		}
		return nil, &os.PathError{Op: "lock", Path: path, Err: err}
	}
	// Closing the descriptor releases the lock.
	return &Lock{release: func() error { return unix.Close(fd) }}, nil
}
