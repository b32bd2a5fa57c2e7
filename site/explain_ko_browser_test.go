package site

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// The Korean explain page explains in Korean: the roles, where the
// component was read from, "via" and the notes come from the page's
// string table, not from the script's English; the English page keeps
// kubewalk explain's words (the parity test). The search page counts
// results as Korean writes a counter ("3개 결과"), and the nav names the
// page for what it does.
func TestBrowserExplainKorean(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	out, _ := buildFixture(t, func(in *Input) {
		parityFixture(t)(in)
		bilingual(in)
	})
	ctx := browser(t, 1280, 900)
	base := fileURL(t, out)
	lines := strings.Join([]string{
		"LAST SEEN   TYPE      REASON              OBJECT                                  MESSAGE",
		"2m10s       Normal    SuccessfulCreate    replicaset/nginx-deployment-cbdccf466   Created pod: nginx-deployment-cbdccf466-26lvf",
		"2m1s        Normal    Pulled              pod/nginx-deployment-cbdccf466-26lvf    Successfully pulled image \"nginx:1.14.2\" in 9.57s (9.57s including waiting)",
		"2m          Normal    NoSuchReason        pod/nginx-deployment-cbdccf466-26lvf    Something",
		"this is not an event",
	}, "\n")
	js, err := json.Marshal(lines)
	if err != nil {
		t.Fatal(err)
	}
	page := func(lang string) string {
		openPage(t, ctx, base+lang+"/explain.html")
		err := chromedp.Do(ctx,
			voidEval(`document.getElementById('explain-input').value = `+string(js)),
			chromedp.Click(chromedp.CSS(`#explain-form button`)),
			chromedp.WaitReady(chromedp.CSS(`#explain-results[data-run="1"]`)),
		)
		if err != nil {
			t.Fatal(err)
		}
		text, err := chromedp.Run(ctx, chromedp.Evaluate[string](`[...document.querySelectorAll('#explain-results td.comp, #explain-results td.code')].map(td => td.textContent).join('\n')`))
		if err != nil {
			t.Fatal(err)
		}
		return text
	}
	en := page("en")
	for _, want := range []string{"emitted", "via ", "(object kind)", "call sites record reason", "not a kubectl event line", "no recorder call with reason"} {
		if !strings.Contains(en, want) {
			t.Errorf("English page lacks %q:\n%s", want, en)
		}
	}
	ko := page("ko")
	for _, english := range []string{"emitted", "via ", "object kind", "call sites", "not a kubectl", "no recorder", "words the message"} {
		if strings.Contains(ko, english) {
			t.Errorf("Korean page says %q in English:\n%s", english, ko)
		}
	}
	for _, want := range []string{"기록", "경유", "오브젝트 종류", "호출 지점", "kubectl 이벤트 줄도 감사 기록도 아닙니다", "레코더 호출이 없습니다"} {
		if !strings.Contains(ko, want) {
			t.Errorf("Korean page lacks %q:\n%s", want, ko)
		}
	}
	nav, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('nav, header').textContent`))
	if err != nil || !strings.Contains(nav, "이벤트 해석") {
		t.Errorf("Korean nav %q (err %v) does not name the explain page 이벤트 해석", nav, err)
	}

	openPage(t, ctx, base+"ko/search.html?q=replicaset")
	if err := chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS(`#results li`))); err != nil {
		t.Fatal(err)
	}
	count, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById('count').textContent`))
	if err != nil || !regexp.MustCompile(`^[0-9]+개 결과$`).MatchString(count) {
		t.Errorf("Korean result count %q (err %v), want N개 결과", count, err)
	}
}

// localized is the Go explainer's results as the page in lang words them:
// each note and the component's source through the page's string table
// (templates/i18n), whose English is the explainer's wording.
func localized(lang string, rs []lineResult) []lineResult {
	if lang == "en" {
		return rs
	}
	type format struct {
		re *regexp.Regexp
		to string
	}
	var notes []format
	for k, en := range messages["en"] {
		if strings.HasPrefix(k, "explain.note.") {
			src := "^" + regexp.QuoteMeta(en) + "$"
			src = regexp.MustCompile(`\\\{(\d)\\\}`).ReplaceAllString(src, `(?P<a$1>.*?)`)
			notes = append(notes, format{regexp.MustCompile(src), messages[lang][k]})
		}
	}
	out := make([]lineResult, len(rs))
	for i, r := range rs {
		if r.Note != "" {
			parts := strings.Split(r.Note, "; ")
			for j, p := range parts {
				for _, f := range notes {
					m := f.re.FindStringSubmatch(p)
					if m == nil {
						continue
					}
					s := f.to
					for k, name := range f.re.SubexpNames() {
						if name != "" {
							s = strings.ReplaceAll(s, "{"+strings.TrimPrefix(name, "a")+"}", m[k])
						}
					}
					parts[j] = s
					break
				}
			}
			r.Note = strings.Join(parts, "; ")
		}
		if name, from, ok := strings.Cut(r.Component, " ("); ok {
			from = strings.TrimSuffix(from, ")")
			if ko, ok := messages[lang]["explain.from."+strings.ReplaceAll(from, " ", "")]; ok {
				r.Component = name + " (" + ko + ")"
			}
		}
		out[i] = r
	}
	return out
}
