package site

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserGraphFocus: the whole resource graph offers its resources and
// components to focus on; picking the ReplicaSets dims every box but
// theirs and their writers' and watchers', and every line that does not
// touch them; "everything" undims it all.
func TestBrowserGraphFocus(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	out, _ := buildFixture(t, nil)
	srv := httptest.NewServer(http.FileServer(http.Dir(out)))
	defer srv.Close()
	ctx := browser(t, 1280, 900)
	openPage(t, ctx, srv.URL+"/resources.html")
	type state struct {
		Options       []string
		Shown, Dimmed []string
		Lines, Dim    int
	}
	look := `(() => {
		const svg = document.querySelector('details.wholegraph svg[role=img]');
		const text = g => g.querySelector('text').textContent;
		return {
			Options: [...document.querySelectorAll('.graphpick select option')].map(o => o.textContent),
			Shown: [...svg.querySelectorAll('g[data-node]:not(.dim)')].map(text),
			Dimmed: [...svg.querySelectorAll('g[data-node].dim')].map(text),
			Lines: svg.querySelectorAll('g[data-ends]').length,
			Dim: svg.querySelectorAll('g[data-ends].dim').length,
		};
	})()`
	pick := func(label string) state {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.Evaluate[state](`(() => {
			const s = document.querySelector('.graphpick select');
			s.value = [...s.options].find(o => o.textContent === `+"`"+label+"`"+`).value;
			s.dispatchEvent(new Event('change'));
		})(), `+look))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	before, err := chromedp.Run(ctx, chromedp.Evaluate[state](look))
	if err != nil {
		t.Fatal(err)
	}
	if len(before.Options) < 4 || before.Options[0] != "everything" || len(before.Dimmed) != 0 {
		t.Fatalf("before a choice: options %q, dimmed %q", before.Options, before.Dimmed)
	}
	s := pick("replicasets.apps")
	if !slices.Contains(s.Shown, "replicasets.apps") || !slices.Contains(s.Shown, "deployment") || !slices.Contains(s.Dimmed, "pkg/scheduler") || s.Dim == 0 || s.Dim == s.Lines {
		t.Errorf("focused on replicasets.apps: shown %q, dimmed %q, %d of %d lines dimmed", s.Shown, s.Dimmed, s.Dim, s.Lines)
	}
	if s := pick("everything"); len(s.Dimmed) != 0 || s.Dim != 0 {
		t.Errorf("everything: dimmed %q, %d lines", s.Dimmed, s.Dim)
	}
}
