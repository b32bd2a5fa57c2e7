package safehtml

import (
	"fmt"
	"testing"
)

// recorder is a testing.TB that keeps what Check reports.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

func TestCheck(t *testing.T) {
	for _, c := range []struct {
		html string
		errs int
	}{
		{`<p><a href="x.html" title="&quot; onclick=&quot;y">a</a> &lt;script&gt;</p>`, 0},
		{`<p><script>alert(1)</script></p>`, 1},
		{`<a href="x" onclick="y">a</a>`, 1},
		{`<a href=" JavaScript:alert(1)">a</a><img src="data:x" alt="">`, 2},
		{`<ref dest="x">a</ref>`, 2},
	} {
		r := &recorder{TB: t}
		Markdown.Check(r, c.html)
		if len(r.errs) != c.errs {
			t.Errorf("%s: %d errors %q, want %d", c.html, len(r.errs), r.errs, c.errs)
		}
	}
	r := &recorder{TB: t}
	Markdown.With([]string{"ref"}, []string{"dest"}).Check(r, `<ref dest="x">a</ref>`)
	if len(r.errs) != 0 {
		t.Errorf("With: %q", r.errs)
	}
}
