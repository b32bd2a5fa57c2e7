package source

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
)

// fetchDir describes an existing checkout at opts.Source after checking it
// is Kubernetes and that HEAD is the tag's commit. It is never copied or
// cached: the checkout is the tree. Uncommitted changes are not looked for
// (a status walk of 25k files costs seconds); the reader who edits their
// checkout gets what they edited.
func fetchDir(opts Options) (*Tree, error) {
	dir, err := filepath.Abs(opts.Source)
	if err != nil {
		return nil, err
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("--source %s: %w: it is neither auto, git, goproxy nor a directory", opts.Source, ErrNotKubernetes)
	}
	if _, err := readGoMod(dir); err != nil {
		return nil, fmt.Errorf("%s: %w (no go.mod declaring module %s): pass the root of a kubernetes/kubernetes clone, or --source goproxy", dir, ErrNotKubernetes, kubernetesModule)
	}
	repo, err := git.PlainOpen(dir)
	if err != nil {
		return nil, fmt.Errorf("%s: %w: it is not a git checkout, so its tag cannot be checked (%v): use a clone, or --source goproxy", dir, ErrNotAtTag, err)
	}
	want, err := tagCommit(repo, opts.Tag)
	if errors.Is(err, git.ErrTagNotFound) || errors.Is(err, plumbing.ErrReferenceNotFound) {
		var tags []string
		if iter, err := repo.Tags(); err == nil {
			iter.ForEach(func(r *plumbing.Reference) error {
				tags = append(tags, r.Name().Short())
				return nil
			})
		}
		return nil, tagNotFound(opts.Tag, "checkout "+dir, tags, fmt.Sprintf("run git -C %s fetch origin tag %s", dir, opts.Tag))
	}
	if err != nil {
		return nil, fmt.Errorf("%s: resolve tag %s: %w", dir, opts.Tag, err)
	}
	head, err := repo.Head()
	if err != nil {
		return nil, fmt.Errorf("%s: %w: HEAD: %v", dir, ErrNotAtTag, err)
	}
	if head.Hash() != want {
		at := "detached"
		if head.Name().IsBranch() {
			at = "branch " + head.Name().Short()
		}
		return nil, fmt.Errorf("%s: %w: HEAD is %s (%s), %s is %s: run git -C %s checkout %s", dir, ErrNotAtTag, head.Hash().String()[:12], at, opts.Tag, want.String()[:12], dir, opts.Tag)
	}
	staging, err := stagingModules(dir)
	if err != nil {
		return nil, err
	}
	_, missing := presentStaging(dir, staging)
	return &Tree{
		Dir:     dir,
		Tag:     opts.Tag,
		Commit:  want.String(),
		Backend: backendDir,
		Missing: missing,
		Env:     checkoutEnv(dir),
	}, nil
}

// tagCommit resolves a tag to its commit, through an annotated tag object
// if there is one.
func tagCommit(repo *git.Repository, tag string) (plumbing.Hash, error) {
	ref, err := repo.Tag(tag)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	if obj, err := repo.TagObject(ref.Hash()); err == nil {
		c, err := obj.Commit()
		if err != nil {
			return plumbing.ZeroHash, err
		}
		return c.Hash, nil
	}
	return ref.Hash(), nil
}

// checkoutEnv is Tree.Env for a checkout: its own go.work (GOWORK is named
// so that a GOWORK in the caller's environment does not win), and
// -mod=readonly unless the vendor directory holds code, since a go.work
// with a vendor directory makes the go command default to -mod=vendor. A
// real checkout vendors its dependencies, which loads offline.
func checkoutEnv(dir string) []string {
	var env []string
	if _, err := os.Stat(filepath.Join(dir, "go.work")); err == nil {
		env = append(env, "GOWORK="+filepath.Join(dir, "go.work"))
	} else {
		env = append(env, "GOWORK=off")
	}
	if _, err := os.Stat(filepath.Join(dir, "vendor", "modules.txt")); err == nil && !vendorHasCode(dir) {
		env = append(env, "GOFLAGS=-mod=readonly")
	}
	return env
}

func vendorHasCode(dir string) bool {
	ents, err := os.ReadDir(filepath.Join(dir, "vendor"))
	if err != nil {
		return false
	}
	for _, e := range ents {
		if e.IsDir() {
			return true
		}
	}
	return false
}
