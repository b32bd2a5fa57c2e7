package analyzer

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestIncomplete: a package that does not type-check is analysed as far
// as it goes and named in Facts.Incomplete, so users and facts.json readers
// learn that facts may be missing instead of trusting a silent gap.
func TestIncomplete(t *testing.T) {
	res := analyzeModule(t, map[string]string{
		"good/good.go": "package good\n\nfunc OK() int { return 1 }\n",
		"bad/bad.go":   "package bad\n\nimport \"example.com/m/good\"\n\nfunc Broken() string { return good.OK() }\n",
	})
	if diff := cmp.Diff([]string{"example.com/m/bad"}, res.Facts().Incomplete); diff != "" {
		t.Errorf("Incomplete (-want +got):\n%s", diff)
	}
	if _, ok := res.Lookup("example.com/m/bad.Broken"); !ok {
		t.Errorf("the broken package's symbols are not indexed")
	}
}
