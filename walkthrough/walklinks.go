package walkthrough

// Links between walkthroughs: a Markdown link to a sibling file,
// [the informers' first step](informers.md#step-1-…), works on GitHub as
// written; in the site it goes to that walkthrough's page and step. Load
// and Check report a link to a walkthrough that is neither in the same
// directory nor in Options.Also, or to a step anchor it does not have.

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"regexp"
	"slices"

	"github.com/yuin/goldmark/ast"
)

// walkLinkDest matches a link to a sibling walkthrough: "<id>.md" or
// "<id>.<lang>.md", optionally with "#anchor". Paths with a directory, and
// URLs, are ordinary links.
var walkLinkDest = regexp.MustCompile(`^([A-Za-z0-9_-]+)(?:\.[a-z]{2,3})?\.md(?:#(.*))?$`)

// walkLink is one link to another walkthrough, found at parse time.
type walkLink struct {
	node      *ast.Link
	id        string // the target walkthrough
	anchor    string // a step anchor, or ""
	line, col int
}

// collectWalkLinks finds the links to sibling walkthroughs in n.
func (s *Source) collectWalkLinks(n ast.Node) {
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		l, ok := c.(*ast.Link)
		if !ok || !entering {
			return ast.WalkContinue, nil
		}
		m := walkLinkDest.FindStringSubmatch(string(l.Destination))
		if m == nil {
			return ast.WalkContinue, nil
		}
		line, col := s.lineCol(refPos(l, s.src))
		s.walkLinks = append(s.walkLinks, walkLink{node: l, id: m[1], anchor: m[2], line: line, col: col})
		return ast.WalkContinue, nil
	})
}

// LinkTargets is what links between walkthroughs may point at: walkthrough
// IDs and the step anchors of each.
type LinkTargets map[string][]string

// Targets parses the walkthroughs in dir (English originals, for syntax
// only) and returns their IDs and step anchors: for Options.Also, so that
// walkthroughs in another directory of the same site (a user's beside the
// built-in ones) may link to these. Syntax errors are returned joined,
// with the targets of every file that could be read.
func Targets(fsys fs.FS, dir string) (LinkTargets, error) {
	sets, errs := scan(fsys, dir)
	ens, _, errs := parseOriginals(fsys, sets, errs)
	return targetsOf(ens), errors.Join(errs...)
}

// targetsOf lists the walkthroughs of srcs (English originals) and their
// step anchors; a translation shares its original's anchors.
func targetsOf(srcs []*Source) LinkTargets {
	t := LinkTargets{}
	for _, s := range srcs {
		if s == nil {
			continue
		}
		var ids []string
		for _, st := range s.Steps {
			ids = append(ids, st.ID)
		}
		t[s.ID] = ids
	}
	return t
}

// linkWalkthroughs checks the links to other walkthroughs against
// targets and sets their destinations to the site's URL for them.
func (b *builder) linkWalkthroughs(s *Source, targets LinkTargets) {
	for _, wl := range s.walkLinks {
		dest := wl.id + ".md"
		if wl.anchor != "" {
			dest += "#" + wl.anchor
		}
		if targets != nil {
			anchors, ok := targets[wl.id]
			var e *Error
			switch {
			case !ok:
				ids := slices.Sorted(maps.Keys(targets))
				e = &Error{Msg: fmt.Sprintf("link to %s: no walkthrough %q", dest, wl.id), Suggestions: nearest(wl.id, ids)}
			case wl.anchor != "" && !slices.Contains(anchors, wl.anchor):
				e = &Error{Msg: fmt.Sprintf("link to %s: walkthrough %s has no step #%s", dest, wl.id, wl.anchor), Suggestions: nearest(wl.anchor, anchors)}
			}
			if e != nil {
				e.File, e.Line, e.Col = s.File, wl.line, wl.col
				b.errs = append(b.errs, e)
				continue
			}
		}
		if b.opts.WalkthroughURL != nil {
			dest = b.opts.WalkthroughURL(wl.id, wl.anchor)
		}
		wl.node.Destination = []byte(dest)
	}
}
