package site

import (
	"html"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

var (
	excerptFileRE = regexp.MustCompile(`<a class="file" href="([^"]*)"[^>]*>([^<]*)</a>`)
	excerptMarkRE = regexp.MustCompile(`<span class="ln mark"><span class="nr">(\d+)</span>`)
)

// TestExcerptLinkAgrees: the file link above an excerpt names the lines
// its fragment goes to — the marked lines when the excerpt marks some —
// so "sync.go:141-300" never opens the source page with 150-152 lit.
func TestExcerptLinkAgrees(t *testing.T) {
	out, _ := buildFixture(t, nil)
	files := readTree(t, out)
	var checked, marked int
	for _, page := range []string{"walkthroughs/deployment.html", "walkthroughs/watch.html"} {
		for _, fig := range strings.Split(files[page], `<figure class="excerpt">`)[1:] {
			m := excerptFileRE.FindStringSubmatch(fig)
			if m == nil {
				t.Fatalf("%s: an excerpt without a file link: %.200s", page, fig)
			}
			href, label := html.UnescapeString(m[1]), html.UnescapeString(m[2])
			hm := fragRE.FindStringSubmatch(href)
			if hm == nil {
				t.Errorf("%s: file link %q has no line fragment", page, href)
				continue
			}
			from, to := hm[1], hm[2]
			if to == "" {
				to = from
			}
			path, lines, ok := strings.Cut(label, ":")
			lf, lt, _ := strings.Cut(lines, "-")
			if lt == "" {
				lt = lf
			}
			target, err := url.PathUnescape(strings.TrimPrefix(href[:strings.Index(href, "#")], "../src/"))
			if !ok || err != nil || target != path+".html" || lf != from || lt != to {
				t.Errorf("%s: file link labelled %q goes to %s", page, label, href)
			}
			if marks := excerptMarkRE.FindAllStringSubmatch(fig, -1); len(marks) > 0 {
				marked++
				first, last := marks[0][1], marks[len(marks)-1][1]
				if from != first || to != last {
					t.Errorf("%s: %q marks lines %s-%s but links to %s-%s", page, label, first, last, from, to)
				}
			}
			checked++
		}
	}
	if checked == 0 || marked == 0 {
		t.Fatalf("checked %d excerpts, %d with marked lines; want some of each", checked, marked)
	}
}
