package analyzer

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestIncomplete: a package that does not type-check is analysed as far
// as it goes and named in Facts.Incomplete, so users and facts.json readers
// learn that facts may be missing instead of trusting a silent gap.
func TestIncomplete(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":       "module example.com/m\n\ngo 1.22\n",
		"good/good.go": "package good\n\nfunc OK() int { return 1 }\n",
		"bad/bad.go":   "package bad\n\nimport \"example.com/m/good\"\n\nfunc Broken() string { return good.OK() }\n",
	}
	for name, src := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res, err := Analyze(context.Background(), Config{
		Dir:   dir,
		Env:   []string{"GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off"},
		Roots: []string{"./..."},
	})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"example.com/m/bad"}, res.Facts().Incomplete); diff != "" {
		t.Errorf("Incomplete (-want +got):\n%s", diff)
	}
	if _, ok := res.Lookup("example.com/m/bad.Broken"); !ok {
		t.Errorf("the broken package's symbols are not indexed")
	}
}
