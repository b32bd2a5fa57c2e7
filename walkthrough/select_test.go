package walkthrough

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSelect(t *testing.T) {
	docs := []*Doc{
		{ID: "sched", Lang: "en", Order: 2},
		{ID: "deploy", Lang: "en", Order: 1},
		{ID: "deploy", Lang: "ko", Order: 1},
		nil,
		{ID: "kubelet", Lang: "ja", Order: 2},
		{ID: "kubelet", Lang: "fr", Order: 2},
		{ID: "apiserver", Lang: "ko", Order: 1, Title: "first"},
		{ID: "apiserver", Lang: "ko", Order: 1, Title: "second"},
	}
	show := func(ds []*Doc) []string {
		var out []string
		for _, d := range ds {
			out = append(out, fmt.Sprintf("%s.%s%s", d.ID, d.Lang, d.Title))
		}
		return out
	}
	for lang, want := range map[string][]string{
		// In lang, else English, else the first language by name; of two
		// in one language, the first; by Order, then ID.
		"ko": {"apiserver.kofirst", "deploy.ko", "kubelet.fr", "sched.en"},
		"en": {"apiserver.kofirst", "deploy.en", "kubelet.fr", "sched.en"},
		"ja": {"apiserver.kofirst", "deploy.en", "kubelet.ja", "sched.en"},
	} {
		if diff := cmp.Diff(want, show(Select(docs, lang))); diff != "" {
			t.Errorf("Select(%s) (-want +got):\n%s", lang, diff)
		}
	}
}
