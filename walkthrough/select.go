package walkthrough

import (
	"cmp"
	"maps"
	"slices"
)

// Which walkthrough a reader of a language sees, and in which order: Load
// chooses among a walkthrough's files, the site among the Docs of several
// directories (a user's beside the built-in ones); both by fallback and
// Compare, so the two cannot disagree.

// Compare orders walkthroughs as the site lists them: by Order, then ID.
func Compare(a, b *Doc) int {
	return cmp.Or(cmp.Compare(a.Order, b.Order), cmp.Compare(a.ID, b.ID))
}

// Select returns, for each walkthrough ID among docs, the Doc a reader of
// lang sees (the same choice Load makes among files: see fallback; of two
// Docs of one ID and language, the first), sorted by Compare. nil Docs
// are skipped.
func Select(docs []*Doc, lang string) []*Doc {
	langs := map[string][]string{}
	for _, d := range docs {
		if d != nil {
			langs[d.ID] = append(langs[d.ID], d.Lang)
		}
	}
	var out []*Doc
	for _, d := range docs {
		if d == nil {
			continue
		}
		if have, ok := langs[d.ID]; ok && d.Lang == fallback(lang, have) {
			out = append(out, d)
			delete(langs, d.ID)
		}
	}
	slices.SortFunc(out, Compare)
	return out
}

// fallback returns which of a walkthrough's languages have (not empty) a
// reader of lang sees: lang, else English — a walkthrough not yet
// translated is shown in English rather than missing — else the first of
// the others by name.
func fallback(lang string, have []string) string {
	switch {
	case slices.Contains(have, lang):
		return lang
	case slices.Contains(have, "en"):
		return "en"
	}
	return slices.Min(have)
}

// languages lists the languages a walkthrough's files are in.
func (s *fileSet) languages() []string {
	out := []string{}
	if s.en != "" {
		out = append(out, "en")
	}
	return slices.AppendSeq(out, maps.Keys(s.langs))
}
