// Package analyzer loads a Kubernetes tree with go/types, discovers what a
// walkthrough links to — informer handler registrations, sync wiring, API
// writes, events, raw list-watches, call edges — and resolves go doc style
// symbol references to lines of the tree.
//
//	res, hit, err := analyzer.AnalyzeCached(ctx, analyzer.Config{
//		Dir: tree.Dir, Env: tree.Env, // from package source
//		Tag: tree.Tag, Commit: tree.Commit,
//		Logf: log.Printf,
//	}, filepath.Join(cacheDir, "analyzer"))
//	ref, err := analyzer.ParseRef(
//		`k8s.io/kubernetes/pkg/controller/deployment.DeploymentController.getNewReplicaSet /ReplicaSets\(.*\)\.Create/`)
//	r, err := res.Resolve(ref)
//	// r.Symbol.Decl: pkg/controller/deployment/sync.go lines of the method
//	// r.Matched:     the line of the dc.client.AppsV1().ReplicaSets(…).Create call
//	err = res.Facts().WriteJSON(os.Stdout) // facts.json
//
// A Result is plain data (Facts, Symbols, Xrefs): nothing in it refers to
// go/ast or go/types, so a Result read from the cache serves the
// walkthrough resolver and the site exactly as a fresh one does.
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
// already parse the root directories' files (speculate). Root packages get
// full syntax with comments and a complete types.Info; dependencies are
// parsed without comments, their function bodies are ignored by the type
// checker (types.Config.IgnoreFuncBodies, and DisableUnusedImportCheck, so
// no "declared and not used" or "imported and not used" errors arise and
// none need filtering) and dropped right after parsing, and their syntax is
// dropped once they are checked. Declaration spans of dependencies come
// from the symbol index instead (Program.DeclLoc), which is built from the
// syntax at parse time. The GC is relaxed while loading: a soft memory
// limit (Config.MemoryLimit, default 1200 MiB) with GOGC at 400, restored
// afterwards.
//
// CGO_ENABLED=0 is forced: the loader type-checks GoFiles and never runs
// cgo, which is exactly the file set of a CGO_ENABLED=0 build — the way
// Kubernetes builds its release binaries. In the default roots' import
// graph only net, os/user and runtime/cgo have cgo files.
//
// Dependencies are not only type-checked without bodies, they are parsed
// almost without them: blankBodies overwrites the inside of each top-level
// function body with spaces (newlines kept, so every offset and line stays
// put) with a byte-level lexer before go/parser sees the file. At v1.36.3
// the symbols, facts and cross-references are byte-for-byte the same with
// and without it, and parse CPU drops by about a third.
//
// Why go/packages lists but does not type-check: measured at v1.36.3 on
// this 2-core, 24 GB machine with the roots of the time (332 root packages, 2,527 in all),
// go/packages with NeedDeps, dependency bodies replaced by empty blocks in
// ParseFile and the three expected error kinds filtered took 16.5 s and
// 1.29 GB peak RSS (0 errors; a rerun: 19 s wall, 23 s CPU). It runs
// go list to completion before parsing anything, parses a package only
// when all its imports are type-checked, keeps every dependency's syntax
// and a full types.Info for every package, and leaves the GC at GOGC=100
// with a live heap near 1 GB: the process averaged about one core of two.
// The same go/packages load with the GC relaxed as below: 10.8 s, 1.32 GB.
// This loader on the same roots, quiet machine: 6.0 s and 830 MB peak RSS
// (8.1 s user + 1.4 s sys CPU, go list included) when it ran go list
// itself. Taking the listing from packages.Load instead changes no work:
// `go list -deps -json` prints nothing until it is done anyway (first byte
// at 6.41 s of 6.65 s). make bench at v1.36.3 (the current roots: 361
// packages, 2,700 in all, 10,821 files; load average 2–3 from the run
// itself): Analyze with an empty GOCACHE 9.8 s and 1.0 GB peak RSS, with a
// warm GOCACHE 7.0 s (go list is the difference), with the facts cached
// 0.27 s and 82 MB. Of a warm run, the load is ~5 s and the six passes
// ~1.5 s (calls 0.8 s, since implementers are cached per interface; it
// was 2.6 s), the cross-references beside them. go/packages is
// how Go tools are meant to ask the go command about packages (drivers,
// overlays, error shapes, -pgo variants); the part that matters for speed
// and memory — what is parsed and type-checked, and what is kept — is
// ours. Keeping dependency syntax (bodies emptied)
// cost about 450 MB more peak RSS, so it is dropped. Export data is no alternative on
// a cold build cache: `go list -deps -export` of the roots compiles
// everything — 482 s with an empty GOCACHE in the same make bench run
// (BenchmarkGoListExportCold), 6.9 s warm, before a single package is
// type-checked.
//
// The current DefaultRoots (361 roots, 2,700 packages, 10,821 files) add
// kubectl apply, the watch cache and kube-proxy. On a machine shared with
// other builds (load average 5–7 on 2 cores), Analyze — load, the passes
// of the time and the cross-references — measured 21 s wall at 1.05 GB peak
// RSS, cold and warm GOCACHE alike (the loader uses no build cache; a cold
// GOCACHE only slows go list's first module scan), with about 16 s of
// user CPU: of that the load is ~9 s, the passes ~4 s (the call-edge pass
// most), the cross-references ~1 s (built on a goroutine beside the
// passes). A cache hit: 0.26–0.54 s, 60–80 MB.
//
// Where the load's CPU goes (profile, before blanking): parsing 47% —
// function bodies were 60% of that, most of them dependencies' — type
// checking 40%, the GC 6%.
//
// Every error that is not an expected kind — go list errors, parse errors,
// type errors in roots or dependencies — is recorded in the package's
// Errors, reported through Config.Logf (the first 50) and counted in the
// load's summary line. At v1.31.0, v1.35.4 and v1.36.3 the default roots
// load with 0 errors. A root package that does not exist at the tag (a
// walkthrough's alternate naming a package of another release) is logged
// and dropped, not counted as an error; Load fails only when no root
// loads.
//
// # Symbols
//
// Result.Symbols lists every package-level func, method, type, var and
// const of every loaded package whose files lie in the tree (roots and
// in-tree dependencies: staging modules, pkg/…), about 90,000 at v1.36.3,
// by go doc name: "importpath.Name" or "importpath.Type.Method" (generic
// receivers without their type parameters). Decl runs from the first line
// of the doc comment to the last line of the declaration; for a grouped
// const, var or type spec, the spec's own doc comment and lines. Body is a
// func's braces. The index is built from syntax at parse time, so it does
// not need dependency syntax to be kept. Doc comments of dependencies
// (parsed without comments) are found by scanning the source upwards for
// "//" lines with no blank line between — what go/ast calls the Doc of
// gofmt'ed code.
//
// # References
//
// ParseRef's grammar is in its doc. Resolve looks each alternate up in the
// index, in order; the first that exists wins, and its regexp must match a
// line of that declaration (else an error wrapping ErrNoMatch: the code
// changed under the walkthrough). When none exists the error is a
// *NotFoundError with up to five suggestions: names of the same package
// within an edit distance of a third of the name's length (case-
// insensitive), then names elsewhere whose last element is close (the
// symbol moved); NoPackage says when a package is not loaded at all.
//
// # Cross-references
//
// Result.Xrefs has one FileXref per Go file of the root packages: each
// identifier bound to an object, with its byte offset, length, kind, whether
// it declares the object, and the declaring line when that lies in the
// tree. At v1.36.3 with DefaultRoots: 1,113 files, 463,000 identifiers —
// about 33 MB as Go values and 3.3 MB in the cache file, where gob would
// take 29 MB and JSON 55 MB (measured on the 420,000 identifiers of the
// earlier roots: 2.96 MB, 26 MB, 50 MB).
//
// # The cache
//
// AnalyzeCached keys a Result by the schema and analyzer versions
// (SchemaVersion, Version), the sorted roots, Config.Env, the tag and
// commit, `go env GOVERSION GOROOT GOOS GOARCH GOWORK GOFLAGS`, the
// workspace file's size and modification time, and the tree's identity:
// the path, size and modification time of every .go, go.mod, go.sum,
// go.work, go.work.sum and modules.txt file in the tree (skipping what the
// go command skips: directories named testdata or starting with "." or
// "_"). Tag, commit and backend are not enough: a "dir" source is a
// checkout its owner may edit. Hashing file contents would be sounder
// against edits that keep size and mtime, but reads 300 MB; hashing only
// the root packages' files would miss a new package matching a "..."
// pattern and edits to dependencies. The stat walk covers both and takes
// about 0.2 s on a 12,000-file tree. Dependencies outside the tree live in
// the module cache, which is immutable and pinned by go.sum (hashed).
//
// The file is written to a temporary file in the cache directory and
// renamed into place. Its encoding: a magic line, gob-encoded Facts, then
// symbols and cross-references as uvarints with a path table and
// front-coded names: symbols 2.5 MB and cross-references 3.0 MB for the
// earlier roots, where gob would take about 10 times that. The facts
// are gob-encoded, and with the call edges they are most of the 13 MB.
// Last comes a SHA-256 of everything before it, checked on every read: a
// file that does not match is a miss, logged, and replaced. A
// cache hit — go env, the stat walk, reading and decoding — takes 0.26 s
// to 0.54 s (0.23 s of it decoding, on a busy machine) and loads no
// packages.
//
// # Benchmarks
//
// bench_test.go runs each iteration in a child process (the test binary
// re-executed) to report its peak RSS: BenchmarkAnalyzeCold (empty
// GOCACHE), BenchmarkAnalyzeWarm, BenchmarkAnalyzeCached, and for
// comparison BenchmarkGoListExportCold/Warm, `go list -deps -export` of the
// same roots. Set KUBEWALK_BENCH_TREE (and KUBEWALK_BENCH_ENV, default
// GOWORK=<tree>/../go.work GOFLAGS=-mod=readonly); `make bench` does.
//
// v1.36.3, DefaultRoots, on this 2-core machine while other builds and
// tests ran beside (load average 2–12; quiet-machine figures above):
//
//	                       wall      peak RSS
//	AnalyzeCold            17.2 s    1,030 MB   0 errors, 2,700 packages
//	AnalyzeWarm            21.4 s    1,178 MB   (noise: the loader uses no build cache)
//	AnalyzeCached           0.44 s      82 MB   cache file 13.3 MB, over half of it facts
//	GoListExportCold       23 min      460 MB   empty GOCACHE
//	GoListExportWarm       11.5 s      169 MB
//
// So export data is out of the question for a cold first build, and not
// faster than loading from source even with every package compiled.
package analyzer
