package site

import (
	"context"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kubewalk/kubewalk/internal/linkcheck"
)

// A generated file a release regenerated wholesale is not rendered for
// it: the shared page holds the releases whose copy is close to the
// newest's, and the other's pages link to the file on GitHub at its tag.
// A generated file that changed a little, and a hand-written file that
// changed a lot, are rendered for every release as before.
func TestRegeneratedFileNotShared(t *testing.T) {
	gen := gogoFile
	hand := func(name string, n int) string {
		var sb strings.Builder
		sb.WriteString("package hand\n\n")
		for i := range n {
			fmt.Fprintf(&sb, "func %s%d() {}\n", name, i)
		}
		return sb.String()
	}
	files := map[string][2]string{ // older, newer
		"pkg/apis/regen/api.pb.go":   {gen("Gogo", 40), gen("Proto", 10)},
		"pkg/apis/touched/api.pb.go": {gen("Same", 40) + "func extra() {}\n", gen("Same", 40)},
		"pkg/hand/rewritten.go":      {hand("old", 40), hand("new", 10)},
	}
	rels, opts := multiFixtureOf(t, loadTree(t))
	for i := range rels {
		in := &rels[i].Input // oldest first
		read := in.ReadFile
		in.ReadFile = func(p string) ([]byte, error) {
			if c, ok := files[p]; ok {
				return []byte(c[i]), nil
			}
			return read(p)
		}
		eventsAtLine5(in, slices.Sorted(maps.Keys(files)))
	}
	opts.Out = filepath.Join(t.TempDir(), "public")
	if _, err := BuildReleases(context.Background(), rels, opts); err != nil {
		t.Fatal(err)
	}
	site := readTree(t, opts.Out)
	regen := site["src/pkg/apis/regen/api.pb.go.html"]
	if regen == "" {
		t.Fatalf("no page of the newest release's generated file")
	}
	if strings.Contains(regen, "Gogo") || strings.Contains(regen, "data-r=") || strings.Contains(regen, `data-rel="`+oldTag+`"`) {
		t.Errorf("the page of a file the older release regenerated holds that release's copy")
	}
	for p, want := range map[string]string{"src/pkg/apis/touched/api.pb.go.html": "func extra", "src/pkg/hand/rewritten.go.html": "old0"} {
		if !strings.Contains(site[p], want) || !strings.Contains(site[p], `data-rel="`+oldTag+`"`) {
			t.Errorf("%s: not rendered for the older release too", p)
		}
	}
	// The events page links the older release's event to GitHub at its
	// tag; the newer's to the page.
	gh := ghBlob + oldTag + "/pkg/apis/regen/api.pb.go#L5"
	ev := site["events.html"]
	if !strings.Contains(ev, gh) && !strings.Contains(ev, ghBlob+newTag+"/pkg/apis/regen/api.pb.go#L5") {
		t.Errorf("events.html: no GitHub link to the older release's regenerated file")
	}
	if !strings.Contains(ev, "src/pkg/apis/regen/api.pb.go.html#L5") {
		t.Errorf("events.html: no link to the newer release's page of the file")
	}
	if errs := linkcheck.Check(opts.Out, ScriptLinks); len(errs) > 0 {
		t.Errorf("links: %v", errs)
	}
}
