package site

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// TestBrowserExplainHostile pastes markup and script URLs, and facts and
// walkthroughs carry them too (the fixture's hostile reason, file name and
// titles): everything is shown as text, nothing runs, and no link leaves
// the site or GitHub.
func TestBrowserExplainHostile(t *testing.T) {
	_, _, ctx, paste := parityPage(t)
	in, err := os.ReadFile(filepath.Join(corpusDir, "hostile.txt"))
	if err != nil {
		t.Fatal(err)
	}
	rows := paste(t, string(in))
	type page struct {
		Elements, Pwned string
		Hrefs           []string
	}
	got, err := chromedp.Run(ctx, chromedp.Evaluate[page](`({
		Elements: [...document.querySelectorAll('#explain-results *')].map(e => e.localName).filter(n => !['tr', 'td', 'span', 'code', 'div', 'a', 'details', 'summary'].includes(n)).join(' '),
		Pwned: typeof window.pwned,
		Hrefs: [...document.querySelectorAll('#explain-results a')].map(a => a.getAttribute('href')),
	})`))
	if err != nil {
		t.Fatal(err)
	}
	if got.Elements != "" || got.Pwned != "undefined" {
		t.Errorf("pasted markup became elements %q, window.pwned is %s", got.Elements, got.Pwned)
	}
	for _, h := range got.Hrefs {
		if !strings.HasPrefix(h, "https://github.com/kubernetes/kubernetes/blob/") && !strings.HasPrefix(h, "src/") && !strings.HasPrefix(h, "walkthroughs/") {
			t.Errorf("link %q", h)
		}
	}
	// Seven records: the last two lines are one block of audit fields.
	if len(rows) != 7 || rows[0].Text != "<script>window.pwned = 1</script>" || rows[1].Text != "javascript:alert(1)" {
		t.Fatalf("rows: %+v", rows)
	}
	// The JSON event with the fixture's hostile reason is explained by
	// the hostile file, whose page link is escaped.
	ev := rows[3]
	if !ev.Explained || len(ev.Code) != 1 || !strings.HasPrefix(ev.Code[0], `emitted pkg/odd/x<script>&'"#?.go:3 `) {
		t.Errorf("hostile event: %+v", ev)
	}
	if !slices.Contains(got.Hrefs, `src/pkg/odd/x%3Cscript%3E&%27%22%23%3F.go.html#L3`) {
		t.Errorf("no escaped link to the hostile file's page among %q", got.Hrefs)
	}
}

// TestBrowserExplainKnownDifferences pins what the page cannot read as
// the command line does (listed at the top of assets/explain.js): for each
// input, the page shows what Go's answer becomes under the documented
// difference, and not Go's answer itself.
func TestBrowserExplainKnownDifferences(t *testing.T) {
	x, _, _, paste := parityPage(t)
	for _, tc := range []struct {
		name, input string
		// as turns Go's answers into the page's.
		as func([]byte) []lineResult
	}{{
		// A textarea's value has LF for CR: Go reads one line.
		name:  "bare CR",
		input: "0s   Normal   Pulling   pod/p   Pulling image \"x\"\r0s   Normal   Scheduled   pod/p   Successfully assigned a/p to n\n",
		as: func(in []byte) []lineResult {
			return goResults(x, bytes.ReplaceAll(in, []byte("\r"), []byte("\n")))
		},
	}, {
		// Go keeps the byte %FF decodes to; the page shows U+FFFD.
		name:  "escape of a byte that is not UTF-8",
		input: `{"verb":"create","requestURI":"/api/v1/namespaces/default/pods/x%FF/binding","user":{"username":"system:kube-scheduler"}}` + "\n",
		as: func(in []byte) []lineResult {
			rs := goResults(x, in)
			for i := range rs {
				rs[i].Shown = strings.ToValidUTF8(rs[i].Shown, "\uFFFD")
			}
			return rs
		},
	}, {
		// Three values of one key: JSON.parse keeps the first place of
		// "\ufffd" for its last value, the walk then puts the lone
		// surrogate's value after it.
		name:  "a key given three times, once with a lone surrogate",
		input: `{"kind":"List","items":[{"\ufffd":1,"\ud800":2,"\ufffd":3}]}` + "\n",
		as: func(in []byte) []lineResult {
			rs := goResults(x, in)
			rs[0].Text = strings.Replace(rs[0].Text, `:3}`, `:2}`, 1)
			return rs
		},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			got := paste(t, tc.input)
			want, goSays := tc.as([]byte(tc.input)), goResults(x, []byte(tc.input))
			if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("page (-documented +page):\n%s", diff)
			}
			if cmp.Equal(goSays, got, cmpopts.EquateEmpty()) {
				t.Errorf("the page agrees with Go here: drop the difference from the list")
			}
		})
	}
}
