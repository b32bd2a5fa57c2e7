package site

import (
	"context"
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// searchResult is one result as the page shows it.
type searchResult struct {
	Kind, Title, Detail string
	Marks               []string
}

// searchFor opens search.html?q=query and returns its results.
func searchFor(t *testing.T, ctx context.Context, base, query string) []searchResult {
	t.Helper()
	openPage(t, ctx, base+"search.html?q="+url.QueryEscape(query))
	if err := chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS(`#count`))); err != nil {
		t.Fatal(err)
	}
	rs, err := chromedp.Run(ctx, chromedp.Evaluate[[]searchResult](`Array.from(document.querySelectorAll('#results li')).map(li => ({
		Kind: li.querySelector('.kind').textContent,
		Title: li.querySelector('a').textContent,
		Detail: (li.querySelector('.d') || {}).textContent || "",
		Marks: Array.from(li.querySelectorAll('mark')).map(m => m.textContent),
	}))`))
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

// A whole line of kubectl get events, in any layout, finds its event
// first, even when the names in it (the Pod's, the ReplicaSet's hash) are
// words the walkthroughs use too; each result marks the words it was
// found by; a summary shows no Markdown.
func TestBrowserSearchEventLine(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	out, _ := buildFixture(t, func(in *Input) {
		parityFixture(t)(in)
		d := in.Docs[0]
		d.Summary = "From `kubectl apply` to **running** Pods"
		// Prose naming what a pasted line names besides its event.
		d.Steps[0].Segments = append(d.Steps[0].Segments, prose("The Pod nginx-deployment-cbdccf466-26lvf of replicaset nginx-deployment-cbdccf466 runs on node-1 in default after 2m10s; kubectl get events shows its age."))
		in.Docs[0] = d
	})
	ctx := browser(t, 1280, 900)
	base := fileURL(t, out)
	for _, tc := range []struct{ line, reason string }{
		{"2m10s       Normal    SuccessfulCreate    replicaset/nginx-deployment-cbdccf466   Created pod: nginx-deployment-cbdccf466-26lvf", "SuccessfulCreate"},
		{"default   2m10s   Normal   SuccessfulCreate   replicaset/nginx-deployment-cbdccf466   Created pod: nginx-deployment-cbdccf466-26lvf", "SuccessfulCreate"},
		{"9s   Normal   Scheduled   pod/nginx-deployment-cbdccf466-26lvf   default-scheduler   Successfully assigned default/nginx-deployment-cbdccf466-26lvf to node-1", "Scheduled"},
		{`Successfully pulled image "nginx:1.14.2" in 9.57s (9.57s including waiting)`, ""},
	} {
		rs := searchFor(t, ctx, base, tc.line)
		if len(rs) == 0 {
			t.Errorf("%q: no results", tc.line)
			continue
		}
		if tc.reason != "" && (rs[0].Kind != "Event" && rs[0].Kind != "event" || rs[0].Title != tc.reason) {
			t.Errorf("%q: first result %+v, want the event %s", tc.line, rs[0], tc.reason)
		}
		marked := false
		for _, r := range rs {
			marked = marked || len(r.Marks) > 0
		}
		if !marked {
			t.Errorf("%q: no result marks a word of the query", tc.line)
		}
	}
	for _, r := range searchFor(t, ctx, base, "kubectl apply running") {
		if strings.ContainsAny(r.Detail, "`*") {
			t.Errorf("a result shows Markdown: %+v", r)
		}
	}
}
