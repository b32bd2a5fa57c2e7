// Package safedir holds the file-system operations kubewalk publishes
// directories with — trees in the cache, sites in --out, serve's builds —
// so that processes sharing them (two builds, a build and a killed build's
// leftovers, another user on the machine) cannot hurt each other:
//
//   - locks: flock(2) on a directory itself, or on a lock file opened
//     without following a symbolic link, always beside what they protect,
//     never in a shared namespace such as /tmp (where another user can
//     create the name first, or make it a link to a file of yours);
//   - Exchange: swap two directories in one step (renameat2 with
//     RENAME_EXCHANGE on Linux, renamex_np with RENAME_SWAP on macOS), so
//     a published path is the old or the new directory at every instant;
//   - SyncTree: fsync every file and directory of a tree, so what is
//     renamed into place after it is on disk, not only in the page cache.
//
// A lock is released by the kernel when its holder dies, so a directory
// nobody holds a lock on is a leftover of a killed process: Sweep removes
// those.
package safedir
