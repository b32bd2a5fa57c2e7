package linemap

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/net/html"
)

func TestPrintLines(t *testing.T) {
	for _, c := range []struct{ in, from, to, want string }{
		{"pkg/x.go:12-20", "30", "38", "pkg/x.go:30-38"},
		{"x.go:12", "30", "", "x.go:30"},
		{"x.go:12", "30", "38", "x.go:30"}, // one line printed: its first
		{"pkg/x.go:12.1-14", "9", "11", "pkg/x.go:9-11"},
		{"AddFunc in f (x.go:12) → calls g", "30", "", "AddFunc in f (x.go:30) → calls g"},
		{"x.go:12 and x.go:14", "30", "", "x.go:12 and x.go:30"},
		{"see x.go:14, then", "30", "", "see x.go:14, then"},
		{"ax.go:12", "30", "", "ax.go:12"},
		{"x.go:12x", "30", "", "x.go:12x"},
		{"This code on GitHub", "30", "", "This code on GitHub"},
	} {
		if got := printLines(c.in, "x.go", c.from, c.to); got != c.want {
			t.Errorf("printLines(%q, %s-%s) = %q, want %q", c.in, c.from, c.to, got, c.want)
		}
	}
	for _, c := range []struct{ in, from, to, want string }{
		{GitHubBlob + "v1/pkg/x.go#L12-L20", "30", "38", GitHubBlob + "v1/pkg/x.go#L30-L38"},
		{GitHubBlob + "v1/pkg/x.go#L12.1", "30", "", GitHubBlob + "v1/pkg/x.go#L30"},
		{GitHubBlob + "v1/pkg/x.go#L12", "30", "38", GitHubBlob + "v1/pkg/x.go#L30"},
		{GitHubBlob + "v1/pkg/x.go", "30", "", GitHubBlob + "v1/pkg/x.go"},
	} {
		if got := ghLines(c.in, c.from, c.to); got != c.want {
			t.Errorf("ghLines(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func lines(ls ...string) []string {
	for i := range ls {
		ls[i] += "\n"
	}
	return ls
}

// TestAlign: copies of a file, newest first, merge into one sequence in
// which each copy's lines keep their order, a line shared by any two
// copies is there once, and the anchors are the newest copy's line
// numbers, with ".k" for the lines after one that it lacks.
func TestAlign(t *testing.T) {
	copies := [][]string{
		lines("a", "b", "new", "c", "d"),  // newest
		lines("a", "b", "c", "old1", "d"), // middle
		lines("x", "a", "b", "c", "old1", "old2", "d"),
	}
	masks, at := Align(copies)
	ids := Anchors(masks)
	var got []string
	merged := make([]string, len(masks))
	for k, c := range copies {
		for j, ml := range at[k] {
			if merged[ml] != "" && merged[ml] != c[j] {
				t.Fatalf("merged line %d is both %q and %q", ml, merged[ml], c[j])
			}
			merged[ml] = c[j]
		}
		for j := 1; j < len(at[k]); j++ {
			if at[k][j] <= at[k][j-1] {
				t.Errorf("copy %d's lines out of order in the merge: %v", k, at[k])
			}
		}
	}
	for i, l := range merged {
		got = append(got, ids[i]+" "+strings.TrimSpace(l)+" "+strings.Repeat("1", int(masks[i]&1))+strings.Repeat("2", int(masks[i]>>1&1))+strings.Repeat("3", int(masks[i]>>2&1)))
	}
	want := []string{"L0.1 x 3", "L1 a 123", "L2 b 123", "L3 new 1", "L4 c 123", "L4.1 old1 23", "L4.2 old2 3", "L5 d 123"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("merged (-want +got):\n%s", diff)
	}
}

// TestAlignLongFile: lines moved far apart in a long file still match (a
// bounded diff gave up on such pairs and merged almost nothing).
func TestAlignLongFile(t *testing.T) {
	var a, b []string
	for i := range 3000 {
		l := "line " + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + " " + strconv.Itoa(i)
		a = append(a, l+"\n")
		if i%3 == 0 {
			b = append(b, "changed "+strconv.Itoa(i)+"\n")
		} else {
			b = append(b, l+"\n")
		}
	}
	masks, _ := Align([][]string{a, b})
	if len(masks) != 3000+1000 {
		t.Errorf("%d merged lines, want 4000 (2000 shared)", len(masks))
	}
}

// decodeRuns reads a lineRuns map as site.js does: the stable number of
// each of the copy's lines, from line 1 on.
func decodeRuns(t *testing.T, runs string) []string {
	t.Helper()
	var out []string
	base := 0
	for _, tok := range strings.Fields(runs) {
		first, count, hasCount := strings.Cut(tok, ":")
		n := 1
		if hasCount {
			var err error
			if n, err = strconv.Atoi(count); err != nil {
				t.Fatalf("%q: %v", tok, err)
			}
		}
		d, k, frac := strings.Cut(first, ".")
		dn, _ := strconv.Atoi(d) // "" is 0
		at := base + dn
		for i := range n {
			if frac {
				kk, _ := strconv.Atoi(k)
				out = append(out, strconv.Itoa(at)+"."+strconv.Itoa(kk+i))
			} else {
				out = append(out, strconv.Itoa(at+i))
			}
		}
		base = at
		if !frac {
			base += n - 1
		}
	}
	return out
}

// mergedOf aligns copies of a file (newest first) as merge does, as its
// line map.
func mergedOf(copies ...string) *File {
	var ls [][]string
	for _, c := range copies {
		ls = append(ls, TextLines([]byte(c)))
	}
	masks, at := Align(ls)
	return &File{Rels: []int{0, 1, 2}[:len(copies)], IDs: Anchors(masks), At: at}
}

// A release's line map names each of its lines by its stable number, and
// ownLine reads it back; the newest release's, and a copy the same as it,
// need none.
func TestLineRuns(t *testing.T) {
	m := mergedOf("a\nb\nc\nd\ne\nf\n", "a\nx\nb\nc\ne\nf\ng\n", "a\nb\nc\nd\ne\nf\n")
	want := []string{"", "1 .1 1:2 2:2 .1", ""}
	for k := range m.Rels {
		runs := m.Runs(k)
		if runs != want[k] {
			t.Errorf("copy %d: lineRuns = %q, want %q", k, runs, want[k])
		}
		var stable []string
		for _, ml := range m.At[k] {
			stable = append(stable, strings.TrimPrefix(m.IDs[ml], "L"))
		}
		if runs != "" {
			if diff := cmp.Diff(stable, decodeRuns(t, runs)); diff != "" {
				t.Errorf("copy %d: its lines' anchors (-) and the map's (+):\n%s", k, diff)
			}
		}
		for n, s := range stable {
			if got, ok := m.Own(k, s); !ok || got != n+1 {
				t.Errorf("copy %d: ownLine(%s) = %d, %v; want %d", k, s, got, ok, n+1)
			}
		}
	}
	for _, c := range []struct {
		k int
		s string
	}{{1, "4"}, {0, "1.1"}, {0, "6.1"}, {1, "7"}, {1, "0.1"}, {1, "x"}, {1, "01"}} {
		if got, ok := m.Own(c.k, c.s); ok {
			t.Errorf("copy %d: ownLine(%s) = %d, want none", c.k, c.s, got)
		}
	}
	// Lines before the newest's first: "0.1" on.
	m = mergedOf("b\nc\n", "a\nb\nc\n")
	if got := m.Runs(1); got != ".1 1:2" {
		t.Errorf("lines before the newest's first: %q", got)
	}
}

// renumber writes an older release's numbers where a page prints stable
// ones: a location's text, title and permalink, a func literal's place,
// a walkthrough link's title (not its text, the author's), an excerpt's
// line numbers and elisions.
func TestRenumber(t *testing.T) {
	m := mergedOf("a\nb\nc\nd\ne\nf\n", "a\nx\nb\nc\ne\nf\ng\n")
	set := &Maps{
		Tags:  []string{"v2", "v1"},
		Files: map[string]*File{"pkg/x.go": m},
		Pages: map[string]string{"src/pkg/x.go.html": "pkg/x.go", "src/pkg/x.go.2.html": "pkg/x.go"},
	}
	const page = `<a class="loc" data-l="2-3" href="../src/pkg/x.go.2.html#L2-L3">pkg/x.go:2-3</a>` +
		`<a class="gh" data-l="2-3" href="https://github.com/kubernetes/kubernetes/blob/v2/pkg/x.go#L2-L3">↗</a>` +
		`<a class="sym" data-l="1.1" href="../src/pkg/x.go.html#L1.1" title="func literal in f (x.go:1.1)">AddFunc in f (x.go:1.1)</a>` +
		`<a class="symref" data-l="5" href="../src/pkg/x.go.html?rel=v1#L5" title="pkg/x.go:5">x.go:5</a>` +
		`<a class="loc" data-l="4" href="../src/pkg/x.go.html#L4">pkg/x.go:4</a>` +
		`<figure class="excerpt"><div class="exhead"><a class="file" data-l="2" href="../src/pkg/x.go.html#L2">pkg/x.go:2</a></div>` +
		`<pre class="code" data-l=""><span class="ln"><span class="nr">1.1</span>x</span><span class="ln gap"><span class="nr">⋯</span>2–3 lines elided` + "\n" +
		`</span><span class="ln"><span class="nr"><span data-r="2" hidden="">9</span><span data-r="1">5</span></span>e</span></pre></figure>`
	for _, c := range []struct {
		tag  string
		keep bool
		want string
	}{{"v1", false, `<a class="loc" href="../src/pkg/x.go.2.html#L2-L3">pkg/x.go:3-4</a>` +
		`<a class="gh" href="https://github.com/kubernetes/kubernetes/blob/v2/pkg/x.go#L3-L4">↗</a>` +
		`<a class="sym" href="../src/pkg/x.go.html#L1.1" title="func literal in f (x.go:2)">AddFunc in f (x.go:2)</a>` +
		`<a class="symref" href="../src/pkg/x.go.html?rel=v1#L5" title="pkg/x.go:5">x.go:5</a>` +
		// Not a line of v1's: left as it is.
		`<a class="loc" href="../src/pkg/x.go.html#L4">pkg/x.go:4</a>` +
		`<figure class="excerpt"><div class="exhead"><a class="file" href="../src/pkg/x.go.html#L2">pkg/x.go:3</a></div>` +
		`<pre class="code"><span class="ln"><span class="nr">2</span>x</span><span class="ln gap"><span class="nr">⋯</span>3–4 lines elided` + "\n" +
		`</span><span class="ln"><span class="nr"><span data-r="2" hidden="">9</span><span data-r="1">5</span></span>e</span></pre></figure>`,
	}, {"v1", true, `<a class="loc" data-l="2-3" href="../src/pkg/x.go.2.html#L2-L3">pkg/x.go:3-4</a>` +
		`<a class="gh" data-l="2-3" href="https://github.com/kubernetes/kubernetes/blob/v2/pkg/x.go#L3-L4">↗</a>` +
		`<a class="sym" data-l="1.1" href="../src/pkg/x.go.html#L1.1" title="func literal in f (x.go:2)">AddFunc in f (x.go:2)</a>` +
		`<a class="symref" data-l="5" href="../src/pkg/x.go.html?rel=v1#L5" title="pkg/x.go:5">x.go:5</a>` +
		`<a class="loc" data-l="4" href="../src/pkg/x.go.html#L4">pkg/x.go:4</a>` +
		`<figure class="excerpt"><div class="exhead"><a class="file" data-l="2" href="../src/pkg/x.go.html#L2">pkg/x.go:3</a></div>` +
		`<pre class="code" data-l=""><span class="ln"><span class="nr" data-l="1.1">2</span>x</span><span class="ln gap" data-l="2-3"><span class="nr">⋯</span>3–4 lines elided` + "\n" +
		`</span><span class="ln"><span class="nr"><span data-r="2" hidden="">9</span><span data-r="1">5</span></span>e</span></pre></figure>`,
	}, {"v2", false, strings.NewReplacer(` data-l="2-3"`, "", ` data-l="1.1"`, "", ` data-l="5"`, "", ` data-l="4"`, "", ` data-l="2"`, "", ` data-l=""`, "").Replace(page)}} {
		doc, err := html.Parse(strings.NewReader(page))
		if err != nil {
			t.Fatal(err)
		}
		set.Renumber(doc, "en/handlers.html", c.tag, c.keep)
		var buf bytes.Buffer
		if err := html.Render(&buf, doc); err != nil {
			t.Fatal(err)
		}
		got := strings.TrimSuffix(strings.TrimPrefix(buf.String(), "<html><head></head><body>"), "</body></html>")
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("%s, keep %v (-want +got):\n%s", c.tag, c.keep, diff)
		}
	}
}
