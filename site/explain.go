package site

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"sync"

	"github.com/kubewalk/kubewalk/internal/derive/explain"
	"github.com/kubewalk/kubewalk/site/internal/explainshare"
	"github.com/kubewalk/kubewalk/site/internal/jsdata"
)

// The explain page: the reader pastes `kubectl get events`
// output (any column layout, with or without --watch, -o wide, -A),
// `kubectl get events -o json`, or API server audit lines, and
// assets/explain.js explains each record in the browser — no server, and
// explain-index.js is a script rather than JSON because fetch() fails on
// file://.
//
// The page gives the answers `kubewalk explain` gives at the same tag with
// the same walkthroughs. explain-index.js is internal/derive/explain's Index of
// the explainer below: the call sites with their code, permalinks, step
// scores and reach sets, computed by the explainer's own code; explain.js
// ports the rest (parsing, ranking, components) line for line, and
// explain_parity_test.go runs internal/derive/explain's corpus through both and
// compares them line by line. What cannot agree exactly is listed at the
// top of explain.js and pinned by TestBrowserExplainKnownDifferences.
//
// The Index's steps, whose titles are in the page's language, are a script
// of their own, explain-steps.js, beside the page; the rest,
// explain-index.js, is in a bilingual site the same bytes in every
// language (its links name no language: explainer), and written once, at
// the release's root. Only where the languages' walkthroughs give the call
// sites other steps or scores does each language have its own
// explain-index.js (explainIndexes). In a multi-release site, what the
// releases' scripts share is then written once (explainshare.Share, run by
// package site/releases).

const (
	explainPage    = explainshare.Page
	explainIndexJS = explainshare.IndexJS
	explainStepsJS = explainshare.StepsJS
)

// explainOptions are the explainer's link rules on the explain page:
// permalinks as everywhere, steps relative to the page. (The builder adds
// SourcePage, which needs to know which source pages exist.)
func explainOptions(sourceURL func(path string, from, to int) string) explain.Options {
	return explain.Options{
		Permalink: sourceURL,
		StepPage:  func(doc, step string) string { return relURL(explainPage, WalkthroughPage(doc), step) },
	}
}

// explainIndexes are the explain scripts of a release's languages, made
// once for all of them (builder.explainIndexes).
type explainIndexes struct {
	once sync.Once
	// idx is each language's Index, in Input.Langs's order: its steps
	// are the language's explain-steps.js (explainStepsScript), and what
	// a multi-release site hands its stage (Prepared.ExplainScripts).
	idx []*explain.Index
	// index is explain-index.js of each language, in Input.Langs's
	// order; one, for every language, when shared.
	index [][]byte
	// shared is true in a bilingual release whose languages'
	// explain-index.js are the same bytes: written once, at the
	// release's root.
	shared bool
	err    error
}

// explainIndexes returns the explain scripts of b's release, made on
// first use from the explainer of each language: the release's facts and
// the language's walkthroughs, as the command line's --lang picks them.
func (b *builder) explainIndexes() (*explainIndexes, error) {
	ls := b.rel.langs
	x := &b.rel.explainIdx
	x.once.Do(func() {
		for _, lb := range ls {
			idx := lb.explainer().Index()
			x.idx = append(x.idx, idx)
			base, err := jsdata.Assign("kubewalkExplain", explainshare.Base{Index: idx})
			if err != nil {
				x.err = err
				return
			}
			x.index = append(x.index, base)
		}
		x.shared = len(ls) > 1 && !slices.ContainsFunc(x.index, func(d []byte) bool { return !bytes.Equal(d, x.index[0]) })
		if x.shared {
			x.index = x.index[:1]
		}
	})
	return x, x.err
}

// explainScripts adds b's explain scripts to l: explain-index.js and
// explain-steps.js. A release of a multi-release site has its stage
// write them (Prepared.ExplainScripts).
func (b *builder) explainScripts(l *pageList) {
	if b.set != nil {
		return
	}
	l.ps = append(l.ps, page{path: explainIndexJS, render: b.explainIndexScript}, page{path: explainStepsJS, render: b.explainStepsScript})
}

// explainIndexScript is explain-index.js of b's language.
func (b *builder) explainIndexScript() ([]byte, error) {
	x, err := b.explainIndexes()
	if err != nil {
		return nil, err
	}
	if x.shared {
		return x.index[0], nil
	}
	return x.index[slices.Index(b.rel.langs, b)], nil
}

// explainStepsScript is explain-steps.js of b's language.
func (b *builder) explainStepsScript() ([]byte, error) {
	x, err := b.explainIndexes()
	if err != nil {
		return nil, err
	}
	return jsdata.Assign("kubewalkExplainSteps", x.idx[slices.Index(b.rel.langs, b)].Steps)
}

// explainer is the build's one Explainer, made on first use: the explain
// page's index and the recorded runs' attribution (recorded.go) both read
// it, so its indexes of the facts and steps are built once per build.
//
// Its links to the source pages are the first language's, which name no
// language (relQuery), so that the languages' explain-index.js agree;
// site.js carries the reader's language onto a link into the source pages
// it follows.
func (b *builder) explainer() *explain.Explainer {
	b.explainOnce.Do(func() {
		opts := explainOptions(b.opts.SourceURL)
		first := b.rel.langs[0]
		opts.SourcePage = func(p string, line int) string { return first.srcLink(explainPage, p, line, 0) }
		b.explainX = explain.New(b.in.Facts, b.docs, opts)
	})
	return b.explainX
}

func (b *builder) explainPage() ([]byte, error) {
	x, err := b.explainIndexes()
	if err != nil {
		return nil, err
	}
	index := relURL(explainPage, explainIndexJS, "")
	if x.shared {
		index = relURL(b.full(explainPage), explainIndexJS, "")
	}
	// The example is the recorded run's events, as kubectl printed them
	// at this release, when there is a recording.
	strs, err := b.explainStrings()
	if err != nil {
		return nil, err
	}
	body := struct{ SharedJS, IndexJS, StepsJS, RelJS, ExplainJS, Example, Strings string }{
		"", index, relURL(explainPage, explainStepsJS, ""), "", b.asset(explainPage, "explain.js"), b.recordedEvents(), strs,
	}
	if b.set != nil {
		// A multi-release site's explain scripts are what
		// explainshare.Share makes of them: what the releases share at the
		// site's root, the steps at the root of the language's directory.
		page := b.site(explainPage)
		body.SharedJS = relURL(page, explainshare.SharedJS, "")
		body.StepsJS = relURL(page, b.langDir+explainshare.StepsSharedJS, "")
	}
	pd := b.pageData(explainPage, b.t("explain.title"), "explain", body)
	// explain.js needs releases.js first: the page loads it with the
	// explain scripts, not again at its foot.
	body.RelJS, pd.RelJS = pd.RelJS, ""
	pd.Body = body
	return b.exec("explain", pd)
}

// explainStrings is the JSON of the words explain.js writes into its
// results (roles, "via", where a component was read from, notes), in the
// page's language: every explain.role., explain.via, explain.from. and
// explain.note. string of the table, keys sorted. Their English is
// internal/derive/explain's wording, word for word, {0}… for its
// arguments: the parity test holds the English page to kubewalk explain.
func (b *builder) explainStrings() (string, error) {
	m := map[string]string{}
	for k := range messages["en"] {
		for _, p := range []string{"explain.role.", "explain.via", "explain.from.", "explain.note."} {
			if strings.HasPrefix(k, p) {
				m[k] = b.t(k)
			}
		}
	}
	j, err := json.Marshal(m) // map keys sorted: the same page every build
	return string(j), err
}
