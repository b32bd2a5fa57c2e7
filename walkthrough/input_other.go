//go:build !unix

package walkthrough

// openNonblock: elsewhere opening does not wait on a pipe the same way;
// the file's type is still checked before any read.
const openNonblock = 0
