package srcmerge

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

import (
	"errors"
	"fmt"
	"io/fs"
	"path"

	"github.com/kubewalk/kubewalk/internal/render/codehtml"
	"github.com/kubewalk/kubewalk/site/internal/linemap"
)

// minSharedLines is the share of an older release's copy of a generated
// file that must be lines of the newest copy for it to be rendered.
const minSharedLines = 0.5

// Regenerated returns, per release of files (each release's rendered
// files, newest first; tags name them in errors), the generated Go files
// it regenerated wholesale (sharedLineShare below minSharedLines), which
// it is not to render: the newest release that renders a file decides
// whether it is generated, and its copy is the one the others are
// compared with.
func Regenerated(tags []string, files [][]string, read Reader) ([][]string, error) {
	drops := make([][]string, len(files))
	newest := map[string][]string{} // a generated file's newest copy, by path
	for r, rfiles := range files {
		for _, f := range rfiles {
			if path.Ext(f) != ".go" {
				continue
			}
			ref, seen := newest[f]
			if seen && ref == nil {
				continue // not generated at its newest release
			}
			src, err := read(r, f)
			if errors.Is(err, fs.ErrNotExist) {
				continue // the page errs the same way, with its file named
			}
			if err != nil {
				return nil, fmt.Errorf("%s: %s: %w", tags[r], f, err)
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
				drops[r] = append(drops[r], f)
			}
		}
	}
	return drops, nil
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
