// Package wasmcache gives go-graphviz a private directory for its
// compiled WebAssembly instead of a predictable one in /tmp. Importing
// it is all it takes; internal/render/diagram does, and calls Restore.
//
// # Why
//
// github.com/goccy/go-graphviz (v0.2.10) compiles Graphviz's wasm module
// in the init function of its internal/wasm package, in every process
// that links it, whatever the command. It gives wazero a compilation
// cache at filepath.Join(os.TempDir(), "go-graphviz"), created with
// os.Mkdir when absent and used as it is when present, and offers no way
// to choose another: the init runs before any code of ours could call
// anything. In a shared /tmp that name is a hole, not only litter:
// wazero's file cache holds native machine code that it maps executable,
// so whoever creates /tmp/go-graphviz first (mode 0777, entries of their
// own making) runs code in the next kubewalk of any user, root's
// included.
//
// # How
//
// os.TempDir reads $TMPDIR, so this package's init points TMPDIR at a
// directory only the user can write, and Restore, called from
// internal/render/diagram once go-graphviz's init is over, puts the caller's
// value back exactly (set to what it was, or unset).
//
// That relies on the order Go gives package initialisation (the language
// specification, since Go 1.21): among the packages whose imports are
// all initialised, the first by import path goes next. This package
// imports only standard packages that github.com/tetratelabs/wazero
// imports too (os, path/filepath, syscall, fmt, errors), and its path
// sorts before wazero's; so by the time wazero could be initialised this
// package can be, and goes first, and go-graphviz's internal/wasm, which
// needs wazero, comes later still. internal/render/diagram imports go-graphviz,
// so its own init, Restore, runs after internal/wasm's. Packages
// initialised in between see the private directory as os.TempDir; none
// of kubewalk's dependencies reads it in its init, and main sees the
// caller's.
//
// An import here that wazero lacks breaks that chain (with net/http, for
// one, go-graphviz is initialised first), which is why internal/render/diagram's
// TestWasmCache runs programs linking both with GODEBUG=inittrace=1 and
// checks the order the runtime reports, that nothing appears in the
// caller's TMPDIR, that the private cache serves the second start, and
// that os.TempDir is the caller's again by the time main runs.
//
// The other ways in were worse: go-graphviz and wazero read no setting
// of their own (no variable, no option that takes effect before that
// init); laying graphs out in a separate process would not stop the init
// in this one; a fork under a replace directive leaves us patching
// go-graphviz's generated bindings at every release; setting TMPDIR and
// executing ourselves again costs every command a second start.
//
// # The directory
//
// The cache lives in os.UserCacheDir()/kubewalk/graphviz (so
// ~/.cache/kubewalk/graphviz/go-graphviz/wazero-<version>-<arch>-<os>/,
// one per wazero version), in kubewalk's default --cache-dir: this
// init runs before flags are parsed, so --cache-dir cannot move it. It is
// used only if every directory from the root down to kubewalk, symbolic
// links resolved, belongs to the user or root and is writable by nobody
// else (or sticky, as /tmp is), and graphviz itself is a directory, not a
// link, of the user's with mode 0700 (it is created so); what go-graphviz
// and wazero make inside it is then out of everyone else's reach.
// Otherwise TMPDIR is /dev/null for the length of go-graphviz's init: its
// Mkdir fails there, so it uses no file cache and compiles in memory,
// every start paying the whole compilation, and Dir says why. A home
// directory writable by its group is refused too, although a private
// group would be safe: telling the two apart needs the group database,
// which os/user reads and wazero does not import.
//
// On systems other than Unix nothing is changed.
package wasmcache
