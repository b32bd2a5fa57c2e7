package site

import (
	"encoding/json"

	"github.com/kubewalk/kubewalk/internal/derive/explain"
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

const (
	explainPage    = "explain.html"
	explainIndexJS = "explain-index.js"
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

// explainIndexScript builds explain-index.js from the explainer of the
// release's facts and the site's walkthroughs (the language's, as the
// command line's --lang picks them).
func (b *builder) explainIndexScript() ([]byte, error) {
	// json.Marshal escapes <, > and & (and U+2028, U+2029), so no fact can
	// end the script or break out of the string it sits in.
	data, err := json.Marshal(b.explainer().Index())
	if err != nil {
		return nil, err
	}
	return append(append([]byte("window.kubewalkExplain = "), data...), ";\n"...), nil
}

// explainer is the build's one Explainer, made on first use: the explain
// page's index and the recorded runs' attribution (recorded.go) both read
// it, so its indexes of the facts and steps are built once per build.
func (b *builder) explainer() *explain.Explainer {
	b.explainOnce.Do(func() {
		opts := explainOptions(b.opts.SourceURL)
		opts.SourcePage = func(p string, line int) string { return b.srcLink(explainPage, p, line, 0) }
		b.explainX = explain.New(b.in.Facts, b.docs, opts)
	})
	return b.explainX
}

func (b *builder) explainPage() ([]byte, error) {
	// The example is the recorded run's events, as kubectl printed them
	// at this release, when there is a recording.
	body := struct{ IndexJS, ExplainJS, Example string }{
		relURL(explainPage, explainIndexJS, ""), b.asset(explainPage, "explain.js"), b.recordedEvents(),
	}
	return b.exec("explain", b.pageData(explainPage, b.t("explain.title"), "explain", body))
}
