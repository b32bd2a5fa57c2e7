package srcmerge

import (
	"strconv"
	"strings"
)

// A shared source page carries, per release of the page and language,
// a block with the release's page header and its source header with the
// backlinks, all hidden but the newest release's first language's.
// Package site renders the blocks (a BlockRenderer); Blocks decides how
// each is written, so that what an older release's block repeats of
// another's is made by site.js instead of carried again.

// BlockRenderer renders the blocks of one page of one file for Blocks,
// by the index of a release in the site (Src.Rels) and of a language
// (0 the first).
type BlockRenderer interface {
	// GitHubBase is the part of release rel's permalinks of the file
	// before its path ("https://github.com/kubernetes/kubernetes/blob/v1.31.0/"),
	// "" when its permalink rule does not end a file's link with the path.
	GitHubBase(rel int) string
	// Header is release rel's page header in language lang (the version
	// switcher, links into the release).
	Header(rel, lang int) (string, error)
	// SourceHeader is release rel's source header in language lang, the
	// file's number of lines printed as lines: with anchor nil, as the
	// release numbers its lines; else each line its steps cite ("L12" of
	// "L12-L40") written as anchor returns it.
	SourceHeader(rel, lang, lines int, anchor func(cited string) string) (string, error)
}

// Block is how one release's block, in one language, is written on a
// page (Blocks), in the page's order: release by release, newest first,
// each in every language.
type Block struct {
	Rel, Lang int // the release's index in the site, the language's
	// Hide is true of every block but the first.
	Hide bool
	// GH is where the release's permalinks start when it is not the
	// page's (the newest's) with the tag changed, "" otherwise (data-gh).
	// GHF and LNT, on the newest's first block, and GHL and LNK, on an
	// older release's first, are the code's link moves (GHFiles,
	// GHLines, LinkTable).
	GH, GHF, GHL, LNT, LNK string
	// Like is the newest release's tag when the block's page header is
	// the newest's made over for its release (LikeNewestBut), which
	// site.js makes, but for the bar's links to the pages Drop names.
	Like, Drop string
	// Head, when not nil, is how site.js makes the block's source header;
	// nil: the header is written whole, as the release numbers it.
	Head *HeadLike
}

// HeadLike is an older release's source header that site.js makes over:
// its number of lines (data-n), and either the release whose header it
// is made from (Like: data-head) or, written whole, its header in anchor
// form (Head).
type HeadLike struct {
	Like string
	N    int
	Head string
}

// Blocks decides how each release's block, in each of langs languages,
// is written on part part of m's page, tags being the site's releases'
// tags. With explicit, every older release's header is written whole
// (for the test that site.js makes the same).
//
// It is one loop over the page's releases and languages whose blocks
// depend on those written before it (the newest's header, the source
// headers written whole so far, which an older release's is made from).
func (m *Src) Blocks(set *Set, part int, tags []string, langs int, r BlockRenderer, explicit bool) ([]Block, error) {
	newestTag := tags[m.Rels[0]]
	newestHeader := make([]string, langs)
	// Per language, the source headers written whole so far, newest
	// first, in anchor form (headLike): an older release's may be made
	// from any of them.
	written := make([][]writtenHead, langs)
	newestGH := r.GitHubBase(m.Rels[0])
	ghf := m.GHFiles(newestGH) // data-ghf, on the newest's first part
	moves := make([]string, len(m.Rels))
	for k := range m.Rels {
		moves[k] = m.LinkMoves(set, k, part)
	}
	lnt, lnk := LinkTable(moves) // data-lnt on the newest's, data-lnk
	var out []Block
	for k, rel := range m.Rels {
		tag := tags[rel]
		gh := r.GitHubBase(rel)
		if k == 0 || gh == strings.Replace(newestGH, "/"+newestTag+"/", "/"+tag+"/", 1) {
			// The newest's is the page's (the <body>'s data-gh), and an
			// older release's that is the newest's at its tag releases.js
			// makes.
			gh = ""
		}
		for l := range langs {
			bl := Block{Rel: rel, Lang: l, Hide: len(out) > 0, GH: gh}
			if l == 0 { // once per release
				bl.GHL, bl.LNK = m.GHLines(k, newestGH, ghf), lnk[k]
				if k == 0 {
					bl.GHF, bl.LNT = strings.Join(ghf, " "), lnt
				}
			}
			h, err := r.Header(rel, l)
			if err != nil {
				return nil, err
			}
			if k == 0 {
				newestHeader[l] = h
				// The newest's own line numbers are the page's anchors.
				sh, err := r.SourceHeader(rel, l, m.Lines[k], nil)
				if err != nil {
					return nil, err
				}
				written[l] = []writtenHead{{tag: tag, html: sh}}
			} else if !explicit {
				if drop, ok := LikeNewestBut(newestHeader[l], newestTag, tag, h); ok {
					bl.Like, bl.Drop = newestTag, drop
				}
				hl, anchor, err := m.headLike(r, k, l, tag, written[l])
				if err != nil {
					return nil, err
				}
				if anchor != "" && (hl == nil || hl.Like == "") {
					written[l] = append(written[l], writtenHead{tag: tag, html: anchor})
				}
				bl.Head = hl
			}
			out = append(out, bl)
		}
	}
	return out, nil
}

// writtenHead is a source header written whole on a shared source page,
// in anchor form (headLike), and its release's tag.
type writtenHead struct{ tag, html string }

// headLike finds how the source header of release k of the page (tag) in
// language lang is written, by its anchor form: the lines its steps cite
// named by the page's anchors, which site.js counts among the lines the
// release shows, and the newest release's number of lines, for site.js
// to set the release's own (data-n). When that is a header written whole
// before it in the same language (written, newest first, each in anchor
// form) but for the release in its links (Relinked), site.js makes it
// from that one (hl.Like: data-head); else it is written whole in anchor
// form (hl.Head), or as any header is when that is its own numbers (hl
// nil), and anchor is what the caller keeps for the releases after it.
// Not only the newest's, for releases agree with each other more than
// with the newest: deployment_controller.go's header is v1.34.4's in
// v1.31..v1.33 and v1.30.14's in v1.29.6, none of them v1.37.2's. Of the
// headers still written whole, some are another's but for their numbers,
// which name other lines of the page (the cited code is not where the
// other's is), and some are on pages in parts: a page in parts cannot
// count the lines of the others, and a header citing a line the release
// lacks cannot name it, so such a header is written whole, as the
// release numbers it (hl nil, anchor empty).
func (m *Src) headLike(r BlockRenderer, k, lang int, tag string, written []writtenHead) (hl *HeadLike, anchor string, err error) {
	if len(m.Parts) > 1 {
		return nil, "", nil
	}
	own := m.Lines[k] == m.Lines[0] // the anchor form is the release's own numbers
	found := true
	h, err := r.SourceHeader(m.Rels[k], lang, m.Lines[0], func(l string) string {
		n, _ := strconv.Atoi(l[1:]) // "L" and digits
		ml, ok := m.Line(m.Rels[k], n)
		if !ok {
			found = false
			return l
		}
		own = own && m.IDs[ml] == l
		return m.IDs[ml]
	})
	if err != nil || !found {
		return nil, "", err
	}
	hl = &HeadLike{N: m.Lines[k]}
	for _, w := range written {
		if h == Relinked(w.html, w.tag, tag) {
			hl.Like = w.tag
			return hl, h, nil
		}
	}
	if own {
		return nil, h, nil
	}
	hl.Head = h
	return hl, h, nil
}
