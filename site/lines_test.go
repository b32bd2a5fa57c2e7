package site

import (
	"bytes"
	"context"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/net/html"

	"github.com/kubewalk/kubewalk/analyzer/fact"
	"github.com/kubewalk/kubewalk/site/internal/linemap"
)

// shiftedTree is the fixture's tree with lines the newer release lacks:
// three at the top of the deployment controller's files, and one in the
// lines rolloutRolling's excerpt elides.
func shiftedTree(t testing.TB) fixtureTree {
	t.Helper()
	tr := loadTree(t)
	for _, f := range []string{"pkg/controller/deployment/deployment_controller.go", "pkg/controller/deployment/sync.go"} {
		tr[f] = bytes.Replace(tr[f], []byte("package deployment\n"), []byte("package deployment\n\n// Only in the older release,\n// which numbers its lines on.\n"), 1)
	}
	f := "pkg/controller/deployment/sync.go"
	tr[f] = bytes.Replace(tr[f], []byte("\t_ = 3\n"), []byte("\t_ = 25 // only in the older release\n\t_ = 3\n"), 1)
	return tr
}

// Where the older release's code is the newer's, three lines further
// down, the shared pages print it once, by the newer's numbers, and the
// older release's line map says where its lines are.
func TestSharedLineNumbers(t *testing.T) {
	files := readTree(t, buildMultiOf(t, shiftedTree(t)))
	wantRuns := map[string]string{
		// Lines 1-2 at 1-2, 3-5 at 2.1-2.3, 6-35 at 3-32.
		"pkg/controller/deployment/deployment_controller.go": "1:2 .1:3 1:30",
		// And _ = 25 after the newer's line 13, at 13.1.
		"pkg/controller/deployment/sync.go": "1:2 .1:3 1:11 .1 1:11",
	}
	lines := files[oldTag+"/"+linemap.FileName]
	for f, runs := range wantRuns {
		if !strings.Contains(lines, `"`+f+`":"`+runs+`"`) {
			t.Errorf("%s: no %s: %s", linemap.FileName, runs, lines)
		}
	}
	if _, ok := files[newTag+"/"+linemap.FileName]; ok {
		t.Errorf("the newest release has a line map")
	}
	// The handlers page's rows are both releases': what is not names
	// the release.
	page := files["handlers.html"]
	all, names := regexp.MustCompile(` data-r="`).FindAllString(page, -1), regexp.MustCompile(`data-r="[0-9a-f]+"[^>]*>v1\.3[01]\.0<`).FindAllString(page, -1)
	if len(all) != len(names) || !strings.Contains(page, `pkg/controller/deployment/deployment_controller.go:18</a>`) {
		t.Errorf("handlers.html: %d parts for one release, %d of them its name", len(all), len(names))
	}
	// rolloutRolling's excerpt, the older release's elision holding the
	// line only it has (13.1).
	for _, want := range []string{
		`<a class="file" data-l="7" href="../src/pkg/controller/deployment/sync.go.html#L7"`,
		`<pre class="code" data-l=""><span class="ln"><span class="nr">6</span>`,
		`<span class="ln gap"><span class="nr">⋯</span>9–18 lines elided`,
	} {
		if n := strings.Count(files["walkthroughs/deployment.html"], want); n != 1 {
			t.Errorf("the deployment walkthrough: %d of %s, want one for both releases", n, want)
		}
	}
	// A page of the older release's own prints its own numbers.
	for p, data := range files {
		if strings.HasPrefix(p, oldTag+"/") && strings.HasSuffix(p, ".html") && strings.Contains(data, " data-l") {
			t.Errorf("%s: marked line numbers in a release's own page", p)
		}
	}
}

// A file no release renders, where the releases' facts locate code (a
// gate's declaration in kube_features.go, a check in a package outside
// the roots), is aligned as a source page's: the shared pages print its
// GitHub permalinks by the newer release's numbers, marked, once for
// both releases, and the older release's line map says where its lines
// are.
func TestLinkedFileLineNumbers(t *testing.T) {
	const f = "pkg/features/check.go"
	body := "package features\n\nfunc Check() {\n\tif enabled(GateChecked) {}\n}\n"
	files := buildGateChecked(t, f, "// Only in the older release,\n// which numbers its lines on.\n"+body, body)
	if _, ok := files["src/"+f+".html"]; ok {
		t.Fatalf("%s has a source page; the test wants a file without", f)
	}
	// Lines 1-2 the newer lacks (after 0), 3-7 at 1-5.
	if lines := files[oldTag+"/"+linemap.FileName]; !strings.Contains(lines, `"`+f+`":".1:2 1:5"`) {
		t.Errorf("%s: no line runs of %s: %s", linemap.FileName, f, lines)
	}
	page := files["gates.html"]
	links := regexp.MustCompile(`<a [^>]*href="https://github.com/kubernetes/kubernetes/blob/[^"]*/`+regexp.QuoteMeta(f)+`#([^"]*)"[^>]*>`).FindAllStringSubmatch(page, -1)
	got := map[string]int{}
	for _, l := range links {
		got[l[1]]++
		if want := ` data-l="` + strings.NewReplacer("L", "").Replace(l[1]) + `"`; !strings.Contains(l[0], want) {
			t.Errorf("gates.html: %s is not marked%s", l[0], want)
		}
	}
	// The declaration and the guarded line at L4, the check's func at
	// L3-L5: each once, for both releases.
	if want := map[string]int{"L4": 2, "L3-L5": 1}; !cmp.Equal(got, want) {
		t.Errorf("gates.html: the permalinks into %s: %v, want %v", f, got, want)
	}
}

// A GitHub permalink on a shared page is by the stable numbers it is
// marked with, a line the newest release lacks ("3.1") by the newest's
// line before it: releases whose code agrees there print the same link
// whatever their own numbers, and the merge writes it once.
func TestPermalinkByMark(t *testing.T) {
	const f = "pkg/features/check.go"
	newer := "package features\n\nfunc Check() {\n\tif enabled(GateChecked) {}\n}\n"
	older := "// Only in the older release,\n// which numbers its lines on.\n" + strings.Replace(newer, "{}", "{ old() }", 1)
	files := buildGateChecked(t, f, older, newer)
	whole := func(s string) string {
		if a, _, ok := strings.Cut(s, "."); ok {
			return a
		}
		return s
	}
	link := regexp.MustCompile(`<a [^>]*>`)
	attrOf := func(tag, k string) string {
		m := regexp.MustCompile(` ` + k + `="([^"]*)"`).FindStringSubmatch(tag)
		if m == nil {
			return ""
		}
		return html.UnescapeString(m[1])
	}
	fractional := 0
	for p, data := range files {
		if !strings.HasSuffix(p, ".html") || strings.HasPrefix(p, "src/") {
			continue
		}
		for _, tag := range link.FindAllString(data, -1) {
			mark, href := attrOf(tag, "data-l"), attrOf(tag, "href")
			_, frag, ok := strings.Cut(href, "#")
			if mark == "" || !ok || !strings.HasPrefix(href, ghBlob) {
				continue
			}
			from, to, rng := strings.Cut(mark, "-")
			want := "L" + whole(from)
			if rng && strings.Contains(frag, "-") {
				want += "-L" + whole(to)
			}
			if frag != want {
				t.Errorf("%s: %s links #%s, want #%s by its mark", p, tag, frag, want)
			}
			if strings.Contains(mark, ".") {
				fractional++
			}
		}
	}
	if fractional == 0 {
		t.Errorf("no permalink marked with a line the newest lacks; the test wants one")
	}
}

// buildGateChecked builds the two releases of the multi-release fixture
// with file f (no release renders it) as older and newer, its line
// "if enabled(GateChecked)" a gate's declaration and a check of it, and
// returns the site's files.
func buildGateChecked(t *testing.T, f, older, newer string) map[string]string {
	t.Helper()
	rels, opts := multiFixtureOf(t, loadTree(t))
	for i, src := range []string{older, newer} {
		in := &rels[i].Input // oldest first
		read := in.ReadFile
		in.ReadFile = func(p string) ([]byte, error) {
			if p == f {
				return []byte(src), nil
			}
			return read(p)
		}
		facts := *in.Facts
		n := strings.Count(src[:strings.Index(src, "if enabled")], "\n") + 1
		at := fact.Location{Path: f, StartLine: n, EndLine: n}
		facts.Gates = []fact.Gate{{Name: "GateChecked", Const: "k8s.io/kubernetes/pkg/features.GateChecked", Decl: at, Stage: fact.StageAlpha}}
		facts.GateChecks = []fact.GateCheck{{Gate: "GateChecked", At: at, Guarded: at, Kind: "if", WhenEnabled: true,
			Caller: fact.FuncRef{Symbol: "k8s.io/kubernetes/pkg/features.Check", Decl: fact.Location{Path: f, StartLine: n - 1, EndLine: n + 1}}}}
		in.Facts = &facts
	}
	opts.Out = filepath.Join(t.TempDir(), "public")
	if _, err := BuildReleases(context.Background(), rels, opts); err != nil {
		t.Fatal(err)
	}
	return readTree(t, opts.Out)
}
