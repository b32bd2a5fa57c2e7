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
)

// unrender takes the files drop out of b's release's rendered files
// (the regenerated ones, srcmerge.Regenerated; the oversized ones,
// unrenderOversized), before any page links to them.
func (b *builder) unrender(drop []string) {
	files := slices.DeleteFunc(slices.Clone(b.files), func(f string) bool { return slices.Contains(drop, f) })
	for _, f := range drop {
		delete(b.rendered, f) // the languages' one map
	}
	for _, lb := range b.rel.langs {
		lb.files = files
	}
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
	b.unrender(drop)
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
