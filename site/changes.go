package site

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/internal/derive/reldiff"
	"github.com/kubewalk/kubewalk/internal/render/codehtml"
	"github.com/kubewalk/kubewalk/walkthrough"
)

// What changed since the previous release (Input.Since, Input.Changes):
//
//   - a badge on every excerpt and step whose reference's code moved,
//     changed, was renamed or is gone, linking to changes.html;
//   - under it, a collapsed <details> that shows the unified diff of the
//     declaration. The diff text is not in the walkthrough page: the
//     diffs of the deployment walkthrough between two releases weigh
//     more than the page itself (120 KB against 190), so each
//     walkthrough's diffs go to walkthroughs/<id>.diffs.js, which site.js
//     loads the first time a reader opens one (a script, because fetch()
//     fails on file://) and renders as text with the diff line classes.
//     The diffs are code, not prose: a bilingual release writes the
//     script once, at its root, for every language (releaseDiffs);
//   - changes.html, one page per release, with every changed reference
//     once, its diff highlighted by internal/render/codehtml ("diff"), the steps
//     that cite it, and the handlers, events and writes added or removed.
//     It is also what a reader without script gets from a badge.

// changeView is a reference's badge and where its diff is.
type changeView struct {
	// Class is the status as a CSS class suffix, from a fixed list.
	Class string
	// Label is the badge text ("changed since v1.35.4"), Title what it
	// was before ("v1.35.4: pkg/x.go:12-40").
	Label, Title string
	// Symbol names the reference's declaration.
	Symbol string
	// N numbers the change in the release (changes.html#dN, diffs.js key).
	N int
	// Href is changes.html#dN from the page shown.
	Href string
	// HasDiff is true when the declaration's text differs.
	HasDiff bool
}

// changeClasses maps each status worth a badge to its class and message
// key; unchanged and unresolved get none.
var changeClasses = map[reldiff.Status]string{
	reldiff.Moved:       "moved",
	reldiff.Changed:     "changed",
	reldiff.Renamed:     "renamed",
	reldiff.Gone:        "gone",
	reldiff.New:         "new",
	reldiff.PatternLost: "lines",
}

// numberChanges numbers the references with a badge, sorted by key, from 1.
func (b *builder) numberChanges() {
	b.changeN = map[string]int{}
	if b.in.Since == "" {
		return
	}
	var keys []string
	for k, rc := range b.in.Changes {
		if _, ok := changeClasses[rc.Status]; ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for i, k := range keys {
		b.changeN[k] = i + 1
	}
	b.changeKeys = keys
}

// change returns the badge of ref for the page at site path p, or nil.
func (b *builder) change(p string, ref fact.Ref) *changeView {
	return b.changeOf(p, ref.String())
}

// changeOf is change by the reference's key (fact.Ref.String).
func (b *builder) changeOf(p, k string) *changeView {
	n := b.changeN[k]
	if n == 0 {
		return nil
	}
	rc := b.in.Changes[k]
	class := changeClasses[rc.Status]
	cv := &changeView{
		Class:   class,
		Label:   strings.ReplaceAll(b.t("change."+class), "{since}", b.in.Since),
		Symbol:  fact.ShortSymbol(rc.To.Symbol),
		N:       n,
		Href:    relURL(p, changesPage, "d"+strconv.Itoa(n)),
		HasDiff: rc.Diff != "",
	}
	if cv.Symbol == "" {
		cv.Symbol = fact.ShortSymbol(rc.From.Symbol)
	}
	if rc.From.Symbol != "" {
		was := fmt.Sprintf("%s:%d-%d", rc.From.Decl.Path, rc.From.Decl.StartLine, rc.From.Decl.EndLine)
		if rc.From.Symbol != rc.To.Symbol {
			was = fact.ShortSymbol(rc.From.Symbol) + " · " + was
		}
		cv.Title = b.in.Since + ": " + was
	}
	return cv
}

// stepChanges returns the badges of a step's references that are not
// shown on one of its excerpts, one per reference, in order.
func (b *builder) stepChanges(p string, s walkthrough.Step) []changeView {
	if len(b.changeN) == 0 {
		return nil
	}
	seen := map[string]bool{}
	for _, seg := range s.Segments {
		if seg.Excerpt != nil {
			seen[seg.Excerpt.Ref.Ref.String()] = true
		}
	}
	var out []changeView
	for _, r := range s.Refs {
		k := r.Ref.String()
		if seen[k] {
			continue
		}
		seen[k] = true
		if cv := b.change(p, r.Ref); cv != nil {
			out = append(out, *cv)
		}
	}
	return out
}

// docDiffs returns the diffs of doc's references by change number.
func (b *builder) docDiffs(d *walkthrough.Doc) map[string]string {
	out := map[string]string{}
	add := func(r fact.Ref) {
		k := r.String()
		if n := b.changeN[k]; n > 0 && b.in.Changes[k].Diff != "" {
			out[strconv.Itoa(n)] = b.in.Changes[k].Diff
		}
	}
	visit := func(segs []walkthrough.Segment) {
		for _, s := range segs {
			if s.Excerpt != nil {
				add(s.Excerpt.Ref.Ref)
			}
		}
	}
	visit(d.Intro)
	for _, s := range d.Steps {
		visit(s.Segments)
		for _, r := range s.Refs {
			add(r.Ref)
		}
	}
	return out
}

// DiffsScript returns the site path of a walkthrough's diffs script. In
// a bilingual site it is one file for every language, from the release's
// root (sharedPage).
func DiffsScript(id string) string { return "walkthroughs/" + id + diffsSuffix }

const diffsSuffix = ".diffs.js"

// isDiffsScript reports whether site path p is a walkthrough's diffs
// script.
func isDiffsScript(p string) bool {
	return strings.HasPrefix(p, "walkthroughs/") && strings.HasSuffix(p, diffsSuffix)
}

// releaseDiffs returns the diffs of walkthrough id in every language of
// b's release, by change number: the languages number the release's
// changes alike (numberChanges), and a translation may cite what its
// original does not.
func (b *builder) releaseDiffs(id string) map[string]string {
	out := map[string]string{}
	for _, lb := range langsOf(b) {
		for _, d := range lb.docs {
			if d.ID == id {
				maps.Copy(out, lb.docDiffs(d))
			}
		}
	}
	return out
}

// diffsLink is the link from the page at site path p to the diffs script
// of the walkthrough it is, "" on another page or when none of the
// walkthrough's references changed.
func (b *builder) diffsLink(p string) string {
	id, ok := walkthroughID(p)
	if !ok {
		return ""
	}
	for _, d := range b.docs {
		if d.ID == id && len(b.docDiffs(d)) > 0 {
			return b.link(p, DiffsScript(id), "")
		}
	}
	return ""
}

// diffsScript is a walkthrough's diffs as a script assigning a global:
// change number → unified diff text, or "=N" for the text of change N
// when it is the same (references to one declaration by several
// patterns: a third of v1.29..v1.37's diffs scripts). encoding/json sorts
// the keys and escapes <, > and & (the text is source code, never markup).
func diffsScript(diffs map[string]string) ([]byte, error) {
	keys := slices.SortedFunc(maps.Keys(diffs), func(a, b string) int {
		x, _ := strconv.Atoi(a)
		y, _ := strconv.Atoi(b)
		return cmp.Or(x-y, strings.Compare(a, b))
	})
	out, first := map[string]string{}, map[string]string{}
	for _, k := range keys {
		if at, ok := first[diffs[k]]; ok {
			out[k] = "=" + at
			continue
		}
		first[diffs[k]], out[k] = k, diffs[k]
	}
	return jsAssign("kubewalkDiffs", out)
}

// ---- changes.html ----

type changeEntry struct {
	changeView
	Ref      string
	From, To string // "symbol at path:a-b"
	Cited    []navView
	Diff     []codehtml.Line
	// SameAs links the entry above with the same diff (#dN), which is
	// written once: references to one declaration by several patterns
	// share it, a third of the nine releases' changes pages.
	SameAs string
}

type factChangeRow struct {
	Kind, Change, Label string
	At                  locView
}

func (b *builder) changesPage() ([]byte, error) {
	p := changesPage
	body := struct {
		Since   string
		Refs    []changeEntry
		Facts   []factChangeRow
		Summary []string
	}{Since: b.in.Since}
	cited := map[string][]navView{}
	for _, d := range b.docs {
		for _, s := range d.Steps {
			seen := map[string]bool{}
			nv := navView{relURL(p, WalkthroughPage(d.ID), s.ID), d.Title + " · " + s.Title}
			refs := append([]walkthrough.Ref(nil), s.Refs...)
			for _, seg := range s.Segments {
				if seg.Excerpt != nil {
					refs = append(refs, seg.Excerpt.Ref)
				}
			}
			for _, r := range refs {
				k := r.Ref.String()
				if !seen[k] && b.changeN[k] > 0 {
					seen[k] = true
					cited[k] = append(cited[k], nv)
				}
			}
		}
	}
	side := func(s reldiff.Side) string {
		if s.Symbol == "" {
			return "—"
		}
		return fmt.Sprintf("%s · %s:%d-%d", fact.ShortSymbol(s.Symbol), s.Decl.Path, s.Decl.StartLine, s.Decl.EndLine)
	}
	shown := map[string]string{} // diff text → the entry showing it
	for _, k := range b.changeKeys {
		rc := b.in.Changes[k]
		cv := b.changeOf(p, k)
		e := changeEntry{changeView: *cv, Ref: rc.Ref, From: side(rc.From), To: side(rc.To), Cited: cited[k]}
		e.Href = "#d" + strconv.Itoa(cv.N)
		if at, ok := shown[rc.Diff]; ok {
			e.SameAs = at
		} else if rc.Diff != "" {
			e.Diff = codehtml.Lang("diff", []byte(strings.TrimSuffix(rc.Diff, "\n")))
			shown[rc.Diff] = e.Href
		}
		body.Refs = append(body.Refs, e)
	}
	v := b.views(p)
	for _, f := range b.in.FactChanges {
		r := factChangeRow{Kind: string(f.Kind), Change: string(f.Change), Label: f.Label}
		if f.Change == reldiff.Added {
			r.At = v.loc(f.At)
		} else if !f.At.IsZero() {
			r.At = locView{Text: fmt.Sprintf("%s:%d", f.At.Path, f.At.StartLine)}
		}
		body.Facts = append(body.Facts, r)
	}
	title := strings.ReplaceAll(b.t("changes.title"), "{since}", b.in.Since)
	return b.exec("changes", b.pageData(p, title, "changes", body))
}
