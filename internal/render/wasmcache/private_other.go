//go:build !unix

package wasmcache

import "errors"

// setup leaves TMPDIR alone: elsewhere than on Unix (Windows) the
// temporary directory is the user's own.
func setup() (string, bool) {
	dirErr = errors.New("not on Unix: go-graphviz keeps its cache in the user's own temporary directory")
	return "", false
}
