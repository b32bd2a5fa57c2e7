package site

import (
	"strings"

	"github.com/kubewalk/kubewalk/internal/disk/publish"
	"github.com/kubewalk/kubewalk/site/internal/pagecache"
)

// A site gets into Options.Out through package internal/disk/publish:
// written beside it and swapped in at once, over nothing but a site
// kubewalk wrote, its marker listing its files.

// ErrForeignFiles is returned when Options.Out holds a file the site
// there does not list: Build would delete it.
var ErrForeignFiles = publish.ErrForeignFiles

// atomically runs write on a temporary directory beside out and swaps it
// into place when write succeeds (publish.Atomically).
func atomically(out string, write func(dir string) (Stats, error)) (Stats, error) {
	return publish.Atomically(out, write)
}

// listPages makes the marker page of a site list the site's other pages:
// the files its build writes. As a page, the list is part of what the
// Cache compares and links, so an unchanged site keeps its marker file.
func listPages(ps []page) {
	var paths []string
	for _, p := range ps {
		if p.path != markerFile {
			paths = append(paths, p.path)
		}
	}
	data := []byte(publish.MarkerHeader + strings.Join(paths, "\n") + "\n")
	for i := range ps {
		if ps[i].path == markerFile {
			ps[i].render = func() ([]byte, error) { return data, nil }
			ps[i].key = func() pageKey { return pagecache.DataKey(data) }
		}
	}
}
