package releases

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/kubewalk/kubewalk/site"
)

func rel(tag string, langs ...string) site.Release {
	return site.Release{Input: site.Input{Tag: tag, Langs: langs}}
}

// TestMatrix: the releases are ordered newest first (semver, not as
// strings), each in the newest's languages.
func TestMatrix(t *testing.T) {
	m, rels, err := NewMatrix([]site.Release{rel("v1.9.0", "en", "ko"), rel("v1.30.1", "en", "ko"), rel("v1.10.2", "en", "ko")})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"v1.30.1", "v1.10.2", "v1.9.0"}; !slices.Equal(m.Tags, want) || rels[0].Tag != want[0] || rels[2].Tag != want[2] {
		t.Errorf("tags %q (releases %s … %s), want %q", m.Tags, rels[0].Tag, rels[2].Tag, want)
	}
	cells := m.Cells()
	if len(cells) != 6 || cells[0] != (Cell{"v1.30.1", "en"}) || cells[1] != (Cell{"v1.30.1", "ko"}) {
		t.Errorf("cells %v", cells)
	}
	if d := m.Dir(cells[1]); d != "v1.30.1/ko/" {
		t.Errorf("dir of %v: %q", cells[1], d)
	}
	one, _, err := NewMatrix([]site.Release{rel("v2"), rel("v1")})
	if err != nil || one.Bilingual() || one.Dir(Cell{"v1", ""}) != "v1/" {
		t.Errorf("one language: %+v, %v", one, err)
	}
}

// TestMatrixRejects: tags that cannot name a directory of the site, a
// release given twice, releases in different languages, and none at all
// are refused before anything is rendered or written.
func TestMatrixRejects(t *testing.T) {
	for _, c := range []struct {
		name string
		rels []site.Release
	}{
		{"none", nil},
		{"twice", []site.Release{rel("v2"), rel("v2")}},
		{"slash", []site.Release{rel("v2"), rel("../x")}},
		{"assets", []site.Release{rel("v2"), rel("assets")}},
		{"dot", []site.Release{rel("v2"), rel(".hidden")}},
		{"empty", []site.Release{rel("v2"), rel("")}},
		{"languages", []site.Release{rel("v2", "en", "ko"), rel("v1")}},
	} {
		if _, _, err := NewMatrix(c.rels); err == nil {
			t.Errorf("%s: accepted", c.name)
		}
		out := filepath.Join(t.TempDir(), "public")
		if _, err := Build(context.Background(), c.rels, site.Options{Out: out}); err == nil {
			t.Errorf("%s: built", c.name)
		}
		if matches, _ := filepath.Glob(filepath.Join(filepath.Dir(out), "*")); len(matches) != 0 {
			t.Errorf("%s: wrote %q", c.name, matches)
		}
	}
}
