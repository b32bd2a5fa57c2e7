package releases

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/kubewalk/kubewalk/analyzer/fact/factsfile"
	"github.com/kubewalk/kubewalk/site"
)

// Matrix is the build matrix of a site of several releases: its
// releases, newest first, by the languages each is written in — the
// dimensions of the site, as Hugo's are of a multi-dimensional site. A
// cell is one release in one language, one subtree of the site
// (<tag>/<lang>/, or <tag>/ in a site of one language). What the cells of
// a row or a column share is written once by this package (see the
// package comment).
type Matrix struct {
	// Tags are the releases, newest first (semver: factsfile.NewerFirst).
	Tags []string
	// Langs are the languages of every release, in the order of the
	// newest release's Input.Langs (its first writes what the languages
	// share); one language, Input.Lang's, in a site of one language.
	Langs []string
}

// Cell is one release in one language.
type Cell struct {
	Tag, Lang string
}

// NewMatrix returns the matrix of rels, and rels ordered as its rows,
// newest first. It rejects a release without a tag, a tag that cannot
// name a directory of the site, a release given twice, and releases whose
// languages differ: every page's language switch and every shared page
// assumes one set of languages.
func NewMatrix(rels []site.Release) (Matrix, []site.Release, error) {
	if len(rels) == 0 {
		return Matrix{}, nil, errors.New("site: no releases")
	}
	rels = slices.Clone(rels)
	sort.SliceStable(rels, func(i, j int) bool { return factsfile.NewerFirst(rels[i].Tag, rels[j].Tag) })
	var m Matrix
	seen := map[string]bool{}
	for _, r := range rels {
		if err := checkTag(r.Tag); err != nil {
			return Matrix{}, nil, err
		}
		if seen[r.Tag] {
			return Matrix{}, nil, fmt.Errorf("site: release %s given twice", r.Tag)
		}
		seen[r.Tag] = true
		m.Tags = append(m.Tags, r.Tag)
	}
	m.Langs = langsOf(rels[0].Input)
	for _, r := range rels[1:] {
		if l := langsOf(r.Input); !slices.Equal(l, m.Langs) {
			return Matrix{}, nil, fmt.Errorf("site: release %s is written in %s, %s in %s", r.Tag, strings.Join(l, ", "), rels[0].Tag, strings.Join(m.Langs, ", "))
		}
	}
	return m, rels, nil
}

// langsOf are the languages in declares: Input.Langs, or Input.Lang
// alone ("" for the default, English).
func langsOf(in site.Input) []string {
	if len(in.Langs) > 0 {
		return in.Langs
	}
	return []string{in.Lang}
}

// Cells are every release in every language, row by row: the newest
// release's languages first.
func (m Matrix) Cells() []Cell {
	var out []Cell
	for _, t := range m.Tags {
		for _, l := range m.Langs {
			out = append(out, Cell{t, l})
		}
	}
	return out
}

// Bilingual reports whether the site has more than one language, each
// in its own directory.
func (m Matrix) Bilingual() bool { return len(m.Langs) > 1 }

// Dir is the site path of cell c's subtree: "v1.36.3/ko/", or
// "v1.36.3/" in a site of one language.
func (m Matrix) Dir(c Cell) string {
	if m.Bilingual() {
		return site.ReleaseDir(c.Tag) + c.Lang + "/"
	}
	return site.ReleaseDir(c.Tag)
}

// checkTag rejects a tag that cannot be a directory name of the site.
func checkTag(tag string) error {
	if tag == "" || tag == "." || tag == ".." || strings.HasPrefix(tag, ".") || strings.ContainsAny(tag, "/\\\x00#?%") ||
		tag == "assets" || strings.HasSuffix(tag, ".html") {
		return fmt.Errorf("site: release tag %q cannot name a directory of the site", tag)
	}
	return nil
}
