package site

import (
	"slices"
	"strconv"
	"strings"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/internal/derive/cited"
	"github.com/kubewalk/kubewalk/internal/derive/reldiff"
	"github.com/kubewalk/kubewalk/site/internal/jsdata"
	"github.com/kubewalk/kubewalk/walkthrough"
)

// What changed since the previous release (Input.Since, Input.Changes):
//
//   - a badge on every excerpt and step whose reference's code moved,
//     changed, was renamed or is gone, linking to changes.html;
//   - under it, a collapsed <details> that shows the unified diff of the
//     declaration;
//   - changes.html, one page per release, with every changed reference
//     once, a box for its diff, the steps that cite it, and the handlers,
//     events and writes added or removed. It is also what a reader
//     without script gets from a badge. A bilingual release has one for
//     its languages, at its root: what is code — the references, their
//     declarations' places, the facts — is the same in every language, so
//     only the text around it is written per language, as the shared
//     source pages' headers are, and ?lang= picks the one shown
//     (changesLink). Without script a reader sees the first language's.
//
// The diff text is in no page. A walkthrough's diffs between two
// releases can weigh about as much as its page, and written into each
// changes page as highlighted HTML they would be written again beside
// the walkthroughs' own, a diff cited by two walkthroughs in each. So a
// release has one script of its diffs, diffs.js at its root for every
// language (diffsFile, releaseDiffs), which site.js loads the first time
// a reader opens a walkthrough's diff, and at once on the changes page (a
// script, because fetch() fails on file://), and writes each diff as text
// with the diff line classes. Without script the changes page says how to
// print the diffs (kubewalk diff). bench/README.md has the sizes.

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
	b.changeKeys = reldiff.Numbered(b.in.Changes, func(st reldiff.Status) bool {
		_, ok := changeClasses[st]
		return ok
	})
	for i, k := range b.changeKeys {
		b.changeN[k] = i + 1
	}
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
		Href:    b.changesLink(p, "d"+strconv.Itoa(n)),
		HasDiff: rc.Diff != "",
	}
	if cv.Symbol == "" {
		cv.Symbol = fact.ShortSymbol(rc.From.Symbol)
	}
	if rc.From.Symbol != "" {
		was := rc.From.At()
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
	var out []changeView
	for _, r := range cited.Text(s) {
		if cv := b.change(p, r.Ref); cv != nil {
			out = append(out, *cv)
		}
	}
	return out
}

// docHasDiffs reports whether a reference of doc has a diff.
func (b *builder) docHasDiffs(d *walkthrough.Doc) bool {
	return slices.ContainsFunc(cited.Doc(d), func(r fact.Ref) bool {
		k := r.String()
		return b.changeN[k] > 0 && b.in.Changes[k].Diff != ""
	})
}

// diffsFile is the release's diffs script: every changed reference's
// diff by change number, for the walkthroughs' badges and the changes
// page. One file for every language, at the release's root (sharedPage).
const diffsFile = "diffs.js"

// releaseDiffs returns the diffs of b's release by change number: every
// changed reference's with a diff. The languages number the release's
// changes alike (numberChanges).
func (b *builder) releaseDiffs() map[string]string {
	out := map[string]string{}
	for _, k := range b.changeKeys {
		if d := b.in.Changes[k].Diff; d != "" {
			out[strconv.Itoa(b.changeN[k])] = d
		}
	}
	return out
}

// diffsLink is the link from the page at site path p to the release's
// diffs script: on a walkthrough page whose references changed with a
// diff, and on the changes page when a change has one; "" elsewhere.
func (b *builder) diffsLink(p string) string {
	if p == changesPage {
		if len(b.releaseDiffs()) > 0 {
			return b.link(p, diffsFile, "")
		}
		return ""
	}
	id, ok := walkthroughID(p)
	if !ok {
		return ""
	}
	for _, d := range b.docs {
		if d.ID == id && b.docHasDiffs(d) {
			return b.link(p, diffsFile, "")
		}
	}
	return ""
}

// diffsScript is a release's diffs as a script assigning a global:
// change number → unified diff text, or "=N" for the text of change N
// when it is the same (reldiff.Once). encoding/json sorts
// the keys and escapes <, > and & (the text is source code, never markup).
func diffsScript(diffs map[string]string) ([]byte, error) {
	return jsdata.Assign("kubewalkDiffs", reldiff.Once(diffs))
}
