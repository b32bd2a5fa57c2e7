//go:build e2e

package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/kubewalk/kubewalk/site"
)

// TestE2EMultiRelease builds the default release and the one before it
// into one site and checks its links, the version switcher on the deployment
// walkthrough's step 7, and the page budget with badges.
func TestE2EMultiRelease(t *testing.T) {
	const older, newer = "v1.36.3", "v1.37.2"
	out := filepath.Join(t.TempDir(), "public")
	kubewalk(t, "build", "--source", "goproxy", "--tag", older, "--tag", newer, "--out", out)

	for _, err := range site.CheckLinks(out) {
		t.Error(err)
	}
	read := func(p string) string {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(p)))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	idx := read("index.html")
	if a, b := strings.Index(idx, newer+"/index.html"), strings.Index(idx, older+"/index.html"); a < 0 || b < 0 || a > b {
		t.Errorf("index.html does not list %s before %s", newer, older)
	}

	// The budget: the walkthrough with the badges of two releases (192 KB
	// at v1.37.2) and the Observed panels of its recorded run (19 KB,
	// repeated requests folded), with some room.
	page := read(newer + "/en/walkthroughs/deployment.html") // bilingual: English under en/
	if len(page) > 230_000 {
		t.Errorf("%s deployment walkthrough is %d bytes, over the 230 KB budget", newer, len(page))
	}
	steps := regexp.MustCompile(`<section class="step[^"]*" id="([^"]+)"`).FindAllStringSubmatch(page, -1)
	if len(steps) < 7 {
		t.Fatalf("deployment walkthrough has %d steps, want at least 7", len(steps))
	}
	step7 := steps[6][1]
	m := regexp.MustCompile(`<a href="([^"]*)" data-keep="([^"]*)">` + regexp.QuoteMeta(older) + `</a>`).FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("no switcher link to %s on the deployment walkthrough", older)
	}
	if want := "../../../" + older + "/en/walkthroughs/deployment.html"; m[1] != want {
		t.Errorf("switcher links to %s, want %s", m[1], want)
	}
	if keep := m[2]; keep != "*" && !strings.Contains(" "+keep+" ", " "+step7+" ") {
		t.Errorf("switcher keeps %q, not step 7 (%s)", keep, step7)
	}
	if !strings.Contains(read(older+"/en/walkthroughs/deployment.html"), `id="`+step7+`"`) {
		t.Errorf("%s deployment walkthrough has no step %s", older, step7)
	}
	if !strings.Contains(page, `class="badge badge-`) {
		t.Errorf("no change badges on the %s deployment walkthrough", newer)
	}
}
