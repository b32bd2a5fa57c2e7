// Package treemerge merges renderings of one HTML page by several
// releases, newest first, into one page that shows each (package
// pageshare runs it; site/releases' package comment defines the output):
// their trees aligned by content, what every release has written
// once, what only some have marked with a mask of them (data-r, hidden
// unless the newest has it), an id a hidden rendering repeats moved to
// data-id. It knows nothing of releases' directories, links or line
// numbers: the caller relocates the renderings before and names the
// releases on the page after. A bilingual release's index pages merge
// its languages' renderings the same way (Langs).
package treemerge

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math/bits"
	"strconv"
	"strings"

	"github.com/sergi/go-diff/diffmatchpatch"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/kubewalk/kubewalk/site/internal/linediff"
)

// Group is releases (newest first: Tags) whose renderings of a page
// merge into one page, Doc, the newest's rendering with the others'
// merged into it.
type Group struct {
	Tags []string
	Doc  *html.Node
	mt   *mergeTree
}

// Merge merges the renderings docs of a page (newest first; sizes are
// the bytes of each release's own page) into groups of consecutive
// releases: a release joins the newer ones' group while that takes fewer
// bytes than its own page and the group's page stays within budget.
func Merge(docs []*html.Node, tags []string, sizes []int64, budget int) ([]Group, error) {
	return merge(docs, tags, sizes, budget, ReleaseMask)
}

// The attributes that carry a mask of renderings: the releases' on a page
// of a multi-release site, the languages' on a page a bilingual release's
// languages share. A page may carry both, a release's rendering having
// been merged from its languages'; what it shows is what both show.
const (
	ReleaseMask = "data-r"
	LangMask    = "data-lg"
)

// merge is Merge, the masks written in attribute attr; with sizes nil,
// neither size nor budget bounds a group (Langs): every rendering that
// merges joins it, and no group's size is estimated.
func merge(docs []*html.Node, tags []string, sizes []int64, budget int, attr string) ([]Group, error) {
	if len(docs) > 64 {
		return nil, fmt.Errorf("%d releases: a page is shared by at most 64", len(docs))
	}
	var gs []Group
	for i := 0; i < len(docs); {
		mt := &mergeTree{mask: map[*html.Node]uint64{}, last: map[*html.Node]string{}, attr: attr}
		base, n := docs[i], 1
		mt.adopt(base, 1)
		var est int64
		if sizes != nil {
			est = mt.estimate(base)
		}
		for j := i + 1; j < len(docs); j++ {
			mark := len(mt.undo)
			mt.hashes(docs[j], mt.last)
			if !mt.pair(base, docs[j], 1<<n) {
				break
			}
			if sizes != nil {
				e := mt.estimate(base)
				if e > int64(budget) || e-est >= sizes[j] {
					mt.rollback(mark)
					break
				}
				est = e
			}
			n++
		}
		gs = append(gs, Group{Tags: tags[i : i+n], Doc: base, mt: mt})
		i += n
	}
	return gs, nil
}

// Estimate is at least the bytes of g's page once written (estimate).
func (g Group) Estimate() int64 { return g.mt.estimate(g.Doc) }

// Mark writes the merge into g.Doc: each rendering a child not every
// release of the group has, marked with its releases (data-r, hidden
// unless the newest has it; text in a span), white space they share
// written once, and an id a hidden rendering repeats made data-id there.
func (g Group) Mark() {
	every := uint64(1)<<len(g.Tags) - 1
	g.mt.shareBlanks(g.Doc, every)
	g.mt.emit(g.Doc, every)
	fixIDs(g.Doc)
}

// HTMLElement is doc's <html> element, nil if it has none.
// mergeTree is the state of merging renderings of a page.
type mergeTree struct {
	mask map[*html.Node]uint64 // releases that have the node (in its parent)
	last map[*html.Node]string // hash of the newest-merged rendering of the node
	undo []func()
	attr string // the mask's attribute: ReleaseMask or LangMask
	hasher
}

// estimate is at least the bytes of the page merged so far: its
// rendering, what emit adds to mark each rendering of a node (a span
// around text), an id fixIDs makes a data-id on any node, and room for
// the attributes render puts on <html>.
func (mt *mergeTree) estimate(doc *html.Node) int64 {
	var w countWriter
	html.Render(&w, doc) // a countWriter does not fail
	n := int64(w) + 2048
	over := mt.sharedBlanks(doc, mt.mask[doc])
	var walk func(p *html.Node, parent uint64)
	walk = func(p *html.Node, parent uint64) {
		for c := p.FirstChild; c != nil; c = c.NextSibling {
			m, ok := over[c]
			if !ok {
				m = mt.mask[c]
			}
			if m != parent && !(blank(c) && !textHost(p)) {
				n += int64(len(` =""`) + len(mt.attr) + len(strconv.FormatUint(m, 16)))
				if m&1 == 0 {
					n += int64(len(` hidden=""`))
				}
				if c.Type != html.ElementNode || hasAttr(c, "hidden") {
					n += int64(len(`<span></span>`))
				}
			}
			if hasAttr(c, "id") {
				n += int64(len("data-"))
			}
			walk(c, m)
		}
	}
	walk(doc, mt.mask[doc])
	return n
}

type countWriter int64

func (w *countWriter) Write(p []byte) (int, error) {
	*w += countWriter(len(p))
	return len(p), nil
}

func HTMLElement(doc *html.Node) *html.Node {
	for c := doc.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && c.DataAtom == atom.Html {
			return c
		}
	}
	return nil
}

// adopt records the subtree n as a rendering of releases mask.
func (mt *mergeTree) adopt(n *html.Node, mask uint64) {
	mt.hashes(n, mt.last)
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		mt.mask[n] = mask
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
}

// hasher hashes subtrees (hashes), one buffer and one stack of the
// children's hashes reused from node to node.
type hasher struct {
	buf  []byte
	kids []string
}

// hashes records the hash of every node of the subtree n in h: of its
// start tag (or text) and its children's hashes, each part prefixed with
// its length so that no two subtrees write the same bytes. A hash is
// hex, for the diff of a node's children (linediff takes lines).
func (hs *hasher) hashes(n *html.Node, h map[*html.Node]string) string {
	mark := len(hs.kids)
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		k := hs.hashes(c, h)
		hs.kids = append(hs.kids, k)
	}
	b := hs.buf[:0]
	switch n.Type {
	case html.ElementNode:
		b = append(b, 'E', 0, 0, 0, 0)
		at := len(b)
		b = appendStartTag(b, n)
		binary.BigEndian.PutUint32(b[at-4:at], uint32(len(b)-at))
	case html.TextNode:
		b = appendPart(b, 'T', n.Data)
	case html.CommentNode:
		b = appendPart(b, 'C', n.Data)
	default:
		b = appendPart(append(b, 'D'), byte(n.Type), n.Data)
	}
	for _, k := range hs.kids[mark:] {
		b = append(b, k...)
	}
	hs.kids = hs.kids[:mark]
	sum := sha256.Sum256(b)
	hs.buf = b
	s := hex.EncodeToString(sum[:16])
	h[n] = s
	return s
}

// appendPart appends kind, the length of s and s to b.
func appendPart(b []byte, kind byte, s string) []byte {
	b = append(b, kind)
	b = binary.BigEndian.AppendUint32(b, uint32(len(s)))
	return append(b, s...)
}

// startTag is an element's name and attributes, as a key.
func startTag(n *html.Node) string {
	return string(appendStartTag(nil, n))
}

// appendStartTag appends startTag(n) to b.
func appendStartTag(b []byte, n *html.Node) []byte {
	b = append(b, n.Namespace...)
	b = append(b, ':')
	b = append(b, n.Data...)
	for _, a := range n.Attr {
		b = append(b, 0)
		b = append(b, a.Namespace...)
		b = append(b, ':')
		b = append(b, a.Key...)
		b = append(b, '=')
		b = append(b, a.Val...)
	}
	return b
}

// textHost reports whether a span may stand among n's children (so text
// there can carry data-r).
func textHost(n *html.Node) bool {
	if n.Type != html.ElementNode {
		return false
	}
	if n.Namespace != "" {
		return false
	}
	switch n.DataAtom {
	case atom.Html, atom.Head, atom.Table, atom.Thead, atom.Tbody, atom.Tfoot, atom.Tr, atom.Colgroup,
		atom.Select, atom.Optgroup, atom.Datalist, atom.Ul, atom.Ol, atom.Dl, atom.Title, atom.Script,
		atom.Style, atom.Textarea, atom.Option, atom.Template, atom.Details:
		return false
	}
	return true
}

// variantHost reports whether n's children may be written per rendering.
func variantHost(n *html.Node) bool {
	if n.Type != html.ElementNode {
		return false
	}
	if n.Namespace != "" {
		// A group of an SVG drawing's groups (the resource graph's frames,
		// boxes and lines, each its own group: diagram.Graphs draws the
		// releases' graphs on one layout): one may be drawn for some
		// releases only, its data-r and hidden attributes acting as on
		// HTML ([data-r][hidden] in site.css; site.js sets the attribute,
		// not the property an SVG element lacks).
		return n.Namespace == "svg" && n.Data == "g" && groupsOnly(n)
	}
	switch n.DataAtom {
	case atom.Html, atom.Head, atom.Title, atom.Script, atom.Style, atom.Textarea, atom.Option, atom.Select, atom.Template:
		return false
	}
	return true
}

// groupsOnly reports whether n's elements are all <g>.
func groupsOnly(n *html.Node) bool {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && c.Data != "g" {
			return false
		}
	}
	return true
}

// blank is text of white space only.
func blank(n *html.Node) bool {
	return n.Type == html.TextNode && strings.TrimSpace(n.Data) == ""
}

// collapsible reports whether n is text of white space that collapses
// outside preformatted text: spaces, tabs and newlines only (not a
// no-break space, nor a form feed, which CSS does not collapse).
func collapsible(n *html.Node) bool {
	if n.Type != html.TextNode || n.Data == "" {
		return false
	}
	for i := 0; i < len(n.Data); i++ {
		switch n.Data[i] {
		case ' ', '\t', '\n':
		default:
			return false
		}
	}
	return true
}

// keepsSpace reports whether white space inside element n may matter:
// preformatted text, code, what is not rendered as HTML text (script,
// style, a title, a form control's options), foreign content (an SVG
// drawing's text) and an element styled in place.
func keepsSpace(n *html.Node) bool {
	if n.Namespace != "" {
		return true
	}
	switch n.DataAtom {
	case atom.Pre, atom.Listing, atom.Xmp, atom.Plaintext, atom.Textarea, atom.Code, atom.Samp, atom.Kbd, atom.Tt,
		atom.Script, atom.Style, atom.Title, atom.Noscript, atom.Noembed, atom.Noframes, atom.Iframe, atom.Template,
		atom.Select, atom.Option, atom.Optgroup, atom.Datalist:
		return true
	}
	return hasAttr(n, "style")
}

// shareBlanks writes the collapsible white space sharedBlanks finds for
// every release of its parent so, and of each run of white space among a
// parent's children every release of it has that it made, keeps one: one
// with a newline if any has, the newest's if it has one of those, else
// the first of those. all are the releases of the merged page doc.
func (mt *mergeTree) shareBlanks(doc *html.Node, all uint64) {
	over := mt.sharedBlanks(doc, all)
	if len(over) == 0 {
		return
	}
	var walk func(p *html.Node, pm uint64)
	walk = func(p *html.Node, pm uint64) {
		for c := p.FirstChild; c != nil; {
			if c.Type == html.ElementNode {
				if !keepsSpace(c) {
					walk(c, mt.mask[c])
				}
				c = c.NextSibling
				continue
			}
			// The run from c: white space its parent's releases all have
			// (made so, or so already).
			var run []*html.Node
			made := false
			for x := c; x != nil && collapsible(x); x = x.NextSibling {
				m, ok := over[x]
				if !ok {
					m = mt.mask[x]
				}
				if m != pm {
					break
				}
				run = append(run, x)
				made = made || ok
			}
			if len(run) == 0 {
				c = c.NextSibling
				continue
			}
			c = run[len(run)-1].NextSibling
			if !made || len(run) == 1 {
				continue
			}
			keep, nl := -1, false
			for i, x := range run {
				xnl := strings.Contains(x.Data, "\n")
				newest := mt.mask[x]&1 != 0 // before it was shared
				if keep < 0 || xnl && !nl || xnl == nl && newest && mt.mask[run[keep]]&1 == 0 {
					keep, nl = i, xnl
				}
			}
			for i, x := range run {
				if i != keep {
					p.RemoveChild(x)
				}
			}
		}
	}
	walk(doc, all)
	for n, m := range over {
		mt.mask[n] = m
	}
}

// sharedBlanks is what to write the collapsible white space among the
// children of text hosts of the merged page doc (its releases all) for
// where that differs from mt.mask: every release of its parent, instead
// of the releases that have it, where each release lacking it would show
// nothing more with it (blankUnseen). It is not written in a span then.
func (mt *mergeTree) sharedBlanks(doc *html.Node, all uint64) map[*html.Node]uint64 {
	over := map[*html.Node]uint64{}
	mask := func(n *html.Node) uint64 {
		if m, ok := over[n]; ok {
			return m
		}
		return mt.mask[n]
	}
	var walk func(p *html.Node, pm uint64)
	walk = func(p *html.Node, pm uint64) {
		if textHost(p) {
			// Until none changes: white space shared may be what another
			// collapses with.
			for changed := true; changed; {
				changed = false
				for c := p.FirstChild; c != nil; c = c.NextSibling {
					m := mask(c)
					if m == 0 || m == pm || m&^pm != 0 || !collapsible(c) {
						continue
					}
					ok := true
					for miss := pm &^ m; miss != 0 && ok; miss &= miss - 1 {
						ok = blankUnseen(p, c, miss&-miss, mask)
					}
					if ok {
						over[c], changed = pm, true
					}
				}
			}
		}
		for c := p.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode && !keepsSpace(c) {
				walk(c, mask(c))
			}
		}
	}
	walk(doc, all)
	return over
}

// blankUnseen reports whether release x, which lacks the collapsible
// white space c among p's children, would show nothing more with it, by
// the nearest children before and after c that x has (mask): one is
// white space that c collapses into (a newline only into one that has a
// newline); or c is at the start or the end of a block p, where a line
// begins or ends (but not all x has of p: an element of white space only
// is not :empty; nor in a summary, whose end site.css writes after);
// or it is between two block-level elements.
func blankUnseen(p, c *html.Node, x uint64, mask func(*html.Node) uint64) bool {
	has := func(n *html.Node) bool {
		m := mask(n)
		return m == 0 || m&x != 0 // what emit leaves unmarked all have
	}
	prev, next := c.PrevSibling, c.NextSibling
	for prev != nil && !has(prev) {
		prev = prev.PrevSibling
	}
	for next != nil && !has(next) {
		next = next.NextSibling
	}
	nl := strings.Contains(c.Data, "\n")
	for _, s := range []*html.Node{prev, next} {
		if s != nil && collapsible(s) && (!nl || strings.Contains(s.Data, "\n")) {
			return true
		}
	}
	if (prev == nil) != (next == nil) && blockBox(p) && p.DataAtom != atom.Summary {
		return true
	}
	return prev != nil && next != nil && blockLevel(prev) && blockLevel(next)
}

// blockLevel reports whether n is an element a browser lays out as a
// block (site.css makes none of these inline), not hidden or styled in
// place.
func blockLevel(n *html.Node) bool {
	if n.Type != html.ElementNode || n.Namespace != "" || hasAttr(n, "hidden") || hasAttr(n, "style") {
		return false
	}
	switch n.DataAtom {
	case atom.Address, atom.Article, atom.Aside, atom.Blockquote, atom.Details, atom.Dialog, atom.Dd, atom.Div,
		atom.Dl, atom.Dt, atom.Fieldset, atom.Figcaption, atom.Figure, atom.Footer, atom.Form, atom.H1, atom.H2,
		atom.H3, atom.H4, atom.H5, atom.H6, atom.Header, atom.Hgroup, atom.Hr, atom.Li, atom.Main, atom.Nav,
		atom.Ol, atom.P, atom.Pre, atom.Section, atom.Summary, atom.Table, atom.Ul:
		return true
	}
	return false
}

// blockBox reports whether n's content is laid out in a block of its
// own, at whose start and end white space shows nothing (where nothing
// is written before or after it).
func blockBox(n *html.Node) bool {
	if blockLevel(n) {
		return true
	}
	if n.Type != html.ElementNode || n.Namespace != "" || hasAttr(n, "style") {
		return false
	}
	switch n.DataAtom {
	case atom.Body, atom.Td, atom.Th, atom.Caption:
		return true
	}
	return false
}

// pair merges c, release bit's rendering of merged node m (same start
// tag), into m. It reports false, having changed nothing, when the
// renderings cannot be merged inside m.
func (mt *mergeTree) pair(m, c *html.Node, bit uint64) bool {
	mark := len(mt.undo)
	if !mt.children(m, c, bit) {
		mt.rollback(mark)
		return false
	}
	mt.setMask(m, mt.mask[m]|bit)
	old := mt.last[m]
	mt.last[m] = mt.last[c]
	mt.undo = append(mt.undo, func() { mt.last[m] = old })
	return true
}

// rollback undoes what was merged since the undo log's length was mark.
func (mt *mergeTree) rollback(mark int) {
	for i := len(mt.undo) - 1; i >= mark; i-- {
		mt.undo[i]()
	}
	mt.undo = mt.undo[:mark]
}

func (mt *mergeTree) setMask(n *html.Node, v uint64) {
	old, had := mt.mask[n]
	mt.mask[n] = v
	mt.undo = append(mt.undo, func() {
		if had {
			mt.mask[n] = old
		} else {
			delete(mt.mask, n)
		}
	})
}

// children aligns c's children with m's.
//
// It is long for being one diff walk (Myers, over subtree hashes) whose
// runs of deletions and insertions are paired (partners) and merged,
// rolled back when a pair fails, in place: the walk's state is the
// function's.
func (mt *mergeTree) children(m, c *html.Node, bit uint64) bool {
	textOK, varOK := textHost(m), variantHost(m)
	ms, cs, quiet := mt.anchors(m, c, bit)
	// A title of its own for a release (site.js shows it), the only
	// child of the head a release may have alone.
	vary := func(n *html.Node) bool {
		if m.DataAtom == atom.Head && m.Namespace == "" {
			return n.Type == html.ElementNode && n.DataAtom == atom.Title
		}
		return varOK && (n.Type == html.ElementNode || textOK)
	}
	mk, ck := make([]string, len(ms)), make([]string, len(cs))
	for i, n := range ms {
		mk[i] = mt.last[n]
	}
	for i, n := range cs {
		ck[i] = mt.last[n]
	}
	i, j := 0, 0
	var dels, ins []*html.Node
	flush := func() bool {
		// Pair renderings of an element with the same start tag, in order:
		// those most alike (partners).
		used := 0
		match := mt.partners(dels, ins)
		for k, n := range ins {
			if x := match[k]; x >= used && mt.pair(dels[x], n, bit) {
				used = x + 1
				continue
			}
			if !vary(n) {
				return false
			}
			// Written for this release: after the last child paired, so
			// in its place among the children both renderings show.
			var before *html.Node
			if used < len(dels) {
				before = dels[used]
			} else if i < len(ms) {
				before = ms[i]
			}
			next := n.NextSibling
			c.RemoveChild(n)
			m.InsertBefore(n, before)
			mt.adopt(n, bit)
			mt.undo = append(mt.undo, func() {
				m.RemoveChild(n)
				c.InsertBefore(n, next)
			})
		}
		for _, d := range dels {
			if mt.mask[d]&bit != 0 {
				continue
			}
			if !vary(d) {
				return false
			}
		}
		dels, ins = dels[:0], ins[:0]
		return true
	}
	for _, d := range linediff.Lines(mk, ck) {
		switch d.Op {
		case diffmatchpatch.DiffEqual:
			if !flush() {
				return false
			}
			for n := 0; n < d.N; n, i, j = n+1, i+1, j+1 {
				mt.same(ms[i], bit)
			}
		case diffmatchpatch.DiffDelete:
			dels = append(dels, ms[i:i+d.N]...)
			i += d.N
		case diffmatchpatch.DiffInsert:
			ins = append(ins, cs[j:j+d.N]...)
			j += d.N
		}
	}
	if !flush() {
		return false
	}
	mt.quietSeen(quiet, bit)
	return true
}

// anchors are the children of m and of c (release bit's rendering of m)
// that the alignment aligns: all but white space that shows nothing
// where it stands, which as an anchor would match any other and split a
// changed child from its other rendering (table rows, list items,
// sections among line breaks). m's such white space (quiet) is given to
// release bit, and c's dropped: the merged page keeps the white space
// of the newest that had it. What is quiet:
//
//   - white space among the children of an element where it does not
//     matter (a table's, a list's: not a textHost);
//   - collapsible white space of a block, outside preformatted text,
//     between two block-level elements, or between one and the block's
//     start or end, where a line ends or begins; quietSeen takes it back
//     from release bit where that release does not see it so.
func (mt *mergeTree) anchors(m, c *html.Node, bit uint64) (ms, cs, quiet []*html.Node) {
	textOK := textHost(m)
	// Not in a summary, whose end site.css writes after.
	loose := textOK && blockBox(m) && m.DataAtom != atom.Summary && !spaceKept(m)
	isQuiet := func(x *html.Node) bool {
		if !textOK {
			return blank(x)
		}
		return loose && collapsible(x) && quietBetween(x.PrevSibling, x.NextSibling)
	}
	for x := m.FirstChild; x != nil; x = x.NextSibling {
		if !isQuiet(x) {
			ms = append(ms, x)
			continue
		}
		mt.setMask(x, mt.mask[x]|bit)
		if textOK {
			quiet = append(quiet, x)
		}
	}
	for x := c.FirstChild; x != nil; x = x.NextSibling {
		if !isQuiet(x) {
			cs = append(cs, x)
		}
	}
	return ms, cs, quiet
}

// quietBetween reports whether white space between prev and next (nil:
// the start or the end of its block) shows nothing: one is a block-level
// element and the other one too or nothing.
func quietBetween(prev, next *html.Node) bool {
	pb, nb := prev != nil && blockLevel(prev), next != nil && blockLevel(next)
	return pb && (nb || next == nil) || nb && prev == nil
}

// quietSeen takes release bit off the white space quiet (anchors gave it
// that release) where that release, once merged, does not see it between
// block-level elements or a block's edge: its nearest children there of
// its own are something else (text, an inline element).
func (mt *mergeTree) quietSeen(quiet []*html.Node, bit uint64) {
	has := func(n *html.Node) bool {
		return mt.mask[n]&bit != 0 && !collapsible(n)
	}
	for _, x := range quiet {
		prev, next := x.PrevSibling, x.NextSibling
		for prev != nil && !has(prev) {
			prev = prev.PrevSibling
		}
		for next != nil && !has(next) {
			next = next.NextSibling
		}
		if !quietBetween(prev, next) {
			mt.setMask(x, mt.mask[x]&^bit)
		}
	}
}

// spaceKept reports whether white space inside n may matter: n or an
// element around it keeps it (keepsSpace).
func spaceKept(n *html.Node) bool {
	for x := n; x != nil; x = x.Parent {
		if x.Type == html.ElementNode && keepsSpace(x) {
			return true
		}
	}
	return false
}

// partners matches the renderings ins of a release with the merged
// children dels they may be merged into (same start tag), keeping their
// order and, of the ways to, the one that pairs the most alike: the most
// children in common, plus one a pair (a longest common subsequence
// weighted so). match[k] is ins[k]'s partner in dels, or -1. Runs longer
// than maxPartners on both sides are paired greedily, in order.
//
// Its 85 lines are one dynamic program (the weighted common subsequence)
// and its traceback, with the greedy fallback for long runs.
func (mt *mergeTree) partners(dels, ins []*html.Node) []int {
	match := make([]int, len(ins))
	for k := range match {
		match[k] = -1
	}
	tag := func(n *html.Node) string {
		if n.Type != html.ElementNode {
			return ""
		}
		return startTag(n)
	}
	dt, it := make([]string, len(dels)), make([]string, len(ins))
	for x, d := range dels {
		dt[x] = tag(d)
	}
	for k, n := range ins {
		it[k] = tag(n)
	}
	if len(dels)*len(ins) > maxPartners*maxPartners {
		used := 0
		for k := range ins {
			for x := used; x < len(dels) && it[k] != ""; x++ {
				if dt[x] == it[k] {
					match[k], used = x, x+1
					break
				}
			}
		}
		return match
	}
	kids := func(n *html.Node) map[string]bool {
		set := map[string]bool{}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if !blank(c) {
				set[mt.last[c]] = true
			}
		}
		return set
	}
	dk := make([]map[string]bool, len(dels))
	weight := func(k, x int) int {
		if it[k] == "" || it[k] != dt[x] {
			return 0
		}
		if dk[x] == nil {
			dk[x] = kids(dels[x])
		}
		w := 1
		for c := ins[k].FirstChild; c != nil; c = c.NextSibling {
			if !blank(c) && dk[x][mt.last[c]] {
				w++
			}
		}
		return w
	}
	// best[k][x]: the most weight pairing ins[k:] with dels[x:].
	best := make([][]int, len(ins)+1)
	for k := range best {
		best[k] = make([]int, len(dels)+1)
	}
	ws := make([][]int, len(ins))
	for k := len(ins) - 1; k >= 0; k-- {
		ws[k] = make([]int, len(dels))
		for x := len(dels) - 1; x >= 0; x-- {
			ws[k][x] = weight(k, x)
			b := max(best[k+1][x], best[k][x+1])
			if ws[k][x] > 0 {
				b = max(b, ws[k][x]+best[k+1][x+1])
			}
			best[k][x] = b
		}
	}
	for k, x := 0, 0; k < len(ins) && x < len(dels); {
		switch {
		case ws[k][x] > 0 && best[k][x] == ws[k][x]+best[k+1][x+1]:
			match[k] = x
			k, x = k+1, x+1
		case best[k][x] == best[k+1][x]:
			k++
		default:
			x++
		}
	}
	return match
}

// maxPartners bounds the runs partners weighs: past it, pairing is in
// order.
const maxPartners = 300

// same records that release bit renders merged node n as the newest
// release merged into it did: every node of that rendering gets bit.
func (mt *mergeTree) same(n *html.Node, bit uint64) {
	m := mt.mask[n]
	lb := uint64(1) << (63 - bits.LeadingZeros64(m)) // that release
	var walk func(*html.Node)
	walk = func(x *html.Node) {
		if mt.mask[x]&lb == 0 {
			return
		}
		mt.setMask(x, mt.mask[x]|bit)
		for c := x.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
}

// emit writes the merge into the tree: a node the releases of its parent
// do not all have gets data-r (hidden unless the newest has it); text
// is wrapped in a span for it.
func (mt *mergeTree) emit(n *html.Node, parent uint64) {
	for c := n.FirstChild; c != nil; {
		next := c.NextSibling
		m := mt.mask[c]
		if blank(c) && !textHost(n) {
			m = parent // white space where it does not matter: left as it is
		}
		if m != parent && m != 0 {
			el := c
			if c.Type != html.ElementNode || hasAttr(c, "hidden") {
				el = &html.Node{Type: html.ElementNode, Data: "span", DataAtom: atom.Span}
				n.InsertBefore(el, c)
				n.RemoveChild(c)
				el.AppendChild(c)
			}
			el.Attr = append(el.Attr, html.Attribute{Key: mt.attr, Val: strconv.FormatUint(m, 16)})
			if m&1 == 0 {
				el.Attr = append(el.Attr, html.Attribute{Key: "hidden"})
			}
		}
		if c.Type == html.ElementNode {
			mt.emit(c, m)
		}
		c = next
	}
	// The newest release's title first: the one a browser shows.
	if n.DataAtom == atom.Head {
		var first, newest *html.Node
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode && c.DataAtom == atom.Title {
				if first == nil {
					first = c
				}
				if mt.mask[c]&1 != 0 && newest == nil {
					newest = c
				}
			}
		}
		if newest != nil && first != newest {
			n.RemoveChild(newest)
			n.InsertBefore(newest, first)
		}
	}
}

func hasAttr(n *html.Node, k string) bool {
	for _, a := range n.Attr {
		if a.Key == k && a.Namespace == "" {
			return true
		}
	}
	return false
}

// fixIDs leaves each id on one element: the first the newest release
// shows, else the first; the others carry it as data-id.
func fixIDs(doc *html.Node) {
	type el struct {
		n     *html.Node
		shown bool
	}
	byID := map[string][]el{}
	var order []string
	var walk func(n *html.Node, hidden bool)
	walk = func(n *html.Node, hidden bool) {
		if n.Type == html.ElementNode {
			hidden = hidden || hasAttr(n, "hidden") && (hasAttr(n, ReleaseMask) || hasAttr(n, LangMask))
			for _, a := range n.Attr {
				if a.Key == "id" && a.Namespace == "" {
					if _, ok := byID[a.Val]; !ok {
						order = append(order, a.Val)
					}
					byID[a.Val] = append(byID[a.Val], el{n, !hidden})
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, hidden)
		}
	}
	walk(doc, false)
	for _, id := range order {
		es := byID[id]
		if len(es) < 2 {
			continue
		}
		keep := 0
		for i, e := range es {
			if e.shown {
				keep = i
				break
			}
		}
		for i, e := range es {
			if i == keep {
				continue
			}
			for k, a := range e.n.Attr {
				if a.Key == "id" && a.Namespace == "" {
					e.n.Attr[k].Key = "data-id"
				}
			}
		}
	}
}
