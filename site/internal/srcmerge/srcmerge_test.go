package srcmerge

import (
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestFileRenderingsByLinks: two releases' renderings of a line that
// differ only in where their links go are one, where the older release's
// go recorded for site.js: to another line of a GitHub file (data-ghl),
// or anywhere else (data-lnk, from the part's page). A release whose link
// would go to yet another place for a rendering already followed, or a
// line sending one link to two places, keeps its own rendering.
func TestFileRenderingsByLinks(t *testing.T) {
	const base = "https://github.com/k/k/blob/v2/"
	m := &Src{File: "x.go", Rels: []int{0, 1}, views: make([][]lineView, 7), Moves: []map[string]string{{}, {}},
		IDs: []string{"L1", "L2", "L3", "L4", "L5", "L5.1", "L6"}, Parts: []int{0}, Paths: []string{"src/x.go.html"}}
	y := &Src{File: "y.go", IDs: []string{"L1"}, Parts: []int{0}, Paths: []string{"src/y.go.html"}}
	set := &Set{Files: map[string]*Src{"x.go": m, "y.go": y}}
	link := func(n string) string { return `<a href="` + base + `x.go#L` + n + `">X</a>` }
	local := func(ml int) string { return `<a href="@` + strconv.Itoa(ml) + `/x.go">v</a>` }
	m.File1(0, 0, link("10"))
	m.File1(1, 0, link("8"))
	m.File1(0, 1, link("20"))
	m.File1(1, 1, link("20"))
	m.File1(0, 2, link("10")+" "+link("30"))
	m.File1(1, 2, link("10")+" "+link("31")) // x.go#L10 is 8 for v1 already
	// A permalink to the file, not a line, in one release and to a line
	// in the other: two renderings.
	m.File1(0, 3, `<a href="`+base+`x.go">X</a>`)
	m.File1(1, 3, link("5"))
	// A local variable declared on a line the older release has apart
	// (L5.1), and an in-site link that is a permalink in the older.
	m.File1(0, 4, local(4)+" + "+local(4)+" + "+`<a href="@6/x.go">X</a>`)
	m.File1(1, 4, local(5)+" + "+local(5)+" + "+link("40"))
	// A link to another page that goes to this one in the older release.
	m.File1(0, 5, `<a href="@0/y.go">Y</a>`)
	m.File1(1, 5, `<a href="@3/x.go">Y</a>`)
	// The same link sent to two places by one line.
	m.File1(0, 6, local(4)+" "+local(4))
	m.File1(1, 6, local(4)+" "+local(5))
	for ml, want := range []int{1, 1, 2, 2, 1, 1, 2} {
		if n := len(m.views[ml]); n != want {
			t.Errorf("line %d: %d renderings %+v, want %d", ml, n, m.views[ml], want)
		}
	}
	files := m.GHFiles(base)
	if got := m.GHLines(1, base, files); len(files) != 1 || files[0] != "x.go" || got != "0#10=8" {
		t.Errorf("data-ghf = %q, data-ghl = %q", files, got)
	}
	if got, want := m.LinkMoves(set, 1, 0), "#L5 #L5.1 #L6 "+base+"x.go#L40 y.go.html#L1 x.go.html#L4"; got != want {
		t.Errorf("data-lnk = %q, want %q", got, want)
	}
	if got := m.LinkMoves(set, 0, 0); got != "" {
		t.Errorf("newest's data-lnk = %q, want none", got)
	}
}

// TestGHLinesGrouped: data-ghl names each link once, by its index in
// the page's data-ghf, its moved lines in order after it; a line that did
// not move is left out, and so is a link that moves for no release.
func TestGHLinesGrouped(t *testing.T) {
	const base = "https://github.com/k/k/blob/v2/"
	m := &Src{Moves: []map[string]string{{}, {
		base + "b.go#L30": base + "b.go#L28", base + "a.go#L100": base + "a.go#L90", base + "b.go#L7": base + "b.go#L7",
		base + "b.go#L12": base + "b.go#L10", base + "a.go#L9": base + "a.go#L9", base + "a.go#L20": base + "a.go#L25",
		base + "c.go#L1": "@3/c.go",
	}}}
	files := m.GHFiles(base)
	if want := []string{"a.go", "b.go"}; !slices.Equal(files, want) {
		t.Errorf("data-ghf = %q, want %q", files, want)
	}
	if got, want := m.GHLines(1, base, files), "0#20=25,100=90 1#12=10,30=28"; got != want {
		t.Errorf("data-ghl = %q, want %q", got, want)
	}
	if got := m.GHLines(0, base, files); got != "" {
		t.Errorf("newest's data-ghl = %q, want none", got)
	}
}

// TestSplitParts: a page too heavy for one part is cut into parts within
// the budget; a link to a line names the part holding it, a range ends in
// that part, and each part says where each release's numbering starts.
func TestSplitParts(t *testing.T) {
	const n = 300
	m := &Src{File: "pkg/a.go", Rels: []int{0, 1}, All: 3, IDs: make([]string, n), At: [][]int32{nil, nil}, views: make([][]lineView, n)}
	for i := range n {
		m.IDs[i] = "L" + strconv.Itoa(i+1)
		m.At[0] = append(m.At[0], int32(i))
		if i != 5 {
			m.At[1] = append(m.At[1], int32(i))
		}
		m.views[i] = []lineView{{html: strings.Repeat("x", 100), mask: 3}}
	}
	m.views[5][0].mask = 1
	m.views[0][0].html = `<a href="@299/pkg/a.go">last</a>`
	set := &Set{Files: map[string]*Src{m.File: m}}
	m.Parts, m.Paths = []int{0}, []string{PartPage(m.File, 1)}
	m.split(set, 100*(100+mergedLineMarkup))
	if len(m.Parts) < 3 {
		t.Fatalf("parts %v", m.Parts)
	}
	for p := range m.Parts {
		if c := m.Code(set, p); len(c) > 100*(100+mergedLineMarkup)+200 {
			t.Errorf("part %d: %d bytes", p+1, len(c))
		}
	}
	last := len(m.Parts) - 1
	if page, frag, _ := set.Target(m.File, 0, 300, 0); page != PartPage(m.File, last+1) || frag != "L300" {
		t.Errorf("line 300 at %s#%s", page, frag)
	}
	// Release 1 lacks merged line 5: its line 6 is merged line 6 ("L7").
	if page, frag, _ := set.Target(m.File, 1, 6, 0); page != PartPage(m.File, 1) || frag != "L7" {
		t.Errorf("release 1's line 6 at %s#%s", page, frag)
	}
	if _, frag, _ := set.Target(m.File, 0, 1, 299); frag != "L1-L"+strconv.Itoa(m.Parts[1]) {
		t.Errorf("range 1-299 in the first part: #%s", frag)
	}
	first := m.Code(set, 0)
	if want := `href=a.go.` + strconv.Itoa(last+1) + `.html#L300>`; !strings.Contains(first, want) {
		t.Errorf("first part lacks %s", want)
	}
	second := m.Code(set, 1)
	if want := `data-start="` + strconv.Itoa(m.Parts[1]) + " " + strconv.Itoa(m.Parts[1]-1) + `"`; !strings.Contains(second, want) {
		t.Errorf("second part lacks %s: %.80s", want, second)
	}
	// Once the pages are written the Set lets go of their lines, and still
	// answers for the pages that link into them.
	set.Written()
	if page, frag, _ := set.Target(m.File, 1, 6, 0); page != PartPage(m.File, 1) || frag != "L7" {
		t.Errorf("written: release 1's line 6 at %s#%s", page, frag)
	}
	if len(m.views) != 0 || len(set.Sorted()) != 1 {
		t.Errorf("written: %d lines' renderings kept, %d files with a page", len(m.views), len(set.Sorted()))
	}
}

// TestNearURL: a link between source pages goes up only as far as the
// two pages' paths part.
func TestNearURL(t *testing.T) {
	for _, tc := range []struct{ from, to, frag, want string }{
		{"src/pkg/kubelet/kubelet.go.html", "src/pkg/kubelet/status/status_manager.go.html", "L218", "status/status_manager.go.html#L218"},
		{"src/pkg/kubelet/kubelet.go.html", "src/pkg/kubelet/pod.go.html", "L1", "pod.go.html#L1"},
		{"src/pkg/kubelet/kubelet.go.html", "src/pkg/kubelet/kubelet.go.html", "L1.2", "#L1.2"},
		{"src/pkg/kubelet/kubelet.go.html", "src/pkg/kubelet/kubelet.go.2.html", "L900", "kubelet.go.2.html#L900"},
		{"src/pkg/kubelet/kubelet.go.html", "src/staging/src/k8s.io/api/core/v1/types.go.html", "L5", "../../staging/src/k8s.io/api/core/v1/types.go.html#L5"},
		{"src/pkg/a/b/c.go.html", "src/pkg/a/x.go.html", "", "../x.go.html"},
		{"src/pkg/a.go.html", "src/pkg/a b/c#d.go.html", "L1", "a%20b/c%23d.go.html#L1"},
		{"src/pkg/a.go.html", "src/pkg/c:d.go.html", "L1", "./c:d.go.html#L1"}, // not the scheme "c"
		{"src/pkg/a.go.html", "src/pkg/c:d/e.go.html", "L1", "./c:d/e.go.html#L1"},
	} {
		if got := NearURL(tc.from, tc.to, tc.frag); got != tc.want {
			t.Errorf("NearURL(%q, %q, %q) = %q, want %q", tc.from, tc.to, tc.frag, got, tc.want)
		}
		// Resolved against the page, it is the target's URL.
		base, _ := url.Parse("https://h/" + tc.from)
		ref, err := url.Parse(tc.want)
		if err != nil {
			t.Fatal(err)
		}
		if got := base.ResolveReference(ref); strings.TrimPrefix(got.Path, "/") != tc.to || got.Fragment != tc.frag || got.Scheme != "https" {
			t.Errorf("%q from %s resolves to %s", tc.want, tc.from, got)
		}
	}
}

// TestLinkTable: the releases' data-lnk name each href by its index in
// the page's data-lnt, which holds every href once, in the order first
// named; a release with no moves has no data-lnk.
func TestLinkTable(t *testing.T) {
	table, idx := LinkTable([]string{"", "#L5 #L5.1 x.go.html#L4 #L4.2", "", "#L5 #L5.2 x.go.html#L4 #L4.2"})
	if want := "#L5 #L5.1 x.go.html#L4 #L4.2 #L5.2"; table != want {
		t.Errorf("data-lnt = %q, want %q", table, want)
	}
	if want := []string{"", "0 1 2 3", "", "0 4 2 3"}; !slices.Equal(idx, want) {
		t.Errorf("data-lnk = %q, want %q", idx, want)
	}
	// Each release's pairs read back through the table are its moves.
	f := strings.Fields(table)
	for k, want := range []string{"#L5 #L5.1 x.go.html#L4 #L4.2", "#L5 #L5.2 x.go.html#L4 #L4.2"} {
		var got []string
		for _, i := range strings.Fields(idx[2*k+1]) {
			n, _ := strconv.Atoi(i)
			got = append(got, f[n])
		}
		if strings.Join(got, " ") != want {
			t.Errorf("release %d: %q, want %q", 2*k+1, got, want)
		}
	}
}
