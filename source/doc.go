// Package source puts the Kubernetes source tree of a release tag on disk,
// the same whichever way it was obtained, and says where it is.
//
//	tree, err := source.Fetch(ctx, source.Options{
//		Tag:      "v1.36.3",
//		Source:   "auto", // or "git", "goproxy", or the path of a checkout
//		CacheDir: filepath.Join(userCache, "kubewalk"),
//	})
//	// tree.Dir:    .../trees/goproxy/v1.36.3/kubernetes
//	// tree.Commit: "" (the proxy's .info names no commit for v1.36.3)
//	// tree.Env:    [GOWORK=.../trees/goproxy/v1.36.3/go.work GOFLAGS=-mod=readonly]
//	cmd := exec.Command("go", "list", "./pkg/controller/...")
//	cmd.Dir, cmd.Env = tree.Dir, append(os.Environ(), tree.Env...)
//
// # The tree
//
// Every backend produces the repository's layout at the tag: the root
// module k8s.io/kubernetes at Tree.Dir, each staging module at
// staging/src/k8s.io/<name>. A file's repository-relative path, and so its
// permalink and every line number, is the same whichever backend produced
// it; TestBackendsAgree builds one fixture release both ways and compares
// them file by file. What differs is what publishing changes: module zips
// carry no vendored code (and, for a go.mod at go 1.24 or later, no
// vendor/modules.txt), the published staging go.mod files lack the
// repository's "replace ../x" lines, and the proxy does not serve every
// staging module at every release (k8s.io/sample-cli-plugin@v0.36.3 is
// "not available"). Those are listed in Tree.Missing and logged once as a
// warning; their directories are absent, and packages that import them
// do not load (at v1.29.6, the importers of k8s.io/endpointslice).
//
// What the proxy serves changes over time, and a cached tree is otherwise
// used for good, so a cached goproxy tree that lacks modules asks the
// proxy about them again at a later fetch, at most once a day (tree.json
// records when it last asked; one written by an older kubewalk, without
// that time, asks at its next fetch). The asking is the fetch's own `go
// mod download -json` of the missing modules, at once, judged as the
// fetch judges: a module is served when its zip is (proxy.golang.org
// serves the .info of k8s.io/endpointslice@v0.29.6, and answers 403 for
// its zip). It is bounded to ten seconds; when the proxy cannot be asked
// (offline, an error, no answer) the fetch warns once (once for all the
// trees one kubewalk fetches: the others do not ask), uses the cached
// tree, and asks again a day later. When one is served, the tag is
// fetched again into a temporary directory, as a first fetch is, and the
// tree put in place of the cached one in one step (see The cache), only
// if it lacks fewer modules; the completion is logged at Info. The tree's
// go.work then uses the module, and Tree.Missing and tree.json's missing
// no longer list it. A kubewalk that finds another holding the tree's
// lock does not ask, nor wait: it uses the tree as it is.
//
// The tree is never modified. kubewalk writes a go.work beside it (not in
// it) that uses the root and every staging module present, by paths
// relative to the go.work so a cache directory can be moved, and Tree.Env
// points the go command at it with -mod=readonly: the tree's own go.work
// names modules that may be missing, and its vendor directory holds no
// code in a tree from the proxy, so the go command's default -mod=vendor
// would fail with "inconsistent vendoring". Dependencies then come from
// the module cache (downloaded once, shared by every tag). The git
// backend gets the same workspace, so both backends load the same way.
//
// # Backends
//
// git: go-git clones refs/tags/<tag> from Options.Repo (default the
// upstream repository; a local path or file:// URL for a mirror), depth 1,
// single branch, no other tags, and kubewalk writes the checkout itself,
// several files at a time (go-git writes one at a time, checking every
// path's components first: its clone took 1.3 times git's). An annotated
// tag resolves to its commit, which is Tree.Commit. go-git's sideband
// progress goes to
// Options.Progress. The .git directory is removed after the clone: the
// tree is a snapshot, and tree.json keeps the commit. Before cloning, a
// TCP dial to the remote's host (or to the HTTP proxy the environment
// names for it) must succeed within five seconds, so that "auto" gives up
// on an unreachable remote quickly instead of waiting on go-git's own
// timeouts.
//
// goproxy: the go command (`go mod download -json`) fetches
// k8s.io/kubernetes@<tag>; the replace list of its go.mod names the
// staging modules (k8s.io/<name> => ./staging/src/k8s.io/<name>), which
// one more `go mod download -json` fetches at v0.<minor>.<patch>. The
// module zips are unpacked (in parallel) rather than the module cache's
// extracted directories copied: the files come out writable, so the cache
// can be removed with rm -rf, and it is faster where the disk is the
// bottleneck (one sequential read instead of 23k small ones, and no chmod
// pass): for kubernetes@v1.36.3 on a loaded 2-core machine, unzip took
// 6-7 s against 13-22 s for cp -r of the extracted directory plus chmod -R
// u+w. The go command's own
// environment applies (GOPROXY, GOMODCACHE, GOFLAGS, GONOSUMDB, ...), plus
// Options.Env. Tree.Commit is the .info file's Origin.Hash where the proxy
// gives one and "" otherwise; permalinks are built from the tag, which is
// immutable upstream, so they work either way.
//
// dir: an existing checkout, used in place (not copied, not cached). Its
// go.mod must declare module k8s.io/kubernetes, it must be a git
// repository holding the tag, and HEAD must be the tag's commit; uncommitted
// changes are not looked for. Tree.Env names its own go.work, and
// -mod=readonly only when its vendor directory holds no code (a real
// checkout vendors its dependencies, which then load offline).
//
// auto (the default): a cached tree of either backend if there is one,
// else git, else — when the remote cannot be reached, and only then — one
// warning line and goproxy. A tag the remote does not have is an error, not
// a reason to fall back.
//
// # Tags
//
// A tag is a canonical semantic version with major 1: "v1.36.3". A
// pre-release tag ("v1.37.0-alpha.1") is accepted by every backend and
// works where the source has it: the upstream repository has every
// pre-release tag; the module proxy has some (staging modules at
// v0.37.0-alpha.1). A tag that is missing is ErrTagNotFound naming the
// nearest releases the source does have (remote tags for git, `go list -m
// -versions` for goproxy, local tags for a checkout): the newest below,
// the oldest above, and the newest of all. Pre-releases are suggested only
// for a pre-release tag.
//
// # The cache
//
//	<CacheDir>/trees/<backend>/<tag>/kubernetes/  the tree (Tree.Dir)
//	<CacheDir>/trees/<backend>/<tag>/go.work      the workspace (Tree.Env)
//	<CacheDir>/trees/<backend>/<tag>/tree.json    tag, commit, backend, missing, checked
//	<CacheDir>/trees/<backend>/<tag>.lock         held while fetching
//	<CacheDir>/trees/<backend>/<tag>.tmp-*/       a fetch in progress
//
// A tree is written into a temporary directory beside its final place,
// synced to disk (every file and directory), and renamed there only when
// complete, so a tree that exists is complete, after a crash of the
// machine too, and fetching a cached tag reads tree.json and does no
// network work (no remote, no proxy, no go command) — but the once-a-day
// check of a goproxy tree's missing modules above. A tree completed by
// that check replaces the cached one by an exchange of the two
// directories (renameat2 RENAME_EXCHANGE), so the tree's path names the
// old tree or the new one at every instant; the old one, then at the
// temporary name, is removed. Where the file system cannot exchange, two
// renames leave the path empty for a moment, in which a fetch with
// --source goproxy waits for the lock and one with auto may clone with
// git. The check's time is written into tree.json by a rename over it.
// The tree under kubernetes/ is never changed in place. A file lock per
// (backend, tag) serialises fetches across processes: the second waits,
// then finds the tree the first wrote. The lock file is opened without
// following a symbolic link and left for the next fetch. The lock also
// makes clean-up safe: whoever holds it removes any temporary directory
// of that tag, which can only be left by a fetch that was killed (a fetch
// of a cached tree does, when it can take the lock at once), so a rerun
// recovers with no manual clean-up. The operating system releases the
// lock of a killed process.
//
// The cache is keyed by backend and tag, not by remote: a release tag is
// immutable upstream, and a mirror given with --repo is expected to hold
// the same commit for it. A tree fetched from one remote therefore serves
// a later fetch that names another; remove trees/git/<tag> to refetch.
//
// # Errors
//
// Errors wrap one of ErrInvalidTag, ErrTagNotFound, ErrUnreachable (and
// ErrStalled for a server that stopped sending), ErrNotKubernetes,
// ErrNotAtTag, ErrCacheUnwritable and, for a tag whose go.mod asks for
// a newer Go than the go command may use, internal/gotoolchain's
// ErrTooOld (match with errors.Is), and read as one line: where, what,
// and what to do.
//
//	git remote https://github.com/kubernetes/kubernetes.git: source unreachable: dial tcp: lookup github.com: no such host: check the network or --repo, or use --source goproxy
//	module proxy: tag not found: v1.36.9; nearest releases: v1.36.3 (pass one with --tag, or use --source git for a tag the proxy lacks)
//	/home/me/k8s: checkout is not at the tag: HEAD is 1c2e3f4a5b6c (branch master), v1.36.3 is 9a8b7c6d5e4f: run git -C /home/me/k8s checkout v1.36.3
//	cache directory not writable (/ro/kubewalk): mkdir /ro/kubewalk: read-only file system: use --cache-dir to choose another
//	Go toolchain too old for the release: k8s.io/kubernetes@v1.38.0-beta.0 requires Go 1.27.0 and the go command here is go1.26.8 with GOTOOLCHAIN=local: build kubewalk with go1.27.0 or newer and run it with the same Go (e.g. GOTOOLCHAIN=go1.27.0 make build, then GOTOOLCHAIN=go1.27.0 ./bin/kubewalk …)
//	module proxy: source unreachable: stopped sending for 1m0s (https://proxy.example/k8s.io/kubernetes/@v/v1.36.3.zip): check GOPROXY and the network, or use --source git, or raise --stall-timeout
package source
