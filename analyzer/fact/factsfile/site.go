package factsfile

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"golang.org/x/mod/semver"

	"github.com/kubewalk/kubewalk/analyzer/fact"
)

// ReadSite reads the facts of release tag of the site built into dir: in
// a site of several releases, <dir>/<tag>/facts.json.zst, which for every
// release but the newest is read with the newest's (ReadDict); in a site
// of one release, <dir>/facts.json.zst, whose facts must be tag's. An
// empty tag is the site's newest release, or its only one. The newest
// release is the one the site's builder put first: of the site's
// directories that hold a facts.json.zst, the newest tag by semantic
// version (a tag that is not one, a branch, counts as newer).
func ReadSite(dir, tag string) (*fact.Facts, error) {
	if _, err := os.Stat(filepath.Join(dir, Name)); err == nil {
		f, err := readFile(filepath.Join(dir, Name), nil)
		if err == nil && tag != "" && f.Tag != tag {
			return nil, fmt.Errorf("read facts: %s is a site of %s, not %s", dir, f.Tag, tag)
		}
		return f, err
	}
	tags, err := releaseTags(dir)
	if err != nil {
		return nil, err
	}
	if len(tags) == 0 {
		return nil, fmt.Errorf("read facts: no %s in %s or its release directories", Name, dir)
	}
	newest := tags[0]
	if tag == "" {
		tag = newest
	}
	if !slices.Contains(tags, tag) {
		return nil, fmt.Errorf("read facts: no release %s in %s (it has %s)", tag, dir, strings.Join(tags, ", "))
	}
	if tag == newest {
		return readFile(filepath.Join(dir, tag, Name), nil)
	}
	data, err := os.ReadFile(filepath.Join(dir, newest, Name))
	if err != nil {
		return nil, fmt.Errorf("read facts: %w", err)
	}
	ref, err := Content(data)
	if err != nil {
		return nil, fmt.Errorf("read facts: %s's %s: %w", newest, Name, err)
	}
	return readFile(filepath.Join(dir, tag, Name), ref)
}

// releaseTags lists the releases of the multi-release site in dir, newest
// first: its directories that hold a facts.json.zst (a site's other
// directories, src/, assets/ and a language's, hold none).
func releaseTags(dir string) ([]string, error) {
	es, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("read facts: %w", err)
	}
	var tags []string
	for _, e := range es {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			if st, err := os.Stat(filepath.Join(dir, e.Name(), Name)); err == nil && st.Mode().IsRegular() {
				tags = append(tags, e.Name())
			}
		}
	}
	sort.Slice(tags, func(i, j int) bool { return NewerFirst(tags[i], tags[j]) })
	return tags, nil
}

// NewerFirst sorts tags by semantic version, newest first; tags that are
// not semantic versions (a branch name) count as newer, by name. It is
// the order in which a site lists its releases, which ReadSite relies on
// to find the newest, so the site's builder sorts with it too.
func NewerFirst(a, b string) bool {
	va, vb := semver.IsValid(a), semver.IsValid(b)
	if va != vb {
		return vb
	}
	if va {
		if c := semver.Compare(a, b); c != 0 {
			return c > 0
		}
	}
	return a < b
}

func readFile(name string, ref []byte) (*fact.Facts, error) {
	r, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("read facts: %w", err)
	}
	defer r.Close()
	f, err := read(r, ref)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return f, nil
}
