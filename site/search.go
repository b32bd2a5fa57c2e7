package site

import (
	"cmp"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode"

	"golang.org/x/net/html"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/site/internal/searchindex"
	"github.com/kubewalk/kubewalk/walkthrough"
)

// ---- search ----

// Search is full text and static: at build time each entry's words
// become terms of an inverted index, written into search-index.js with
// the entries; assets/search.js splits the query the same way, looks up
// each term (and, for the last word typed, every term it begins) and
// ranks the entries by the terms they share with the query, weighted by
// rarity. Korean has no spaces between a noun and its particle
// ("디플로이먼트를"), so a Hangul run is indexed as its two-syllable
// bigrams, the usual tokenisation of CJK search engines (Lucene's CJK
// analyzer, Elasticsearch's cjk_bigram): a query's bigrams match whatever
// particle follows. Pasted event text ("Successfully assigned
// default/nginx to node1") matches the message format of its event
// ("Successfully assigned %s to %s"), indexed on the event and on each
// step that shows or names that event, though not every word is there:
// an entry need only share most of the query's terms.

// searchEntry is one search hit: title, kind, URL from the directory of
// search.html, detail.
type searchEntry struct {
	T string `json:"t"`
	K string `json:"k"`
	U string `json:"u"`
	D string `json:"d,omitempty"`
	// body is the text the entry is found by besides its title (a step's
	// prose, captions, diagram label and events); not written.
	body string
}

// searchData is search-index.js's JSON (package searchindex).
type searchData = searchindex.Data

// searchPage is search.html: it loads search-shared.js, when the
// release's languages have one, before its own search-index.js.
func (b *builder) searchPage() ([]byte, error) {
	_, shared, err := b.searchIndex()
	if err != nil {
		return nil, err
	}
	var body struct{ SharedJS string }
	if shared != nil {
		body.SharedJS = relURL(b.full(searchPage), langsOf(b)[0].full(searchSharedJS), "")
	}
	return b.exec("search", b.pageData(searchPage, b.t("search.title"), "search", body))
}

// searchIndex is built at build time: walkthroughs, steps, referenced
// symbols, event reasons, resources and rendered files. search.html loads
// it as a script (search-index.js assigns a global) because fetch() of a
// JSON file fails from file://.
//
// In a bilingual release the entries every language has alike — the
// symbols but the func literals (whose names are translated), files,
// events, resources: three quarters of v1.37.2's — are search-shared.js,
// written once, beside the first language's search page (its URLs, like
// search-index.js's, are relative to a language's search page, and the
// same from each), and every language's search-index.js has the rest,
// both numbering their entries from 0; search.js puts the two together.
// shared is nil when there is nothing to share; the first language
// writes it (dataPages). The scripts are made once for all the
// languages. A multi-release site then moves the entries two releases or
// more have into scripts of its own (package searchshare).
func (b *builder) searchIndex() (own, shared []byte, err error) {
	ls := langsOf(b)
	x := &ls[0].searchIdx
	x.once.Do(func() { x.own, x.shared, x.err = searchScripts(ls) })
	if x.err != nil {
		return nil, nil, x.err
	}
	return x.own[slices.Index(ls, b)], x.shared, nil
}

// searchIndexes are the search scripts of a release's languages
// (builder.searchIndex): each language's search-index.js, in langsOf's
// order, and search-shared.js (nil when none).
type searchIndexes struct {
	once   sync.Once
	own    [][]byte
	shared []byte
	err    error
}

// searchScripts makes the search scripts of languages ls.
func searchScripts(ls []*builder) (own [][]byte, shared []byte, err error) {
	entries := make([][]searchEntry, len(ls))
	in := map[searchEntry]int{}
	for i, lb := range ls {
		entries[i] = lb.searchEntries()
		for _, e := range entries[i] {
			in[e]++
		}
	}
	// An entry every language has alike is written once, but only if its
	// link leaves the language's directory (a source page's): one into
	// it (an event's, a resource's) is relative to the search page that
	// loads it in the first language's directory, and a multi-release
	// site moves it to that language's shared page (relinkSearch).
	alike := func(e searchEntry) bool { return in[e] == len(ls) && strings.HasPrefix(e.U, "../") }
	var common []searchEntry
	if len(ls) > 1 {
		for _, e := range entries[0] {
			if alike(e) {
				common = append(common, e)
			}
		}
	}
	if len(common) > 0 {
		if shared, err = searchindex.Script(searchIndexData(common, searchindex.SharedHead)); err != nil {
			return nil, nil, err
		}
	}
	for _, es := range entries {
		if len(common) > 0 {
			es = slices.DeleteFunc(es, alike)
		}
		js, err := searchindex.Script(searchIndexData(es, searchindex.IndexHead))
		if err != nil {
			return nil, nil, err
		}
		own = append(own, js)
	}
	return own, shared, nil
}

// searchIndexData is the index of entries es.
func searchIndexData(es []searchEntry, head string) searchData {
	d := searchData{Docs: make([][]string, len(es)), Lens: make([]int, len(es)), Terms: map[string][]int{}, Head: head}
	for i, e := range es {
		d.Docs[i] = []string{e.K, e.T, e.U, e.D}
		w := map[string]int{}
		for _, t := range searchTerms(e.body) {
			w[t] = 1
		}
		for _, t := range searchTerms(e.T) {
			w[t] = 3
		}
		for _, t := range slices.Sorted(maps.Keys(w)) {
			d.Terms[t] = append(d.Terms[t], i, w[t])
		}
		d.Lens[i] = len(w)
	}
	return d
}

// searchTerms splits text into search terms as search.js splits a
// query: lower-cased runs of letters and digits, a Hangul run as its
// bigrams (a single syllable as itself); one-letter Latin words and
// digits alone are left out, as too common to tell entries apart.
func searchTerms(text string) []string {
	var out []string
	var run []rune
	hangul := false
	flush := func() {
		switch {
		case len(run) == 0:
		case hangul && len(run) == 1:
			out = append(out, string(run))
		case hangul:
			for i := 0; i+1 < len(run); i++ {
				out = append(out, string(run[i:i+2]))
			}
		case len(run) > 1:
			out = append(out, string(run))
		}
		run = run[:0]
	}
	for _, r := range strings.ToLower(text) {
		h := isHangul(r)
		if !h && !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			flush()
			continue
		}
		if len(run) > 0 && h != hangul {
			flush()
		}
		hangul = h
		run = append(run, r)
	}
	flush()
	return out
}

// isHangul reports whether r is a Hangul syllable or jamo (search.js
// tests the same ranges).
func isHangul(r rune) bool {
	return r >= 0xAC00 && r <= 0xD7A3 || r >= 0x1100 && r <= 0x11FF || r >= 0x3130 && r <= 0x318F
}

// searchEntries lists the search index's entries, sorted by kind, title,
// URL and detail, each once.
func (b *builder) searchEntries() []searchEntry {
	var es []searchEntry
	const root = searchPage // URLs relative to search.html's directory
	// Links into the source pages are the first language's, which name
	// no language (site.js adds the reader's to a link it follows), so
	// that the languages' entries of symbols and files agree (searchIndex).
	first := langsOf(b)[0]
	for _, d := range b.docs {
		wp := WalkthroughPage(d.ID)
		es = append(es, searchEntry{T: d.Title, K: "walkthrough", U: relURL(root, wp, ""), D: plainMarkdown(d.Summary), body: d.Summary + " " + strings.Join(d.Topics, " ") + " " + b.segmentsText(d.Intro)})
		for _, s := range d.Steps {
			es = append(es, searchEntry{T: s.Title, K: "step", U: relURL(root, wp, s.ID), D: d.Title, body: b.stepText(s)})
		}
	}
	for name, decl := range b.searchSymbols() {
		// A func literal's symbol ("…Controller$1") is for machines: the
		// entry shows where the literal is written, and its description
		// the declaration that holds it.
		full, _, _ := strings.Cut(name, "$")
		es = append(es, searchEntry{T: b.shortName(name, decl), K: "symbol", U: first.link(root, SourcePage(decl.Path), lineFragment(decl.StartLine, decl.EndLine)), D: full, body: full})
	}
	// An event's entry is its reason; its detail, the snippet a result
	// shows, is its types and message formats, which pasted text matches.
	byReason := map[string][]fact.Event{}
	for _, e := range b.in.Facts.Events {
		byReason[eventKey(e)] = append(byReason[eventKey(e)], e)
	}
	for _, k := range slices.Sorted(maps.Keys(byReason)) {
		var types, msgs []string
		for _, e := range byReason[k] {
			types = appendNew(types, e.Type)
			msgs = appendNew(msgs, e.Message)
			for _, m := range e.MessageValues {
				msgs = appendNew(msgs, m)
			}
		}
		slices.Sort(types)
		d := strings.Join(types, "/")
		if len(msgs) > 0 {
			d = strings.TrimPrefix(d+" — "+clip(strings.Join(msgs, " · "), 160), " — ")
		}
		es = append(es, searchEntry{T: k, K: "event", U: b.link(root, eventsPage, anchorID("e-", k)), D: d, body: strings.Join(msgs, " ")})
	}
	res := map[string]bool{}
	for _, h := range b.in.Facts.Handlers {
		res[resourceLabel(h.Informer)] = true
	}
	for _, w := range b.in.Facts.Writes {
		res[resourceLabel(w.Resource)] = true
	}
	for _, k := range slices.Sorted(maps.Keys(res)) {
		es = append(es, searchEntry{T: k, K: "resource", U: b.link(root, resourcesPage, anchorID("res-", k))})
	}
	for _, f := range b.files {
		es = append(es, searchEntry{T: f, K: "file", U: first.link(root, SourcePage(f), "")})
	}
	sort.Slice(es, func(i, j int) bool {
		a, c := es[i], es[j]
		return cmp.Or(cmp.Compare(a.K, c.K), cmp.Compare(a.T, c.T), cmp.Compare(a.U, c.U), cmp.Compare(a.D, c.D), cmp.Compare(a.body, c.body)) < 0
	})
	out := es[:0]
	for i, e := range es {
		if i == 0 || e != es[i-1] {
			out = append(out, e)
		}
	}
	if out == nil {
		out = []searchEntry{}
	}
	return out
}

// appendNew appends s to list unless it is empty or there already.
func appendNew(list []string, s string) []string {
	if s == "" || slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

// clip cuts s to at most n runes, at a space where one is near, marking
// the cut with "…".
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	cut := n
	for i := n; i > n-20 && i > 0; i-- {
		if r[i] == ' ' {
			cut = i
			break
		}
	}
	return strings.TrimRight(string(r[:cut]), " ·") + "…"
}

// plainMarkdown is a front matter summary as plain text: the backticks
// and emphasis marks a summary may be written with (it is Markdown on
// the page) mean nothing in a search result's plain text.
func plainMarkdown(s string) string {
	return strings.NewReplacer("`", "", "**", "", "__", "").Replace(s)
}

// stepText is what a step is found by besides its title: its prose, the
// captions and symbols of its excerpts, its diagram message, and the
// reasons and message formats of the events it shows or names, so that
// text pasted from kubectl get events finds the step that explains it.
func (b *builder) stepText(s walkthrough.Step) string {
	var sb strings.Builder
	add := func(parts ...string) {
		for _, p := range parts {
			sb.WriteString(p)
			sb.WriteByte('\n')
		}
	}
	add(s.Label, s.From, s.To, b.segmentsText(s.Segments))
	for _, r := range s.Refs {
		add(fact.ShortSymbol(r.Resolved.Symbol.Name))
	}
	var events []fact.Event
	for _, seg := range s.Segments {
		if e := seg.Excerpt; e != nil {
			add(e.Caption, fact.ShortSymbol(e.Resolved.Symbol.Name))
		}
		if f := seg.Facts; f != nil {
			events = append(events, f.Events...)
		}
	}
	text := sb.String()
	words := map[string]bool{}
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		words[w] = true
	}
	for _, e := range b.in.Facts.Events {
		if e.Reason != "" && words[e.Reason] {
			events = append(events, e)
		}
	}
	for _, e := range events {
		add(eventKey(e), e.Message)
	}
	return sb.String()
}

// segmentsText is the text of segments' HTML (renderProse), tags
// dropped.
func (b *builder) segmentsText(segs []walkthrough.Segment) string {
	var sb strings.Builder
	for _, s := range segs {
		z := html.NewTokenizer(strings.NewReader(string(b.prose[s.Markdown])))
		for tt := z.Next(); tt != html.ErrorToken; tt = z.Next() {
			switch tt {
			case html.TextToken:
				sb.Write(z.Text())
			case html.StartTagToken, html.EndTagToken:
				sb.WriteByte(' ') // words of two elements stay apart
			}
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}

// searchSymbols returns the symbols that get a search entry, at their
// declaration in a rendered file: the symbols walkthroughs cite and the
// functions the facts name. Of one name, the first declaration wins.
func (b *builder) searchSymbols() map[string]fact.Location {
	syms := map[string]fact.Location{}
	addSym := func(name string, decl fact.Location) {
		if name != "" && !decl.IsZero() && b.rendered[decl.Path] {
			if _, ok := syms[name]; !ok {
				syms[name] = decl
			}
		}
	}
	for _, d := range b.docs {
		for _, s := range d.Steps {
			for _, r := range s.Refs {
				addSym(r.Resolved.Symbol.Name, r.Resolved.Symbol.Decl)
			}
			for _, seg := range s.Segments {
				if e := seg.Excerpt; e != nil {
					addSym(e.Resolved.Symbol.Name, e.Resolved.Symbol.Decl)
				}
			}
		}
	}
	for _, h := range b.in.Facts.Handlers {
		addSym(h.Caller.Symbol, h.Caller.Decl)
		for _, x := range []*fact.Handler{h.Add, h.Update, h.Delete, h.Filter} {
			if x != nil {
				addSym(x.Symbol, x.Decl)
			}
		}
	}
	for _, w := range b.in.Facts.Writes {
		addSym(w.Caller.Symbol, w.Caller.Decl)
	}
	for _, e := range b.in.Facts.Events {
		addSym(e.Caller.Symbol, e.Caller.Decl)
	}
	for _, w := range b.in.Facts.Wirings {
		addSym(w.Sync.Symbol, w.Sync.Decl)
	}
	return syms
}
