package source

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/kubewalk/kubewalk/internal/disk/safedir"
)

// Cache layout, under Options.CacheDir:
//
//	trees/<backend>/<tag>/kubernetes/   the tree (Tree.Dir)
//	trees/<backend>/<tag>/go.work       the workspace kubewalk wrote for it
//	trees/<backend>/<tag>/tree.json     metadata; the tree is complete (missing.go rewrites it)
//	trees/<backend>/<tag>/manifest.json every file's size and SHA-256 (manifest.go)
//	trees/<backend>/<tag>.lock          flock held while fetching
//	trees/<backend>/<tag>.tmp-*/        a fetch in progress (or killed)
const (
	treeSubdir   = "kubernetes"
	workFileName = "go.work"
	metaFileName = "tree.json"
	metaFormat   = 3 // 2: go.work replaces missing staging modules with stubs; 3: and sets aside published staging go.mods' pinned replaces
)

// meta is what tree.json holds: the Tree minus what is derived from where
// the cache is (Dir, Env), so a cache directory can be moved.
type meta struct {
	Format  int      `json:"format"`
	Tag     string   `json:"tag"`
	Commit  string   `json:"commit,omitempty"`
	Backend string   `json:"backend"`
	Missing []string `json:"missing,omitempty"`
	// Checked is when the module proxy was last asked for the Missing
	// modules (at the fetch, then by checkMissing); zero in a tree.json
	// of an older kubewalk, which is checked at its next fetch.
	Checked time.Time `json:"checked,omitzero"`
}

func cachePath(opts Options, backend string) string {
	return filepath.Join(opts.CacheDir, "trees", backend, opts.Tag)
}

// loadTree reads a complete cached tree. Completeness needs no check
// beyond existence: a tree directory only ever appears by rename (or
// exchange), after everything in it was written. The tree and its go.work
// are still looked for, because a hand (or a partial rm -rf) can remove
// them from under a tree.json; a tree missing either is refetched.
func loadTree(path, backend, tag string) (*Tree, error) {
	t, _, err := loadMeta(path, backend, tag)
	return t, err
}

// loadMeta is loadTree that also returns the tree's tree.json.
func loadMeta(path, backend, tag string) (*Tree, meta, error) {
	b, err := os.ReadFile(filepath.Join(path, metaFileName))
	if err != nil {
		return nil, meta{}, err
	}
	for _, name := range []string{treeSubdir, workFileName} {
		if _, err := os.Stat(filepath.Join(path, name)); err != nil {
			return nil, meta{}, err
		}
	}
	var m meta
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, meta{}, fmt.Errorf("%s: %w", path, err)
	}
	if m.Format != metaFormat || m.Backend != backend || m.Tag != tag {
		return nil, meta{}, fmt.Errorf("%s: metadata is for %s %s (format %d)", path, m.Backend, m.Tag, m.Format)
	}
	if err := checkSizes(path, filepath.Join(path, treeSubdir)); err != nil {
		return nil, meta{}, err
	}
	return &Tree{
		Dir:     filepath.Join(path, treeSubdir),
		Tag:     m.Tag,
		Commit:  m.Commit,
		Backend: m.Backend,
		Missing: m.Missing,
		Env:     workspaceEnv(filepath.Join(path, workFileName)),
	}, m, nil
}

// loadCached returns the cached tree of (backend, tag) without taking its
// lock: no network work, unless the tree lacks staging modules and their
// check is due (checkMissing). A load that fails where a tree.json is
// is tried once more: it may have read across the exchange that put a
// completed tree in place (the old tree.json or manifest, the new
// files). It also removes what a killed fetch left beside the tree when
// nobody holds the lock.
func loadCached(ctx context.Context, opts Options, backend string) (*Tree, error) {
	final := cachePath(opts, backend)
	t, m, err := loadMeta(final, backend, opts.Tag)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t, m, err = loadMeta(final, backend, opts.Tag)
	}
	if err != nil {
		return nil, err
	}
	opts.Logger.Debug("cached tree", "dir", t.Dir)
	if leftovers, _ := filepath.Glob(final + ".tmp-*"); len(leftovers) > 0 {
		if lock, err := safedir.TryLockFile(final + ".lock"); err == nil {
			removeTemps(opts, final)
			lock.Unlock()
		}
	}
	if checkDue(opts, m) {
		return checkMissing(ctx, opts, final, t)
	}
	return t, nil
}

// fetchCached returns the cached tree of (backend, tag), fetching it first
// if needed. Fetches of one (backend, tag) are serialised across processes
// by a file lock; whoever waited finds the complete tree afterwards.
func fetchCached(ctx context.Context, opts Options, backend string) (*Tree, error) {
	if t, err := loadCached(ctx, opts, backend); err == nil {
		return t, nil
	}
	final := cachePath(opts, backend)
	parent := filepath.Dir(final)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, unwritable(opts.CacheDir, err)
	}
	lock, err := lockTree(ctx, opts, final, backend)
	if err != nil {
		return nil, err
	}
	defer lock.Unlock()
	if t, err := loadTree(final, backend, opts.Tag); err == nil {
		return t, nil
	}
	if err := removeLeftovers(opts, final); err != nil {
		return nil, err
	}
	tmp, err := fetchTemp(ctx, opts, backend, final)
	if err != nil {
		return nil, err
	}
	if err := place(opts, tmp, final); err != nil {
		return nil, err
	}
	return loadTree(final, backend, opts.Tag)
}

// fetchTemp fetches the tree of (backend, tag) into a new temporary
// directory beside final, synced to disk, and returns it. Under the
// tree's lock; on an error it leaves nothing.
func fetchTemp(ctx context.Context, opts Options, backend, final string) (string, error) {
	tmp, err := os.MkdirTemp(filepath.Dir(final), opts.Tag+".tmp-")
	if err != nil {
		return "", unwritable(opts.CacheDir, err)
	}
	if err := fetchInto(ctx, opts, backend, tmp); err != nil {
		removeAll(tmp)
		return "", err
	}
	// On disk before it is in place: after a crash of the machine the
	// rename may survive and the data not, leaving a complete-looking
	// tree of empty files.
	if err := safedir.SyncTree(tmp); err != nil {
		removeAll(tmp)
		return "", unwritable(opts.CacheDir, err)
	}
	return tmp, nil
}

// exchange is safedir.Exchange; tests replace it with one that reports no
// support, to take place's two renames.
var exchange = safedir.Exchange

// place puts the complete tree fetchTemp wrote at tmp at final, under the
// tree's lock. Where there is no tree, a rename; where there is one (a
// tree completed by checkMissing), an exchange (safedir.Exchange), so
// that final is the old tree or the new one at every instant, then the
// old one, now at tmp's name, is removed (a kill in between leaves it
// as any killed fetch's temporary directory, removed by the next fetch).
// Where the file system cannot exchange, two renames: final is absent
// for a moment, and a fetch that finds no tree there waits for the lock,
// then finds the new one (fetchAuto's, which takes no lock, clones with
// git). On an error, tmp is removed and the tree at final, if any, is as
// it was.
func place(opts Options, tmp, final string) error {
	old := ""
	if _, err := os.Lstat(final); err == nil {
		err := exchange(tmp, final)
		if errors.Is(err, errors.ErrUnsupported) {
			aside := tmp + "-old" // a <tag>.tmp-* name, for the leftovers' sweep
			if err = os.Rename(final, aside); err == nil {
				if err = os.Rename(tmp, final); err != nil {
					os.Rename(aside, final)
				} else {
					tmp = aside
				}
			}
		}
		if err != nil {
			removeAll(tmp)
			return unwritable(opts.CacheDir, err)
		}
		old = tmp
	} else if err := os.Rename(tmp, final); err != nil {
		removeAll(tmp)
		return unwritable(opts.CacheDir, err)
	}
	err := safedir.SyncDir(filepath.Dir(final))
	if old != "" {
		removeAll(old)
	}
	if err != nil {
		return unwritable(opts.CacheDir, err)
	}
	return nil
}

// lockTree takes the lock of the tree at final, waiting (and saying so)
// while another kubewalk fetches it. The lock file is opened without
// following a link (safedir): one planted at its name must not make
// kubewalk create a file elsewhere. It stays for the next fetch.
func lockTree(ctx context.Context, opts Options, final, backend string) (*safedir.Lock, error) {
	lockPath := final + ".lock"
	lock, err := safedir.TryLockFile(lockPath)
	if errors.Is(err, safedir.ErrLocked) {
		opts.Logger.Info("waiting for another kubewalk fetching the same tree", "lock", lockPath)
		fmt.Fprintf(opts.Progress, "waiting for another kubewalk to finish fetching %s (%s)\n", opts.Tag, backend)
		if lock, err = safedir.LockFile(ctx, lockPath); err != nil {
			return nil, fmt.Errorf("wait for lock %s: %w", lockPath, err)
		}
	} else if err != nil {
		if _, ok := errors.AsType[*fs.PathError](err); ok {
			return nil, unwritable(opts.CacheDir, err)
		}
		return nil, err
	}
	return lock, nil
}

// removeLeftovers removes what is at final and beside it for the tag,
// under the tree's lock: nobody else writes this tag, so anything left
// there is from a fetch that was killed, or a tree that did not load.
func removeLeftovers(opts Options, final string) error {
	if err := removeTemps(opts, final); err != nil {
		return err
	}
	if _, err := os.Stat(final); err == nil {
		// No tree.json: an older or damaged layout.
		opts.Logger.Info("refetching a cached tree of an older kubewalk, or damaged", "dir", final)
		if err := removeAll(final); err != nil {
			return unwritable(opts.CacheDir, err)
		}
	}
	return nil
}

// removeTemps removes the temporary directories beside final, under the
// tree's lock: what a fetch that was killed left (a tree being written,
// or the old tree a completed one replaced).
func removeTemps(opts Options, final string) error {
	leftovers, _ := filepath.Glob(filepath.Join(filepath.Dir(final), opts.Tag+".tmp-*"))
	for _, p := range leftovers {
		opts.Logger.Info("removing an incomplete fetch", "dir", p)
		if err := removeAll(p); err != nil {
			return unwritable(opts.CacheDir, err)
		}
	}
	return nil
}

// fetchInto fetches the tree into tmp/kubernetes and writes beside it
// the Go workspace, the metadata and the manifest.
func fetchInto(ctx context.Context, opts Options, backend, tmp string) error {
	m := meta{Format: metaFormat, Tag: opts.Tag, Backend: backend}
	dir := filepath.Join(tmp, treeSubdir)
	var err error
	switch backend {
	case backendGit:
		m.Commit, err = fetchGit(ctx, opts, dir)
	case backendGoproxy:
		m.Commit, err = fetchGoproxy(ctx, opts, dir)
	}
	if err != nil {
		if werr := cacheWriteError(opts, tmp, err); werr != nil {
			return werr
		}
		return err
	}
	staging, err := stagingModules(dir)
	if err != nil {
		return fmt.Errorf("%s tree of %s: %w: check --repo", backend, opts.Tag, err)
	}
	present, missing := presentStaging(dir, staging)
	m.Missing = missing
	if len(missing) > 0 && backend == backendGoproxy {
		m.Checked = opts.clock()
	}
	if err := writeWorkspace(dir, filepath.Join(tmp, workFileName), treeSubdir, present, missing); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(tmp, metaFileName), m.encode(), 0o644); err != nil {
		return unwritable(opts.CacheDir, err)
	}
	if err := writeManifest(dir, filepath.Join(tmp, manifestFileName)); err != nil {
		return unwritable(opts.CacheDir, err)
	}
	return nil
}

func (m meta) encode() []byte {
	b, _ := json.MarshalIndent(m, "", "\t") // strings, an int and a time: cannot fail
	return append(b, '\n')
}

// cacheWriteError returns err as ErrCacheUnwritable when it is the failure
// of a file operation inside dir (a full disk, a read-only file system,
// a quota), and nil otherwise.
func cacheWriteError(opts Options, dir string, err error) error {
	var pe *fs.PathError
	if errors.Is(err, ErrCacheUnwritable) || !errors.As(err, &pe) {
		return nil
	}
	if rel, rerr := filepath.Rel(dir, pe.Path); rerr != nil || !filepath.IsLocal(rel) {
		return nil
	}
	return unwritable(opts.CacheDir, err)
}

func unwritable(cacheDir string, err error) error {
	// err names the path that failed (a *PathError); the cache root is
	// what --cache-dir sets, so name it too.
	return fmt.Errorf("%w (%s): %v: use --cache-dir to choose another", ErrCacheUnwritable, cacheDir, err)
}

// removeAll removes a tree even where it holds read-only directories (a
// tree copied from the module cache would; ours are written writable, but
// a cache from elsewhere may not be).
func removeAll(path string) error { return safedir.RemoveAll(path) }
