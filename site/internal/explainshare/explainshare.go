// Package explainshare writes once what the explain scripts of a site's
// releases share, and reads a release's back (package
// site/releases runs Share on a site of several releases; site/releases'
// package comment defines the scripts).
//
// A single-release site writes its explain-index.js and each of its
// languages its explain-steps.js (package site, explain.go). In a site
// of several, package site hands each release's over as data (Script),
// and, once the steps' links are moved to the pages the releases share
// (pageshare.Links), Share has Encode write what they have in common
// once:
//
//   - explain-shared.js, at the site's root: the call sites two releases'
//     indexes or more have, aligned as the source pages' lines are (each
//     release's sites diffed, as keys, against those merged so far: a
//     site's key is all of it but its line, permalink, source page link,
//     reach and steps), each with the indexes that have it ("in": a hex
//     mask, a bit per index, newest release first) and, where they
//     differ, each one's line and other values ("x"). Strings hold the
//     index's tag as a token, and a permalink its line as another, so
//     that GitHub's /blob/v1.30.0/…#L12 of one release is the same string
//     as /blob/v1.31.0/…#L12 of the next; a string that still differs is
//     written as an edit of the shared one. Also there: the package
//     directories (every index's, so that a site's reach is the same
//     numbers in each) and the component and reason tables, once per
//     distinct value.
//   - each release's explain-index.js, where it was: its tag, its bit
//     ("copy"), which of the tables is its, and the call sites no other
//     index has, each with its place among the release's ("at").
//   - explain-steps-shared.js, at the root of each language's directory
//     (the site's root in a one-language site): each distinct list of
//     steps, tag as a token, with the tags of the releases whose page of
//     that language has it. A release has no explain-steps.js of its
//     own.
//
// releases.js (explain()) puts a release's Index and steps back together
// for explain.js, as Shared.release does here; Encode checks, before it
// returns them, that this gives every release exactly what it wrote,
// so every explain page answers as before. A page loads more than a
// release's own scripts (explain-shared.js and its own part), one script
// for all the releases, and the site holds the releases' data about
// once.
package explainshare

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"unicode/utf16"

	"github.com/sergi/go-diff/diffmatchpatch"

	"github.com/kubewalk/kubewalk/internal/derive/explain"
	"github.com/kubewalk/kubewalk/site/internal/jsdata"
	"github.com/kubewalk/kubewalk/site/internal/linediff"
)

const (
	// StepsJS is a release's explain-steps.js, in each of its language
	// directories (package site's explain.go writes it).
	StepsJS       = "explain-steps.js"
	Page          = "explain.html"     // the explain page, beside StepsJS
	IndexJS       = "explain-index.js" // a release's index, beside its explain page or above its languages'
	SharedJS      = "explain-shared.js"
	StepsSharedJS = "explain-steps-shared.js"
)

// explainKinds are the Index's lists of call sites.
var explainKinds = []string{"events", "writes", "handlers"}

// explainVaries are the fields of a call site that may differ between
// releases that have it: not part of the key that aligns them.
var explainVaries = []string{"l", "u", "s", "r", "st"}

// Shared is explain-shared.js's value.
type Shared struct {
	// Tok is the tag's token, then a permalink's line's (explainTokens).
	Tok string `json:"tok"`
	// Dirs are every index's package directories; the reach ("r") of
	// every site, shared or a release's own, numbers them.
	Dirs []string `json:"dirs"`
	// Tables are the distinct values of the Index's other fields
	// (reasons, controllers, components, kinds).
	Tables []map[string]any `json:"tables"`
	// Entries are the sites, by kind, that two indexes or more have, in
	// an order every index's agrees with.
	Entries map[string][]map[string]any `json:"entries"`
}

// Own is a release's explain-index.js in a multi-release site.
type Own struct {
	// Tag is the Index's; Rel the release's, which its links and
	// permalinks name and Shared's tokens stand for, when it is
	// not Tag (the facts of a test fixture can name another).
	Tag string `json:"tag"`
	Rel string `json:"rel,omitempty"`
	// Copy is the index's bit in Shared's masks; Tables its
	// position in Shared.Tables.
	Copy   int `json:"copy"`
	Tables int `json:"tables"`
	// Entries are the sites only this index has, each with its position
	// in the index's list ("at").
	Entries map[string][]map[string]any `json:"entries"`
}

// SharedSteps is an explain-steps-shared.js's value.
type SharedSteps struct {
	Tok   string           `json:"tok"`
	Lists []sharedStepList `json:"lists"`
}

// sharedStepList is a list of steps and the releases whose explain page
// (of the file's language) has it.
type sharedStepList struct {
	Tags  []string `json:"tags"`
	Steps []any    `json:"steps"`
}

// Copy is one release's explain-index.js, as the release wrote it.
type Copy struct {
	Path    string // its site path
	Tag     string // the release's
	itag    any    // the Index's tag
	tables  map[string]any
	entries map[string][]map[string]any
}

// View is one explain page of a multi-release site: its release,
// language directory and steps script (as the release wrote it).
type View struct {
	// Tag is the release's, Lang the page's language directory ("ko/",
	// "" in a site of one language), Steps the site path of its
	// explain-steps.js.
	Tag, Lang, Steps string
	// Data is that script's value, read with jsdata.Read.
	Data []any
}

// NewCopy reads the Index a release wrote at site path p.
func NewCopy(p, tag string, idx map[string]any) (*Copy, error) {
	c := &Copy{Path: p, Tag: tag, itag: idx["tag"], tables: map[string]any{}, entries: map[string][]map[string]any{}}
	if _, ok := c.itag.(string); !ok {
		return nil, fmt.Errorf("%s: tag %v", p, c.itag)
	}
	for k, v := range idx {
		if k == "tag" || k == "dirs" || slices.Contains(explainKinds, k) {
			continue
		}
		c.tables[k] = v
	}
	dirs, _ := idx["dirs"].([]any)
	for _, kind := range explainKinds {
		list, _ := idx[kind].([]any)
		for _, e := range list {
			m, ok := e.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("%s: %s: not an object: %v", p, kind, e)
			}
			// Reach numbers the index's dirs: name them, for now.
			if r, ok := m["r"].([]any); ok {
				named := make([]any, len(r))
				for i, n := range r {
					k, err := jsonInt(n)
					if err != nil || k < 0 || k >= len(dirs) {
						return nil, fmt.Errorf("%s: reach %v: not one of %d dirs", p, n, len(dirs))
					}
					named[i] = dirs[k]
				}
				m["r"] = named
			}
			if _, err := jsonInt(m["l"]); err != nil {
				return nil, fmt.Errorf("%s: %s: a site without a line: %v", p, kind, m)
			}
			c.entries[kind] = append(c.entries[kind], m)
		}
	}
	return c, nil
}

// Encode makes explain-shared.js, each copy's explain-index.js and
// each language's explain-steps-shared.js (by language directory), and
// checks that they give every copy and view back.
//
// Its 113 lines are three encodings that share the tokens and the
// alignment of the copies' sites, and the check (roundTrip) of all three
// together.
func Encode(copies []*Copy, views []*View) (*Shared, []*Own, map[string]*SharedSteps, error) {
	tagTok, lineTok, err := explainTokens(copies, views)
	if err != nil {
		return nil, nil, nil, err
	}
	shared := &Shared{Tok: string([]rune{tagTok, lineTok}), Dirs: []string{}, Entries: map[string][]map[string]any{}}
	owns := make([]*Own, len(copies))
	for i, c := range copies {
		owns[i] = &Own{Tag: c.itag.(string), Copy: i, Entries: map[string][]map[string]any{}}
		if c.Tag != owns[i].Tag {
			owns[i].Rel = c.Tag
		}
		owns[i].Tables = slices.IndexFunc(shared.Tables, func(t map[string]any) bool { return reflect.DeepEqual(t, c.tables) })
		if owns[i].Tables < 0 {
			owns[i].Tables = len(shared.Tables)
			shared.Tables = append(shared.Tables, c.tables)
		}
	}
	// The directories, numbered for all.
	dirPos := map[string]int{}
	number := func(e map[string]any) map[string]any {
		r, ok := e["r"].([]any)
		if !ok {
			return e
		}
		out := make([]any, len(r))
		for i, d := range r {
			s := d.(string)
			n, ok := dirPos[s]
			if !ok {
				n = len(shared.Dirs)
				dirPos[s] = n
				shared.Dirs = append(shared.Dirs, s)
			}
			out[i] = json.Number(fmt.Sprint(n))
		}
		e = maps.Clone(e)
		e["r"] = out
		return e
	}
	for _, c := range copies {
		for _, kind := range explainKinds {
			for i, e := range c.entries[kind] {
				c.entries[kind][i] = number(e)
			}
		}
	}
	for _, kind := range explainKinds {
		shared.Entries[kind] = []map[string]any{}
		for _, o := range owns {
			o.Entries[kind] = []map[string]any{}
		}
		keys := make([][]string, len(copies))
		toks := make([][]map[string]any, len(copies))
		for i, c := range copies {
			for _, e := range c.entries[kind] {
				t := tokenizeSite(e, c.Tag, tagTok, lineTok)
				toks[i] = append(toks[i], t)
				keys[i] = append(keys[i], siteKey(t))
			}
		}
		members, at := alignKeys(keys)
		// Back from the merged positions to each copy's sites.
		site := make([]map[int]map[string]any, len(members))
		for i := range site {
			site[i] = map[int]map[string]any{}
		}
		for c, pos := range at {
			for j, m := range pos {
				site[m][c] = toks[c][j]
				if len(members[m]) == 1 {
					own := maps.Clone(copies[c].entries[kind][j])
					own["at"] = json.Number(fmt.Sprint(j))
					owns[c].Entries[kind] = append(owns[c].Entries[kind], own)
				}
			}
		}
		for m, ms := range members {
			if len(ms) > 1 {
				e, err := sharedSite(ms, site[m])
				if err != nil {
					return nil, nil, nil, err
				}
				shared.Entries[kind] = append(shared.Entries[kind], e)
			}
		}
	}
	steps := map[string]*SharedSteps{}
	keys := map[string][]string{}
	for _, v := range views {
		s := steps[v.Lang]
		if s == nil {
			s = &SharedSteps{Tok: shared.Tok}
			steps[v.Lang] = s
		}
		t := tokenize(v.Data, v.Tag, tagTok)
		k, err := json.Marshal(t)
		if err != nil {
			return nil, nil, nil, err
		}
		if i := slices.Index(keys[v.Lang], string(k)); i >= 0 {
			s.Lists[i].Tags = append(s.Lists[i].Tags, v.Tag)
			continue
		}
		keys[v.Lang] = append(keys[v.Lang], string(k))
		s.Lists = append(s.Lists, sharedStepList{Tags: []string{v.Tag}, Steps: t.([]any)})
	}
	// What explain.js will make of them: every release's own.
	if err := roundTrip(shared, owns, steps, copies, views); err != nil {
		return nil, nil, nil, err
	}
	return shared, owns, steps, nil
}

// sharedSite is the site of explain-shared.js that the copies ms have,
// their sites (tokenized) by copy: each field's most common value (the
// newest's of equals), the lines, and each copy's other values.
//
// Its 85 lines are one pass over the site's fields, each choosing the
// shared value and collecting the copies' differences (x) as it goes.
func sharedSite(ms []int, by map[int]map[string]any) (map[string]any, error) {
	e := map[string]any{"in": hexMask(ms)}
	var fields []string
	for _, c := range ms {
		for f := range by[c] {
			if !slices.Contains(fields, f) {
				fields = append(fields, f)
			}
		}
	}
	slices.Sort(fields)
	over := make([]map[string]any, len(ms))
	for i := range over {
		over[i] = map[string]any{}
	}
	for _, f := range fields {
		enc := make([]string, len(ms))
		for i, c := range ms {
			if v, ok := by[c][f]; ok {
				b, err := json.Marshal(v)
				if err != nil {
					return nil, err
				}
				enc[i] = string(b)
			}
		}
		base := 0
		for i := range enc {
			if count(enc, enc[i]) > count(enc, enc[base]) {
				base = i
			}
		}
		if f == "l" && count(enc, enc[base]) < len(ms) {
			ls := make([]any, len(ms))
			for i, c := range ms {
				ls[i] = by[c]["l"]
			}
			e["l"] = ls
			continue
		}
		bv, has := by[ms[base]][f]
		if has {
			e[f] = bv
		}
		for i, c := range ms {
			if enc[i] == enc[base] {
				continue
			}
			v, ok := by[c][f]
			switch bs, isStr := bv.(string); {
			case !ok:
				over[i][f] = nil
			case has && isStr:
				over[i][f] = stringEdit(bs, v.(string))
			default:
				over[i][f] = v
			}
		}
	}
	var groups []any
	var gkeys []string
	var gmembers [][]int
	for i, c := range ms {
		if len(over[i]) == 0 {
			continue
		}
		k, err := json.Marshal(over[i])
		if err != nil {
			return nil, err
		}
		if j := slices.Index(gkeys, string(k)); j >= 0 {
			gmembers[j] = append(gmembers[j], c)
			continue
		}
		gkeys, gmembers = append(gkeys, string(k)), append(gmembers, []int{c})
		groups = append(groups, []any{nil, over[i]})
	}
	for j, g := range groups {
		g.([]any)[0] = hexMask(gmembers[j])
	}
	if groups != nil {
		e["x"] = groups
	}
	return e, nil
}

func count(ss []string, s string) int {
	n := 0
	for _, x := range ss {
		if x == s {
			n++
		}
	}
	return n
}

// stringEdit is want as an edit of base, [prefix, middle, suffix]: the
// first prefix and last suffix UTF-16 code units of base (JavaScript's
// string lengths) around middle; or want itself when that is no shorter.
func stringEdit(base, want string) any {
	b, w := []rune(base), []rune(want)
	p := 0
	for p < len(b) && p < len(w) && b[p] == w[p] {
		p++
	}
	s := 0
	for s < len(b)-p && s < len(w)-p && b[len(b)-1-s] == w[len(w)-1-s] {
		s++
	}
	edit := []any{len(utf16.Encode(b[:p])), string(w[p : len(w)-s]), len(utf16.Encode(b[len(b)-s:]))}
	eb, _ := json.Marshal(edit)
	wb, _ := json.Marshal(want)
	if len(eb) >= len(wb) {
		return want
	}
	return edit
}

// applyEdit applies stringEdit's edit to base.
func applyEdit(base string, edit []any) (string, error) {
	if len(edit) != 3 {
		return "", fmt.Errorf("edit %v: want prefix, middle, suffix", edit)
	}
	p, err1 := jsonInt(edit[0])
	mid, ok := edit[1].(string)
	s, err2 := jsonInt(edit[2])
	b := utf16.Encode([]rune(base))
	if err1 != nil || !ok || err2 != nil || p < 0 || s < 0 || p+s > len(b) {
		return "", fmt.Errorf("edit %v of %q", edit, base)
	}
	return string(utf16.Decode(b[:p])) + mid + string(utf16.Decode(b[len(b)-s:])), nil
}

// siteKey is what aligns a call site with another release's: all of it
// but what explainVaries names.
func siteKey(e map[string]any) string {
	k := maps.Clone(e)
	for _, f := range explainVaries {
		delete(k, f)
	}
	b, _ := json.Marshal(k)
	return string(b)
}

// tokenizeSite is a site with its tag written as tagTok and, in its
// permalink, its line as lineTok.
func tokenizeSite(e map[string]any, tag string, tagTok, lineTok rune) map[string]any {
	t := tokenize(e, tag, tagTok).(map[string]any)
	if u, ok := t["u"].(string); ok {
		t["u"] = strings.ReplaceAll(u, t["l"].(json.Number).String(), string(lineTok))
	}
	return t
}

// tokenize is v with tag written as tok in every string. tok occurs in
// none (explainTokens), so that detokenize gives v back.
func tokenize(v any, tag string, tok rune) any {
	return mapStrings(v, func(s string) string { return strings.ReplaceAll(s, tag, string(tok)) })
}

func detokenize(v any, tag string, tok rune) any {
	return mapStrings(v, func(s string) string { return strings.ReplaceAll(s, string(tok), tag) })
}

// mapStrings is v, decoded JSON, with f applied to its strings (not its
// keys).
func mapStrings(v any, f func(string) string) any {
	switch v := v.(type) {
	case string:
		return f(v)
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = mapStrings(x, f)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[k] = mapStrings(x, f)
		}
		return out
	}
	return v
}

// explainTokens picks the tag's and the line's tokens: characters that
// no string of the data (nor any tag) holds. ASCII first, as it is one
// byte; then the Private Use Area, one UTF-16 code unit.
func explainTokens(copies []*Copy, views []*View) (tagTok, lineTok rune, err error) {
	used := map[rune]bool{}
	note := func(s string) string {
		for _, r := range s {
			used[r] = true
		}
		return s
	}
	for _, c := range copies {
		note(c.Tag)
		for _, kind := range explainKinds {
			for _, e := range c.entries[kind] {
				mapStrings(e, note)
			}
		}
	}
	for _, v := range views {
		note(v.Tag)
		mapStrings(v.Data, note)
	}
	var free []rune
	for _, r := range []rune("~^|@!*") {
		if !used[r] {
			free = append(free, r)
		}
	}
	for r := rune(0xe000); r <= 0xf8ff && len(free) < 2; r++ {
		if !used[r] {
			free = append(free, r)
		}
	}
	if len(free) < 2 {
		return 0, 0, errors.New("site: explain: no character is free to stand for a tag")
	}
	return free[0], free[1], nil
}

// hexMask is the mask of bits ms, in hex ("1ff"): any number of bits,
// which explain.js reads a digit at a time.
func hexMask(ms []int) string {
	var nib []byte
	for _, m := range ms {
		for len(nib) <= m/4 {
			nib = append(nib, 0)
		}
		nib[m/4] |= 1 << (m % 4)
	}
	var b strings.Builder
	for i := len(nib) - 1; i >= 0; i-- {
		b.WriteByte("0123456789abcdef"[nib[i]])
	}
	return b.String()
}

// hasBit reports whether hex mask m has bit i.
func hasBit(m string, i int) bool {
	d := len(m) - 1 - i/4
	if d < 0 {
		return false
	}
	c := m[d]
	var n byte
	switch {
	case c >= '0' && c <= '9':
		n = c - '0'
	case c >= 'a' && c <= 'f':
		n = c - 'a' + 10
	}
	return n>>(i%4)&1 == 1
}

// alignKeys merges sequences of keys, as align merges the copies of a
// file: each item of the merged sequence with the sequences that have it
// (members, ascending), and per sequence the merged item of each of its
// keys. Unlike align's masks, members have no limit.
func alignKeys(seqs [][]string) (members [][]int, at [][]int) {
	var merged []string
	for k, ks := range seqs {
		var nm []string
		var nmem [][]int
		remap := make([]int, len(merged))
		mine := make([]int, len(ks))
		i, j := 0, 0
		keep := func(to int) {
			for ; i < to; i++ {
				remap[i] = len(nm)
				nm, nmem = append(nm, merged[i]), append(nmem, members[i])
			}
		}
		for _, d := range linediff.Lines(merged, ks) {
			switch d.Op {
			case diffmatchpatch.DiffEqual:
				for n := d.N; n > 0; n-- {
					remap[i], mine[j] = len(nm), len(nm)
					nm, nmem = append(nm, merged[i]), append(nmem, append(slices.Clip(members[i]), k))
					i, j = i+1, j+1
				}
			case diffmatchpatch.DiffDelete:
				keep(i + d.N)
			case diffmatchpatch.DiffInsert:
				for end := j + d.N; j < end; j++ {
					mine[j] = len(nm)
					nm, nmem = append(nm, ks[j]), append(nmem, []int{k})
				}
			}
		}
		keep(len(merged))
		for _, a := range at {
			for x, m := range a {
				a[x] = remap[m]
			}
		}
		merged, members, at = nm, nmem, append(at, mine)
	}
	return members, at
}

// release is the Index of own's copy (tag, dirs, tables and sites, as
// decoded JSON; the dirs are the site's, numbered for all): what
// explain.js's release() makes of the same scripts.
func (s *Shared) release(own *Own) (map[string]any, error) {
	toks := []rune(s.Tok)
	if len(toks) != 2 {
		return nil, fmt.Errorf("tokens %q: want two", s.Tok)
	}
	if own.Tables < 0 || own.Tables >= len(s.Tables) {
		return nil, fmt.Errorf("tables %d of %d", own.Tables, len(s.Tables))
	}
	dirs := make([]any, len(s.Dirs))
	for i, d := range s.Dirs {
		dirs[i] = d
	}
	x := map[string]any{"tag": own.Tag, "dirs": dirs}
	rel := own.Rel
	if rel == "" {
		rel = own.Tag
	}
	for k, v := range s.Tables[own.Tables] {
		x[k] = v
	}
	for kind, list := range s.Entries {
		mine := own.Entries[kind]
		out := []any{}
		next := func() error {
			for len(mine) > 0 {
				at, err := jsonInt(mine[0]["at"])
				if err != nil {
					return fmt.Errorf("%s: %w", kind, err)
				}
				if at != len(out) {
					return nil
				}
				e := maps.Clone(mine[0])
				delete(e, "at")
				out, mine = append(out, e), mine[1:]
			}
			return nil
		}
		for _, e := range list {
			in, _ := e["in"].(string)
			if !hasBit(in, own.Copy) {
				continue
			}
			if err := next(); err != nil {
				return nil, err
			}
			d, err := sharedSiteOf(e, own.Copy, rel, toks[0], toks[1])
			if err != nil {
				return nil, fmt.Errorf("%s: %w", kind, err)
			}
			out = append(out, d)
		}
		if err := next(); err != nil {
			return nil, err
		}
		if len(mine) > 0 {
			return nil, fmt.Errorf("%s: %d sites of %s's own out of place", kind, len(mine), rel)
		}
		x[kind] = out
	}
	return x, nil
}

// sharedSiteOf is the site e of explain-shared.js as copy c (of tag) has
// it.
func sharedSiteOf(e map[string]any, c int, tag string, tagTok, lineTok rune) (map[string]any, error) {
	o := map[string]any{}
	for k, v := range e {
		if k != "in" && k != "x" {
			o[k] = v
		}
	}
	if ls, ok := e["l"].([]any); ok {
		n := 0
		in, _ := e["in"].(string)
		for k := range c {
			if hasBit(in, k) {
				n++
			}
		}
		if n >= len(ls) {
			return nil, fmt.Errorf("no line for copy %d in %v", c, ls)
		}
		o["l"] = ls[n]
	}
	groups, _ := e["x"].([]any)
	for _, g := range groups {
		g, _ := g.([]any)
		if len(g) != 2 {
			return nil, fmt.Errorf("values %v: want mask and values", g)
		}
		m, _ := g[0].(string)
		over, _ := g[1].(map[string]any)
		if !hasBit(m, c) {
			continue
		}
		for f, v := range over {
			base, isStr := o[f].(string)
			edit, isEdit := v.([]any)
			switch {
			case v == nil:
				delete(o, f)
			case isStr && isEdit:
				s, err := applyEdit(base, edit)
				if err != nil {
					return nil, err
				}
				o[f] = s
			default:
				o[f] = v
			}
		}
	}
	if u, ok := o["u"].(string); ok {
		l, err := jsonInt(o["l"])
		if err != nil {
			return nil, err
		}
		o["u"] = strings.ReplaceAll(u, string(lineTok), fmt.Sprint(l))
	}
	return detokenize(o, tag, tagTok).(map[string]any), nil
}

// steps are the steps of the explain page of tag in s's language.
func (s *SharedSteps) steps(tag string) ([]any, error) {
	toks := []rune(s.Tok)
	if len(toks) == 0 {
		return nil, fmt.Errorf("tokens %q", s.Tok)
	}
	for _, l := range s.Lists {
		if slices.Contains(l.Tags, tag) {
			return detokenize(l.Steps, tag, toks[0]).([]any), nil
		}
	}
	return nil, fmt.Errorf("no steps for %s", tag)
}

// roundTrip checks that the scripts give every copy its index and every
// view its steps, as they were written.
func roundTrip(shared *Shared, owns []*Own, steps map[string]*SharedSteps, copies []*Copy, views []*View) error {
	for i, c := range copies {
		got, err := shared.release(owns[i])
		if err != nil {
			return fmt.Errorf("site: explain: %s: %w", c.Path, err)
		}
		want := map[string]any{"tag": c.itag}
		gotDirs, _ := got["dirs"].([]any)
		delete(got, "dirs")
		for k, v := range c.tables {
			want[k] = v
		}
		for _, kind := range explainKinds {
			list := []any{}
			for _, e := range c.entries[kind] {
				list = append(list, nameDirs(e, gotDirs))
			}
			want[kind] = list
			l, _ := got[kind].([]any)
			for j, e := range l {
				l[j] = nameDirs(e.(map[string]any), gotDirs)
			}
		}
		if !sameJSON(got, want) {
			return fmt.Errorf("site: explain: %s: the shared scripts do not give the index back", c.Path)
		}
	}
	for _, v := range views {
		got, err := steps[v.Lang].steps(v.Tag)
		if err != nil {
			return fmt.Errorf("site: explain: %s: %w", v.Steps, err)
		}
		if !sameJSON(got, v.Data) {
			return fmt.Errorf("site: explain: %s: the shared steps do not give the steps back", v.Steps)
		}
	}
	return nil
}

// nameDirs is e with its reach as directories rather than positions in
// dirs.
func nameDirs(e map[string]any, dirs []any) map[string]any {
	r, ok := e["r"].([]any)
	if !ok {
		return e
	}
	e = maps.Clone(e)
	named := make([]any, len(r))
	for i, n := range r {
		if k, err := jsonInt(n); err == nil && k >= 0 && k < len(dirs) {
			named[i] = dirs[k]
		} else {
			named[i] = n
		}
	}
	e["r"] = named
	return e
}

// sameJSON reports whether a and b encode alike.
func sameJSON(a, b any) bool {
	ja, err1 := json.Marshal(a)
	jb, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && bytes.Equal(ja, jb)
}

// jsonInt is a JSON number (decoded with UseNumber) as an int.
func jsonInt(v any) (int, error) {
	switch n := v.(type) {
	case json.Number:
		i, err := n.Int64()
		return int(i), err
	case int:
		return n, nil
	}
	return 0, fmt.Errorf("%v: not a number", v)
}

// ParseIndex reads a release's explain-index.js: in a
// multi-release site, what it names of explain-shared.js, which shared
// reads, put together (Shared.release).
func ParseIndex(data []byte, shared func() ([]byte, error)) (*explain.Index, error) {
	var probe struct {
		Copy *int `json:"copy"`
	}
	if err := jsdata.Read("kubewalkExplain", data, &probe); err != nil {
		return nil, err
	}
	var idx explain.Index
	if probe.Copy == nil {
		err := jsdata.Read("kubewalkExplain", data, &idx)
		return &idx, err
	}
	var own Own
	if err := jsdata.Read("kubewalkExplain", data, &own); err != nil {
		return nil, err
	}
	sd, err := shared()
	if err != nil {
		return nil, err
	}
	var s Shared
	if err := jsdata.Read("kubewalkExplainShared", sd, &s); err != nil {
		return nil, fmt.Errorf("%s: %w", SharedJS, err)
	}
	x, err := s.release(&own)
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(x)
	if err != nil {
		return nil, err
	}
	return &idx, json.Unmarshal(b, &idx)
}

// ParseSharedSteps reads an explain-steps-shared.js: the steps of each
// release's explain page of its language, by tag.
func ParseSharedSteps(data []byte) (map[string][]explain.IndexStep, error) {
	var s SharedSteps
	if err := jsdata.Read("kubewalkExplainStepsShared", data, &s); err != nil {
		return nil, err
	}
	out := map[string][]explain.IndexStep{}
	for _, l := range s.Lists {
		for _, tag := range l.Tags {
			steps, err := s.steps(tag)
			if err != nil {
				return nil, err
			}
			b, err := json.Marshal(steps)
			if err != nil {
				return nil, err
			}
			var st []explain.IndexStep
			if err := json.Unmarshal(b, &st); err != nil {
				return nil, err
			}
			out[tag] = st
		}
	}
	return out, nil
}
