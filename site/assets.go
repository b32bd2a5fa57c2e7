package site

import (
	"bytes"
	"io/fs"
	"strings"

	"github.com/kubewalk/kubewalk/templates"
)

// The assets (stylesheet and scripts) are the same bytes in every
// language and release, so a site has one assets/ directory, at its root:
// a single-release site's, bilingual or not, and a multi-release site's,
// beside the list of releases (writeRoot), for every release's pages.
// Pages load them with <link href> and <script src>, relative, so that
// file:// works as well as any URL prefix.

// assetsDir is the site path of the assets' directory.
const assetsDir = "assets/"

// asset is a file of templates' assets/ as the site has it.
type asset struct {
	path string
	data []byte
}

// assets returns templates' assets/, site.css with the code tokens' CSS
// (internal/render/codehtml) appended; releases.js, the script of a site
// of several releases' pages, only when withReleases.
func assets(withReleases bool) ([]asset, error) {
	var as []asset
	err := fs.WalkDir(templates.FS, strings.TrimSuffix(assetsDir, "/"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || p == assetsDir+releasesJS && !withReleases {
			return err
		}
		data, err := fs.ReadFile(templates.FS, p)
		if err != nil {
			return err
		}
		if p == assetsDir+"site.css" {
			data = append(append(bytes.Clone(data), "\n/* code tokens (internal/render/codehtml) */\n"...), codeCSS()...)
		}
		as = append(as, asset{p, data})
		return nil
	})
	return as, err
}

// releasesJS is the script only the pages of a site of several releases
// load (releasesScript).
const releasesJS = "releases.js"

// releasesScript returns the link from the page at site path p to
// releases.js, or "" when b's pages do not load it: they do when the
// release is one of several, in a multi-release site (b.set) or built
// with the changes since the previous release (Input.Since), whose diffs
// releases.js draws.
func (b *builder) releasesScript(p string) string {
	if b.set == nil && b.in.Since == "" {
		return ""
	}
	return b.asset(p, releasesJS)
}

// asset returns the link from the page at site path p of b's release to
// the asset name ("site.css").
func (b *builder) asset(p, name string) string {
	return relURL(b.site(p), assetsDir+name, "")
}

// releaseDir is the directory of b's release from the site's root:
// "v1.36.3/" in a multi-release site, "" otherwise.
func (b *builder) releaseDir() string {
	if b.set == nil {
		return ""
	}
	return b.set.rels[b.self].Dir
}
