package site

import (
	"context"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestChangesDiffOnce: two references whose declaration has one diff
// (one declaration cited by two patterns) show it once on the changes
// page; the second sends the reader to the first.
func TestChangesDiffOnce(t *testing.T) {
	rels, opts := multiFixture(t)
	in := &rels[1].Input // given oldest first
	var diffed string
	for k, rc := range in.Changes {
		if rc.Diff != "" {
			diffed = k
		}
	}
	if diffed == "" {
		t.Fatal("the fixture's newer release has no change with a diff")
	}
	rc := in.Changes[diffed]
	rc.Ref += " /a second pattern/"
	in.Changes[rc.Ref] = rc
	opts.Out = filepath.Join(t.TempDir(), "public")
	if _, err := BuildReleases(context.Background(), rels, opts); err != nil {
		t.Fatal(err)
	}
	ch := readTree(t, opts.Out)[newTag+"/changes.html"]
	if n := strings.Count(ch, "new := 2"); n != 1 {
		t.Errorf("the diff is on the changes page %d times, want once", n)
	}
	// The section the diff is in, and the link to it.
	section := regexp.MustCompile(`<section class="changed" id="(d[0-9]+)">`).FindAllStringSubmatch(ch[:max(strings.Index(ch, `<pre class="code diff">`), 0)], -1)
	if len(section) == 0 || !strings.Contains(ch, `<a href="#`+section[len(section)-1][1]+`">The diff of its declaration is the one above ↑</a>`) {
		t.Errorf("the second reference does not send the reader to the first's diff")
	}
}
