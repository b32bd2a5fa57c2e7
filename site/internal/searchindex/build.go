package searchindex

import (
	"maps"
	"slices"
	"strings"
	"unicode"
)

// Search is full text and static: at build time each entry's words
// become terms of an inverted index (Build), written into
// search-index.js with the entries; assets/search.js splits the query
// the same way (Terms), looks up each term (and, for the last word
// typed, every term it begins) and ranks the entries by the terms they
// share with the query, weighted by rarity. Korean has no spaces between
// a noun and its particle ("디플로이먼트를"), so a Hangul run is indexed
// as its two-syllable bigrams, the usual tokenisation of CJK search
// engines (Lucene's CJK analyzer, Elasticsearch's cjk_bigram): a query's
// bigrams match whatever particle follows.

// Entry is one search hit as package site lists it: its kind, title,
// URL from the directory of search.html, detail, and the text it is
// found by besides its title.
type Entry struct {
	Kind, Title, URL, Detail string
	// Body is the text the entry is found by besides its title (a step's
	// prose, captions, diagram label and events); not written.
	Body string
}

// Indexes divides the entries of a release's languages (langs, the
// first language first, each sorted and each entry once) into the
// indexes of its search scripts: each language's search-index.js and
// search-shared.js, nil when there is nothing to share.
//
// The entries every language has alike — the symbols but the func
// literals (whose names are translated), files, events, resources:
// most of a release's — are search-shared.js, written once,
// beside the first language's search page (its URLs, like
// search-index.js's, are relative to a language's search page, and the
// same from each), and every language's search-index.js has the rest,
// both numbering their entries from 0; search.js puts the two together.
// An entry every language has alike is written once only if its link
// leaves the language's directory (a source page's): one into it (an
// event's, a resource's) is relative to the search page that loads it in
// the first language's directory, and a multi-release site moves it to
// that language's shared page (package searchshare).
func Indexes(langs [][]Entry) (own []Data, shared *Data) {
	in := map[Entry]int{}
	for _, es := range langs {
		for _, e := range es {
			in[e]++
		}
	}
	alike := func(e Entry) bool { return in[e] == len(langs) && strings.HasPrefix(e.URL, "../") }
	var common []Entry
	if len(langs) > 1 {
		for _, e := range langs[0] {
			if alike(e) {
				common = append(common, e)
			}
		}
	}
	if len(common) > 0 {
		d := Build(common, SharedHead)
		shared = &d
	}
	for _, es := range langs {
		if len(common) > 0 {
			es = slices.DeleteFunc(es, alike)
		}
		own = append(own, Build(es, IndexHead))
	}
	return own, shared
}

// Build is the index of entries es, its script starting with head: a
// term of an entry's title weighs 3, one of its body only 1.
func Build(es []Entry, head string) Data {
	d := Data{Docs: make([][]string, len(es)), Lens: make([]int, len(es)), Terms: map[string][]int{}, Head: head}
	for i, e := range es {
		d.Docs[i] = []string{e.Kind, e.Title, e.URL, e.Detail}
		w := map[string]int{}
		for _, t := range Terms(e.Body) {
			w[t] = 1
		}
		for _, t := range Terms(e.Title) {
			w[t] = 3
		}
		for _, t := range slices.Sorted(maps.Keys(w)) {
			d.Terms[t] = append(d.Terms[t], i, w[t])
		}
		d.Lens[i] = len(w)
	}
	return d
}

// Terms splits text into search terms as search.js splits a query:
// lower-cased runs of letters and digits, a Hangul run as its bigrams (a
// single syllable as itself); one-letter Latin words and digits alone
// are left out, as too common to tell entries apart.
func Terms(text string) []string {
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
