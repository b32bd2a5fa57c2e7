package source

// Tree is a Kubernetes source tree for one release tag, on disk, laid out as
// the repository is (staging modules at staging/src/k8s.io/<name>) whichever
// backend produced it.
type Tree struct {
	// Dir is the absolute path of the tree's root.
	Dir string `json:"dir"`
	// Tag is the release tag, "v1.36.3".
	Tag string `json:"tag"`
	// Commit is the commit hash the tag points at, "" when unknown (the
	// module proxy's .info carries it for some releases only).
	Commit string `json:"commit,omitempty"`
	// Backend is "git", "goproxy" or "dir".
	Backend string `json:"backend"`
	// Missing lists staging modules named by the replace list of the tree's
	// go.mod that the backend could not provide (the proxy does not serve
	// every one at every release); their directories are absent. A later
	// fetch of a cached tree may complete it once the proxy serves them
	// (see the package doc), and the list shrinks.
	Missing []string `json:"missing,omitempty"`
	// Env is what the go command needs, appended to the process
	// environment, to load packages from this tree: GOWORK naming the
	// workspace file kubewalk wrote beside the tree (git and goproxy) or
	// the checkout's own go.work (dir), and GOFLAGS=-mod=readonly where the
	// vendor directory holds no code (always for git and goproxy, so both
	// load alike). It replaces any GOFLAGS of the environment. The tree
	// itself is never modified.
	Env []string `json:"env,omitempty"`
}

// Repository is the upstream repository permalinks point into.
const Repository = "https://github.com/kubernetes/kubernetes"

// Permalink returns the GitHub URL of lines from..to of path at the tree's
// tag (tags are immutable upstream, so the tag alone is a permalink). A zero
// from links the whole file; to <= from links a single line.
func (t *Tree) Permalink(path string, from, to int) string {
	return Permalink(t.Tag, path, from, to)
}
