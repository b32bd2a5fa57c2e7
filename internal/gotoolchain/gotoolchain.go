// Package gotoolchain tells when a release needs a newer Go than the one
// at hand, and how to run kubewalk with that Go: the go command's refusal
// of a module whose go.mod asks for a newer Go than GOTOOLCHAIN lets it
// use (the module proxy backend meets it first, the loader with any
// other source: Refused), and kubewalk's own Go being older than the go
// command's (the loader parses that Go's standard library with
// kubewalk's own go/parser: Newer).
package gotoolchain

import (
	"errors"
	"fmt"
	"go/version"
	"regexp"
)

// ErrTooOld is wrapped by the errors of this package.
var ErrTooOld = errors.New("Go toolchain too old for the release")

// refusedRE matches the go command's refusal: "go: go.mod requires go >=
// 1.27.0 (running go 1.26.8; GOTOOLCHAIN=local)", in its own output or
// in the Error of `go mod download -json`.
var refusedRE = regexp.MustCompile(`requires go >= (\S+) \(running go (\S+); GOTOOLCHAIN=([^)]*)\)`)

// Refused is an ErrTooOld error naming what, the Go it needs and how to
// run kubewalk with it, if msg is the go command's refusal of a module
// that needs a newer Go; nil otherwise.
func Refused(what, msg string) error {
	m := refusedRE.FindStringSubmatch(msg)
	if m == nil {
		return nil
	}
	return fmt.Errorf("%w: %s requires Go %s and the go command here is go%s with GOTOOLCHAIN=%s: %s", ErrTooOld, what, m[1], m[2], m[3], Hint("go"+m[1]))
}

// Newer is an ErrTooOld error if goCmd, the go command's version, is a
// newer language than built, the Go kubewalk was built with (go1.27 is
// newer than go1.26.8, go1.26.9 is not): that Go's standard library may
// use what kubewalk's go/parser and go/types cannot read. A version that
// is not a release's ("devel …") is not compared.
func Newer(goCmd, built string) error {
	lc, lb := version.Lang(goCmd), version.Lang(built)
	if lc == "" || lb == "" || version.Compare(lc, lb) <= 0 {
		return nil
	}
	return fmt.Errorf("%w: the go command here is %s, and kubewalk was built with %s, whose parser and type checker cannot read %s code: %s", ErrTooOld, goCmd, built, lc, Hint(goCmd))
}

// Hint says how to run kubewalk with Go v or newer: build it with that Go,
// and let the go command use it too (it fetches that Go from the module
// proxy once).
func Hint(v string) string {
	return fmt.Sprintf("build kubewalk with %[1]s or newer and run it with the same Go (e.g. GOTOOLCHAIN=%[1]s make build, then GOTOOLCHAIN=%[1]s ./bin/kubewalk …)", v)
}
