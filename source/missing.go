package source

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/kubewalk/kubewalk/internal/disk/atomicfile"
	"github.com/kubewalk/kubewalk/internal/disk/safedir"
)

// A tree from the module proxy lacks the staging modules the proxy did not
// serve when it was fetched (Tree.Missing), and a cached tree is used for
// good: the packages importing them would go unchecked in every build.
// But what a proxy serves changes. So a cached goproxy tree that lacks
// modules asks the proxy about them again, at most once per
// missingCheckInterval (tree.json's "checked"), and is fetched again, and
// swapped in whole, when any of them is served.

const (
	// missingCheckInterval is how long a cached tree's missing staging
	// modules are not asked about again.
	missingCheckInterval = 24 * time.Hour
	// missingCheckTimeout bounds the asking: an offline machine fails at
	// once (no DNS), a network that drops packets takes this long, once
	// a day.
	missingCheckTimeout = 10 * time.Second
)

// checkDue reports whether the missing staging modules of the tree m
// describes are to be asked about: a goproxy tree lacking some, last
// asked missingCheckInterval ago or more, or never (a tree.json of an
// older kubewalk), or at a time still to come (a clock set back).
func checkDue(opts Options, m meta) bool {
	if m.Backend != backendGoproxy || len(m.Missing) == 0 {
		return false
	}
	now := opts.clock()
	return m.Checked.IsZero() || now.Sub(m.Checked) >= missingCheckInterval || now.Before(m.Checked)
}

// checkMissing asks the module proxy whether it serves any of the staging
// modules the cached goproxy tree at final (t) lacks now, and when it
// does, fetches the tag again into a temporary directory and puts that
// tree in place of the cached one (fetchTemp and place, as a fetch does:
// the tree at final is the old one or the new one at every instant), if
// it lacks fewer modules. The check's time goes into tree.json whatever
// the answer, so the next one waits for missingCheckInterval.
//
// It never fails the fetch: when the proxy cannot be asked (offline, a
// proxy error, no answer within the time limit) or the tree cannot be
// fetched again, it warns once and returns the cached tree. It holds the
// tree's lock, taken without waiting: a kubewalk that holds it is
// checking or fetching this tree already, and this one uses the tree as
// it is. The only error is a completed tree that does not load.
func checkMissing(ctx context.Context, opts Options, final string, t *Tree) (*Tree, error) {
	lock, err := safedir.TryLockFile(final + ".lock")
	if err != nil {
		opts.Logger.Debug("missing staging modules not checked: the tree's lock is held or cannot be taken", "tag", opts.Tag, "err", err)
		return t, nil
	}
	defer lock.Unlock()
	// Read again under the lock: another kubewalk may have checked, or
	// completed the tree, in between.
	cur, m, err := loadMeta(final, backendGoproxy, opts.Tag)
	if err != nil {
		return t, nil
	}
	if !checkDue(opts, m) {
		return cur, nil
	}
	start := time.Now()
	served, err := askProxy(ctx, opts, m.Missing)
	if ctx.Err() != nil {
		return cur, nil // not a check: the caller sees ctx
	}
	if errors.Is(err, errProxyDown) {
		opts.Logger.Debug("missing staging modules not asked about: the module proxy could not be asked by this kubewalk a moment ago", "tag", opts.Tag)
		recordCheck(opts, final, m)
		return cur, nil
	}
	if err != nil {
		opts.Logger.Warn("could not ask the module proxy about the staging modules the cached tree lacks; using it as it is, asking again in a day", "tag", opts.Tag, "err", err)
		recordCheck(opts, final, m)
		return cur, nil
	}
	opts.Logger.Debug("asked the module proxy about the missing staging modules", "tag", opts.Tag, "served", strings.Join(served, " "), "elapsed", time.Since(start).Round(time.Millisecond))
	if len(served) == 0 {
		recordCheck(opts, final, m)
		return cur, nil
	}
	fmt.Fprintf(opts.Progress, "the module proxy serves %s at %s now: fetching %s again to complete the tree\n", strings.Join(served, " "), stagingVersion(opts.Tag), opts.Tag)
	tmp, err := fetchTemp(ctx, opts, backendGoproxy, final)
	if err != nil {
		if ctx.Err() == nil {
			opts.Logger.Warn("could not fetch the tree again to complete it; using the cached tree, trying again in a day", "tag", opts.Tag, "err", err)
			recordCheck(opts, final, m)
		}
		return cur, nil
	}
	_, nm, err := loadMeta(tmp, backendGoproxy, opts.Tag)
	var added []string
	for _, mod := range m.Missing {
		if !slices.Contains(nm.Missing, mod) {
			added = append(added, mod)
		}
	}
	// A tree that lacks a module the cached one has, or lacks as many,
	// does not replace it.
	if err != nil || len(added) == 0 || len(nm.Missing)+len(added) != len(m.Missing) {
		opts.Logger.Debug("the tree fetched again is no more complete; keeping the cached one", "tag", opts.Tag, "missing", strings.Join(nm.Missing, " "), "err", err)
		removeAll(tmp)
		recordCheck(opts, final, m)
		return cur, nil
	}
	if err := place(opts, tmp, final); err != nil {
		opts.Logger.Warn("could not complete the cached tree", "tag", opts.Tag, "err", err)
		return loadTree(final, backendGoproxy, opts.Tag)
	}
	opts.Logger.Info("completed the cached tree with staging modules the module proxy serves now", "tag", opts.Tag, "added", strings.Join(added, " "), "dir", final)
	return loadTree(final, backendGoproxy, opts.Tag)
}

// proxies holds what this process learnt of the module proxy, per go
// command and environment (which say which proxy is asked), for the
// checks of the several trees a build fetches (kubewalk build fetches
// four releases at once): until the proxy has answered once, the checks
// take turns, so that when it cannot be asked, the first finds out,
// warns, and the others skip theirs, neither waiting for the time limit
// again nor warning again, for missingCheckInterval; once it has
// answered, they run side by side.
var proxies sync.Map // string → *proxyState

type proxyState struct {
	mu       sync.Mutex
	answered bool
	down     time.Time // when a check found it could not be asked; zero: not found so
}

// errProxyDown is askProxy's error when an earlier check of this process
// found the proxy could not be asked, and warned.
var errProxyDown = errors.New("module proxy could not be asked a moment ago")

// askProxy is servedNow, in turn with the other checks of this process
// that ask the same proxy until it has answered once.
func askProxy(ctx context.Context, opts Options, modules []string) ([]string, error) {
	v, _ := proxies.LoadOrStore(opts.GoCommand+"\x00"+strings.Join(opts.Env, "\x00"), new(proxyState))
	st := v.(*proxyState)
	st.mu.Lock()
	if st.answered {
		st.mu.Unlock()
		return servedNow(ctx, opts, modules)
	}
	defer st.mu.Unlock()
	if !st.down.IsZero() && opts.clock().Sub(st.down) < missingCheckInterval {
		return nil, errProxyDown
	}
	served, err := servedNow(ctx, opts, modules)
	switch {
	case err == nil:
		st.answered, st.down = true, time.Time{}
	case ctx.Err() == nil:
		st.down = opts.clock()
	}
	return served, err
}

// recordCheck writes m, checked now, as the tree.json at final, replacing
// it in one step. A failure (the cache became read-only) only means the
// next fetch asks again.
func recordCheck(opts Options, final string, m meta) {
	m.Checked = opts.clock()
	if err := atomicfile.WriteFile(filepath.Join(final, metaFileName), m.encode(), 0o644); err != nil {
		opts.Logger.Debug("the check of the missing staging modules not recorded", "tag", opts.Tag, "err", err)
	}
}

// servedNow returns those of modules (k8s.io/<name>) the module proxy
// serves now at the tag's staging version, in order: asked and judged as
// the fetch asks and judges (`go mod download -json`, notServed), so the
// go command's environment applies as it does to the fetch (GOPROXY and
// its fallbacks, GONOPROXY, credentials, the checksum database), and a
// module counts as served only when its zip is: a proxy may serve a
// version's .info and .mod and refuse its zip (403 "not available"). The
// go command downloads the modules concurrently; one it does
// download is in the module cache for the fetch that follows. Any other
// answer, or none within the time limit, is an error.
func servedNow(ctx context.Context, opts Options, modules []string) ([]string, error) {
	limit := cmp.Or(opts.checkTimeout, missingCheckTimeout)
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	// Outside any module, as Releases: the cache directory may be inside
	// one.
	dir, err := os.MkdirTemp("", "kubewalk-check-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	sv := stagingVersion(opts.Tag)
	var args []string
	for _, mod := range modules {
		args = append(args, mod+"@"+sv)
	}
	res, err := goModDownload(ctx, opts, dir, args...)
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return nil, fmt.Errorf("module proxy: no answer within %s", limit)
	}
	if err != nil {
		return nil, err
	}
	var served []string
	for i, d := range res {
		switch {
		case d.Error == "":
			served = append(served, modules[i])
		case !notServed(d.Error):
			return nil, fmt.Errorf("module proxy: %s", moduleLine(args[i], d.Error))
		}
	}
	return served, nil
}
