package source

import "errors"

// Sentinel errors. Fetch wraps them with what was asked for and what to do,
// in one line; callers match them with errors.Is.
var (
	// ErrInvalidTag: the tag is not a Kubernetes release tag ("v1.36.3",
	// "v1.37.0-alpha.1").
	ErrInvalidTag = errors.New("invalid release tag")
	// ErrTagNotFound: the remote, the module proxy or the checkout has no
	// such tag. The message names the nearest releases that exist.
	ErrTagNotFound = errors.New("tag not found")
	// ErrUnreachable: the git remote or the module proxy cannot be reached.
	ErrUnreachable = errors.New("source unreachable")
	// ErrNotKubernetes: a directory given as the source is not a Kubernetes
	// checkout (no go.mod declaring module k8s.io/kubernetes).
	ErrNotKubernetes = errors.New("not a Kubernetes checkout")
	// ErrNotAtTag: a checkout given as the source is not at the tag's commit
	// (or is not a git checkout, so that cannot be checked).
	ErrNotAtTag = errors.New("checkout is not at the tag")
	// ErrCacheUnwritable: the cache directory cannot be created or written.
	ErrCacheUnwritable = errors.New("cache directory not writable")
)
