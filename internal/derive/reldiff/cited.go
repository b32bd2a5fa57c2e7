package reldiff

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/kubewalk/kubewalk/internal/derive/cited"
	"github.com/kubewalk/kubewalk/walkthrough"
)

// What a site shows of the changes since the previous release: the
// references worth a badge, numbered (change N, the changes page's #dN
// and the diffs script's key), and the changes page's order, where each
// is listed under the step of the first walkthrough that cites it, the
// step named once, rather than each reference naming every step citing
// it in every language. These are plain keys and numbers: the site links
// and words them.

// Numbered returns the keys (fact.Ref.String) of the changes whose
// status badged says is worth a badge, sorted: change N is the N-th.
func Numbered(changes map[string]RefChange, badged func(Status) bool) []string {
	var keys []string
	for k, rc := range changes {
		if badged(rc.Status) {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return keys
}

// At is where the side's declaration is, "path:a-b".
func (s Side) At() string {
	return fmt.Sprintf("%s:%d-%d", s.Decl.Path, s.Decl.StartLine, s.Decl.EndLine)
}

// Pattern is the part of the change's reference after the symbol it
// resolved to at either release (a /pattern/ of lines), "" for a symbol
// alone; the whole reference when it does not start with that symbol's
// name (an alternate, a short form).
func (rc RefChange) Pattern() string {
	for _, s := range []string{rc.To.Symbol, rc.From.Symbol} {
		if rest, ok := strings.CutPrefix(rc.Ref, s); ok && s != "" {
			if p := strings.TrimSpace(rest); p != "" {
				return p
			}
			break
		}
	}
	if rc.Ref != rc.To.Symbol && rc.Ref != rc.From.Symbol {
		return rc.Ref
	}
	return ""
}

// Once returns a release's diffs by change number with each text once:
// a change whose diff is the same as a lower number's (references to
// one declaration by several patterns, which is common) is "=N", N that
// change's number.
func Once(diffs map[string]string) map[string]string {
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
	return out
}

// Cites is what the steps of one language's walkthroughs cite of the
// numbered changes. A step is known by its key, "doc#step" (the
// walkthrough's and the step's ids), which its translations share.
type Cites struct {
	// Steps are the steps citing a numbered change, in walkthrough and
	// step order.
	Steps []string
	// Of maps a change's key to the steps citing it, in that order.
	Of map[string][]string
}

// StepCites returns what the steps of docs cite of the changes numbered
// says are numbered, by the references of each step (cited.Refs).
func StepCites(docs []*walkthrough.Doc, numbered func(key string) bool) Cites {
	cs := Cites{Of: map[string][]string{}}
	for _, d := range docs {
		for _, s := range d.Steps {
			sk := d.ID + "#" + s.ID
			seen := map[string]bool{}
			for _, r := range cited.Refs(s) {
				k := r.String()
				if !seen[k] && numbered(k) {
					seen[k] = true
					cs.Of[k] = append(cs.Of[k], sk)
				}
			}
			if len(seen) > 0 {
				cs.Steps = append(cs.Steps, sk)
			}
		}
	}
	return cs
}

// Group is the changes the changes page lists under a step: those it
// is the first to cite.
type Group struct {
	// Step is the step's key, "" for the group of changes no step cites.
	Step    string
	Entries []Entry
}

// Entry is a change of a Group.
type Entry struct {
	Key string
	// SameAs is the key of the entry above whose diff is the same, which
	// is shown once; "" for none.
	SameAs string
}

// Groups orders the numbered changes (keys, in number order) by the step
// that cites each first: in the first language of langs (Cites per
// language) that cites it, the first step. The groups come in the first
// language's order of steps, then any step only a translation cites,
// then the changes no step cites; in a group, by number. An entry whose
// diff an entry above has (by changes' Diff) says which.
func Groups(changes map[string]RefChange, keys []string, langs []Cites) []Group {
	var order []string
	for _, cs := range langs {
		for _, sk := range cs.Steps {
			if !slices.Contains(order, sk) {
				order = append(order, sk)
			}
		}
	}
	byGroup := map[string][]Entry{}
	for _, k := range keys {
		g := ""
		for _, cs := range langs {
			if sks := cs.Of[k]; len(sks) > 0 {
				g = sks[0]
				break
			}
		}
		byGroup[g] = append(byGroup[g], Entry{Key: k})
	}
	var out []Group
	shown := map[string]string{} // diff text → the entry showing it, above
	for _, sk := range append(order, "") {
		es := byGroup[sk]
		if len(es) == 0 {
			continue
		}
		for i := range es {
			diff := changes[es[i].Key].Diff
			if at, ok := shown[diff]; ok {
				es[i].SameAs = at
			} else if diff != "" {
				shown[diff] = es[i].Key
			}
		}
		out = append(out, Group{Step: sk, Entries: es})
	}
	return out
}
