package codehtml

import (
	"strings"
	"testing"
)

// Every class this package writes has a rule (on its element, for the
// classes written as one), light and dark where it has a colour.
func TestCSSCoversClasses(t *testing.T) {
	classes := []string{clsKeyword, clsString, clsComment, clsNumber}
	for _, c := range identClass {
		classes = append(classes, c[0], c[1])
	}
	for _, c := range chromaClasses {
		classes = append(classes, c)
	}
	// Classes the site uses inside a code block (templates/assets/site.css).
	siteClasses := map[string]bool{"l": true, "n": true, "mark": true, "gap": true, "hl": true, "src": true, "code": true, "gh": true}
	light, dark, _ := strings.Cut(CSS(), "@media (prefers-color-scheme:dark)")
	for _, c := range classes {
		if c == "" {
			continue
		}
		if siteClasses[c] {
			t.Errorf("class %q is one the site uses for its own markup", c)
		}
		sel := "." + Scope + " ." + c
		if t := tag(c); t != "" {
			sel = "." + Scope + " " + t
		}
		if !strings.Contains(light, sel+",") && !strings.Contains(light, sel+"{") {
			t.Errorf("no rule for class %q", c)
		}
		if i := strings.Index(light, sel); i >= 0 && strings.Contains(light[i:i+strings.IndexByte(light[i:], '}')], "color:#") &&
			!strings.Contains(dark, sel) {
			t.Errorf("class %q has a light colour but no dark rule", c)
		}
	}
}
