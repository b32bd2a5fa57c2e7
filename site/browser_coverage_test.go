package site

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/kubewalk/kubewalk/record"
)

// TestBrowserCoverage opens the bilingual fixture site with coverage of
// two scenarios from file://, at desktop and phone width, in English and
// Korean: a source page's gutter marks carry their counts in the page's
// language, the keyboard reaches them and focus shows the count, the
// scenario choice switches them; a walkthrough's excerpts carry their
// badges; the Recorded run page shows its phases, the start-up folded,
// and folds a repeated write.
func TestBrowserCoverage(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	recs := coverageRecordings()
	dep := recs[1]
	again := dep.Audit[2]
	again.At, again.Name = 75, "nginx-deployment-second"
	dep.Audit = append(dep.Audit, again)
	dep.Audit = append(dep.Audit, record.AuditEntry{At: -800, Stage: "ResponseComplete", Verb: "create", Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "clusterroles", Name: "admin", User: "system:apiserver", UserAgent: "kube-apiserver/" + fixtureTag, RequestURI: "/apis/rbac.authorization.k8s.io/v1/clusterroles", Code: 201})
	out, _ := buildFixture(t, func(in *Input) { bilingual(in); in.Recordings = recs })
	base := fileURL(t, out)
	art := artifacts(t)
	for _, size := range [][2]int{{1280, 900}, {390, 844}} {
		ctx := browser(t, size[0], size[1])
		// A headless tab never has the window's focus, so :focus would
		// never match: emulate a focused page.
		if err := chromedp.Do(ctx, chromedp.Func(func(c context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(c, tg, emulation.SetFocusEmulationEnabled, emulation.SetFocusEmulationEnabledParams{Enabled: true})
			return err
		})); err != nil {
			t.Fatal(err)
		}
		if size[0] < 500 { // Chromium's window is at least 500 px wide: emulate the phone
			if err := chromedp.Do(ctx, chromedp.EmulateViewport(int64(size[0]), int64(size[1]), chromedp.EmulateMobile)); err != nil {
				t.Fatal(err)
			}
		}
		run := func(t *testing.T, expr string) string {
			t.Helper()
			s, err := chromedp.Run(ctx, chromedp.Evaluate[string](expr))
			if err != nil {
				t.Fatalf("%s: %v", expr, err)
			}
			return s
		}
		for _, lang := range []string{"en", "ko"} {
			name := fmt.Sprintf("%dpx-%s", size[0], lang)
			t.Run(name, func(t *testing.T) {
				ran, not := map[string]string{"en": "ran 3×", "ko": "3회 실행됨"}[lang], map[string]string{"en": "did not run", "ko": "실행되지 않음"}[lang]
				// The source page, in the language asked for.
				openPage(t, ctx, base+"src/pkg/controller/deployment/sync.go.html?lang="+lang)
				got := run(t, `[20, 9, 5].map(n => { const u = document.getElementById('L' + n); return [u.getAttribute('data-n'), u.getAttribute('data-t'), u.tabIndex].join('|') }).join(' / ')`)
				if want := "3|" + ran + "|0 / 0|" + not + "|0 / ||-1"; got != want {
					t.Errorf("lines 20, 9 and 5: %q, want %q", got, want)
				}
				// Every counted line is marked from data-cov: rolloutRolling's
				// lines ran once, its error branch did not, getNewReplicaSet's
				// three times; a comment and a blank line are not counted.
				if got, want := run(t, `[5, 6, 8, 9, 12, 19, 21].map(n => document.getElementById('L' + n).getAttribute('data-n') || '').join(' ')`), " 1 1 0 1  3"; got != want {
					t.Errorf("lines 5, 6, 8, 9, 12, 19, 21 marked %q, want %q", got, want)
				}
				// Line 21 continues line 20's run: the keyboard stops once.
				if got := run(t, `String(document.getElementById('L21').tabIndex)`); got != "-1" {
					t.Errorf("line 21's tabindex %s, want none (-1): it is in line 20's run", got)
				}
				// Focus shows the count beside the line.
				got = run(t, `(() => { const u = document.getElementById('L20'); u.focus(); return document.activeElement.id + '|' + getComputedStyle(u, '::after').content })()`)
				if want := `L20|"` + ran + `"`; got != want {
					t.Errorf("focused line 20: %q, want %q", got, want)
				}
				// The gutter bar differs for lines that ran and did not.
				got = run(t, `[21, 9, 5].map(n => getComputedStyle(document.getElementById('L' + n), '::before').backgroundImage.slice(0, 24)).join(' / ')`)
				if parts := strings.Split(got, " / "); len(parts) != 3 || parts[0] == parts[1] || parts[2] != "none" || parts[0] == "none" {
					t.Errorf("gutter backgrounds of lines 21, 9, 5: %q: want a bar, another bar, none", got)
				}
				if size[0] == 1280 || lang == "en" {
					screenshot(t, ctx, art, "coverage-source-"+name+".png", false)
				}
				// The scenario choice is shown and switches the marks.
				got = run(t, `(() => { const s = [...document.querySelectorAll('.covpick select')].find(s => s.offsetParent !== null); if (!s) return 'no visible choice'; s.value = 'rollout'; s.dispatchEvent(new Event('change')); return [6, 21, 19].map(n => document.getElementById('L' + n).getAttribute('data-n')).join(' ') })()`)
				if want := "4 6 "; got != want {
					t.Errorf("after choosing rollout, lines 6, 21, 19: %q, want %q", got, want)
				}

				// The walkthrough's excerpt badges.
				openPage(t, ctx, base+lang+"/walkthroughs/deployment.html")
				got = run(t, `[...document.querySelectorAll('.exhead .covbadge')].map(b => b.className + ': ' + b.innerText).join(' / ')`)
				wantRan := map[string]string{"en": "covbadge ran: ran 1× in the recorded run", "ko": "covbadge ran: 기록된 실행에서 1회 실행됨"}[lang]
				if !strings.Contains(got, wantRan) || !strings.Contains(got, "covbadge not") {
					t.Errorf("excerpt badges %q, want one %q and one not run", got, wantRan)
				}
				if n := run(t, `String(document.querySelectorAll('details.covran[open] ol.covfuncs li').length)`); n == "0" {
					t.Error("no step lists the code that ran in its phase")
				}
				if size[0] == 390 {
					if w := run(t, `String(document.documentElement.scrollWidth)`); w != "390" {
						t.Errorf("the walkthrough is %s px wide at 390", w)
					}
				}
				run(t, `(() => { document.querySelector('.exhead .covbadge.ran').scrollIntoView({block: 'center'}); return '' })()`)
				screenshot(t, ctx, art, "coverage-walkthrough-"+name+".png", false)

				// The Recorded run page: phases, the start-up folded, a repeat folded.
				openPage(t, ctx, base+"recorded.html?lang="+lang)
				// One page for both languages: a cell's card label is its
				// column's heading in the language shown alone.
				label := map[string]string{"en": "Component", "ko": "컴포넌트"}[lang]
				if got := run(t, `document.querySelector('table.facts td[data-label]').getAttribute('data-label')`); got != label {
					t.Errorf("the first cell's label is %q, want %q", got, label)
				}
				got = run(t, `[...document.querySelectorAll('details.phase')].map(d => (d.open ? 'open' : 'shut')).join(' ')`)
				if want := "shut open open"; got != want {
					t.Errorf("phases %q, want %q (the start-up shut, then kubectl's and the ReplicaSet's)", got, want)
				}
				fold := map[string]string{"en": "×2, like the first", "ko": "×2, 첫 번째와 같음"}[lang]
				if got := run(t, `[...document.querySelectorAll('details.phase[open] .fold')].map(f => f.innerText).join(' / ')`); !strings.Contains(got, fold) {
					t.Errorf("folded repeats %q, want %q", got, fold)
				}
				if got := run(t, `String(document.querySelector('#startup-sequence').open)`); got != "false" {
					t.Error("the start-up's sequence diagram is not folded")
				}
				if size[0] == 390 {
					if w := run(t, `String(document.documentElement.scrollWidth)`); w != "390" {
						t.Errorf("the Recorded run page is %s px wide at 390", w)
					}
				}
				screenshot(t, ctx, art, "coverage-recorded-"+name+".png", true)

				// Another scenario's page: its start-up counted, its items
				// left to the deployment run's page, which the link opens
				// at the start-up phase; its own phases shown.
				openPage(t, ctx, base+"recorded-rollout.html?lang="+lang)
				got = run(t, `(() => { const d = document.querySelector('details.phase'); return [d.querySelectorAll('li').length, d.querySelector('p.meta a').getAttribute('href'), document.querySelectorAll('details.phase[open] li').length > 0].join(' ') })()`)
				if want := "0 recorded.html#phase-1 true"; got != want {
					t.Errorf("the rollout's page: start-up items, link, own items %q, want %q", got, want)
				}
				if size[0] == 390 {
					if w := run(t, `String(document.documentElement.scrollWidth)`); w != "390" {
						t.Errorf("the rollout's run page is %s px wide at 390", w)
					}
				}
				screenshot(t, ctx, art, "coverage-recorded-rollout-"+name+".png", false)
			})
		}
	}
}
