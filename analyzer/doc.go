// Package analyzer loads a Kubernetes tree with go/types, discovers what a
// walkthrough links to — informer handler registrations, sync wiring, API
// writes, events, raw list-watches, requests to shared informer
// factories, feature gates and the code they guard, call edges — and
// resolves go doc style symbol references to lines of the tree.
//
//	res, hit, err := analyzer.AnalyzeCached(ctx, analyzer.Config{
//		Dir: tree.Dir, Env: tree.Env, // from package source
//		Tag: tree.Tag, Commit: tree.Commit,
//		Logf: log.Printf,
//	}, filepath.Join(cacheDir, "facts"))
//	ref, err := fact.ParseRef(
//		`k8s.io/kubernetes/pkg/controller/deployment.DeploymentController.getNewReplicaSet /ReplicaSets\(.*\)\.Create/`)
//	r, err := res.Resolve(ref)
//	// r.Symbol.Decl: the method's file and lines, doc comment to closing brace
//	// r.Matched:     the lines of it the regexp matches: dc.client.AppsV1().ReplicaSets(d.Namespace).Create(…)
//	err = res.Facts().WriteJSON(os.Stdout) // facts.json
//
// ExampleAnalyze runs the same on the tests' small tree shaped like
// Kubernetes.
//
// A Result is plain data (Facts, Symbols, Xrefs), of the types of package
// fact (aliased here): nothing in it refers to go/ast or go/types, so a
// Result read from the cache serves the walkthrough resolver and the site
// exactly as a fresh one does.
//
// Figures — load time and memory, what each design choice below saved, the
// benchmarks' results — are in bench/README.md; bench_test.go measures
// them (`make bench`).
//
// # Loading
//
// Load (and so Analyze) gets the package graph from go/packages —
// packages.Load in metadata mode (NeedName, NeedFiles, NeedImports,
// NeedDeps, NeedModule): one `go list -deps` through go/packages' driver,
// which handles GOPACKAGESDRIVER, -pgo=off and the go command's error
// shapes — and then type-checks every package from source itself, on a
// pool of GOMAXPROCS workers, in import order (a package as soon as its
// imports are checked; checks take precedence over parses, being on the
// import graph's critical path). While go/packages lists, the workers
// already parse the root directories' files and, as those files' imports
// name them, the in-tree packages they import, transitively, as
// dependencies are parsed (speculate, specImports). Root packages get
// full syntax with comments and a complete types.Info; dependencies are
// parsed without comments, their function bodies are ignored by the type
// checker (types.Config.IgnoreFuncBodies, and DisableUnusedImportCheck, so
// no "declared and not used" or "imported and not used" errors arise and
// none need filtering) and dropped right after parsing, and their syntax is
// dropped once they are checked. Declaration spans of dependencies come
// from the symbol index instead (Program.DeclLoc), which is built from the
// syntax at parse time. The GC is relaxed while loading: a soft memory
// limit (Config.MemoryLimit, default DefaultMemoryLimit) with GOGC at 400, restored
// afterwards.
//
// Why not let go/packages type-check (NeedTypes with NeedDeps): it lists
// everything before parsing anything, parses a package only once all its
// imports are checked, and keeps every dependency's syntax and a full
// types.Info; this loader overlaps the three and keeps less, and takes
// about half the time and two thirds of the memory with the GC relaxed
// alike. Export data is no alternative on a cold build cache: `go list
// -deps -export` compiles every package first.
//
// CGO_ENABLED=0 is forced: the loader type-checks GoFiles and never runs
// cgo, which is exactly the file set of a CGO_ENABLED=0 build — the way
// Kubernetes builds its release binaries. In the default roots' import
// graph only net, os/user and runtime/cgo have cgo files.
//
// Dependencies are not only type-checked without bodies, they are parsed
// almost without them: blankBodies overwrites the inside of each top-level
// function body with spaces (newlines kept, so every offset and line stays
// put) with a byte-level lexer before go/parser sees the file. The
// symbols, facts and cross-references are byte for byte the same with and
// without it, and parsing, the larger part of a load, gets cheaper.
//
// A Go file that cannot be read or parsed fails the load with an error
// naming it (path relative to the tree, line and column): a release always
// parses, so the tree was damaged or edited. Every other error that is not
// an expected kind — go list errors, type errors in roots or dependencies
// (a staging module the proxy does not serve leaves its importers
// unchecked) — is recorded in the package's Errors, reported through
// Config.Logf (the first 50), counted in the load's summary line, and the
// package is listed in Facts.Incomplete; the analysis goes on. At v1.31.0,
// v1.35.4 and v1.36.3 the default roots load with 0 errors. A root package
// that does not exist at the tag (a walkthrough's alternate naming a
// package of another release) is logged and dropped, not counted as an
// error; Load fails when no root loads.
//
// # Passes
//
// Analyze runs Passes as RunPasses does, but side by side on GOMAXPROCS
// goroutines once the index is built, as each finds facts of its own
// kinds only. A Pass has the shape of x/tools' analysis.Analyzer: a name,
// a doc, the passes it Requires and a Run that receives their results
// (PassRun.ResultOf) and returns its own; a discovery pass's result is a
// *fact.Facts of what it found, which RunPasses adds to the facts. Every
// discovery pass requires the unexported index pass (the functions of the
// roots, their func literals named as go/ssa names them, and the values
// assigned to variables and fields), so the index is built once per run
// and shared as a value; nothing outlives the call. The index is built by
// the one walk of the roots' syntax (callvisit.go): it resolves every
// call's callee once and keeps, per function, the nodes of its body the
// passes look at, which they read instead of walking the bodies again.
// Each pass's doc says what it finds and what it misses on purpose.
//
// # Symbols
//
// Result.Symbols lists every package-level func, method, type, var and
// const of every loaded package whose files lie in the tree (roots and
// in-tree dependencies: staging modules, pkg/…), by go doc name:
// "importpath.Name" or "importpath.Type.Method" (generic receivers without
// their type parameters). Decl runs from the first line of the doc comment
// to the last line of the declaration; for a grouped const, var or type
// spec, the spec's own doc comment and lines. Body is a func's braces. The
// index is built from syntax at parse time, so it does not need dependency
// syntax to be kept. Doc comments of dependencies (parsed without
// comments) are found by scanning the source upwards for "//" lines with
// no blank line between — what go/ast calls the Doc of gofmt'ed code.
//
// # References
//
// References are parsed by fact.ParseRef, whose doc holds the grammar.
// Resolve looks each alternate up in the index, in order; the first that
// exists wins, and its regexp must match a line of that declaration (else
// an error wrapping fact.ErrNoMatch: the code changed under the
// walkthrough). When none exists the error is a *fact.NotFoundError with
// up to five suggestions: names of the same package within an edit
// distance of a third of the name's length (case-insensitive), then names
// elsewhere whose last element is close (the symbol moved); NoPackage says
// when a package is not loaded at all.
//
// # Cross-references
//
// Result.Xrefs has one FileXref per Go file of the root packages: each
// identifier bound to an object, with its byte offset, length, kind, whether
// it declares the object, and the declaring line when that lies in the
// tree.
//
// # The cache
//
// AnalyzeCached keys a Result by the schema and analyzer versions
// (SchemaVersion, Version) and the cache file's encoding, the sorted roots,
// Config.Env, the tag and commit, `go env GOVERSION GOROOT GOOS GOARCH
// GOWORK GOFLAGS`, the workspace file's size and modification time, and
// the tree's identity: the path, size and modification time of every .go,
// go.mod, go.sum, go.work, go.work.sum and modules.txt file in the tree
// (skipping what the go command skips: directories named testdata or
// starting with "." or "_"). Tag, commit and backend are not enough: a
// "dir" source is a checkout its owner may edit. Hashing file contents
// would be sounder against edits that keep size and mtime, but reads the
// whole tree; hashing only the root packages' files would miss a new
// package matching a "..." pattern and edits to dependencies. The stat
// walk covers both. Dependencies outside the tree live in the module
// cache, which is immutable and pinned by go.sum (hashed).
//
// The file is written to a temporary file in the cache directory and
// renamed into place. Its encoding: a magic line, gob-encoded Facts, then
// symbols and cross-references as uvarints with a path table and
// front-coded names (about a tenth of gob's size, and quicker to decode),
// and last a SHA-256 of everything before it, checked on every read: a
// file that does not match is a miss, logged, and replaced. A hit reads
// the file and loads no packages.
package analyzer
