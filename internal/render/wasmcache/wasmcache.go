package wasmcache

import "os"

var (
	// caller is the TMPDIR the process started with, callerSet whether it
	// had one; Restore gives that back.
	caller    string
	callerSet bool
	// dir is the private directory go-graphviz is given, or dirErr why none.
	dir    string
	dirErr error
)

func init() {
	caller, callerSet = os.LookupEnv("TMPDIR")
	if tmp, ok := setup(); ok {
		os.Setenv("TMPDIR", tmp)
	}
}

// Restore sets TMPDIR back to what the process started with: the same
// value, or unset. Call it from the init of a package that imports
// go-graphviz, which Go runs after go-graphviz's own.
func Restore() {
	if callerSet {
		os.Setenv("TMPDIR", caller)
	} else {
		os.Unsetenv("TMPDIR")
	}
}

// Dir returns the directory given to go-graphviz as its TMPDIR (its
// cache is Dir()/go-graphviz), or why it was given none and compiled in
// memory.
func Dir() (string, error) {
	return dir, dirErr
}
