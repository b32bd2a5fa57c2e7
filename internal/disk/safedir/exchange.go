package safedir

import (
	"errors"
	"os"
)

// Exchange swaps the directories (or files) at a and b in one step: at
// every instant each path names one of the two, whatever happens to the
// process. It returns an error wrapping errors.ErrUnsupported where the
// system or the file system cannot (Linux before 3.15, some network and
// FUSE file systems, other systems): callers fall back to renames.
func Exchange(a, b string) error {
	if err := exchange(a, b); err != nil {
		return &os.LinkError{Op: "exchange", Old: a, New: b, Err: err}
	}
	return nil
}

// unsupported marks err as errors.ErrUnsupported, keeping the errno.
type unsupported struct{ err error }

func (u unsupported) Error() string   { return u.err.Error() }
func (u unsupported) Unwrap() []error { return []error{u.err, errors.ErrUnsupported} }
