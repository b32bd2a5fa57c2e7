package site

import (
	"fmt"
	"sort"

	"github.com/kubewalk/kubewalk/internal/derive/trace"
	"github.com/kubewalk/kubewalk/templates"
)

// messages is the UI text catalog: key → text, one map per language, read
// from templates/i18n/<lang>.yaml (where a translator edits it;
// templates.Messages). Walkthrough
// prose is translated in the walkthroughs themselves; this is only the
// chrome around it. English is the fallback for a key a language lacks, and
// a test checks every language has every key. The catalog is part of the
// program, as the templates are: one that does not parse is a bug, and
// stops the program the first time it runs, as template.Must does.
var messages = mustMessages()

func mustMessages() map[string]map[string]string {
	ms, err := templates.Messages()
	if err != nil {
		panic(err)
	}
	// The generated sentences of traces and controller pages (trace.Note)
	// are worded in English by the trace package; their translations are
	// in the catalog, under "trace.note.<ID>".
	for id, text := range trace.NoteText {
		ms["en"]["trace.note."+id] = text
	}
	return ms
}

// Languages lists the UI languages the catalog has, sorted.
func Languages() []string {
	var ls []string
	for l := range messages {
		ls = append(ls, l)
	}
	sort.Strings(ls)
	return ls
}

// catalog returns the translate function for lang. A key missing from the
// catalog is a programming error; it renders as the key in brackets so a
// test (and a reader) notices rather than seeing an empty string.
func catalog(lang string) (func(string) string, error) {
	m, ok := messages[lang]
	if !ok {
		return nil, fmt.Errorf("site: no UI messages for language %q (have %v)", lang, Languages())
	}
	en := messages["en"]
	return func(key string) string {
		if s, ok := m[key]; ok {
			return s
		}
		if s, ok := en[key]; ok {
			return s
		}
		return "[" + key + "]"
	}, nil
}
