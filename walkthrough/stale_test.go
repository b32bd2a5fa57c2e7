package walkthrough

import (
	"testing"
	"testing/fstest"
)

// TestStaleTranslation: a translated step names the English text it was
// translated from ({en=…}); it is stale when the English step has
// changed since, whatever the change (a word, a line added), and not
// when only trailing blanks or the steps around it changed.
func TestStaleTranslation(t *testing.T) {
	const en = "---\ntitle: W\n---\nIntro.\n\n## First\n\nOne.\n\n## Second\n\nTwo.\n"
	base, err := ParseDir(fstest.MapFS{"w.md": {Data: []byte(en)}}, ".")
	if err != nil {
		t.Fatal(err)
	}
	first, second := base[0].Steps[0].Source, base[0].Steps[1].Source
	if len(first) != 8 || first == second {
		t.Fatalf("fingerprints %q, %q: want 8 hex digits each, different", first, second)
	}
	ko := "---\ntitle: K\n---\n## 첫째 {en=\"" + first + "\"}\n\n하나.\n\n## 둘째 {en=\"" + second + "\"}\n\n둘.\n"
	for _, tt := range []struct {
		name, en string
		stale    []bool
	}{
		{"unchanged", en, []bool{false, false}},
		{"trailing blanks", "---\ntitle: W\n---\nIntro.\n\n## First   \n\nOne.\n\n\n\n## Second\n\nTwo.  \n\n", []bool{false, false}},
		{"intro changed", "---\ntitle: W\n---\nAnother intro.\n\n## First\n\nOne.\n\n## Second\n\nTwo.\n", []bool{false, false}},
		{"a word", "---\ntitle: W\n---\nIntro.\n\n## First\n\nOne!\n\n## Second\n\nTwo.\n", []bool{true, false}},
		{"a line added", "---\ntitle: W\n---\nIntro.\n\n## First\n\nOne.\n\n## Second\n\nTwo.\nThree.\n", []bool{false, true}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srcs, err := ParseDir(fstest.MapFS{"w.md": {Data: []byte(tt.en)}, "w.ko.md": {Data: []byte(ko)}}, ".")
			if err != nil {
				t.Fatal(err)
			}
			tr := srcs[1]
			for i, want := range tt.stale {
				if got := tr.Steps[i].Stale(); got != want {
					t.Errorf("step %d: stale %v, want %v (translated %s, English %s)", i+1, got, want, tr.Steps[i].Translated, tr.Steps[i].Source)
				}
			}
		})
	}
	// Without {en=…} nothing says what it was translated from: not stale.
	srcs, err := ParseDir(fstest.MapFS{"w.md": {Data: []byte("---\ntitle: W\n---\n## First\n\nOne!\n")}, "w.ko.md": {Data: []byte("---\ntitle: K\n---\n## 첫째\n\n하나.\n")}}, ".")
	if err != nil {
		t.Fatal(err)
	}
	if st := srcs[1].Steps[0]; st.Stale() || st.Translated != "" || st.Source == "" {
		t.Errorf("unstamped step: stale %v, translated %q, source %q", st.Stale(), st.Translated, st.Source)
	}
}
