package searchindex

import (
	"cmp"
	"html/template"
	"maps"
	"slices"
	"sort"
	"strings"
	"unicode"

	"golang.org/x/net/html"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/walkthrough"
)

// Release is what one release's search entries are made of, in one
// language: its walkthroughs and facts as the site renders them, and its
// links and names as its pages give them (URLs).
type Release struct {
	Docs  []*walkthrough.Doc
	Facts *fact.Facts
	// Files are the files with a source page, each an entry.
	Files []string
	// Rendered reports whether a file has a source page: a symbol gets
	// an entry only at a declaration a reader can open.
	Rendered func(path string) bool
	// Prose is the HTML each Markdown segment of Docs renders to; an
	// entry is found by its text.
	Prose map[*walkthrough.Markdown]template.HTML
	URLs  URLs
}

// URLs are a release's links, from the search page's directory, and the
// names its pages give symbols.
type URLs struct {
	// Walkthrough is a walkthrough's page, at step when step is not "".
	Walkthrough func(id, step string) string
	// Symbol is the declaration decl on its source page.
	Symbol func(decl fact.Location) string
	// Event is an event's row on the events page, by its Key.
	Event func(key string) string
	// Resource is a resource's row on the resources page, by its Label.
	Resource func(label string) string
	// File is a file's source page.
	File func(path string) string
	// SymbolTitle is how the pages name symbol sym declared at decl (a
	// func literal by where it is written).
	SymbolTitle func(sym string, decl fact.Location) string
}

// Entries lists r's search entries, sorted by kind, title, URL, detail
// and body, each once. Pasted event text ("Successfully assigned
// default/nginx to node1") matches the message format of its event
// ("Successfully assigned %s to %s"), indexed on the event and on each
// step that shows or names that event, though not every word is there:
// an entry need only share most of the query's terms.
func Entries(r Release) []Entry {
	var es []Entry
	for _, d := range r.Docs {
		es = append(es, Entry{Title: d.Title, Kind: "walkthrough", URL: r.URLs.Walkthrough(d.ID, ""), Detail: plainMarkdown(d.Summary),
			Body: d.Summary + " " + strings.Join(d.Topics, " ") + " " + r.segmentsText(d.Intro)})
		for _, s := range d.Steps {
			es = append(es, Entry{Title: s.Title, Kind: "step", URL: r.URLs.Walkthrough(d.ID, s.ID), Detail: d.Title, Body: r.stepText(s)})
		}
	}
	for name, decl := range r.symbols() {
		// A func literal's symbol ("…Controller$1") is for machines: the
		// entry shows where the literal is written, and its description
		// the declaration that holds it.
		full, _, _ := strings.Cut(name, "$")
		es = append(es, Entry{Title: r.URLs.SymbolTitle(name, decl), Kind: "symbol", URL: r.URLs.Symbol(decl), Detail: full, Body: full})
	}
	es = append(es, r.eventEntries()...)
	res := map[string]bool{}
	for _, h := range r.Facts.Handlers {
		res[h.Informer.Label()] = true
	}
	for _, w := range r.Facts.Writes {
		res[w.Resource.Label()] = true
	}
	for _, k := range slices.Sorted(maps.Keys(res)) {
		es = append(es, Entry{Title: k, Kind: "resource", URL: r.URLs.Resource(k)})
	}
	for _, f := range r.Files {
		es = append(es, Entry{Title: f, Kind: "file", URL: r.URLs.File(f)})
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
		out = []Entry{}
	}
	return out
}

// eventEntries are an entry per event reason: its detail, the snippet a
// result shows, is its types and message formats, which pasted text
// matches.
func (r Release) eventEntries() []Entry {
	byReason := map[string][]fact.Event{}
	for _, e := range r.Facts.Events {
		byReason[e.Key()] = append(byReason[e.Key()], e)
	}
	var es []Entry
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
		es = append(es, Entry{Title: k, Kind: "event", URL: r.URLs.Event(k), Detail: d, Body: strings.Join(msgs, " ")})
	}
	return es
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
func (r Release) stepText(s walkthrough.Step) string {
	var sb strings.Builder
	add := func(parts ...string) {
		for _, p := range parts {
			sb.WriteString(p)
			sb.WriteByte('\n')
		}
	}
	add(s.Label, s.From, s.To, r.segmentsText(s.Segments))
	for _, ref := range s.Refs {
		add(fact.ShortSymbol(ref.Resolved.Symbol.Name))
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
	for _, e := range r.Facts.Events {
		if e.Reason != "" && words[e.Reason] {
			events = append(events, e)
		}
	}
	for _, e := range events {
		add(e.Key(), e.Message)
	}
	return sb.String()
}

// segmentsText is the text of segments' HTML (Prose), tags dropped.
func (r Release) segmentsText(segs []walkthrough.Segment) string {
	var sb strings.Builder
	for _, s := range segs {
		z := html.NewTokenizer(strings.NewReader(string(r.Prose[s.Markdown])))
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

// symbols returns the symbols that get a search entry, at their
// declaration in a rendered file: the symbols walkthroughs cite and the
// functions the facts name. Of one name, the first declaration wins.
func (r Release) symbols() map[string]fact.Location {
	syms := map[string]fact.Location{}
	add := func(name string, decl fact.Location) {
		if name != "" && !decl.IsZero() && r.Rendered(decl.Path) {
			if _, ok := syms[name]; !ok {
				syms[name] = decl
			}
		}
	}
	for _, d := range r.Docs {
		for _, s := range d.Steps {
			for _, ref := range s.Refs {
				add(ref.Resolved.Symbol.Name, ref.Resolved.Symbol.Decl)
			}
			for _, seg := range s.Segments {
				if e := seg.Excerpt; e != nil {
					add(e.Resolved.Symbol.Name, e.Resolved.Symbol.Decl)
				}
			}
		}
	}
	for _, h := range r.Facts.Handlers {
		add(h.Caller.Symbol, h.Caller.Decl)
		for _, x := range []*fact.Handler{h.Add, h.Update, h.Delete, h.Filter} {
			if x != nil {
				add(x.Symbol, x.Decl)
			}
		}
	}
	for _, w := range r.Facts.Writes {
		add(w.Caller.Symbol, w.Caller.Decl)
	}
	for _, e := range r.Facts.Events {
		add(e.Caller.Symbol, e.Caller.Decl)
	}
	for _, w := range r.Facts.Wirings {
		add(w.Sync.Symbol, w.Sync.Decl)
	}
	return syms
}
