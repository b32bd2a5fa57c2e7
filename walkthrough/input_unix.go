//go:build unix

package walkthrough

import "syscall"

// openNonblock makes opening a named pipe return at once rather than wait
// for a writer; reads of a regular file are not affected.
const openNonblock = syscall.O_NONBLOCK
