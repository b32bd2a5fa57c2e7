package searchshare

import (
	"strings"
	"testing"
)

func TestSearchRelTemplate(t *testing.T) {
	for _, c := range []struct {
		u, tag, tmpl string
		bare         bool
	}{
		{"../../en/events.html?rel=v1.29.6#e-BackOff", "v1.29.6", "../../en/events.html?rel=*#e-BackOff", false},
		{"../../src/a.go.html?rel=v1.29.6", "v1.29.6", "../../src/a.go.html?rel=*", false},
		// A link into a shared source page from the page's first
		// release has no ?rel=; rel=* goes where a link with one has it.
		{"../../src/a.go.html#L3-L9", "v1.37.2", "../../src/a.go.html?rel=*#L3-L9", true},
		{"../../src/a.go.html?lang=ko#L3", "v1.37.2", "../../src/a.go.html?rel=*&lang=ko#L3", true},
		{"walkthroughs/x.html#step-1", "v1.29.6", "walkthroughs/x.html?rel=*#step-1", true},
		// Another release's ?rel= is the URL's own.
		{"../../en/handlers.v1.31.14.html?rel=v1.30.14#h", "v1.30.14", "../../en/handlers.v1.31.14.html?rel=*#h", false},
		{"../../en/handlers.html?rel=v1.31.14#h", "v1.30.14", "../../en/handlers.html?rel=*&rel=v1.31.14#h", true},
		// What search.js could not tell from a template.
		{"../../src/rel=+.go.html", "v1", "", false},
		{"x.html?rel=v1%2B2", "v1+2", "", false},
	} {
		tmpl, bare := RelTemplate(c.u, c.tag)
		if tmpl != c.tmpl || bare != c.bare {
			t.Errorf("RelTemplate(%q, %q) = %q, %v; want %q, %v", c.u, c.tag, tmpl, bare, c.tmpl, c.bare)
		}
		if tmpl == "" {
			continue
		}
		// The site script writes rel=+ for an entry whose newest release
		// is bare, and search.js gives every release its URL back.
		plus := strings.Replace(tmpl, "rel=*", "rel=+", 1)
		if got := SiteURL(plus, c.tag, bare); got != c.u {
			t.Errorf("SiteURL(%q, %q, %v) = %q, want %q", plus, c.tag, bare, got, c.u)
		}
		if !bare {
			if got := SiteURL(tmpl, c.tag, false); got != c.u {
				t.Errorf("SiteURL(%q, %q) = %q, want %q", tmpl, c.tag, got, c.u)
			}
		}
	}
}
