package site

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"

	"github.com/kubewalk/kubewalk/internal/render/codehtml"
	"github.com/kubewalk/kubewalk/site/internal/linemap"
)

// A generated file the releases of a site regenerate wholesale — the
// CRI's api.pb.go, whose gogo-protobuf copy of v1.29–v1.33 shares a small
// part of its lines with the google.golang.org/protobuf one of v1.34 on —
// would make its shared source page mostly lines one group of releases
// has, in several parts and many times the newest release's own page,
// every reader of the file loading them all. So a
// release whose copy of a generated file shares less than half its
// lines with the newest copy's does not render it: its pages link to
// the file on GitHub at its tag, as they link to code outside the
// analysed packages, and the shared page holds the releases whose copy
// is close to the newest's. Generated code is machine output, read for
// a declaration's shape rather than line by line, which GitHub shows at
// the release.

// minSharedLines is the share of an older release's copy of a generated
// file that must be lines of the newest copy for it to be rendered.
const minSharedLines = 0.5

// unrenderRegenerated takes the generated files an older release
// regenerated wholesale (sharedLineShare below minSharedLines) out of
// that release's rendered files, before any page links to them. bs are
// the releases' builders, newest first.
func unrenderRegenerated(bs []*builder) error {
	newest := map[string][]string{} // a generated file's newest copy, by path
	for _, b := range bs {
		var drop []string
		for _, f := range b.files {
			if path.Ext(f) != ".go" {
				continue
			}
			ref, seen := newest[f]
			if seen && ref == nil {
				continue // not generated at its newest release
			}
			src, err := b.in.ReadFile(f)
			if errors.Is(err, fs.ErrNotExist) {
				continue // the page errs the same way, with its file named
			}
			if err != nil {
				return fmt.Errorf("%s: %s: %w", b.in.Tag, f, err)
			}
			if !seen {
				if codehtml.Generated(src) {
					newest[f] = linemap.TextLines(src)
				} else {
					newest[f] = nil
				}
				continue
			}
			if sharedLineShare(linemap.TextLines(src), ref) < minSharedLines {
				drop = append(drop, f)
			}
		}
		if len(drop) == 0 {
			continue
		}
		files := slices.DeleteFunc(slices.Clone(b.files), func(f string) bool { return slices.Contains(drop, f) })
		for _, f := range drop {
			delete(b.rendered, f) // the languages' one map
		}
		for _, lb := range langsOf(b) {
			lb.files = files
		}
	}
	return nil
}

// sharedLineShare is the share of lines a that are lines of b, each line
// of b matched once.
func sharedLineShare(a, b []string) float64 {
	if len(a) == 0 {
		return 1
	}
	left := map[string]int{}
	for _, l := range b {
		left[l]++
	}
	n := 0
	for _, l := range a {
		if left[l] > 0 {
			left[l]--
			n++
		}
	}
	return float64(n) / float64(len(a))
}

// A file whose source page would pass the page budget (maxCode) even as
// plain text, the lightest rendering sourceCode has — the gogo-generated
// CRI API of v1.29–v1.33 is one — is not rendered in a site
// of one release: like a file an older release regenerated, its links go
// to GitHub at the tag. (A site of several releases cuts such a page into
// parts instead: package srcmerge.) A page of its declarations alone would not
// do: facts and walkthroughs link any of its lines.

// Generated code is machine output, read for its declarations: a
// generated Go file whose page would pass maxGenerated even as plain text
// (the CRI API's api.pb.go of v1.34 and later, which one walkthrough
// cites for a type) is linked on GitHub at the tag like an oversized one,
// rather than weigh as much as a dozen pages of the code the site is for.
const maxGenerated = 256 << 10

// unrenderOversized takes the files whose page would pass maxCode (or,
// generated, maxGenerated) out of a one-release build's rendered files,
// before any page links to them.
func unrenderOversized(b *builder) error {
	var drop []string
	for _, f := range b.files {
		src, err := b.in.ReadFile(f)
		if errors.Is(err, fs.ErrNotExist) {
			continue // the page errs the same way, with its file named
		}
		if err != nil {
			return fmt.Errorf("%s: %w", f, err)
		}
		cov := b.sourceCoverage(f)
		if !plainFits(src, cov) || path.Ext(f) == ".go" && codehtml.Generated(src) && codeSize(codehtml.Plain(src))+cov.size() > maxGenerated {
			drop = append(drop, f)
		}
	}
	if len(drop) == 0 {
		return nil
	}
	files := slices.DeleteFunc(slices.Clone(b.files), func(f string) bool { return slices.Contains(drop, f) })
	for _, f := range drop {
		delete(b.rendered, f) // the languages' one map
	}
	for _, lb := range langsOf(b) {
		lb.files, lb.oversized = files, true
	}
	return nil
}

// plainFits reports whether src as plain text, with cov's marks, is
// within maxCode, as sourceCode measures it. Escaping makes a byte five
// at most, so a file under that bound is not rendered to know.
func plainFits(src []byte, cov *sourceCov) bool {
	n := bytes.Count(src, []byte("\n")) + 1
	if 5*len(src)+n*(lineMarkup+len(strconv.Itoa(n)))+cov.size() <= maxCode {
		return true
	}
	return codeSize(codehtml.Plain(src))+cov.size() <= maxCode
}
