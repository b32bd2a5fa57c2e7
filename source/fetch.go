package source

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"time"
)

// DefaultTag is the release fetched when Options.Tag is empty: the newest
// release the Go module proxy serves where kubewalk is developed. It is the
// one place the default is written down.
const DefaultTag = "v1.37.2"

// DefaultRepo is the git remote the git backend clones from by default.
const DefaultRepo = "https://github.com/kubernetes/kubernetes.git"

// Options say which tree to fetch, from where, and where to keep it.
type Options struct {
	// Tag is the release tag, "v1.36.3". Empty means DefaultTag.
	Tag string
	// Source is "auto" (the default when empty), "git", "goproxy", or the
	// path of an existing checkout.
	Source string
	// Repo is the git remote: a URL, a local path or a file:// URL.
	// Empty means DefaultRepo.
	Repo string
	// CacheDir is the kubewalk cache root; trees live under
	// CacheDir/trees. Empty means os.UserCacheDir()/kubewalk.
	CacheDir string
	// Progress receives human-readable progress (go-git's sideband
	// messages, download and unpack counts). Nil is silent.
	Progress io.Writer
	// Logger receives warnings (a fallback to the proxy, staging modules
	// the proxy does not serve) and debug detail. Nil discards.
	Logger *slog.Logger
	// GoCommand is the go command the goproxy backend runs. Empty means
	// "go" from PATH.
	GoCommand string
	// Env is appended to the process environment of the go command the
	// goproxy backend runs (GOPROXY, GOMODCACHE, GOSUMDB, ...). Tests use
	// it to point at a file:// proxy.
	Env []string
	// StallTimeout ends a fetch whose git remote or module proxy sends
	// nothing for this long, with ErrStalled. 0 means
	// DefaultStallTimeout; negative means no limit.
	StallTimeout time.Duration

	// now is the clock the check of a cached tree's missing staging
	// modules goes by, and checkTimeout bounds the check (missing.go):
	// tests set them. Nil and zero mean time.Now and missingCheckTimeout.
	now          func() time.Time
	checkTimeout time.Duration
}

func (o Options) clock() time.Time {
	if o.now != nil {
		return o.now()
	}
	return time.Now()
}

func (o Options) withDefaults() (Options, error) {
	if o.Tag == "" {
		o.Tag = DefaultTag
	}
	if o.Source == "" {
		o.Source = "auto"
	}
	if o.Repo == "" {
		o.Repo = DefaultRepo
	}
	if o.CacheDir == "" {
		dir, err := os.UserCacheDir()
		if err != nil {
			return o, fmt.Errorf("%w: %v: use --cache-dir", ErrCacheUnwritable, err)
		}
		o.CacheDir = filepath.Join(dir, "kubewalk")
	}
	// Tree.Dir and the go.work path in Tree.Env are read by the go
	// command, which runs in other directories and wants GOWORK
	// absolute: a relative --cache-dir is taken from the working
	// directory once, here.
	abs, err := filepath.Abs(o.CacheDir)
	if err != nil {
		return o, fmt.Errorf("%w: %v: use --cache-dir with an absolute path", ErrCacheUnwritable, err)
	}
	o.CacheDir = abs
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Progress == nil {
		o.Progress = io.Discard
	}
	if o.GoCommand == "" {
		o.GoCommand = "go"
	}
	if o.StallTimeout == 0 {
		o.StallTimeout = DefaultStallTimeout
	}
	return o, nil
}

// Backend names, as they appear in Tree.Backend and the cache layout.
const (
	backendGit     = "git"
	backendGoproxy = "goproxy"
	backendDir     = "dir"
)

// Fetch puts the tree of opts.Tag on disk, or finds it in the cache, and
// describes it. Errors wrap the package's sentinel errors and read as one
// line that says what to do.
func Fetch(ctx context.Context, opts Options) (*Tree, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	if err := checkTag(opts.Tag); err != nil {
		return nil, err
	}
	start := time.Now()
	var t *Tree
	switch opts.Source {
	case backendGit, backendGoproxy:
		t, err = fetchCached(ctx, opts, opts.Source)
	case "auto":
		t, err = fetchAuto(ctx, opts)
	default:
		t, err = fetchDir(opts)
	}
	if err != nil {
		return nil, err
	}
	opts.Logger.Debug("tree ready", "tag", t.Tag, "backend", t.Backend, "dir", t.Dir, "elapsed", time.Since(start).Round(time.Millisecond))
	return t, nil
}

// fetchAuto prefers a cached tree of either backend (no network work but
// checkMissing's, at most once a day), then git, then the module proxy
// when the git remote cannot be reached.
// A tag the remote does not have is an error, not a reason to fall back:
// the proxy would not have it either, and the reader should know.
func fetchAuto(ctx context.Context, opts Options) (*Tree, error) {
	for _, b := range []string{backendGit, backendGoproxy} {
		if t, err := loadCached(ctx, opts, b); err == nil {
			return t, nil
		}
	}
	t, err := fetchCached(ctx, opts, backendGit)
	if errors.Is(err, ErrUnreachable) {
		// The cause (a DNS or connection error) is detail: the reader
		// needs to know only that the proxy is used instead.
		opts.Logger.Debug("git remote unreachable", "repo", opts.Repo, "err", err)
		if u, perr := url.Parse(opts.Repo); perr == nil && u.Hostname() == "github.com" {
			opts.Logger.Warn("GitHub unreachable, using the Go module proxy")
		} else {
			opts.Logger.Warn("git remote unreachable, using the Go module proxy", "repo", opts.Repo)
		}
		return fetchCached(ctx, opts, backendGoproxy)
	}
	return t, err
}
