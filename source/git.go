package source

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/transport"
	"github.com/go-git/go-git/v5/storage/memory"
)

// dialTimeout bounds the reachability check of a git remote. It is short
// because `auto` should fall back to the module proxy quickly on a machine
// that cannot reach the remote; a remote that answers a TCP dial in five
// seconds is slow but usable.
var dialTimeout = 5 * time.Second

// fetchGit clones refs/tags/<tag> at depth 1 into dir and returns the
// commit hash the tag points at. The .git directory is removed afterwards:
// the tree is a snapshot (tree.json keeps the commit), and without it the
// git and goproxy trees hold the same kind of files.
func fetchGit(ctx context.Context, opts Options, dir string) (string, error) {
	repo := repoURL(opts.Repo)
	if err := reachable(ctx, repo); err != nil {
		return "", fmt.Errorf("git remote %s: %w: %v: check the network or --repo, or use --source goproxy", opts.Repo, ErrUnreachable, err)
	}
	fmt.Fprintf(opts.Progress, "cloning %s at %s (depth 1)\n", opts.Repo, opts.Tag)
	ctx, stall := gitStall(ctx, opts.StallTimeout)
	r, err := cloneTag(ctx, repo, opts.Tag, dir, opts.Progress)
	if err != nil {
		if serr := stall.err("git remote "+opts.Repo, "check the network or --repo, or use --source goproxy"); serr != nil {
			return "", serr
		}
		if ctx.Err() != nil {
			return "", fmt.Errorf("clone %s at %s: %w", opts.Repo, opts.Tag, ctx.Err())
		}
		// Before the network checks: a syscall.Errno such as ENOSPC is a
		// net.Error too, and a full disk is no reason to blame the remote.
		if werr := cacheWriteError(opts, dir, err); werr != nil {
			return "", werr
		}
		if errors.Is(err, git.NoMatchingRefSpecError{}) || errors.Is(err, plumbing.ErrReferenceNotFound) {
			tags, lerr := remoteTags(ctx, repo)
			if lerr != nil {
				return "", fmt.Errorf("git remote %s: %w: %s (listing its tags failed: %v)", opts.Repo, ErrTagNotFound, opts.Tag, lerr)
			}
			return "", tagNotFound(opts.Tag, "git remote "+opts.Repo, tags, "")
		}
		if errors.Is(err, transport.ErrRepositoryNotFound) || isNetError(err) {
			return "", fmt.Errorf("git remote %s: %w: %v: check --repo, or use --source goproxy", opts.Repo, ErrUnreachable, err)
		}
		return "", fmt.Errorf("clone %s at %s: %w", opts.Repo, opts.Tag, err)
	}
	head, err := r.Head()
	if err != nil {
		return "", fmt.Errorf("clone %s at %s: %w", opts.Repo, opts.Tag, err)
	}
	// go-git checks out an annotated tag's commit, so HEAD is the commit
	// (not the tag object) in both cases.
	commit := head.Hash().String()
	if err := os.RemoveAll(filepath.Join(dir, ".git")); err != nil {
		return "", err
	}
	return commit, nil
}

// cloneTag is the clone itself: refs/tags/<tag> only, depth 1, no other
// tags, checked out by checkoutHead rather than go-git (NoCheckout). The
// benchmarks measure this function against git clone.
func cloneTag(ctx context.Context, repo, tag, dir string, progress io.Writer) (*git.Repository, error) {
	if progress == io.Discard {
		progress = nil // go-git then asks the server for no progress at all
	}
	r, err := git.PlainCloneContext(ctx, dir, false, &git.CloneOptions{
		URL:           repo,
		ReferenceName: plumbing.NewTagReferenceName(tag),
		SingleBranch:  true,
		Depth:         1,
		Tags:          git.NoTags,
		Progress:      progress,
		NoCheckout:    true,
	})
	if err != nil {
		return nil, err
	}
	if err := checkoutHead(ctx, r, dir); err != nil {
		return nil, fmt.Errorf("checkout: %w", err)
	}
	return r, nil
}

// repoURL makes a relative local path absolute (go-git's file transport
// resolves it against the process directory at an unpredictable moment).
func repoURL(repo string) string {
	if strings.Contains(repo, "://") {
		return repo
	}
	if _, err := os.Stat(repo); err == nil {
		if abs, err := filepath.Abs(repo); err == nil {
			return abs
		}
	}
	return repo
}

// reachable checks, within dialTimeout, that the remote can be talked to:
// a local repository exists, or a TCP connection to the host (or to the
// HTTP proxy the environment names for it) opens. It exists so `auto`
// falls back quickly instead of waiting on go-git's own timeouts.
func reachable(ctx context.Context, repo string) error {
	ep, err := transport.NewEndpoint(repo)
	if err != nil {
		return err
	}
	if ep.Protocol == "file" {
		_, err := os.Stat(ep.Path)
		return err
	}
	host, port := ep.Host, ep.Port
	if port == 0 {
		port = map[string]int{"http": 80, "https": 443, "git": 9418, "ssh": 22}[ep.Protocol]
	}
	if ep.Protocol == "http" || ep.Protocol == "https" {
		u := &url.URL{Scheme: ep.Protocol, Host: net.JoinHostPort(host, strconv.Itoa(port))}
		if p, err := http.ProxyFromEnvironment(&http.Request{URL: u}); err == nil && p != nil {
			host, port = p.Hostname(), 80
			if p.Port() != "" {
				port, _ = strconv.Atoi(p.Port())
			} else if p.Scheme == "https" {
				port = 443
			}
		}
	}
	ctx, cancel := context.WithTimeout(ctx, dialTimeout)
	defer cancel()
	var d net.Dialer
	c, err := d.DialContext(ctx, "tcp", net.JoinHostPort(host, strconv.Itoa(port)))
	if err != nil {
		return err
	}
	return c.Close()
}

// remoteTags lists the tag names of a remote.
func remoteTags(ctx context.Context, repo string) ([]string, error) {
	rem := git.NewRemote(memory.NewStorage(), &config.RemoteConfig{Name: "origin", URLs: []string{repo}})
	refs, err := rem.ListContext(ctx, &git.ListOptions{})
	if err != nil {
		return nil, err
	}
	var tags []string
	for _, r := range refs {
		if r.Name().IsTag() {
			tags = append(tags, r.Name().Short())
		}
	}
	return tags, nil
}

func isNetError(err error) bool {
	var ne net.Error
	var oe *net.OpError
	var de *net.DNSError
	return errors.As(err, &ne) || errors.As(err, &oe) || errors.As(err, &de)
}
