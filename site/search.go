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

// Search is full text and static (package searchindex: the index's
// format and terms). Pasted event text ("Successfully assigned
// default/nginx to node1") matches the message format of its event
// ("Successfully assigned %s to %s"), indexed on the event and on each
// step that shows or names that event, though not every word is there:
// an entry need only share most of the query's terms.

// searchEntry is one search hit (searchEntries).
type searchEntry = searchindex.Entry

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
// In a bilingual release the entries every language has alike are
// search-shared.js (searchindex.Scripts), written once, beside the first
// language's search page; shared is nil when there is nothing to share;
// the first language writes it (dataPages). The scripts are made once
// for all the languages. A multi-release site then moves the entries two
// releases or more have into scripts of its own (package searchshare).
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
	for i, lb := range ls {
		entries[i] = lb.searchEntries()
	}
	return searchindex.Scripts(entries)
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
		es = append(es, searchEntry{Title: d.Title, Kind: "walkthrough", URL: relURL(root, wp, ""), Detail: plainMarkdown(d.Summary), Body: d.Summary + " " + strings.Join(d.Topics, " ") + " " + b.segmentsText(d.Intro)})
		for _, s := range d.Steps {
			es = append(es, searchEntry{Title: s.Title, Kind: "step", URL: relURL(root, wp, s.ID), Detail: d.Title, Body: b.stepText(s)})
		}
	}
	for name, decl := range b.searchSymbols() {
		// A func literal's symbol ("…Controller$1") is for machines: the
		// entry shows where the literal is written, and its description
		// the declaration that holds it.
		full, _, _ := strings.Cut(name, "$")
		es = append(es, searchEntry{Title: b.shortName(name, decl), Kind: "symbol", URL: first.link(root, SourcePage(decl.Path), lineFragment(decl.StartLine, decl.EndLine)), Detail: full, Body: full})
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
		es = append(es, searchEntry{Title: k, Kind: "event", URL: b.link(root, eventsPage, anchorID("e-", k)), Detail: d, Body: strings.Join(msgs, " ")})
	}
	res := map[string]bool{}
	for _, h := range b.in.Facts.Handlers {
		res[resourceLabel(h.Informer)] = true
	}
	for _, w := range b.in.Facts.Writes {
		res[resourceLabel(w.Resource)] = true
	}
	for _, k := range slices.Sorted(maps.Keys(res)) {
		es = append(es, searchEntry{Title: k, Kind: "resource", URL: b.link(root, resourcesPage, anchorID("res-", k))})
	}
	for _, f := range b.files {
		es = append(es, searchEntry{Title: f, Kind: "file", URL: first.link(root, SourcePage(f), "")})
	}
	sort.Slice(es, func(i, j int) bool {
		a, c := es[i], es[j]
		return cmp.Or(cmp.Compare(a.Kind, c.Kind), cmp.Compare(a.Title, c.Title), cmp.Compare(a.URL, c.URL), cmp.Compare(a.Detail, c.Detail), cmp.Compare(a.Body, c.Body)) < 0
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
