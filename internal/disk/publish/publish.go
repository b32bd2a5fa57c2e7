// Package publish puts a kubewalk site into its output directory (package
// site's Options.Out, --out), out: Atomically, or InPlace for serve's
// builds over their own. The site is written to a temporary
// directory beside out, ".<out>.tmp-<random>", synced to disk, and swapped
// with out in one step (safedir.Exchange), so out is the old site or the
// new one at every instant, even when the build is killed (kill -9) at any
// point or the machine stops. The old site, now at the temporary name, is
// removed after.
//
// Builds that share out's parent directory take turns, under a lock on
// that directory (flock; no lock file, so nothing is left beside the
// site, and nothing in /tmp that another user could plant), for the
// checks, the making of the temporary directory and the swap; each holds
// a lock on its own temporary directory while it renders. So the next
// build can tell what a killed build left, ".<out>.tmp-*" that no one
// holds, and removes it.
//
// A build replaces only what a build wrote: out must be missing, empty, or
// a site whose marker file lists every file in it (the marker lists the
// files of the site it is in). A file someone added (notes beside the
// pages) is never deleted: publishing refuses, naming it. An out that is a
// symbolic link keeps being one: the site is swapped at its target.
package publish

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/kubewalk/kubewalk/internal/disk/safedir"
)

// ErrForeignFiles is returned when out holds a file the site there does
// not list: publishing would delete it.
var ErrForeignFiles = errors.New("output directory holds files kubewalk did not write")

// ErrNotASite is returned when out exists, is not empty and was not
// written by kubewalk: kubewalk never replaces a directory it did not make.
var ErrNotASite = errors.New("output directory exists and is not a kubewalk site")

// Marker is the name of the marker file at a site's root.
const Marker = ".kubewalk-site"

// MarkerHeader is the first line of the marker file. The site's files
// follow, one a line, sorted; a marker of this line alone (a site of an
// older kubewalk, or one being updated in place) claims every file.
const MarkerHeader = "kubewalk site\n"

// Atomically runs write on a temporary directory beside out and swaps it
// into place when write succeeds, with a marker listing every file it
// wrote (which write may have written already). out must be a site
// kubewalk wrote, or absent (ErrNotASite, ErrForeignFiles). T is what
// write reports of the site (site.Stats): the zero T with an error
// before the swap.
func Atomically[T any](out string, write func(dir string) (T, error)) (T, error) {
	var zero T
	if out == "" {
		return zero, errors.New("site: no output directory")
	}
	out, err := resolveOut(out)
	if err != nil {
		return zero, err
	}
	tmp, tmpLock, err := tempBeside(out)
	if err != nil {
		return zero, err
	}
	published := false
	defer func() {
		if !published {
			os.RemoveAll(tmp)
		}
		tmpLock.Unlock()
	}()
	st, err := write(tmp)
	if err != nil {
		return zero, err
	}
	if err := writeManifest(tmp); err != nil {
		return zero, err
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return zero, err
	}
	if err := safedir.SyncTree(tmp); err != nil {
		return zero, err
	}
	published, err = publish(tmp, out, tmpLock)
	return st, err
}

// tempBeside makes the directory to write a site for out in, beside
// out, and locks it. It refuses what is not ours before the work, not after it,
// and clears what killed builds left, all in one turn, so no other
// build's sweep can take the new directory for a leftover.
func tempBeside(out string) (tmp string, tmpLock *safedir.Lock, err error) {
	parent, base := filepath.Dir(out), filepath.Base(out)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return "", nil, err
	}
	err = inTurn(parent, func() error {
		if err := checkOut(out); err != nil {
			return err
		}
		if err := sweep(parent, base, out); err != nil {
			return err
		}
		var err error
		if tmp, err = os.MkdirTemp(parent, "."+base+".tmp-"); err != nil {
			return err
		}
		tmpLock, err = safedir.TryLockDir(tmp)
		return err
	})
	if err != nil {
		if tmp != "" {
			os.RemoveAll(tmp)
		}
		return "", nil, err
	}
	return tmp, tmpLock, nil
}

// publish swaps the site in tmp, synced, into out in the builds' turn,
// and removes the old site after. It reports whether out holds the new
// site, even with an error: tmp is then no longer ours to remove.
func publish(tmp, out string, tmpLock *safedir.Lock) (published bool, err error) {
	parent := filepath.Dir(out)
	var old string
	var oldLock *safedir.Lock
	err = inTurn(parent, func() error {
		// Checked again: out may have changed while the site was rendered.
		if err := checkOut(out); err != nil {
			return err
		}
		var err error
		old, oldLock, err = swap(tmp, out)
		if err != nil {
			return err
		}
		published = true
		// The new site is out now: not a leftover for a sweep to find.
		tmpLock.Unlock()
		return safedir.SyncDir(parent)
	})
	if !published {
		return false, err
	}
	if old != "" {
		// Outside the turn: the old site may be large, and it is locked
		// until removed, so no sweep touches it meanwhile. A failure
		// leaves it for the next build's sweep.
		safedir.RemoveAll(old)
		oldLock.Unlock()
	}
	return true, err
}

// resolveOut returns out, or the directory it links to: a link is kept,
// and its target updated.
func resolveOut(out string) (string, error) {
	out = filepath.Clean(out)
	fi, err := os.Lstat(out)
	if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		return out, nil
	}
	target, err := filepath.EvalSymlinks(out)
	if err != nil {
		return "", fmt.Errorf("%s is a symbolic link to a directory that is not there (%v): create it, or give another --out", out, err)
	}
	return target, nil
}

// turnWait bounds the wait for the lock of the output's parent: a turn
// lasts seconds (the checks, removing a killed build's leftovers, a
// rename), so a longer wait means a process stuck while holding it.
const turnWait = 2 * time.Minute

// inTurn runs f holding the lock of directory parent, which the builds
// into it take turns with.
func inTurn(parent string, f func() error) error {
	ctx, cancel := context.WithTimeout(context.Background(), turnWait)
	defer cancel()
	l, err := safedir.LockDir(ctx, parent)
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("lock %s: another process has held it for %s (a kubewalk build that is stuck?): stop it, or give another --out", parent, turnWait)
	}
	if err != nil {
		return fmt.Errorf("lock %s: %w", parent, err)
	}
	defer l.Unlock()
	return f()
}

// Exchange is safedir.Exchange. Tests (package site's, which publish
// whole sites) replace it with one that reports no support, to take the
// two renames of systems without an exchange (Linux here always has one).
var Exchange = safedir.Exchange

// swap puts dir in place at out and returns where the old site went
// (locked), or "" when there was none.
func swap(dir, out string) (old string, oldLock *safedir.Lock, err error) {
	if _, err := os.Lstat(out); errors.Is(err, fs.ErrNotExist) {
		return "", nil, os.Rename(dir, out)
	}
	// Locked before it moves: once at dir's name, it must not look like
	// a killed build's leftover to a sweep.
	oldLock, err = safedir.TryLockDir(out)
	if err != nil {
		return "", nil, err
	}
	err = Exchange(dir, out)
	if err == nil {
		return dir, oldLock, nil
	}
	if !errors.Is(err, errors.ErrUnsupported) {
		oldLock.Unlock()
		return "", nil, err
	}
	// No exchange here: two renames, the old site first aside under a
	// name the next build restores should this one die in between.
	aside := dir + ".old"
	if err := os.Rename(out, aside); err != nil {
		oldLock.Unlock()
		return "", nil, err
	}
	if err := os.Rename(dir, out); err != nil {
		os.Rename(aside, out)
		oldLock.Unlock()
		return "", nil, err
	}
	return aside, oldLock, nil
}

// Sweep is the first step of a build into out, alone, in the builds'
// turn: it removes what killed builds left beside out (sweep).
func Sweep(out string) error {
	parent := filepath.Dir(out)
	return inTurn(parent, func() error { return sweep(parent, filepath.Base(out), out) })
}

// sweep removes what killed builds into out left in parent: temporary
// directories no live build holds. An old site set aside by a build
// killed between its two renames (where there is no exchange) goes back
// to out when out is missing.
func sweep(parent, base, out string) error {
	if _, err := os.Lstat(out); errors.Is(err, fs.ErrNotExist) {
		asides, _ := filepath.Glob(filepath.Join(parent, "."+base+".tmp-*.old"))
		for _, a := range asides {
			l, err := safedir.TryLockDir(a)
			if err != nil {
				continue
			}
			err = os.Rename(a, out)
			l.Unlock()
			if err == nil {
				break
			}
		}
	}
	_, err := safedir.Sweep(parent, "."+base+".tmp-*")
	return err
}

// checkOut refuses an out that is a file, or a non-empty directory that
// is not a site a previous Build left, or holds files that site does not
// list.
func checkOut(out string) error {
	fi, err := os.Stat(out)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s: %w", out, ErrNotASite)
	}
	ents, err := os.ReadDir(out)
	if err != nil {
		return err
	}
	if len(ents) == 0 {
		return nil
	}
	marker, err := os.ReadFile(filepath.Join(out, Marker))
	if err != nil || !bytes.HasPrefix(marker, []byte(MarkerHeader)) {
		return fmt.Errorf("%s: %w (no %s in it)", out, ErrNotASite, Marker)
	}
	listed := map[string]bool{Marker: true}
	sc := bufio.NewScanner(bytes.NewReader(marker[len(MarkerHeader):]))
	for sc.Scan() {
		listed[sc.Text()] = true
	}
	if len(listed) == 1 {
		return nil // claims every file
	}
	dirs := map[string]bool{}
	for p := range listed {
		for d := path.Dir(p); d != "." && !dirs[d]; d = path.Dir(d) {
			dirs[d] = true
		}
	}
	var foreign []string
	err = filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == out {
			return err
		}
		rel, err := filepath.Rel(out, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if !dirs[rel] {
				foreign = append(foreign, rel+"/")
				return fs.SkipDir
			}
			return nil
		}
		if !listed[rel] || !d.Type().IsRegular() {
			foreign = append(foreign, rel)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if len(foreign) > 0 {
		more := ""
		if len(foreign) > 1 {
			more = fmt.Sprintf(" (and %d more)", len(foreign)-1)
		}
		return fmt.Errorf("%s: %w: %s%s; a build replaces the whole directory, so it stops rather than delete them: move them out of %s, or give another --out", out, ErrForeignFiles, foreign[0], more, out)
	}
	return nil
}

// writeManifest makes the marker of the site in dir list every file in
// dir: a multi-release site's root marker, or a marker that does not
// list what the build wrote (package site lists its pages in it). A new marker
// replaces the old by a rename, never in place: the Cache hard-links
// unchanged pages between builds, the marker included.
func writeManifest(dir string) error {
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err == nil && rel != Marker {
			files = append(files, filepath.ToSlash(rel))
		}
		return err
	})
	if err != nil {
		return err
	}
	slices.Sort(files)
	content := MarkerHeader + strings.Join(files, "\n") + "\n"
	if b, err := os.ReadFile(filepath.Join(dir, Marker)); err == nil && string(b) == content {
		return nil // as listPages wrote it: the file stays the same file
	}
	return writeMarker(dir, content)
}

func writeMarker(dir, content string) error {
	f, err := os.CreateTemp(dir, ".marker-*")
	if err != nil {
		return err
	}
	_, err = f.WriteString(content)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(f.Name(), filepath.Join(dir, Marker))
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// InPlace runs build, which updates the site in out where it stands. A
// failed update leaves a directory half old, half new, which nothing
// serves (site.Options.InPlace) and whose marker does not list the new
// files: it is removed, so the next build writes a whole site again
// rather than refuse the files as someone else's.
func InPlace[T any](out string, build func() (T, error)) (T, error) {
	st, err := build()
	if err != nil {
		safedir.RemoveAll(out)
		var zero T
		return zero, err
	}
	return st, writeManifest(out)
}
